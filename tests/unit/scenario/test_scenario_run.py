"""Scenarios as real engine runs: faults injected in front of a fake runner, judged from the report."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.errors import UserError
from orchestrator.plan.model import InputBinding, Plan, PlanInput, PlanStep, Scenario, StepPolicy
from orchestrator.policy import ApprovalPolicy, Fallback, FallbackAction, RetryPolicy
from orchestrator.report import build_report
from orchestrator.scenario import run_scenarios
from orchestrator.scenario.fault import Activity, ScenarioClock
from orchestrator.testing import FakeRunner, fake_plan

DOCS = {"type": "object", "properties": {"docs": {"type": "string"}}, "required": ["docs"]}


def plan_with(*scenarios: tuple[str, str]) -> Plan:
    steps = [
        PlanStep(
            id="step-1", name="Fetch", skill="fetcher", output_schema=DOCS,
            inputs={"module": InputBinding(source="input", name="module_name")},
            policy=StepPolicy(retry=RetryPolicy(max_retries=3, delays_s=(1, 2, 4)),
                              fallback=Fallback(action=FallbackAction.SKILL, skill="mirror")),
        ),
        PlanStep(id="step-2", name="Write", skill="writer", inputs={"docs": InputBinding(source="step", step="step-1")}),
        PlanStep(
            id="step-3", name="Publish", skill="publisher", depends_on=("step-2",),
            policy=StepPolicy(approval=ApprovalPolicy(), compensation="unpublish"),
        ),
    ]
    plan = fake_plan(steps, inputs=[PlanInput(name="module_name", schema={"type": "string"})])
    return plan.model_copy(
        update={"scenarios": tuple(Scenario(name=n, description=d, where=f"spec.md:{i}") for i, (n, d) in enumerate(scenarios, 1))}
    )


def runner() -> FakeRunner:
    return FakeRunner({"step-1": [{"docs": "# json"}]}, default={"docs": "from a fake"})


async def run(plan: Plan, fake: FakeRunner | None = None, **kwargs: object):
    return await run_scenarios(plan, Settings(), runners={"script": fake or runner()}, **kwargs)  # type: ignore[arg-type]


async def test_scenarios_pass_fail_skip_or_are_invalid_and_are_counted() -> None:
    plan = plan_with(
        ("Happy path", "Inputs: module_name=json; Approve: step-3; Expect: succeeded; step-1 attempts=1"),
        ("Wrong hope", "Inputs: module_name=json; Approve: step-3; Expect: failed"),
        ("Prose only", "the docs server is slow"),
        ("Typo", "Inputs: module_name=json; Expect: step-7 succeeded"),
    )
    report = await run(plan)
    assert [(r.name, r.outcome) for r in report.scenarios] == [
        ("Happy path", "passed"), ("Wrong hope", "failed"), ("Prose only", "skipped"), ("Typo", "invalid"),
    ]
    assert (report.passed, report.failed, report.skipped, report.invalid) == (1, 1, 1, 1)
    wrong = report.scenarios[1]
    assert wrong.reason == "expected failed, got run succeeded"
    assert report.scenarios[2].reason == "no Inputs/Expect given"
    assert report.scenarios[3].where == "spec.md:4" and "no step 'step-7'" in report.scenarios[3].reason


async def test_injected_timeouts_are_retried_after_the_plan_s_waits_in_virtual_time(tmp_path: Path) -> None:
    plan = plan_with(
        ("Recovery", "Inputs: module_name=json; Fault: step-1 timeout x3; Approve: step-3; "
                     "Expect: succeeded; step-1 retries=3; step-1 attempts=4"),
    )
    (result,) = (await run(plan, keep_dir=tmp_path)).scenarios
    assert result.outcome == "passed", result.reason
    assert result.state_dir == str(tmp_path / "recovery")
    report = build_report(result.run_id or "", Settings(state_dir=tmp_path / "recovery"))
    step = report.step("step-1")
    assert [w.delay_s for w in step.retries] == [1.0, 2.0, 4.0]
    assert [a.error_class for a in step.failed_attempts] == ["timeout"] * 3
    assert step.metrics.duration_s is not None and step.metrics.duration_s >= 7.0  # the waits, on the clock


async def test_a_returned_value_replaces_the_output_and_flows_downstream() -> None:
    fake = runner()
    plan = plan_with(("Empty docs", 'Inputs: module_name=os; Fault: step-1 returns {"docs": ""}; Approve: step-3; '
                                    "Expect: succeeded"))
    (result,) = (await run(plan, fake)).scenarios
    assert result.outcome == "passed", result.reason
    assert fake.calls("step-1") == []  # the fault answered instead
    assert fake.calls("step-2")[0].input == {"docs": {"docs": ""}}


async def test_a_fault_that_never_fires_fails_the_scenario() -> None:
    plan = plan_with(("Gate", "Inputs: module_name=json; Fault: step-3 crash; Expect: paused; step-3 awaiting approval"))
    (result,) = (await run(plan)).scenarios
    assert result.outcome == "failed"
    assert result.run_status == "paused"
    assert result.checks[-1].expectation == "fault step-3 crash fired" and result.checks[-1].actual == "fired 0 of 1"


async def test_fallback_skills_and_compensations_run_for_real() -> None:
    fake = runner()
    plan = plan_with(
        ("Fallback", "Inputs: module_name=json; Fault: step-1 unrecoverable always; Approve: step-3; "
                     "Expect: degraded; step-1 fallback=skill"),
        ("Rejected", "Inputs: module_name=json; Reject: step-3; Expect: failed; step-3 failed; step-2 succeeded"),
    )
    report = await run(plan, fake)
    assert [r.outcome for r in report.scenarios] == ["passed", "passed"], [r.reason for r in report.scenarios]
    assert [r.skill.name for r in fake.calls("step-1")] == ["mirror", "fetcher"]  # the fallback, then scenario 2


async def test_a_missing_required_input_makes_the_scenario_invalid() -> None:
    (result,) = (await run(plan_with(("No input", "Expect: succeeded")))).scenarios
    assert result.outcome == "invalid"
    assert "missing required input 'module_name'" in result.reason


async def test_scenarios_are_chosen_by_name_and_an_unknown_name_is_refused() -> None:
    plan = plan_with(("One", "Inputs: module_name=a; Expect: paused"), ("Two", "Inputs: module_name=b; Expect: paused"))
    report = await run(plan, names=["two"])
    assert [r.name for r in report.scenarios] == ["Two"]
    with pytest.raises(UserError, match="no scenario 'three' in the Testing Plan"):
        await run(plan, names=["three"])


# -- the clock ---------------------------------------------------------------------------


async def test_waits_pass_at_once_in_deadline_order_while_nothing_executes() -> None:
    clock = ScenarioClock(Activity())
    start = clock.now()
    woke: list[tuple[str, float]] = []

    async def wait(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append((name, clock.now() - start))

    async with asyncio.timeout(5):
        await asyncio.gather(wait("long", 3600), wait("short", 60))
    assert [name for name, _ in woke] == ["short", "long"]
    assert woke[0][1] >= 60 and woke[1][1] >= 3600
    await clock.aclose()


async def test_waits_do_not_jump_while_an_attempt_executes() -> None:
    activity = Activity()
    clock = ScenarioClock(activity)
    activity.running = 1
    waiter = asyncio.ensure_future(clock.sleep(3600))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not waiter.done()
    activity.running = 0
    async with asyncio.timeout(5):
        await waiter
    await clock.aclose()
