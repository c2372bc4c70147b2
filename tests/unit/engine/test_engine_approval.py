"""Approval gates: pause durably, decide from anywhere, time out into the plan's policy."""

from __future__ import annotations

import asyncio

import pytest

from orchestrator.config import Settings
from orchestrator.engine import (
    ApprovalDecision,
    ApprovalRequest,
    RunStatus,
    StepStatus,
    approve_step,
    create_run,
    execute_run,
)
from orchestrator.errors import NotFoundError, UserError
from orchestrator.plan.model import InputBinding, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy, Fallback, FallbackAction
from orchestrator.testing import FakeClock, FakeRunner, fake_plan


def gated(timeout_s: float | None = None, on_timeout: str = "reject", **policy: object) -> list[PlanStep]:
    gate = ApprovalPolicy(timeout_s=timeout_s, on_timeout=on_timeout)  # type: ignore[arg-type]
    return [
        PlanStep(id="draft", name="Draft", skill="s"),
        PlanStep(
            id="publish",
            name="Publish",
            skill="s",
            inputs={"text": InputBinding(source="step", step="draft", pointer="/text")},
            policy=StepPolicy(approval=gate, **policy),  # type: ignore[arg-type]
        ),
        PlanStep(id="notify", name="Notify", skill="s", depends_on=("publish",)),
        PlanStep(id="index", name="Index", skill="s"),
    ]


async def test_without_an_approver_the_run_pauses_after_everything_else_that_can_run(
    settings: Settings, clock: FakeClock
) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    runner = FakeRunner({"draft": [{"text": "hello"}]})
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert summary.status is RunStatus.PAUSED
    assert summary.awaiting == ("publish",)
    assert summary.step("publish").status is StepStatus.AWAITING_APPROVAL
    assert summary.step("publish").approval == "requested"
    assert sorted(r.step_id for r in runner.requests) == ["draft", "index"]


async def test_approve_then_resume_runs_the_gated_step_and_not_the_finished_ones(
    settings: Settings, clock: FakeClock
) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner({"draft": [{"text": "hi"}]})}, clock=clock)
    approve_step(run_id, "publish", settings, comment="ship it", by="ana")
    runner = FakeRunner()
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED
    assert [r.step_id for r in runner.requests] == ["publish", "notify"]
    assert runner.requests[0].input == {"text": "hi"}
    assert summary.step("publish").approval == "approved"


async def test_a_rejection_fails_the_step_with_its_fallback(settings: Settings, clock: FakeClock) -> None:
    plan = fake_plan(gated(fallback=Fallback(action=FallbackAction.CONTINUE)))
    run_id = create_run(plan, {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    approve_step(run_id, "publish", settings, reject=True, comment="wrong audience")
    runner = FakeRunner()
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert summary.status is RunStatus.DEGRADED  # the rejection's fallback stood in
    assert summary.step("publish").status is StepStatus.CONTINUED
    assert "wrong audience" in summary.step("publish").message
    assert summary.step("notify").status is StepStatus.SUCCEEDED  # ordering only: it needs no output
    assert runner.requests[0].step_id == "notify"


async def test_a_rejection_with_the_default_fallback_fails_the_run(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    approve_step(run_id, "publish", settings, reject=True)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.FAILED
    assert summary.error is not None and summary.error.where == "publish"


async def test_an_approver_is_asked_with_the_step_s_input(execute) -> None:
    asked: list[ApprovalRequest] = []

    async def approver(request: ApprovalRequest) -> ApprovalDecision:
        asked.append(request)
        return ApprovalDecision(approved=True, by="host")

    summary = await execute(fake_plan(gated()), FakeRunner({"draft": [{"text": "hi"}]}), approver=approver)
    assert summary.status is RunStatus.SUCCEEDED
    assert [(a.step_id, a.input) for a in asked] == [("publish", {"text": "hi"})]


async def test_an_approver_with_no_answer_pauses_the_run(execute) -> None:
    async def approver(request: ApprovalRequest) -> None:
        return None

    summary = await execute(fake_plan(gated()), FakeRunner(), approver=approver)
    assert summary.status is RunStatus.PAUSED


async def test_a_gate_s_timeout_decides_while_the_approver_is_silent(execute, clock: FakeClock) -> None:
    async def silent(request: ApprovalRequest) -> ApprovalDecision:
        await asyncio.get_running_loop().create_future()  # never answers
        raise AssertionError("unreachable")

    runner = FakeRunner({"draft": [{"text": "hi"}]})
    summary = await execute(fake_plan(gated(timeout_s=3600, on_timeout="approve")), runner, approver=silent)
    assert summary.status is RunStatus.SUCCEEDED  # the wait at the gate does not count as wall time
    assert 3600 in clock.slept
    assert clock.elapsed == 3600
    assert summary.step("publish").approval == "approved"


async def test_a_timeout_found_at_resume_applies_the_gate_s_policy(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated(timeout_s=60, on_timeout="reject")), {}, settings)
    first = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert first.status is RunStatus.PAUSED
    clock.advance(61)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.FAILED
    assert "no decision within 60s" in summary.step("publish").message


async def test_before_its_timeout_a_resumed_gate_still_waits(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated(timeout_s=60)), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    clock.advance(30)
    again = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert again.status is RunStatus.PAUSED


async def test_a_decision_after_the_gate_s_timeout_is_refused_and_the_policy_decides(
    settings: Settings, clock: FakeClock
) -> None:
    run_id = create_run(fake_plan(gated(timeout_s=60, on_timeout="reject")), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    clock.advance(61)
    with pytest.raises(UserError, match=r"approval timed out .*its policy decides \(reject\)"):
        approve_step(run_id, "publish", settings, clock=clock)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.FAILED
    assert "no decision within 60s" in summary.step("publish").message


async def test_a_decision_before_the_gate_s_timeout_is_recorded(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated(timeout_s=60, on_timeout="reject")), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner({"draft": [{"text": "hi"}]})}, clock=clock)
    clock.advance(59)
    approve_step(run_id, "publish", settings, clock=clock)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED


async def test_deciding_a_step_that_is_not_waiting_is_refused(settings: Settings, clock: FakeClock) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    with pytest.raises(UserError, match="not awaiting approval"):
        approve_step(run_id, "publish", settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    with pytest.raises(UserError, match=r"draft is not awaiting approval \(awaiting: publish\)"):
        approve_step(run_id, "draft", settings)
    with pytest.raises(NotFoundError, match="no step 'nope'"):
        approve_step(run_id, "nope", settings)
    approve_step(run_id, "publish", settings)
    with pytest.raises(UserError, match="not awaiting"):
        approve_step(run_id, "publish", settings)  # decided already


async def test_a_waiting_gate_sees_a_decision_recorded_by_another_process(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.engine import approval, clock

    monkeypatch.setattr(approval, "POLL_S", 0.01)
    requested = asyncio.Event()

    async def silent(request: ApprovalRequest) -> ApprovalDecision:
        requested.set()
        await asyncio.get_running_loop().create_future()  # the host never answers
        raise AssertionError("unreachable")

    run_id = create_run(fake_plan(gated()), {}, settings)
    runner = FakeRunner({"draft": [{"text": "hi"}]})
    run = asyncio.ensure_future(
        execute_run(run_id, settings, runners={"script": runner}, approver=silent, clock=clock.SystemClock())
    )
    async with asyncio.timeout(10):
        await requested.wait()
        approve_step(run_id, "publish", settings, comment="from a shell")
        summary = await run
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("publish").approval == "approved"


async def test_the_wait_for_a_decision_and_for_the_resume_is_not_queue_delay(
    settings: Settings, clock: FakeClock
) -> None:
    run_id = create_run(fake_plan(gated()), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner({"draft": [{"text": "hi"}]})}, clock=clock)
    clock.advance(16)  # a person reads the draft
    approve_step(run_id, "publish", settings, clock=clock)
    clock.advance(30)  # and resumes the run later
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("publish").queue_delay_s == 0.0
    assert summary.step("notify").queue_delay_s == 0.0
