"""The DAG: readiness, concurrency limits, fan-out and fan-in, conditions, skips, routes."""

from __future__ import annotations

import asyncio
import gc
import itertools
import time

import pytest

from orchestrator.engine import RunStatus, StepStatus, graph, scheduler
from orchestrator.engine.graph import plan_graph, unordered_steps
from orchestrator.errors import ConfigError
from orchestrator.plan.model import ForEach, InputBinding, PlanInput, PlanStep
from orchestrator.policy import ErrorClass, Limits
from orchestrator.runner import StepOutcome, StepRequest
from orchestrator.testing import Call, Fail, FakeClock, FakeRunner, Sleep, fake_plan, fake_skill


class CountingRunner(FakeRunner):
    """Records the most attempts in flight at once (each attempt sleeps 1 virtual second)."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(default=Sleep(1), clock=clock)
        self.running = 0
        self.peak = 0
        self.peak_by_skill: dict[str, int] = {}
        self._by_skill: dict[str, int] = {}

    async def run(self, request: StepRequest) -> StepOutcome:
        name = request.skill.name
        self.running += 1
        self._by_skill[name] = self._by_skill.get(name, 0) + 1
        self.peak = max(self.peak, self.running)
        self.peak_by_skill[name] = max(self.peak_by_skill.get(name, 0), self._by_skill[name])
        try:
            return await super().run(request)
        finally:
            self.running -= 1
            self._by_skill[name] -= 1


def parallel(n: int, skill: str = "s") -> list[PlanStep]:
    return [PlanStep(id=f"p{i}", name=f"P{i}", skill=skill) for i in range(n)]


async def test_ready_steps_run_at_once_up_to_the_global_limit(execute, clock: FakeClock) -> None:
    runner = CountingRunner(clock)
    summary = await execute(fake_plan(parallel(10), limits=Limits(concurrency=3)), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert runner.peak == 3
    assert clock.elapsed == 4  # ceil(10 / 3) rounds of one virtual second


async def test_a_per_skill_limit_holds_below_the_global_one(execute, clock: FakeClock) -> None:
    runner = CountingRunner(clock)
    steps = parallel(4, "slow") + [PlanStep(id=f"q{i}", name="Q", skill="fast") for i in range(4)]
    plan = fake_plan(steps, limits=Limits(concurrency=8, per_skill_concurrency=2))
    await execute(plan, runner)
    assert runner.peak_by_skill == {"slow": 2, "fast": 2}


async def test_steps_of_one_mcp_server_share_its_limit(execute, clock: FakeClock) -> None:
    runner = CountingRunner(clock)
    skills = {
        "docs-a": fake_skill("docs-a", server="docs"),
        "docs-b": fake_skill("docs-b", server="docs"),
    }
    steps = parallel(3, "docs-a") + [PlanStep(id=f"q{i}", name="Q", skill="docs-b") for i in range(3)]
    plan = fake_plan(steps, skills=skills, limits=Limits(concurrency=8, per_server_concurrency=2))
    await execute(plan, runner)
    assert runner.peak == 2


async def test_a_step_waits_for_its_dependencies_and_the_queue_delay_is_measured(execute, clock: FakeClock) -> None:
    steps = [
        PlanStep(id="a", name="A", skill="s"),
        PlanStep(id="b", name="B", skill="s"),
        PlanStep(id="c", name="C", skill="s", depends_on=("a", "b")),
    ]
    runner = CountingRunner(clock)
    summary = await execute(fake_plan(steps, limits=Limits(concurrency=1)), runner)
    assert [r.step_id for r in runner.requests][-1] == "c"
    assert summary.step("b").queue_delay_s == 1.0  # ready at 0, started when a finished
    assert summary.step("c").queue_delay_s == 0.0


async def test_inputs_are_rendered_from_workflow_inputs_outputs_literals_and_templates(execute) -> None:
    steps = [
        PlanStep(id="fetch", name="Fetch", skill="s"),
        PlanStep(
            id="use",
            name="Use",
            skill="s",
            inputs={
                "module": InputBinding(source="input", name="module"),
                "first": InputBinding(source="step", step="fetch", pointer="/items/0"),
                "mode": InputBinding(source="literal", value="strict"),
                "title": InputBinding(source="template", template="Docs of {{ inputs.module }}"),
                "maybe": InputBinding(source="step", step="fetch", pointer="/absent", optional=True),
            },
        ),
    ]
    runner = FakeRunner({"fetch": [{"items": ["x", "y"]}]})
    summary = await execute(fake_plan(steps, inputs=[PlanInput(name="module")]), runner, inputs={"module": "json"})
    assert summary.outputs["use"] == {"module": "json", "first": "x", "mode": "strict", "title": "Docs of json"}


async def test_for_each_fans_out_and_fans_back_in_input_order(execute, clock: FakeClock) -> None:
    steps = [
        PlanStep(id="list", name="List", skill="s"),
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="module", source=InputBinding(source="step", step="list", pointer="/modules")),
            inputs={"name": InputBinding(source="item")},
        ),
    ]

    def slower_first(request: StepRequest) -> object:
        index = request.item_index or 0
        return Sleep(3 - index, {"doc": request.input["name"].upper()})

    runner = FakeRunner({"list": [{"modules": ["a", "b", "c"]}]}, default=Call(slower_first), clock=clock)
    summary = await execute(fake_plan(steps), runner)
    assert summary.outputs["each"] == [{"doc": "A"}, {"doc": "B"}, {"doc": "C"}]
    assert [r.item_index for r in runner.requests[1:]] == [0, 1, 2]
    assert summary.step("each").items == 3
    assert summary.step("each").items_done == 3
    assert clock.elapsed == 3  # the items ran concurrently


async def test_a_for_each_condition_leaves_out_the_items_where_it_is_false(execute) -> None:
    steps = [
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="n", source=InputBinding(source="input", name="numbers")),
            when="n % 2 == 0",
            inputs={"n": InputBinding(source="item")},
        )
    ]
    plan = fake_plan(steps, inputs=[PlanInput(name="numbers")])
    summary = await execute(plan, FakeRunner(), inputs={"numbers": [1, 2, 3, 4]})
    assert summary.outputs["each"] == [{"n": 2}, {"n": 4}]


async def test_a_for_each_over_something_not_a_list_is_invalid_input(execute) -> None:
    steps = [
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="x", source=InputBinding(source="input", name="numbers")),
        )
    ]
    plan = fake_plan(steps, inputs=[PlanInput(name="numbers")])
    summary = await execute(plan, FakeRunner(), inputs={"numbers": 7})
    assert summary.status is RunStatus.FAILED
    assert summary.step("each").error_class == "invalid_input"
    assert "needs a list" in summary.step("each").message


async def test_a_failed_item_fails_its_step_and_the_finished_items_stay_recorded(execute) -> None:
    steps = [
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="x", source=InputBinding(source="literal", value=[1, 2, 3])),
            inputs={"x": InputBinding(source="item")},
        )
    ]
    runner = FakeRunner({"each[1]": [Fail(ErrorClass.CODE_ERROR, "item two broke")]})
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.error is not None and "item two broke" in summary.error.message
    assert summary.step("each").items_done >= 1


async def test_a_false_condition_skips_the_step_and_the_skip_propagates(execute) -> None:
    steps = [
        PlanStep(id="check", name="Check", skill="s"),
        PlanStep(id="fetch", name="Fetch", skill="s", depends_on=("check",), when="not steps.check.found"),
        PlanStep(id="parse", name="Parse", skill="s", inputs={"d": InputBinding(source="step", step="fetch")}),
        PlanStep(id="after", name="After", skill="s", depends_on=("fetch",)),
        PlanStep(id="always", name="Always", skill="s", depends_on=("check",)),
    ]
    runner = FakeRunner({"check": [{"found": True}]})
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.SUCCEEDED
    statuses = {s.step_id: s.status.value for s in summary.steps}
    assert statuses == {
        "check": "succeeded",
        "fetch": "skipped",
        "parse": "skipped",
        "after": "skipped",
        "always": "succeeded",
    }
    assert "condition is false" in summary.step("fetch").message
    assert [r.step_id for r in runner.requests] == ["check", "always"]


async def test_a_condition_over_a_missing_value_is_false_not_an_error(execute) -> None:
    steps = [PlanStep(id="x", name="X", skill="s", when="steps.nothing.here")]
    summary = await execute(fake_plan(steps), FakeRunner())
    assert summary.step("x").status is StepStatus.SKIPPED


async def test_a_condition_cannot_reach_python_internals(execute) -> None:
    steps = [PlanStep(id="x", name="X", skill="s", when="inputs.__class__.__mro__")]
    summary = await execute(fake_plan(steps), FakeRunner())
    assert summary.step("x").status is StepStatus.SKIPPED  # the sandbox hides the attribute


async def test_a_routing_step_runs_the_chosen_branch_only(execute) -> None:
    steps = [
        PlanStep(id="route", name="Route", skill="s", routes={"small": "quick", "large": "thorough"}),
        PlanStep(id="quick", name="Quick", skill="s", depends_on=("route",)),
        PlanStep(id="thorough", name="Thorough", skill="s", depends_on=("route",)),
        PlanStep(id="after-thorough", name="After", skill="s", depends_on=("thorough",)),
    ]
    runner = FakeRunner({"route": [{"route": "large"}]})
    summary = await execute(fake_plan(steps), runner)
    assert [r.step_id for r in runner.requests] == ["route", "thorough", "after-thorough"]
    assert "chose 'large'" in summary.step("quick").message


@pytest.mark.parametrize(("choice", "ran"), [("billing", "bill"), ("Billing", "bill"), ("refund", "other")])
async def test_a_routing_step_reads_its_choice_from_the_named_field_and_sends_others_to_the_default(
    execute, choice: str, ran: str
) -> None:
    steps = [
        PlanStep(id="route", name="Route", skill="s", routes={"billing": "bill"}, route_default="other",
                 route_on="category"),
        PlanStep(id="bill", name="Bill", skill="s", depends_on=("route",)),
        PlanStep(id="other", name="Other", skill="s", depends_on=("route",)),
    ]
    runner = FakeRunner({"route": [{"category": choice, "route": "ignored"}]})
    summary = await execute(fake_plan(steps), runner)
    assert [r.step_id for r in runner.requests] == ["route", ran]
    skipped = "other" if ran == "bill" else "bill"
    assert summary.step(skipped).status is StepStatus.SKIPPED
    assert f"chose {choice!r}" in summary.step(skipped).message


async def test_progress_events_reach_the_callback_in_order(execute) -> None:
    seen: list[tuple[str, str | None]] = []
    steps = [PlanStep(id="a", name="A", skill="s")]
    await execute(fake_plan(steps), FakeRunner(), on_event=lambda e: seen.append((e.type, e.step)))
    assert seen == [
        ("run_started", None),
        ("step_ready", "a"),
        ("attempt_started", "a"),
        ("output_stored", "a"),
        ("step_finished", "a"),
        ("run_finished", None),
    ]


async def test_many_steps_finish_without_a_hang(execute) -> None:
    steps = [PlanStep(id=f"s{i}", name="S", skill="s", depends_on=(f"s{i - 1}",) if i else ()) for i in range(300)]
    async with asyncio.timeout(30):
        summary = await execute(fake_plan(steps, limits=Limits(max_total_attempts=1000)), FakeRunner())
    assert summary.totals.succeeded == 300


def test_a_dag_has_no_unordered_steps_however_long_its_chain() -> None:
    chain = {f"s{i}": [f"s{i - 1}"] if i else [] for i in range(10_000)}
    assert unordered_steps(chain) == []
    assert unordered_steps({"a": [], "b": ["a"], "c": ["a", "b", "a"]}) == []


def test_the_steps_on_a_cycle_and_behind_it_are_unordered() -> None:
    needs = {"a": [], "b": ["a", "d"], "c": ["b"], "d": ["c"], "e": ["d"], "f": ["a"]}
    assert unordered_steps(needs) == ["b", "c", "d", "e"]


def test_a_plan_graph_is_built_once_per_plan_object_and_forgotten_with_it() -> None:
    plan = fake_plan([
        PlanStep(id="a", name="A", skill="s"),
        PlanStep(id="b", name="B", skill="s", inputs={"x": InputBinding(source="step", step="a")}),
    ])
    built = graph.plan_graph(plan)
    assert graph.plan_graph(plan) is built
    assert built.deps == {"a": (), "b": ("a",)} and built.required["b"] == ("a",)
    assert built.dependants == {"a": ("b",), "b": ()}
    equal_copy = plan.model_copy()  # another object: its own graph, equal to the first
    assert graph.plan_graph(equal_copy) is not built
    assert graph.plan_graph(equal_copy).deps == built.deps
    key = id(plan)
    del plan
    gc.collect()
    assert key not in graph._GRAPHS


def test_a_broken_plan_is_refused_every_time_it_is_checked() -> None:
    unbound = fake_plan([PlanStep(id="a", name="A", skill="s")]).model_copy(update={"skills": {}})
    for _ in range(2):
        with pytest.raises(ConfigError, match="skill 's', which the plan does not bind"):
            plan_graph(unbound)


class TurnWatcher(FakeRunner):
    """Notes, at each attempt, how many turns of the event loop a ticker task has seen."""

    def __init__(self, block_s: float = 0.0) -> None:
        super().__init__()
        self.turns = 0
        self.seen: list[int] = []
        self.block_s = block_s

    async def tick(self) -> None:
        while True:
            self.turns += 1
            await asyncio.sleep(0)

    async def run(self, request: StepRequest) -> StepOutcome:
        self.seen.append(self.turns)
        time.sleep(self.block_s)  # an attempt that holds the loop, as a CPU-bound in-process runner does
        return await super().run(request)


def chain(n: int) -> list[PlanStep]:
    return [
        PlanStep(id=f"c{i}", name=f"C{i}", skill="s", depends_on=(f"c{i - 1}",) if i else ()) for i in range(n)
    ]


async def _watch(execute, runner: TurnWatcher, n: int) -> list[int]:
    ticker = asyncio.ensure_future(runner.tick())
    try:
        summary = await execute(fake_plan(chain(n)), runner)
    finally:
        ticker.cancel()
    assert summary.status is RunStatus.SUCCEEDED
    return runner.seen


async def test_a_chain_of_instant_steps_goes_on_without_a_turn_of_the_loop_per_step(execute, monkeypatch) -> None:
    monkeypatch.setattr(scheduler, "YIELD_EVERY_S", 3600.0)
    seen = await _watch(execute, TurnWatcher(), 20)
    assert len(set(seen)) == 1  # the journal's commits took no turn either


async def test_a_chain_lets_other_tasks_run_at_least_every_yield_interval(execute) -> None:
    seen = await _watch(execute, TurnWatcher(block_s=scheduler.YIELD_EVERY_S / 2), 12)
    # each step holds the loop for half the interval: the chain yields within three steps
    assert all(later > earlier for earlier, later in zip(seen, seen[3:], strict=False))


async def test_with_no_yield_interval_a_chain_yields_after_every_step(execute, monkeypatch) -> None:
    monkeypatch.setattr(scheduler, "YIELD_EVERY_S", 0.0)
    seen = await _watch(execute, TurnWatcher(), 8)
    assert all(later > earlier for earlier, later in itertools.pairwise(seen))


async def test_items_whose_fallback_is_continue_are_left_out_and_the_others_finish(execute, events) -> None:
    from orchestrator.plan.model import StepPolicy
    from orchestrator.policy import Fallback, FallbackAction

    steps = [
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="x", source=InputBinding(source="literal", value=["a", "bad-1", "b", "bad-2"])),
            inputs={"x": InputBinding(source="item")},
            policy=StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE)),
        ),
        PlanStep(id="after", name="After", skill="s", inputs={"all": InputBinding(source="step", step="each")}),
    ]
    broke = Fail(ErrorClass.CODE_ERROR, "cannot read it")
    runner = FakeRunner({"each[1]": [broke], "each[3]": [broke]})
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.DEGRADED
    assert summary.outputs["each"] == [{"x": "a"}, {"x": "b"}]  # in input order, the failed ones left out
    assert summary.step("each").message == "2 of 4 items continued without output (items 1, 3): cannot read it"
    assert sorted(r.item_index for r in runner.calls("each")) == [0, 1, 2, 3]
    assert not [e for e in events(summary.run_id) if getattr(e, "kind", "") == "cancelled"]
    assert runner.calls("after")[0].input == {"all": [{"x": "a"}, {"x": "b"}]}


async def test_a_fan_out_whose_every_item_continued_hands_on_an_empty_list_and_the_run_is_degraded(execute) -> None:
    from orchestrator.plan.model import StepPolicy
    from orchestrator.policy import Fallback, FallbackAction

    steps = [
        PlanStep(
            id="each",
            name="Each",
            skill="s",
            for_each=ForEach(item="x", source=InputBinding(source="literal", value=[1, 2])),
            inputs={"x": InputBinding(source="item")},
            policy=StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE)),
        )
    ]
    summary = await execute(fake_plan(steps), FakeRunner(default=Fail(ErrorClass.CODE_ERROR, "no")))
    assert summary.status is RunStatus.DEGRADED
    assert summary.step("each").status is StepStatus.DEFAULTED
    assert summary.outputs["each"] == []
    assert "every one of the 2 items continued without output" in summary.step("each").message
