"""A YAML step's "when this fails" block, whatever the author calls it, is its fallback.

Specs below are a support desk's macro export, a status-page automation, a homegrown runbook
and a plain `steps:` file, each written the way their owner would, not to suit the reader.
"""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.policy import FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


def _parse(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.yaml", "yaml", Vocabulary.of([(s, None) for s in skills]))


def _fallbacks(spec: WorkflowSpec) -> dict[str, tuple[FallbackAction, str | None, int | None]]:
    out = {}
    for row in spec.recovery:
        if row.rule.fallback is not None:
            line = int(row.where.rpartition(":")[2])
            out[row.step] = (row.rule.fallback.action, row.rule.fallback.skill, line)
    return out


def _warned(spec: WorkflowSpec, words: str) -> list[int | None]:
    return [w.line for w in spec.warnings if words in w.message]


MACRO = """\
macro: "Refund reply (DE)"
owner: support-tooling
actions:
  - title: draft the reply
    run: draft-reply
  - title: translate it
    run: translate-reply
    if_it_breaks:
      use: machine-translate-lite
  - title: post it on the ticket
    run: post-comment
"""


def test_a_macro_action_s_block_named_in_its_own_words_is_the_fallback_skill() -> None:
    spec = _parse(MACRO, "draft-reply", "translate-reply", "machine-translate-lite", "post-comment")
    assert [s.skill for s in spec.steps] == ["draft-reply", "translate-reply", "post-comment"]
    assert _fallbacks(spec) == {"translate-it": (FallbackAction.SKILL, "machine-translate-lite", 9)}
    readings = [r.note for r in spec.steps[1].readings]
    assert any("the skill `machine-translate-lite` instead" in n for n in readings)


STATUS_PAGE = """\
automations:
  incident-opened:
    - do: publish-status
      with: {component: api}
      except:
        - tweet-status
    - do: page-owner
      plan_b: {skill: email-owner, args: {to: owner@example.com}}
"""


def test_a_status_automation_s_except_list_and_plan_b_mapping_are_fallbacks_and_its_args_are_warned() -> None:
    spec = _parse(STATUS_PAGE, "publish-status", "tweet-status", "page-owner", "email-owner")
    assert [s.skill for s in spec.steps] == ["publish-status", "page-owner"]
    found = _fallbacks(spec)
    assert [(a, s) for a, s, _ in found.values()] == [(FallbackAction.SKILL, "tweet-status"),
                                                      (FallbackAction.SKILL, "email-owner")]
    assert _warned(spec, "plan_b.args not understood (a fallback skill runs with the step's own inputs)") == [8]


RUNBOOK = """\
runbook: rotate the reporting DB password
procedure:
  - name: new password
    make-secret: {length: 32}
  - name: store it
    vault-write: {path: db/reporting}
    when_vault_fails:
      - name: keep it in the backup store
        backup-store-write: {}
      - name: and ping
        page-oncall: {}
"""


def test_a_runbook_block_whose_words_say_failure_is_read_by_the_skill_it_names_and_extra_entries_are_warned() -> None:
    spec = _parse(RUNBOOK, "make-secret", "vault-write", "backup-store-write", "page-oncall")
    assert [s.skill for s in spec.steps] == ["make-secret", "vault-write"]
    assert [(a, s) for a, s, _ in _fallbacks(spec).values()] == [(FallbackAction.SKILL, "backup-store-write")]
    assert _warned(spec, "when_vault_fails: a step has one fallback; only the first entry") == [10]


PLAIN = """\
steps:
  - id: geocode
    skill: geocode-address
    rescue:
      - skill: geocode-lite
  - id: plot
    skill: plot-map
    on_failure: {use: plot-static}
"""


def test_the_form_s_own_steps_take_a_rescue_list_and_an_on_failure_use_block_as_fallbacks() -> None:
    spec = _parse(PLAIN, "geocode-address", "geocode-lite", "plot-map", "plot-static")
    assert _fallbacks(spec) == {"geocode": (FallbackAction.SKILL, "geocode-lite", 5),
                                "plot": (FallbackAction.SKILL, "plot-static", 8)}
    assert not [w for w in spec.warnings if "not understood" in w.message]


TWO_DOERS = """\
jobs:
  - name: shrink images
    run: resize-images
    call: compress-images
"""


def test_two_skills_named_by_keys_that_run_one_stay_an_error_that_says_how_to_write_a_fallback() -> None:
    with pytest.raises(SpecError) as err:
        _parse("pipeline:\n" + TWO_DOERS.partition("\n")[2], "resize-images", "compress-images")
    message = str(err.value)
    assert "`resize-images` (run:), `compress-images` (call:)" in message
    assert "`fallback: {skill: NAME}`" in message


def test_a_key_about_failures_that_is_a_count_is_not_a_fallback_block() -> None:
    spec = _parse("flow:\n  - name: a\n    run: fetch-feed\n    max_failures: 3\n", "fetch-feed")
    assert _fallbacks(spec) == {}
    assert _warned(spec, "max_failures") == [4]


def test_steps_grouped_under_sibling_phases_are_read_together_in_document_order() -> None:
    text = """\
incident_playbook:
  stages:
    triage:
      actions:
        - {title: collect logs, run: collect-logs}
    fix:
      actions:
        - {title: restart, run: restart-service}
        - {title: verify, run: check-health}
"""
    spec = _parse(text, "collect-logs", "restart-service", "check-health")
    assert [s.skill for s in spec.steps] == ["collect-logs", "restart-service", "check-health"]
    assert _warned(spec, "steps read from `stages.*.actions` (3 of 3 items") == [2]
