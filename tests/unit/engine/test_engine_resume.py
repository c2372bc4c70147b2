"""Resume = replay: cut a finished run's journal at every event, resume each cut.

Whatever prefix of the journal survived a crash, resuming it must give the
outputs of the uninterrupted run without running again anything recorded as
done, and must reuse recorded decisions (regenerated code) instead of asking again.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, approve_step, create_run, execute_run, get_run, list_runs
from orchestrator.errors import ConfigError, NotFoundError, ResumeError
from orchestrator.hints import Hint, HintAction
from orchestrator.journal import Journal
from orchestrator.journal.events import Event, RunStarted
from orchestrator.plan.model import ForEach, InputBinding, Plan, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, Limits, RetryPolicy
from orchestrator.runner import StepRequest
from orchestrator.testing import (
    Call,
    Fail,
    FakeClock,
    FakeRegenerator,
    FakeRunner,
    fake_plan,
    fake_skill,
)


def compute(request: StepRequest) -> Any:
    """A deterministic skill: the output depends on the step and its input only."""
    return {"step": request.step_id, "sum": sum(_numbers(request.input)), "item": request.item_index}


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


def workflow() -> Plan:
    return fake_plan(
        [
            PlanStep(id="a", name="A", skill="s", inputs={"n": InputBinding(source="input", name="n")}),
            PlanStep(
                id="b",
                name="B",
                skill="s",
                inputs={"x": InputBinding(source="step", step="a", pointer="/sum")},
                policy=StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1,))),
            ),
            PlanStep(
                id="each",
                name="Each",
                skill="s",
                for_each=ForEach(item="v", source=InputBinding(source="literal", value=[1, 2, 3])),
                inputs={"v": InputBinding(source="item"), "base": InputBinding(source="step", step="a", pointer="/sum")},
            ),
            PlanStep(
                id="merge",
                name="Merge",
                skill="s",
                inputs={
                    "b": InputBinding(source="step", step="b"),
                    "each": InputBinding(source="step", step="each"),
                },
            ),
        ],
        inputs=[PlanInput(name="n")],
    )


def copy_prefix(source: Settings, target: Settings, run_id: str, plan: Plan, events: list[Event], n: int) -> None:
    """A state dir holding the first `n` events of `run_id`, as a crash would have left it."""
    create_run(plan, {"n": 5}, target, run_id=run_id)
    with Journal(target.state_dir) as journal:
        journal.append(run_id, [e.model_copy(update={"seq": None}) for e in events[1:n]])
    src_dir = Path(source.state_dir) / "runs" / run_id
    dst_dir = Path(target.state_dir) / "runs" / run_id
    for path in src_dir.rglob("*"):
        if path.is_file():
            (dst_dir / path.relative_to(src_dir)).parent.mkdir(parents=True, exist_ok=True)
            (dst_dir / path.relative_to(src_dir)).write_bytes(path.read_bytes())


def done_units(events: list[Event]) -> set[tuple[str | None, int | None]]:
    return {(e.step, e.item) for e in events if e.type == "output_stored"}


async def test_resuming_any_prefix_of_the_journal_gives_the_same_outputs_and_reruns_nothing_done(
    tmp_path: Path,
) -> None:
    plan = workflow()
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {"n": 5}, original)
    first = FakeRunner({"b": [Fail(ErrorClass.TRANSIENT, "blip")]}, default=Call(compute))
    expected = await execute_run(run_id, original, runners={"script": first}, clock=FakeClock())
    assert expected.status is RunStatus.SUCCEEDED
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    assert len(events) > 20

    for n in range(1, len(events)):  # every cut but the complete journal
        target = Settings(state_dir=tmp_path / f"cut{n}")
        copy_prefix(original, target, run_id, plan, events, n)
        runner = FakeRunner(default=Call(compute))
        resumed = await execute_run(run_id, target, runners={"script": runner}, clock=FakeClock())
        assert resumed.status is RunStatus.SUCCEEDED, (n, resumed.error)
        assert resumed.outputs == expected.outputs, n
        rerun = {(r.step_id, r.item_index) for r in runner.requests}
        assert not rerun & done_units(events[:n]), (n, events[n - 1].type)


async def test_a_resumed_run_reuses_its_regenerated_code_and_never_asks_again(tmp_path: Path) -> None:
    plan = fake_plan([PlanStep(id="fix", name="Fix", skill="s", policy=StepPolicy(regenerations=2))])
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {}, original)

    def crash_after_regeneration(request: StepRequest) -> Any:
        if request.script_override is None:
            return Fail(ErrorClass.CODE_ERROR, "boom")
        return {"code": request.script_override.read_text()}

    runner = FakeRunner(default=Call(crash_after_regeneration))
    await execute_run(run_id, original, runners={"script": runner}, regenerator=FakeRegenerator(["v2 = 1\n"]))
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    cut = next(i for i, e in enumerate(events) if e.type == "regeneration") + 1

    target = Settings(state_dir=tmp_path / "cut")
    create_run(plan, {}, target, run_id=run_id)
    with Journal(target.state_dir) as journal:
        journal.append(run_id, [e.model_copy(update={"seq": None}) for e in events[1:cut]])
    for path in (Path(original.state_dir) / "runs" / run_id).rglob("*.py"):
        dest = Path(target.state_dir) / "runs" / run_id / path.relative_to(Path(original.state_dir) / "runs" / run_id)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(path.read_bytes())

    never = FakeRegenerator([])
    resumed = await execute_run(
        run_id, target, runners={"script": FakeRunner(default=Call(crash_after_regeneration))}, regenerator=never
    )
    assert resumed.status is RunStatus.SUCCEEDED
    assert resumed.outputs["fix"] == {"code": "v2 = 1\n"}
    assert never.requests == []
    assert resumed.step("fix").regenerations == 1


async def test_only_the_unfinished_items_of_a_for_each_run_again(tmp_path: Path) -> None:
    plan = workflow()
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {"n": 5}, original)
    await execute_run(run_id, original, runners={"script": FakeRunner(default=Call(compute))}, clock=FakeClock())
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    stored_items = [i for i, e in enumerate(events) if e.type == "output_stored" and e.step == "each"]
    cut = stored_items[1] + 1  # two of the three items are done
    target = Settings(state_dir=tmp_path / "cut")
    copy_prefix(original, target, run_id, plan, events, cut)
    runner = FakeRunner(default=Call(compute))
    await execute_run(run_id, target, runners={"script": runner}, clock=FakeClock())
    assert [r.item_index for r in runner.requests if r.step_id == "each"] == [2]


async def test_an_attempt_in_flight_at_the_crash_runs_again_as_a_new_attempt(tmp_path: Path) -> None:
    plan = workflow()
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {"n": 5}, original)
    await execute_run(run_id, original, runners={"script": FakeRunner(default=Call(compute))}, clock=FakeClock())
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    cut = next(i for i, e in enumerate(events) if e.type == "attempt_started" and e.step == "b") + 1
    target = Settings(state_dir=tmp_path / "cut")
    copy_prefix(original, target, run_id, plan, events, cut)
    runner = FakeRunner(default=Call(compute))
    summary = await execute_run(run_id, target, runners={"script": runner}, clock=FakeClock())
    b_request = next(r for r in runner.requests if r.step_id == "b")
    assert b_request.attempt == 2
    assert b_request.idempotency_key == f"{run_id}:b:2"
    assert summary.step("b").attempts == 2


def two_steps(limits: Limits) -> Plan:
    return fake_plan(
        [
            PlanStep(id="a", name="A", skill="s", inputs={"n": InputBinding(source="input", name="n")}),
            PlanStep(id="b", name="B", skill="s", inputs={"x": InputBinding(source="step", step="a", pointer="/sum")}),
        ],
        inputs=[PlanInput(name="n", schema={"type": "integer"})],
        limits=limits,
    )


async def crash_during_b_then_resume(tmp_path: Path, plan: Plan, resume_clock: FakeClock) -> Any:
    original = Settings(state_dir=tmp_path / "original")
    run_id = create_run(plan, {"n": 5}, original)
    clock = FakeClock()
    await execute_run(run_id, original, runners={"script": FakeRunner(default=Call(compute))}, clock=clock)
    with Journal(original.state_dir) as journal:
        events = journal.events(run_id)
    cut = next(i for i, e in enumerate(events) if e.type == "attempt_started" and e.step == "b") + 1
    target = Settings(state_dir=tmp_path / "cut")
    copy_prefix(original, target, run_id, plan, events, cut)
    return await execute_run(run_id, target, runners={"script": FakeRunner(default=Call(compute))}, clock=resume_clock)


async def test_an_attempt_a_crash_cut_short_is_not_held_against_the_attempt_limits(tmp_path: Path) -> None:
    plan = two_steps(Limits(max_total_attempts=2, max_attempts_per_step=1))
    summary = await crash_during_b_then_resume(tmp_path, plan, FakeClock())
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    assert summary.step("b").attempts == 2  # the cut-short attempt is still reported


async def test_the_time_between_a_crash_and_the_resume_does_not_count_as_wall_time(tmp_path: Path) -> None:
    plan = two_steps(Limits(wall_time_s=100))
    later = FakeClock(start=FakeClock().start + 10_000)  # resumed hours after the crash
    summary = await crash_during_b_then_resume(tmp_path, plan, later)
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    assert summary.totals.active_s < 100


# -- refusals -------------------------------------------------------------------------


def skill_plan(folder: Path) -> Plan:
    (folder / "scripts").mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text("---\nname: tool\ndescription: t\n---\nbody\n")
    (folder / "scripts" / "main.py").write_text("print('{}')\n")
    skill = fake_skill("tool", path=str(folder), entry="scripts/main.py")
    return fake_plan([PlanStep(id="a", name="A", skill="tool")], skills={"tool": skill})


def pause_midway(settings: Settings, run_id: str) -> None:
    """Leave the run as a crashed process would: started, nothing finished."""
    with Journal(settings.state_dir) as journal:
        journal.append(run_id, [RunStarted(ts=time.time(), pid=2**22 + 17, host=socket.gethostname())])


async def test_resuming_after_a_skill_changed_is_refused_unless_forced(tmp_path: Path, settings: Settings) -> None:
    folder = tmp_path / "tool"
    run_id = create_run(skill_plan(folder), {}, settings)
    pause_midway(settings, run_id)
    (folder / "scripts" / "main.py").write_text("print('{\"changed\": true}')\n")
    with pytest.raises(ResumeError, match="changed since it started: skill tool"):
        await execute_run(run_id, settings, runners={"script": FakeRunner()})
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, force=True)
    assert summary.status is RunStatus.SUCCEEDED


async def test_a_run_held_by_a_live_process_is_not_resumed(settings: Settings) -> None:
    run_id = create_run(fake_plan([PlanStep(id="a", name="A", skill="s")]), {}, settings)
    with Journal(settings.state_dir) as journal:
        journal.append(run_id, [RunStarted(ts=time.time(), pid=os.getppid(), host=socket.gethostname())])
    with pytest.raises(ResumeError, match=f"being executed by process {os.getppid()}"):
        await execute_run(run_id, settings, runners={"script": FakeRunner()})


async def test_a_finished_run_cannot_be_resumed(execute, settings: Settings) -> None:
    summary = await execute(fake_plan([PlanStep(id="a", name="A", skill="s")]), FakeRunner())
    with pytest.raises(ResumeError, match="already succeeded"):
        await execute_run(summary.run_id, settings, runners={"script": FakeRunner()})


async def test_an_unknown_run_is_not_found(settings: Settings) -> None:
    with pytest.raises(NotFoundError, match="no run 'nope'"):
        await execute_run("nope", settings)
    with pytest.raises(NotFoundError):
        get_run("nope", settings)


async def test_a_state_directory_without_a_journal_has_no_runs_and_is_left_uncreated(
    settings: Settings,
) -> None:
    # resume, approve and show in the wrong folder: told why, and no journal appears there
    said = "no run 'nope' in .* \\(no journal.db there\\)$"
    with pytest.raises(NotFoundError, match=said) as caught:
        await execute_run("nope", settings)
    assert caught.value.hint == Hint(action=HintAction.CHOOSE_STATE_DIR)  # another state directory may hold it
    with pytest.raises(NotFoundError, match=said):
        approve_step("nope", "a", settings)
    with pytest.raises(NotFoundError, match=said):
        get_run("nope", settings)
    assert not (settings.state_dir / "journal.db").exists()


async def test_runs_are_listed_newest_first_with_their_status(execute, settings: Settings) -> None:
    assert list_runs(settings) == []
    plan = fake_plan([PlanStep(id="a", name="A", skill="s")])
    first = await execute(plan, FakeRunner())
    second_id = create_run(plan, {}, settings, run_id="zz-later")
    listed = list_runs(settings)
    assert [r.run_id for r in listed] == [second_id, first.run_id]
    assert [r.status for r in listed] == [RunStatus.PENDING, RunStatus.SUCCEEDED]
    assert get_run(first.run_id, settings).outputs == first.outputs


async def test_a_damaged_event_names_its_run_and_the_other_runs_are_still_listed(execute, settings: Settings) -> None:
    plan = fake_plan([PlanStep(id="a", name="A", skill="s")])
    intact = await execute(plan, FakeRunner())
    damaged = await execute(plan, FakeRunner())
    db = Path(settings.state_dir) / "journal.db"
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE events SET data = '{bad' WHERE type = 'output_stored' AND run_id = ?", (damaged.run_id,)
        )
    with pytest.raises(ConfigError, match=f"event \\d+ of run {damaged.run_id} cannot be read.*damaged") as caught:
        get_run(damaged.run_id, settings)
    assert caught.value.where == str(db)
    listed = {r.run_id: r for r in list_runs(settings)}
    assert listed[intact.run_id].status is RunStatus.SUCCEEDED and listed[intact.run_id].error is None
    assert listed[damaged.run_id].status is RunStatus.SUCCEEDED  # as the runs table recorded it
    assert listed[damaged.run_id].error is not None and "damaged" in listed[damaged.run_id].error.message


async def test_a_run_cut_between_a_step_s_failure_and_its_own_fails_on_resume_instead_of_skipping_on(
    tmp_path: Path,
) -> None:
    plan = fake_plan([
        PlanStep(id="a", name="A", skill="s", policy=StepPolicy(compensation="undo")),
        PlanStep(id="b", name="B", skill="s", depends_on=("a",)),
        PlanStep(id="c", name="C", skill="s", inputs={"b": InputBinding(source="step", step="b")}),
    ])
    whole = Settings(state_dir=tmp_path / "whole")
    run_id = create_run(plan, {"n": 5}, whole)
    runner = FakeRunner({"b": [Fail(ErrorClass.INVALID_INPUT, "no such module")]})
    done = await execute_run(run_id, whole, runners={"script": runner}, clock=FakeClock())
    assert done.status is RunStatus.FAILED
    with Journal(whole.state_dir) as journal:
        events = journal.events(run_id)
    cut = next(i for i, e in enumerate(events) if e.type == "step_finished" and e.step == "b") + 1
    assert events[cut].type == "run_failing"  # what the crash loses

    resumed = Settings(state_dir=tmp_path / "cut")
    copy_prefix(whole, resumed, run_id, plan, events, cut)
    again = FakeRunner()
    summary = await execute_run(run_id, resumed, runners={"script": again}, clock=FakeClock())
    assert summary.status is RunStatus.FAILED
    assert summary.error is not None and summary.error.message == "step b failed: no such module"
    assert summary.step("c").status.value == "not_run"  # not skipped as if b had been left out
    assert summary.compensations == ("a: finished",)
    assert [r.step_id for r in again.requests] == ["a"]  # only a's compensation ran; nothing ran again
