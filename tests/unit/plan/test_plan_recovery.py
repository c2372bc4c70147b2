"""Step policies merged from bullets, the Error Recovery table, Convergence Criteria and defaults."""

from __future__ import annotations

from plan_factory import at, skill, step, workflow

from orchestrator.plan.recovery import plan_limits, step_policy
from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    Limits,
    RecoveryRule,
    RetryPolicy,
)
from orchestrator.spec.model import ConvergenceSpec, RecoveryRowSpec

BACKOFF = RetryPolicy(max_retries=3, delays_s=(1, 2, 4), jitter=False)
EMPTY = Fallback(action=FallbackAction.DEFAULT)


def row(line: int, on: ErrorClass | str, *, step_id: str = "step-1", **kw: object) -> RecoveryRowSpec:
    timeout = kw.pop("timeout_s", None)
    feedback_to = kw.pop("feedback_to", None)
    rule = RecoveryRule(on=on, failure=f"row {line}", where=at(line), **kw)  # type: ignore[arg-type]
    return RecoveryRowSpec(step=step_id, rule=rule, timeout_s=timeout, feedback_to=feedback_to, where=at(line))  # type: ignore[arg-type]


def test_the_transient_row_gives_the_step_retry_and_its_line() -> None:
    spec = workflow(step(1, "Fetch", "x"), recovery=(row(90, ErrorClass.TIMEOUT, retry=BACKOFF, fallback=EMPTY),))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.retry == BACKOFF
    assert draft.provenance["policy.retry"].where == at(90)


def test_a_convergence_count_sets_the_number_of_retries_and_keeps_the_waits() -> None:
    conv = ConvergenceSpec(step_retries={"step-1": 5}, where={"step-1.retries": at(80)})
    spec = workflow(step(1, "Fetch", "x"), convergence=conv,
                    recovery=(row(90, ErrorClass.TRANSIENT, retry=BACKOFF),))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.retry.max_retries == 5
    assert draft.policy.retry.delays_s == (1, 2, 4)
    assert at(80) in draft.provenance["policy.retry"].note


def test_a_retries_bullet_beats_the_table_and_the_workflow_default() -> None:
    spec = workflow(step(1, "Fetch", "x", retries=2), recovery=(row(90, ErrorClass.TRANSIENT, retry=BACKOFF),),
                    retry=RetryPolicy(max_retries=7))
    assert step_policy(spec.steps[0], spec, None).policy.retry.max_retries == 2


def test_the_workflow_retry_applies_when_nothing_else_states_one() -> None:
    spec = workflow(step(1, "Fetch", "x"), retry=RetryPolicy(max_retries=2))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.retry.max_retries == 2
    assert draft.provenance["policy.retry"].note == "workflow retry"
    cited = workflow(step(1, "Fetch", "x"), retry=RetryPolicy(max_retries=2), retry_where="flow.yaml:4")
    assert step_policy(cited.steps[0], cited, None).provenance["policy.retry"].where == "flow.yaml:4"


def test_attempt_timeout_comes_from_bullet_then_convergence_then_row_then_skill() -> None:
    slow = skill("slow", timeout_s=45)
    conv = ConvergenceSpec(step_timeouts_s={"step-1": 10}, where={"step-1.timeout": at(81)})
    rows = (row(90, ErrorClass.TIMEOUT, timeout_s=30),)
    cases = [
        (workflow(step(1, "A", "x", timeout_s=5), convergence=conv, recovery=rows), 5, "spec"),
        (workflow(step(1, "A", "x"), convergence=conv, recovery=rows), 10, "spec"),
        (workflow(step(1, "A", "x"), recovery=rows), 30, "spec"),
        (workflow(step(1, "A", "x")), 45, "skill"),
    ]
    for spec, expected, source in cases:
        draft = step_policy(spec.steps[0], spec, slow)
        assert draft.policy.attempt_timeout_s == expected
        assert draft.provenance["policy.attempt_timeout_s"].source == source
    assert step_policy(workflow(step(1, "A", "x")).steps[0], workflow(step(1, "A", "x")), None).policy.attempt_timeout_s is None


def test_regenerations_come_from_the_code_error_row() -> None:
    spec = workflow(step(1, "A", "x"), recovery=(
        row(97, ErrorClass.INVALID_INPUT, fallback=Fallback(action=FallbackAction.FAIL)),
        row(98, ErrorClass.CODE_ERROR, regenerate=1, fallback=Fallback(action=FallbackAction.ESCALATE)),
    ))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.regenerations == 1
    assert draft.provenance["policy.regenerations"].where == at(98)
    # the rows disagree on the fallback: the step default stays FAIL
    assert draft.policy.fallback.action is FallbackAction.FAIL
    assert draft.provenance["policy.fallback"].source == "default"


def test_a_fallback_every_row_agrees_on_is_the_step_default() -> None:
    spec = workflow(step(1, "A", "x"), recovery=(
        row(94, ErrorClass.TIMEOUT, retry=BACKOFF, fallback=EMPTY),
        row(95, ErrorClass.INVALID_INPUT, fallback=EMPTY),
    ))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.fallback == EMPTY
    assert draft.policy.on_error == "fail"
    assert "94, 95" in draft.provenance["policy.fallback"].note


def test_on_error_continue_sets_fallback_and_on_error() -> None:
    spec = workflow(step(1, "notify", "x", on_error="continue"))
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.on_error == "continue"
    assert draft.policy.fallback.action is FallbackAction.CONTINUE


def test_feedback_takes_its_target_from_the_row_and_its_bound_from_convergence() -> None:
    conv = ConvergenceSpec(feedback={"step-2": ("step-1", 2)}, where={"step-2.feedback": at(88)})
    spec = workflow(step(1, "Gen", "x"), step(2, "Check", "y"), convergence=conv,
                    recovery=(row(102, ErrorClass.CODE_ERROR, step_id="step-2", feedback_to="step-1"),))
    draft = step_policy(spec.steps[1], spec, None)
    assert draft.policy.feedback is not None
    assert (draft.policy.feedback.target_step, draft.policy.feedback.max_attempts) == ("step-1", 2)
    assert draft.provenance["policy.feedback"].where == at(102)


def test_unrecoverable_classes_from_convergence_are_never_retried() -> None:
    conv = ConvergenceSpec(step_unrecoverable={"step-1": ErrorClass.INVALID_INPUT},
                           where={"step-1.unrecoverable": at(86)})
    spec = workflow(step(1, "A", "x"), convergence=conv)
    draft = step_policy(spec.steps[0], spec, None)
    assert draft.policy.non_retryable == (ErrorClass.INVALID_INPUT,)
    assert draft.provenance["policy.non_retryable"].where == at(86)


def test_limits_carry_where_they_were_stated_or_default() -> None:
    conv = ConvergenceSpec(limits=Limits(max_total_attempts=20), limit_where={"max_total_attempts": at(83)})
    limits, prov = plan_limits(workflow(step(1, "A", "x"), convergence=conv, timeout_s=600))
    assert (limits.max_total_attempts, limits.wall_time_s) == (20, 600)
    assert prov["max_total_attempts"].where == at(83)
    assert prov["wall_time_s"].note == "workflow timeout"
    assert prov["max_attempts_per_step"].source == "default"
