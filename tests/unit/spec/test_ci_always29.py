"""CI and playbook files: `always()` on a job that needs two or more is the join over them, `failure()` is a
condition on a failure (never run on success), and Ansible's `async:` + `poll: 0` starts the next task beside
the background one (`spec.ci_always29`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [skill("scan-shelf", input_schema=obj(), output_schema=obj(("gaps",), gaps="integer")),
           *[skill(n, input_schema=obj(), output_schema=obj(("memo",), memo="string")) for n in ("order-more", "note-ok")],
           skill("pin-memo", input_schema=obj(("memo",), memo="string"), output_schema=obj(("ok",), ok="boolean")),
           skill("page-owner", input_schema=obj(), output_schema=obj(("paged",), paged="boolean"))]

# a Gitea Actions file of a pharmacy's shelf check
_GITEA = """\
name: shelf-check
on: [workflow_dispatch]
jobs:
  scan:
    steps:
      - uses: skills/scan-shelf
  restock:
    needs: scan
    if: ${{ needs.scan.outputs.gaps > 0 }}
    steps:
      - uses: skills/order-more
  fine:
    needs: scan
    if: ${{ needs.scan.outputs.gaps == 0 }}
    steps:
      - uses: skills/note-ok
  pin:
    needs: [restock, fine]
    if: ${{ always() }}
    steps:
      - uses: skills/pin-memo
        with:
          memo: ${{ needs.restock.outputs.memo }}
"""


def _plan(text: str, name: str = "shelf.yml"):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, name, "yaml")
    return build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_always_on_a_job_needing_two_branches_is_their_join_not_a_warned_status() -> None:
    spec = parse_spec_text(_GITEA, "shelf.yml", "yaml")
    pin = next(s for s in spec.steps if s.id == "pin")
    assert pin.join == "any" and pin.when is None
    assert any(r.what == "join" and "always()" in r.note for r in pin.readings)
    assert not [w for w in spec.warnings if w.line == 19]


def test_always_and_a_condition_is_the_join_with_that_condition() -> None:
    text = _GITEA.replace("if: ${{ always() }}", "if: ${{ always() && inputs.pin }}")
    pin = next(s for s in parse_spec_text(text, "shelf.yml", "yaml").steps if s.id == "pin")
    assert pin.join == "any" and pin.when is not None and "inputs.pin" in pin.when


# a GitHub Actions file of a band's release: `always()` after one job, `failure()` on another
_RELEASE = """\
name: release
on: push
jobs:
  scan:
    steps:
      - uses: skills/scan-shelf
  memo:
    needs: scan
    if: always()
    steps:
      - uses: skills/note-ok
  page:
    needs: scan
    if: failure()
    steps:
      - uses: skills/page-owner
"""


def test_always_after_one_job_is_no_join_and_is_said() -> None:
    spec = parse_spec_text(_RELEASE, "release.yml", "yaml")
    memo = next(s for s in spec.steps if s.id == "memo")
    assert memo.join == "all" and memo.when is None
    assert any(w.line == 9 and "always()" in w.message and "failure" in w.message for w in spec.warnings)


def test_failure_is_a_condition_on_a_failure_never_run_on_success() -> None:
    spec = parse_spec_text(_RELEASE, "release.yml", "yaml")
    page = next(s for s in spec.steps if s.id == "page")
    assert page.when == "false" and page.join == "all"  # never run always, nor on success
    assert any(w.line == 14 and "failed" in w.message and "fallback" in w.message for w in spec.warnings)
    both = _RELEASE.replace("if: failure()", "if: ${{ failure() && inputs.loud }}")
    page = next(s for s in parse_spec_text(both, "release.yml", "yaml").steps if s.id == "page")
    assert page.when == "false"


def test_success_and_plain_conditions_are_read_as_before() -> None:
    text = _RELEASE.replace("if: failure()", "if: success() && inputs.loud")
    page = next(s for s in parse_spec_text(text, "release.yml", "yaml").steps if s.id == "page")
    assert page.when is not None and "inputs.loud" in page.when and "false" not in page.when


# an Ansible role of a bakery's night shift: the oven preheats in the background
_BAKERY = """\
- name: night shift
  hosts: bakery
  tasks:
    - name: preheat
      skill: scan-shelf
      register: oven
      async: 1200
      poll: 0
    - name: proof the dough
      skill: note-ok
      register: dough
    - name: pin the board
      skill: pin-memo
      args: {memo: "{{ dough.memo }}"}
    - name: call the baker
      skill: page-owner
      async: 60
      poll: 5
"""


def _bakery():  # type: ignore[no-untyped-def]
    names = frozenset(s.name for s in _SKILLS)
    return parse_spec_text(_BAKERY, "night.yml", "yaml", Vocabulary(skills=names))


def test_a_background_task_starts_the_next_beside_it_and_its_async_is_its_timeout() -> None:
    spec = _bakery()
    oven, dough, _pin, call = spec.steps
    assert dough.starts_with == oven.id and oven.timeout_s == 1200.0
    assert "async_background" not in oven.extra and "async" not in oven.extra
    assert not [w for w in spec.warnings if w.line in (7, 8, 16, 17)]  # neither "not understood" nor a policy
    assert call.timeout_s == 60.0 and call.starts_with is None  # poll 5: it waits; only the limit read


def test_a_background_task_with_nothing_after_it_is_said() -> None:
    text = "name: pot\nsteps:\n  - id: brew\n    skill: note-ok\n    async: 30\n    poll: 0\n"
    spec = parse_spec_text(text, "pot.yml", "yaml")
    assert any("no task comes after it" in w.message for w in spec.warnings)


def test_an_async_word_that_is_no_number_is_left_as_it_was() -> None:
    text = ("name: pot\nsteps:\n  - id: brew\n    skill: note-ok\n    async: yes please\n"
            "  - id: pour\n    skill: pin-memo\n")
    spec = parse_spec_text(text, "pot.yml", "yaml")
    assert spec.steps[1].starts_with is None
    assert any("async" in w.message for w in spec.warnings)  # still said not understood
