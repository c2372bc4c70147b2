"""A fallback written for the failure the author pictures ("if the feed is down", "should it crash")
is the step's own fallback, for every failure, when nothing else says the step's fallback
(`plan.outage_fallback`). Each spec is written the way a ship's log, a recipe card, a podcast run
sheet, an HR onboarding checklist, a lab protocol or a YAML file would say it; none is a blind set's."""

from __future__ import annotations

import pytest

from orchestrator.plan.recovery import step_policy
from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text


def _spec(body: str, kind: str = "markdown") -> WorkflowSpec:
    return parse_spec_text(body, "flow.yaml" if kind == "yaml" else "flow.md", kind)


def _md(sentence: str) -> str:
    return f"# Flow\n\n## Workflow Steps\n\n### Step 1: Read the thing\n- Skill: `read-thing`\n\n{sentence}\n"


@pytest.mark.parametrize(("sentence", "action", "value"), [
    # a ship's log
    ("If the tide gauge is unreachable, log the watch anyway with tide_m set to null and carry on.",
     FallbackAction.DEFAULT, {"tide_m": None}),
    # a recipe card
    ("If the oven thermometer app is down, proceed using 180 as oven_c.", FallbackAction.DEFAULT, {"oven_c": 180}),
    # a podcast run sheet
    ("Should the chapter-marker tool crash, carry on without it.", FallbackAction.CONTINUE, None),
    # an HR onboarding checklist
    ("If the badge printer crashes, use the `badge-manual` skill instead.", FallbackAction.SKILL, None),
])
def test_a_fallback_for_the_pictured_failure_is_the_step_s_own_for_every_failure(sentence: str, action: FallbackAction,
                                                                                   value: object) -> None:
    spec = _spec(_md(sentence))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.fallback.action is action
    if value is not None:
        assert draft.policy.fallback.value == value
    assert "every failure" in draft.provenance["policy.fallback"].note


def test_a_lab_protocol_s_yaml_step_with_an_outage_fallback_gets_it_for_every_failure() -> None:
    body = ("steps:\n  - id: weigh\n    skill: read-balance\n"
            "    notes: If the balance is unreachable, carry on with mass_g set to null.\n")
    spec = _spec(body, "yaml")
    policy = step_policy(spec.steps[0], spec, None).policy
    assert policy.fallback.value == {"mass_g": None}


@pytest.mark.parametrize("sentence", [
    # a class named on purpose stays a rule for that class
    "If the tide gauge answers 503, carry on with tide_m set to null.",
    "On a network error from the oven app, proceed using 180 as oven_c.",
    # a retry beside it: for the failures it names
    "If the badge printer is down, retry 3 times, then use the `badge-manual` skill instead.",
])
def test_a_fallback_for_a_named_class_or_beside_a_retry_stays_a_rule_for_that_class(sentence: str) -> None:
    spec = _spec(_md(sentence))
    policy = step_policy(spec.steps[0], spec, None).policy
    assert policy.fallback.action is FallbackAction.FAIL
    assert policy.rules and policy.rules[0].on in (ErrorClass.TRANSIENT, ErrorClass.CODE_ERROR)


def test_another_fallback_written_for_the_step_keeps_the_outage_one_a_rule() -> None:
    spec = _spec(_md("If the mirror is down, fall back to `backup-mirror`.\nIf nothing works, page the on-call (#ops)."))
    policy = step_policy(spec.steps[0], spec, None).policy
    assert policy.fallback.action is FallbackAction.ESCALATE
    assert any(r.on is ErrorClass.TRANSIENT and r.fallback and r.fallback.skill == "backup-mirror" for r in policy.rules)
