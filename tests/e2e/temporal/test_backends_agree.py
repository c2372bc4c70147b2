"""One list of scenarios, run on both backends: the local one and Temporal, with the same outcome.

Each scenario is a small plan, a scripted runner (`orchestrator.testing.FakeRunner`)
and what must come of it: the run's status, each step's status, attempts,
retries, regenerations and fallback, the outputs, the compensations, the limit
that ended it. The local backend runs it in this process (`create_run` +
`execute_run`); the Temporal backend runs it on the session's dev server, with a
worker in this process whose activities use the same kind of scripted runner
(the decision code is the workflow, so retries, regenerations, fallbacks,
compensations, `for each`, conditions, approvals and limits are decided by the
same code). Waits are short: Temporal's timers are real time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from temporal_kit import Kit

from orchestrator.config import Settings
from orchestrator.engine import RunSummary, approve_step, create_run, execute_run
from orchestrator.plan.model import ForEach, InputBinding, Plan, PlanStep, StepPolicy
from orchestrator.policy import (
    ApprovalPolicy,
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    Limits,
    RetryPolicy,
)
from orchestrator.temporal import client as tc
from orchestrator.temporal.activities import WorkerRuntime
from orchestrator.temporal.worker import build_worker
from orchestrator.testing import Fail, FakeClock, FakeRegenerator, FakeRunner, Hang, fake_plan

pytestmark = pytest.mark.e2e

QUICK = RetryPolicy(max_retries=2, initial_s=0.05, multiplier=2.0, jitter=False)


def _from(step: str, pointer: str = "") -> InputBinding:
    return InputBinding(source="step", step=step, pointer=pointer)


@dataclass
class Scenario:
    name: str
    plan: Plan
    script: dict[str, list[Any]]
    expect: dict[str, Any]  # status, steps {id: (status, attempts, retries, regenerations, fallback)}, ...
    inputs: dict[str, Any] = field(default_factory=dict)
    decisions: tuple[tuple[str, bool], ...] = ()  # (step, approved) once paused
    wait_s: float = 0.0  # once paused, nobody decides for this long (a gate's timeout then decides)
    items_per_child: int = 1000


def chain(n: int, **policies: StepPolicy) -> list[PlanStep]:
    steps = [PlanStep(id="s1", name="s1", skill="s", policy=policies.get("s1", StepPolicy()))]
    for i in range(2, n + 1):
        steps.append(PlanStep(id=f"s{i}", name=f"s{i}", skill="s", inputs={"prev": _from(f"s{i - 1}")},
                              policy=policies.get(f"s{i}", StepPolicy())))
    return steps


def producer_and_validator(runs: int) -> list[PlanStep]:
    """`generate`, and `validate` whose failure goes back to it, for `runs` runs of it in all."""
    return [
        PlanStep(id="generate", name="generate", skill="writer", policy=StepPolicy(regenerations=1)),
        PlanStep(id="validate", name="validate", skill="checker", inputs={"doc": _from("generate", "/doc")},
                 policy=StepPolicy(feedback=FeedbackPolicy(target_step="generate", max_attempts=runs))),
    ]


SCENARIOS = [
    Scenario(
        "a chain runs to its outputs",
        fake_plan(chain(3)), {"s1": [{"v": 1}], "s2": [{"v": 2}], "s3": [{"v": 3}]},
        {"status": "succeeded", "steps": {"s1": ("succeeded", 1, 0, 0, None), "s3": ("succeeded", 1, 0, 0, None)},
         "outputs": {"s3": {"v": 3}}},
    ),
    Scenario(
        "a transient failure is retried",
        fake_plan(chain(2, s1=StepPolicy(retry=QUICK))),
        {"s1": [Fail(ErrorClass.TRANSIENT, "reset"), Fail(ErrorClass.TIMEOUT, "slow"), {"v": 1}]},
        {"status": "succeeded", "steps": {"s1": ("succeeded", 3, 2, 0, None)}},
    ),
    Scenario(
        "an attempt that hangs times out and is retried",
        fake_plan(chain(1, s1=StepPolicy(retry=QUICK, attempt_timeout_s=0.3))), {"s1": [Hang(), {"v": 1}]},
        {"status": "succeeded", "steps": {"s1": ("succeeded", 2, 1, 0, None)}, "outputs": {"s1": {"v": 1}}},
    ),
    Scenario(
        "a code error is regenerated, then the new version succeeds",
        fake_plan(chain(1, s1=StepPolicy(regenerations=1))), {"s1": [Fail(ErrorClass.CODE_ERROR, "KeyError"), {"v": 1}]},
        {"status": "succeeded", "steps": {"s1": ("succeeded", 2, 0, 1, None)}},
    ),
    Scenario(
        "an exhausted step takes its default and the run is degraded",
        fake_plan(chain(2, s1=StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"v": 0})))),
        {"s1": [Fail(ErrorClass.INVALID_INPUT, "bad input")]},
        {"status": "degraded", "steps": {"s1": ("defaulted", 1, 0, 0, "default")}, "outputs": {"s1": {"v": 0}}},
    ),
    Scenario(
        "a failed step falls back to another skill with the same input and the run is degraded",
        fake_plan(chain(2, s1=StepPolicy(fallback=Fallback(action=FallbackAction.SKILL, skill="cache")))),
        {"s1": [Fail(ErrorClass.INVALID_INPUT, "bad input"), {"v": "cached"}], "s2": [{"v": 2}]},
        {"status": "degraded", "steps": {"s1": ("succeeded", 2, 0, 0, "skill"), "s2": ("succeeded", 1, 0, 0, None)},
         "outputs": {"s1": {"v": "cached"}}},
    ),
    Scenario(
        "a validator's findings regenerate its producer and both run again",
        fake_plan(producer_and_validator(2)),
        {"generate": [{"doc": "broken"}, {"doc": "fixed"}],
         "validate": [Fail(ErrorClass.CODE_ERROR, "heading missing"), {"valid": True}]},
        {"status": "succeeded", "steps": {"generate": ("succeeded", 2, 0, 1, None),
                                          "validate": ("succeeded", 2, 0, 0, None)},
         "outputs": {"generate": {"doc": "fixed"}, "validate": {"valid": True}}},
    ),
    Scenario(
        "feedback stops at its bound and fails the validator",
        fake_plan(producer_and_validator(2)),
        {"generate": [{"doc": "broken"}] * 3, "validate": [Fail(ErrorClass.CODE_ERROR, "heading missing")] * 3},
        {"status": "failed", "steps": {"generate": ("succeeded", 2, 0, 1, None),
                                       "validate": ("failed", 2, 0, 0, "fail")}},
    ),
    Scenario(
        "a step that continues on error with no value starves the step that needs it and the run fails",
        # x runs before s1 (s1 waits for it): a sibling still running when s2 fails the run would be
        # cancelled, and which one wins that race depends on the host's load
        fake_plan([PlanStep(id="x", name="x", skill="s"),
                   *(s.model_copy(update={"depends_on": ("x",)}) if s.id == "s1" else s
                     for s in chain(2, s1=StepPolicy(on_error="continue")))]),
        {"s1": [Fail(ErrorClass.INVALID_INPUT, "bad input")]},
        {"status": "failed", "steps": {"s1": ("continued", 1, 0, 0, "continue"), "s2": ("failed", 0, 0, 0, "fail"),
                                          "x": ("succeeded", 1, 0, 0, None)}},
    ),
    Scenario(
        "a failed run compensates its steps in reverse order",
        fake_plan(chain(3, s1=StepPolicy(compensation="undo"), s2=StepPolicy(compensation="undo"))),
        {"s3": [Fail(ErrorClass.INVALID_INPUT, "boom")]},
        {"status": "failed", "steps": {"s3": ("failed", 1, 0, 0, "fail")},
         "compensations": ["s2: finished", "s1: finished"]},
    ),
    Scenario(
        "a condition that is false skips its step",
        fake_plan([PlanStep(id="a", name="a", skill="s"),
                   PlanStep(id="b", name="b", skill="s", when="steps.a.output.go", inputs={"a": _from("a")})]),
        {"a": [{"go": False}]},
        {"status": "succeeded", "steps": {"b": ("skipped", 0, 0, 0, None)}},
    ),
    Scenario(
        "a for each runs every item and keeps their order",
        fake_plan([PlanStep(id="fan", name="fan", skill="s",
                            for_each=ForEach(item="n", source=InputBinding(source="input", name="ns")),
                            inputs={"n": InputBinding(source="item")}, policy=StepPolicy(retry=QUICK))]),
        {"fan[1]": [Fail(ErrorClass.TRANSIENT, "once")]},
        {"status": "succeeded", "steps": {"fan": ("succeeded", 6, 1, 0, None)},
         "outputs": {"fan": [{"n": n} for n in range(5)]}},
        inputs={"ns": list(range(5))},
    ),
    Scenario(
        "a for each bigger than a part runs in parts with the same outputs",
        fake_plan([PlanStep(id="fan", name="fan", skill="s",
                            for_each=ForEach(item="n", source=InputBinding(source="input", name="ns")),
                            inputs={"n": InputBinding(source="item")}, policy=StepPolicy(retry=QUICK))]),
        {"fan[4]": [Fail(ErrorClass.TRANSIENT, "once")]},
        {"status": "succeeded", "steps": {"fan": ("succeeded", 8, 1, 0, None)},
         "outputs": {"fan": [{"n": n} for n in range(7)]}},
        inputs={"ns": list(range(7))}, items_per_child=3,
    ),
    Scenario(
        "an approval pauses the run and an approval lets it finish",
        fake_plan(chain(2, s2=StepPolicy(approval=ApprovalPolicy()))), {},
        {"status": "succeeded", "steps": {"s2": ("succeeded", 1, 0, 0, None)}},
        decisions=(("s2", True),),
    ),
    Scenario(
        "a rejected approval fails the step and compensates",
        fake_plan(chain(2, s1=StepPolicy(compensation="undo"), s2=StepPolicy(approval=ApprovalPolicy()))), {},
        {"status": "failed", "steps": {"s2": ("failed", 0, 0, 0, "fail")}, "compensations": ["s1: finished"]},
        decisions=(("s2", False),),
    ),
    Scenario(
        "a gate nobody decides times out into its policy",
        fake_plan(chain(2, s2=StepPolicy(approval=ApprovalPolicy(timeout_s=0.5, on_timeout="reject")))), {},
        {"status": "failed", "steps": {"s1": ("succeeded", 1, 0, 0, None), "s2": ("failed", 0, 0, 0, "fail")}},
        wait_s=0.5,
    ),
    Scenario(
        "the attempt limit ends the run naming it",
        fake_plan(chain(1, s1=StepPolicy(retry=RetryPolicy(max_retries=5, initial_s=0.01, jitter=False))),
                  limits=Limits(max_attempts_per_step=2)),
        {"s1": [Fail(ErrorClass.TRANSIENT, "x")] * 6},
        {"status": "failed", "limit": "max_attempts_per_step"},
    ),
]


def outcome(summary: RunSummary, expect: dict[str, Any]) -> dict[str, Any]:
    """What of `summary` the scenario states, in the scenario's shape."""
    found: dict[str, Any] = {"status": summary.status.value}
    if "steps" in expect:
        found["steps"] = {
            sid: (s.status.value, s.attempts, s.retries, s.regenerations, s.fallback)
            for sid in expect["steps"] for s in [summary.step(sid)]
        }
    if "outputs" in expect:
        found["outputs"] = {sid: summary.outputs.get(sid) for sid in expect["outputs"]}
    if "compensations" in expect:
        found["compensations"] = list(summary.compensations)
    if "limit" in expect:
        found["limit"] = summary.error.limit if summary.error else None
    return found


async def run_local(scenario: Scenario, tmp_path: Path) -> RunSummary:
    settings = Settings(state_dir=tmp_path / "local")
    clock = FakeClock()
    runner = FakeRunner(scenario.script)
    regenerator = FakeRegenerator()
    run_id = create_run(scenario.plan, scenario.inputs, settings)
    summary = await execute_run(run_id, settings, runners={"script": runner}, regenerator=regenerator, clock=clock)
    for step, approved in scenario.decisions:
        assert summary.status.value == "paused"
        approve_step(run_id, step, settings, reject=not approved, clock=clock)
        summary = await execute_run(run_id, settings, runners={"script": runner}, regenerator=regenerator, clock=clock)
    if scenario.wait_s:
        assert summary.status.value == "paused"
        clock.advance(scenario.wait_s)  # the person never answers; the run is resumed after the timeout
        summary = await execute_run(run_id, settings, runners={"script": runner}, regenerator=regenerator, clock=clock)
    return summary


async def run_temporal(scenario: Scenario, kit: Kit) -> RunSummary:
    settings = Settings(state_dir=kit.root / "temporal")
    ts = kit.settings().model_copy(update={"items_per_child": scenario.items_per_child})
    client = await tc.connect(ts)
    runtime = WorkerRuntime(settings, runners={"script": FakeRunner(scenario.script)}, regenerator=FakeRegenerator())
    async with build_worker(client, ts, runtime, drain_s=1):
        run_id = await tc.start_run(client, ts, scenario.plan, scenario.inputs, settings)
        run = await tc.follow(client, run_id, scenario.plan)
        for step, approved in scenario.decisions:
            assert run.summary().status.value == "paused"
            await tc.approve(client, run_id, step, reject=not approved)
            run = await tc.follow(client, run_id, scenario.plan)
        if scenario.wait_s:
            assert run.summary().status.value == "paused"
            run = await _until_finished(client, run_id, scenario.plan)  # the gate's durable timer decides
    await runtime.aclose()
    return run.summary()


async def _until_finished(client: Any, run_id: str, plan: Plan) -> Any:
    """Follow the run until it finishes (a paused run is followed again, bounded)."""
    with anyio.fail_after(30):
        while True:
            run = await tc.follow(client, run_id, plan)
            if run.summary().status.finished:
                return run
            await anyio.sleep(0.1)


RUNS: dict[str, Callable[..., Any]] = {"local": run_local, "temporal": run_temporal}


@pytest.mark.parametrize("backend", ["local", "temporal"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name.replace(" ", "-") for s in SCENARIOS])
async def test_the_backends_agree(scenario: Scenario, backend: str, kit: Kit, tmp_path: Path) -> None:
    summary = await (run_local(scenario, tmp_path) if backend == "local" else run_temporal(scenario, kit))
    assert outcome(summary, scenario.expect) == scenario.expect
