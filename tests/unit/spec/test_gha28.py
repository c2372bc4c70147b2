"""CI workflow files (GitHub / Forgejo / Gitea Actions): `${{ a.x || b.x }}` is the value of whichever job
ran, and a top-level `timeout-minutes` is the whole run's limit (`spec.gha28`)."""

from __future__ import annotations

from yaml.nodes import ScalarNode

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.gha28 import run_limit_node, whichever_ran
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [skill("check-stock", input_schema=obj(), output_schema=obj(("low",), low="boolean")),
           *[skill(n, input_schema=obj(), output_schema=obj(("note",), note="string")) for n in ("reorder", "all-good")],
           skill("post-note", input_schema=obj(("note",), note="string"), output_schema=obj(("ok",), ok="boolean"))]

# a Forgejo Actions file of a bakery's stock bot
_FORGEJO = """\
name: stock-bot
on:
  workflow_dispatch:
    inputs:
      shop:
        description: which shop
        required: true
timeout-minutes: 20
jobs:
  check:
    steps:
      - uses: skills/check-stock
        with: {shop: "${{ inputs.shop }}"}
  order:
    needs: check
    if: ${{ needs.check.outputs.low }}
    steps:
      - uses: skills/reorder
  fine:
    needs: check
    if: ${{ !needs.check.outputs.low }}
    steps:
      - uses: skills/all-good
  tell:
    needs: [order, fine]
    if: always()
    steps:
      - uses: skills/post-note
        with:
          note: ${{ needs.order.outputs.note || needs.fine.outputs.note }}
"""


def test_a_forgejo_join_of_two_jobs_outputs_is_whichever_ran_and_the_top_timeout_the_run_s_limit() -> None:
    plan = build_plan(parse_spec_text(_FORGEJO, "stock.yml", "yaml"), FakeCatalog(*_SKILLS),  # type: ignore[arg-type]
                      settings=SETTINGS)
    tell = next(s for s in plan.steps if s.id == "tell")
    binding = tell.inputs["note"]
    assert set(binding.any_of) == {"order", "fine"}
    assert plan.limits.wall_time_s == 1200.0
    assert not [w for w in plan.warnings if w.line == 8]  # `timeout-minutes` is read, not "not understood"


def test_whichever_ran_reads_github_gitea_and_jinja_spellings() -> None:
    ids = {"draft", "redo", "sign", "skip"}
    assert whichever_ran("${{ needs.draft.outputs.text || needs.redo.outputs.text }}", ids) == "draft.text or redo.text"
    assert whichever_ran("{{ steps.sign.output.who or steps.skip.output.who }}", ids) == "sign.who or skip.who"
    assert whichever_ran("${{ steps.draft.outputs.a || steps.redo.outputs.b || steps.sign.outputs.c }}",
                         ids) == "draft.a or redo.b or sign.c"


def test_an_or_with_a_literal_an_input_or_one_step_twice_is_no_join() -> None:
    ids = {"draft", "redo"}
    assert whichever_ran("${{ needs.draft.outputs.text || 'none' }}", ids) is None
    assert whichever_ran("${{ inputs.text || needs.draft.outputs.text }}", ids) is None
    assert whichever_ran("${{ needs.draft.outputs.a || needs.draft.outputs.b }}", ids) is None
    assert whichever_ran("${{ needs.draft.outputs.text }}", ids) is None
    assert whichever_ran("${{ needs.gone.outputs.x || needs.draft.outputs.x }}", ids) is None
    assert whichever_ran("draft.text, or redo.text when it ran", ids) is None


def _node(value: str) -> ScalarNode:
    return ScalarNode("tag:yaml.org,2002:int", value)


def test_a_top_level_timeout_in_its_key_s_unit_is_seconds_and_other_keys_are_not() -> None:
    assert run_limit_node("timeout-minutes", _node("30")).value == "1800s"  # type: ignore[union-attr]
    assert run_limit_node("timeout_hours", _node("2")).value == "7200s"  # type: ignore[union-attr]
    assert run_limit_node("timeout-minutes", _node("soon")) is None
    assert run_limit_node("timeout-minutes", _node("0")) is None
    assert run_limit_node("minutes", _node("30")) is None
    assert run_limit_node("retry-minutes", _node("30")) is None


def test_a_job_s_own_timeout_minutes_stays_that_job_s() -> None:
    text = _FORGEJO.replace("timeout-minutes: 20\n", "").replace("  check:\n", "  check:\n    timeout-minutes: 4\n")
    plan = build_plan(parse_spec_text(text, "stock.yml", "yaml"), FakeCatalog(*_SKILLS),  # type: ignore[arg-type]
                      settings=SETTINGS)
    assert plan.steps[0].policy.attempt_timeout_s == 240.0
    assert plan.limits_provenance["wall_time_s"].source == "default"
