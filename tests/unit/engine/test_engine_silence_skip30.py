"""An approval whose silence skips its step (`on_timeout: skip`): the run goes on without it."""

from __future__ import annotations

import asyncio

from orchestrator.config import Settings
from orchestrator.engine import (
    ApprovalDecision,
    ApprovalRequest,
    RunStatus,
    StepStatus,
    create_run,
    execute_run,
)
from orchestrator.plan.model import InputBinding, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy
from orchestrator.testing import FakeClock, FakeRunner, fake_plan


def gated(on_timeout: str = "skip") -> list[PlanStep]:
    gate = ApprovalPolicy(timeout_s=7200, on_timeout=on_timeout)  # type: ignore[arg-type]
    return [
        PlanStep(id="forecast", name="Forecast", skill="s"),
        PlanStep(id="order", name="Order", skill="s", depends_on=("forecast",),
                 inputs={"margin": InputBinding(source="step", step="forecast", pointer="/margin")},
                 policy=StepPolicy(approval=gate)),
        PlanStep(id="log", name="Log", skill="s", depends_on=("forecast", "order"),
                 inputs={"margin": InputBinding(source="step", step="forecast", pointer="/margin"),
                         "ordered": InputBinding(source="step", step="order", pointer="/ordered", optional=True)}),
    ]


async def test_silence_found_at_resume_skips_the_step_and_the_run_goes_on(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    first = await execute_run(run_id, settings, runners={"script": FakeRunner({"forecast": [{"margin": -14}]})},
                              clock=clock)
    assert first.status is RunStatus.PAUSED
    clock.advance(7201)
    runner = FakeRunner({"log": [{"line": "ok"}]})
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("order").status is StepStatus.SKIPPED
    assert "no approval within 7200s" in summary.step("order").message
    assert [r.step_id for r in runner.requests] == ["log"]
    assert runner.requests[0].input == {"margin": -14}


async def test_silence_while_waiting_skips_the_step(execute, clock: FakeClock) -> None:
    async def silent(request: ApprovalRequest) -> ApprovalDecision:
        await asyncio.get_running_loop().create_future()  # never answers
        raise AssertionError("unreachable")

    runner = FakeRunner({"forecast": [{"margin": 5}]})
    summary = await execute(fake_plan(gated()), runner, approver=silent)
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("order").status is StepStatus.SKIPPED
    assert [r.step_id for r in runner.requests] == ["forecast", "log"]


async def test_a_reject_on_silence_still_fails_the_run(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated("reject")), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    clock.advance(7201)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.FAILED
