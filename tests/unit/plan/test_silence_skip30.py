"""`plan.silence_skip30`: a step its approval's silence skips may not run; a later step that requires
its output is reported at plan time."""

from __future__ import annotations

from orchestrator.plan.flow_checks import check_flow
from orchestrator.plan.model import InputBinding, PlanStep, StepPolicy
from orchestrator.plan.silence_skip30 import silence_skip_why
from orchestrator.policy import ApprovalPolicy
from orchestrator.testing import fake_plan


def _steps(on_timeout: str, optional: bool) -> list[PlanStep]:
    gate = ApprovalPolicy(timeout_s=1800, on_timeout=on_timeout)  # type: ignore[arg-type]
    return [
        PlanStep(id="count", name="Count", skill="s"),
        PlanStep(id="reorder", name="Reorder", skill="s", depends_on=("count",), policy=StepPolicy(approval=gate)),
        PlanStep(id="note", name="Note", skill="s", depends_on=("count", "reorder"),
                 inputs={"ordered": InputBinding(source="step", step="reorder", pointer="/ordered", optional=optional)}),
    ]


def _reported(steps: list[PlanStep]) -> list[str]:
    found: list[str] = []
    check_flow(fake_plan(steps), lambda consumer, name, message: found.append(message), lambda schema, value: None)
    return found


def test_a_required_output_of_a_step_silence_skips_is_reported() -> None:
    messages = _reported(_steps("skip", optional=False))
    assert len(messages) == 1
    assert "nobody approves it within 1800s" in messages[0] and "`ordered`" in messages[0]


def test_an_optional_input_or_a_reject_on_silence_is_not_reported() -> None:
    assert _reported(_steps("skip", optional=True)) == []
    assert _reported(_steps("reject", optional=False)) == []


def test_why_only_for_a_gate_that_times_out_into_skip() -> None:
    steps = _steps("skip", optional=True)
    assert silence_skip_why(steps[1]) is not None
    assert silence_skip_why(steps[0]) is None
    untimed = steps[1].model_copy(update={"policy": StepPolicy(approval=ApprovalPolicy(on_timeout="skip"))})
    assert silence_skip_why(untimed) is None
