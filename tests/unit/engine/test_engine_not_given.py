"""A step whose skill reads an input nothing in the plan gives (`PlanStep.not_given`) fails before its skill
runs: a skill that would do without it never gives a silent wrong `succeeded`."""

from __future__ import annotations

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.plan.model import InputBinding, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import Fallback, FallbackAction
from orchestrator.testing import FakeRunner, fake_plan


def _step(**fields: object) -> list[PlanStep]:
    return [PlanStep(id="build", name="Build", skill="booklet", inputs={"songs": InputBinding(source="input",
                                                                                          name="songs")}, **fields)]


async def test_a_step_missing_an_input_its_skill_reads_fails_and_the_skill_never_runs(execute) -> None:
    runner = FakeRunner({"build": [{"pages": 8}]})
    summary = await execute(fake_plan(_step(not_given=("cleared",)), inputs=[PlanInput(name="songs")]), runner,
                            inputs={"songs": ["a"]})
    assert summary.status is RunStatus.FAILED
    assert runner.requests == []
    step = summary.step("build")
    assert step.status is StepStatus.FAILED
    assert step.error_class == "invalid_input"
    assert "`cleared`" in step.message


async def test_its_fallback_still_applies_and_a_plan_without_it_runs_as_before(execute) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE, value={"pages": 0}))
    runner = FakeRunner({"build": [{"pages": 8}]})
    summary = await execute(fake_plan(_step(not_given=("cleared",), policy=policy), inputs=[PlanInput(name="songs")]),
                            runner, inputs={"songs": ["a"]})
    assert summary.step("build").status is StepStatus.CONTINUED
    runner = FakeRunner({"build": [{"pages": 8}]})
    summary = await execute(fake_plan(_step(), inputs=[PlanInput(name="songs")]), runner, inputs={"songs": ["a"]})
    assert summary.status is RunStatus.SUCCEEDED
    assert len(runner.requests) == 1
