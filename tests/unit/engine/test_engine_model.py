"""Run summaries: steps a finished run left unfinished say so (not_run, cancelled)."""

from __future__ import annotations

import pytest

from orchestrator.engine import RunStatus, RunSummary, StepStatus, StepSummary, get_run
from orchestrator.plan.model import PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy, ErrorClass
from orchestrator.testing import Fail, FakeRunner, Hang, fake_plan


def chain() -> list[PlanStep]:
    return [
        PlanStep(id="a", name="A", skill="s"),
        PlanStep(id="b", name="B", skill="s", depends_on=("a",)),
        PlanStep(id="c", name="C", skill="s", depends_on=("b",)),
    ]


async def test_steps_never_reached_after_a_failure_are_not_run(execute, settings) -> None:
    runner = FakeRunner({"a": [Fail(ErrorClass.UNRECOVERABLE, "boom")]})
    summary = await execute(fake_plan(chain()), runner)

    assert summary.status is RunStatus.ESCALATED
    assert [s.status for s in summary.steps] == [StepStatus.ESCALATED, StepStatus.NOT_RUN, StepStatus.NOT_RUN]
    assert [s.status for s in get_run(summary.run_id, settings).steps] == [  # replayed from the journal alike
        StepStatus.ESCALATED, StepStatus.NOT_RUN, StepStatus.NOT_RUN,
    ]  # fmt: skip


async def test_a_step_running_when_a_sibling_fails_the_run_is_cancelled(execute) -> None:
    steps = [PlanStep(id="slow", name="Slow", skill="s"), PlanStep(id="bad", name="Bad", skill="s")]
    runner = FakeRunner({"slow": [Hang()], "bad": [Fail(ErrorClass.UNRECOVERABLE, "boom")]})
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.ESCALATED
    assert summary.step("slow").status is StepStatus.CANCELLED


async def test_a_paused_run_keeps_its_steps_pending(execute) -> None:
    steps = chain()
    steps[1] = steps[1].model_copy(update={"policy": StepPolicy(approval=ApprovalPolicy())})
    summary = await execute(fake_plan(steps), FakeRunner())
    assert summary.status is RunStatus.PAUSED
    assert [s.status for s in summary.steps] == [
        StepStatus.SUCCEEDED, StepStatus.AWAITING_APPROVAL, StepStatus.PENDING,
    ]  # fmt: skip


@pytest.mark.parametrize("status", [RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.ESCALATED])
def test_a_summary_read_back_from_json_keeps_the_settled_statuses(status: RunStatus) -> None:
    summary = RunSummary(
        run_id="r", plan_name="p", plan_sha256="x", status=status, created_at=0.0,
        steps=(StepSummary(step_id="a", name="A", skill="s", status=StepStatus.READY),),
    )  # fmt: skip
    again = RunSummary.model_validate_json(summary.model_dump_json())
    assert again.steps[0].status is StepStatus.NOT_RUN
    assert again == summary
