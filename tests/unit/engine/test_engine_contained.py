"""When an attempt's start must be durable before it runs, and when it need not be.

A runner that says its attempts are contained (the script runner under bwrap,
without network) starts them without a commit of its own: they ride with the next
commit. Any other attempt (an MCP tool, a model call, a runner that does not say)
runs only once its start, and every output before it, is in the journal. Each
test reads the journal from a connection of its own while a step runs, as a
process inspecting the run (or the one resuming it after a SIGKILL) would.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, create_run, execute_run, recorder
from orchestrator.journal import Journal
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.model import ForEach, InputBinding, Plan, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass
from orchestrator.runner import (
    RegenerationRequest,
    RegenerationResult,
    StepFailure,
    StepOutcome,
    StepRequest,
)
from orchestrator.testing import (
    Call,
    Fail,
    FakeClock,
    FakeRegenerator,
    FakeRunner,
    fake_plan,
    fake_skill,
)


@pytest.fixture(autouse=True)
def no_timed_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only commits flush: the timer that makes queued events durable never fires here."""
    monkeypatch.setattr(recorder, "FLUSH_DELAY_S", 3600.0)


def chain(*kinds: BuiltinKind) -> Plan:
    steps = [
        PlanStep(
            id=f"s{i}", name=f"S{i}", skill=f"skill{i}", depends_on=(f"s{i - 1}",) if i else (),
            inputs={"prev": InputBinding(source="step", step=f"s{i - 1}")} if i else {},
        )
        for i in range(len(kinds))
    ]
    return fake_plan(steps, skills={f"skill{i}": fake_skill(f"skill{i}", kind) for i, kind in enumerate(kinds)})


class JournalWatcher:
    """Answers for a step after noting which events of the run the journal holds then."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.run_id = ""
        self.seen: dict[str, set[tuple[str, str | None]]] = {}

    def __call__(self, request: StepRequest) -> Any:
        with Journal(self.settings.state_dir) as journal:
            self.seen[request.step_id] = {(e.type, e.step) for e in journal.events(request.run_id)}
        return {"step": request.step_id, "attempt": request.attempt}


async def run(plan: Plan, settings: Settings, runners: dict[str, Any]) -> Any:
    run_id = create_run(plan, {}, settings)
    summary = await execute_run(run_id, settings, runners=runners, clock=FakeClock())
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    return run_id, summary


async def test_a_contained_attempt_starts_without_waiting_for_its_start_to_be_written(settings: Settings) -> None:
    watch = JournalWatcher(settings)
    run_id, _ = await run(chain(BuiltinKind.SCRIPT, BuiltinKind.SCRIPT), settings, {
        "script": FakeRunner(default=Call(watch), contained=True),
    })
    assert ("attempt_started", "s1") not in watch.seen["s1"]
    assert ("output_stored", "s0") not in watch.seen["s1"]  # nothing outside the run relied on it yet
    with Journal(settings.state_dir) as journal:  # all of it durable once the run has ended
        written = [(e.type, e.step) for e in journal.events(run_id)]
    for step in ("s0", "s1"):
        assert ("attempt_started", step) in written and ("output_stored", step) in written


async def test_an_attempt_with_outside_effects_runs_once_its_start_and_every_earlier_output_are_written(
    settings: Settings,
) -> None:
    watch = JournalWatcher(settings)
    await run(chain(BuiltinKind.SCRIPT, BuiltinKind.SCRIPT, BuiltinKind.MCP), settings, {
        "script": FakeRunner(default=Call(watch), contained=True),
        "mcp": FakeRunner(default=Call(watch), kind="mcp"),  # says nothing: not contained
    })
    seen = watch.seen["s2"]
    assert {("output_stored", "s0"), ("output_stored", "s1"), ("step_finished", "s1")} <= seen
    assert ("attempt_started", "s2") in seen


async def test_a_runner_that_does_not_say_gets_each_start_written_first(settings: Settings) -> None:
    watch = JournalWatcher(settings)
    await run(chain(BuiltinKind.SCRIPT, BuiltinKind.SCRIPT), settings, {"script": FakeRunner(default=Call(watch))})
    assert ("attempt_started", "s0") in watch.seen["s0"]
    assert {("output_stored", "s0"), ("attempt_started", "s1")} <= watch.seen["s1"]


class BrokenCheck(FakeRunner):
    def contained(self, skill: BoundSkill) -> bool:
        raise RuntimeError("probe failed")


async def test_a_containment_check_that_raises_counts_as_not_contained(settings: Settings) -> None:
    watch = JournalWatcher(settings)
    await run(chain(BuiltinKind.SCRIPT), settings, {"script": BrokenCheck(default=Call(watch), contained=True)})
    assert ("attempt_started", "s0") in watch.seen["s0"]


async def test_a_contained_attempt_whose_start_a_crash_lost_runs_again_under_its_number_and_key(
    tmp_path: Path,
) -> None:
    """What a SIGKILL leaves when a contained attempt's start was still queued: the
    journal ends before it. The attempt runs again as attempt 1, with key :1."""
    plan = chain(BuiltinKind.SCRIPT, BuiltinKind.SCRIPT)
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {}, original)
    await execute_run(run_id, original, runners={"script": FakeRunner(contained=True)}, clock=FakeClock())
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    cut = next(i for i, e in enumerate(events) if e.type == "attempt_started" and e.step == "s1")
    crashed = Settings(state_dir=tmp_path / "crashed")
    create_run(plan, {}, crashed, run_id=run_id)
    with Journal(crashed.state_dir) as journal:
        journal.append(run_id, [e.model_copy(update={"seq": None}) for e in events[1:cut]])

    again = FakeRunner(contained=True)
    summary = await execute_run(run_id, crashed, runners={"script": again}, clock=FakeClock())
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    assert [(r.step_id, r.attempt, r.idempotency_key) for r in again.requests] == [("s1", 1, f"{run_id}:s1:1")]
    assert summary.step("s1").attempts == 1


class WatchingRegenerator(FakeRegenerator):
    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.seen: set[tuple[str, str | None]] = set()

    async def regenerate(self, request: RegenerationRequest) -> RegenerationResult:
        with Journal(self.settings.state_dir) as journal:
            self.seen = {(e.type, e.step) for e in journal.events(request.run_id)}
        return await super().regenerate(request)


async def test_a_model_call_for_new_code_comes_after_the_failure_that_asked_for_it_is_written(
    settings: Settings,
) -> None:
    plan = chain(BuiltinKind.SCRIPT)
    plan = plan.model_copy(update={"steps": (plan.steps[0].model_copy(update={"policy": StepPolicy(regenerations=1)}),)})
    regenerator = WatchingRegenerator(settings)
    runner = FakeRunner({"s0": [Fail(ErrorClass.CODE_ERROR, "boom")]}, contained=True)
    run_id = create_run(plan, {}, settings)
    summary = await execute_run(run_id, settings, runners={"script": runner}, regenerator=regenerator, clock=FakeClock())
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    assert {("attempt_started", "s0"), ("attempt_failed", "s0")} <= regenerator.seen


class OneFailsOthersWait:
    """Contained; item 0 fails after 0.1 s, the other items wait for `release`."""

    kind = "script"

    def __init__(self) -> None:
        self.release = asyncio.Event()

    def contained(self, skill: BoundSkill) -> bool:
        return True

    async def run(self, request: StepRequest) -> StepOutcome:
        if request.item_index == 0:  # after the timer that wrote the starts has fired
            await asyncio.sleep(0.1)
            return StepOutcome(failure=StepFailure(error_class=ErrorClass.INVALID_INPUT, message="bad item"))
        await self.release.wait()
        return StepOutcome(output={"item": request.item_index})

    async def aclose(self) -> None:
        return None


async def test_an_item_left_out_is_in_the_journal_while_the_other_items_still_run(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder, "FLUSH_DELAY_S", 0.01)
    plan = fake_plan([
        PlanStep(
            id="each", name="Each", skill="s", policy=StepPolicy(on_error="continue"),
            for_each=ForEach(item="v", source=InputBinding(source="literal", value=[0, 1, 2])),
        )
    ])
    runner = OneFailsOthersWait()
    run_id = create_run(plan, {}, settings)
    task = asyncio.ensure_future(execute_run(run_id, settings, runners={"script": runner}))  # the real clock
    try:
        seen: set[tuple[str, int | None]] = set()
        for _ in range(500):  # up to 5 s
            await asyncio.sleep(0.01)
            with Journal(settings.state_dir) as journal:
                seen = {(e.type, e.item) for e in journal.events(run_id)}
            if {("attempt_failed", 0), ("fallback_used", 0)} <= seen:
                break
        assert {("attempt_failed", 0), ("fallback_used", 0)} <= seen, sorted(seen, key=str)
        assert not task.done()  # items 1 and 2 are still running
    finally:
        runner.release.set()
    summary = await task
    assert summary.outputs["each"] == [{"item": 1}, {"item": 2}]
