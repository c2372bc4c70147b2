"""Convergence: every limit ends the run cleanly, failed, naming the limit; never a hang."""

from __future__ import annotations

import asyncio

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, StepStatus, create_run
from orchestrator.errors import ConfigError
from orchestrator.kinds import BuiltinKind
from orchestrator.plan.model import PlanInput, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, Limits, RetryPolicy
from orchestrator.runner import StepFailure, StepOutcome, TokenUsage
from orchestrator.testing import (
    Fail,
    FakeClock,
    FakeRegenerator,
    FakeRunner,
    Hang,
    fake_plan,
    fake_skill,
)

TRANSIENT = Fail(ErrorClass.TRANSIENT, "reset")
CODE = Fail(ErrorClass.CODE_ERROR, "bug")
CODE_FAILURE = StepFailure(error_class=ErrorClass.CODE_ERROR, message="bug")


def retrying(n: int = 1, **policy: object) -> list[PlanStep]:
    steps = []
    for i in range(n):
        steps.append(
            PlanStep(
                id=f"s{i}",
                name=f"S{i}",
                skill="s",
                policy=StepPolicy(retry=RetryPolicy(max_retries=50, delays_s=(1,)), **policy),  # type: ignore[arg-type]
            )
        )
    return steps


async def test_the_attempts_per_step_limit_ends_the_run_naming_it(execute) -> None:
    runner = FakeRunner(default=TRANSIENT)
    summary = await execute(fake_plan(retrying(), limits=Limits(max_attempts_per_step=3)), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.error is not None
    assert summary.error.limit == "max_attempts_per_step"
    assert "max_attempts_per_step" in summary.error.message
    assert summary.error.where == "s0"
    assert summary.step("s0").attempts == 3
    # the step the limit stopped failed, saying why; it was not merely cut short
    assert summary.step("s0").status is StepStatus.FAILED
    assert "max_attempts_per_step" in summary.step("s0").message


async def test_the_total_attempts_limit_counts_across_steps(execute) -> None:
    runner = FakeRunner(default=TRANSIENT)
    plan = fake_plan(retrying(3), limits=Limits(max_total_attempts=7, concurrency=1))
    summary = await execute(plan, runner)
    assert summary.error is not None and summary.error.limit == "max_total_attempts"
    assert summary.totals.attempts == 7


async def test_the_regenerations_per_step_limit_caps_a_larger_step_budget(execute) -> None:
    plan = fake_plan([PlanStep(id="s", name="S", skill="s", policy=StepPolicy(regenerations=5))],
                     limits=Limits(max_regenerations_per_step=2))
    summary = await execute(plan, FakeRunner(default=CODE), regenerator=FakeRegenerator())
    assert summary.error is not None and summary.error.limit == "max_regenerations_per_step"
    assert summary.step("s").regenerations == 2


async def test_the_total_regenerations_limit_counts_across_steps(execute) -> None:
    steps = [PlanStep(id=f"s{i}", name="S", skill="s", policy=StepPolicy(regenerations=3)) for i in range(3)]
    plan = fake_plan(steps, limits=Limits(max_regenerations_total=4, concurrency=1))
    summary = await execute(plan, FakeRunner(default=CODE), regenerator=FakeRegenerator())
    assert summary.error is not None and summary.error.limit == "max_regenerations_total"
    assert summary.totals.regenerations == 4


async def test_the_token_limit_counts_runner_and_regenerator_usage(execute) -> None:
    usage = TokenUsage(input_tokens=600, output_tokens=100)
    runner = FakeRunner(default=StepOutcome(failure=CODE_FAILURE, usage=usage))
    plan = fake_plan([PlanStep(id="s", name="S", skill="s", policy=StepPolicy(regenerations=5))],
                     limits=Limits(max_llm_tokens=2000))
    summary = await execute(plan, runner, regenerator=FakeRegenerator(usage=usage))
    assert summary.error is not None and summary.error.limit == "max_llm_tokens"
    assert summary.totals.tokens.total > 2000


async def test_the_wall_time_limit_ends_a_run_that_would_hang(execute, clock: FakeClock) -> None:
    plan = fake_plan([PlanStep(id="s", name="S", skill="s")], limits=Limits(wall_time_s=90))
    async with asyncio.timeout(10):  # real seconds: the hang is virtual
        summary = await execute(plan, FakeRunner(default=Hang()))
    assert summary.status is RunStatus.FAILED
    assert summary.error is not None and summary.error.limit == "wall_time_s"
    assert clock.elapsed == 90
    assert summary.step("s").attempts == 1


async def test_reaching_a_limit_still_runs_the_compensations(execute) -> None:
    steps = [
        PlanStep(id="done", name="Done", skill="s", policy=StepPolicy(compensation="undo")),
        PlanStep(id="loop", name="Loop", skill="s", depends_on=("done",),
                 policy=StepPolicy(retry=RetryPolicy(max_retries=50, delays_s=(1,)))),
    ]
    runner = FakeRunner({"loop": [TRANSIENT] * 10})
    summary = await execute(fake_plan(steps, limits=Limits(max_attempts_per_step=2)), runner)
    assert summary.error is not None and summary.error.limit == "max_attempts_per_step"
    assert summary.compensations == ("done: finished",)


def test_inputs_are_checked_when_the_run_is_created(settings: Settings) -> None:
    plan = fake_plan(
        [PlanStep(id="s", name="S", skill="s")],
        inputs=[
            PlanInput(name="module", schema={"type": "string"}),
            PlanInput(name="depth", schema={"type": "integer"}, required=False, default=2),
        ],
    )
    with pytest.raises(ConfigError, match="missing required input 'module'"):
        create_run(plan, {}, settings)
    with pytest.raises(ConfigError, match="unknown input 'modul'"):
        create_run(plan, {"modul": "json"}, settings)
    with pytest.raises(ConfigError, match="input 'depth' is invalid") as caught:
        create_run(plan, {"module": "json", "depth": "deep"}, settings)
    assert caught.value.exit_code == 2
    create_run(plan, {"module": "json"}, settings)



def test_a_plan_the_engine_cannot_run_is_refused_before_the_run_exists(settings: Settings) -> None:
    cyclic = fake_plan([
        PlanStep(id="a", name="A", skill="s", depends_on=("b",)),
        PlanStep(id="b", name="B", skill="s", depends_on=("a",)),
    ])
    with pytest.raises(ConfigError, match="dependency cycle among: a, b"):
        create_run(cyclic, {}, settings)
    dangling = fake_plan([PlanStep(id="a", name="A", skill="s", depends_on=("ghost",))])
    with pytest.raises(ConfigError, match="unknown step 'ghost'"):
        create_run(dangling, {}, settings)


async def test_an_llm_steps_answer_counts_against_the_token_limit_and_its_runner_hears_what_is_left(
    execute,
) -> None:
    # a succeeding llm step over the budget ends the run on the limit, not in silence
    usage = TokenUsage(input_tokens=3000, output_tokens=5000)
    runner = FakeRunner(default=StepOutcome(output={"summary": "s"}, usage=usage), kind="llm")
    steps = [
        PlanStep(id="a", name="A", skill="ask"),
        PlanStep(id="b", name="B", skill="ask", depends_on=("a",)),
        PlanStep(id="c", name="C", skill="ask", depends_on=("b",)),
    ]
    plan = fake_plan(steps, limits=Limits(max_llm_tokens=10_000), skills={"ask": fake_skill("ask", BuiltinKind.LLM)})
    summary = await execute(plan, runner)
    assert summary.error is not None and summary.error.limit == "max_llm_tokens"
    assert [r.tokens_left for r in runner.requests] == [10_000, 2_000]  # c never ran
    assert summary.step("b").status.value == "succeeded"
