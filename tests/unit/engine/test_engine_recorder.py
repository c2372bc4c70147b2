"""Group commit: when events become durable, in what order, and what a failed write keeps."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from orchestrator.engine.recorder import FLUSH_DELAY_S, Recorder
from orchestrator.engine.state import RunState
from orchestrator.journal.events import AttemptStarted, Event, StepReady
from orchestrator.plan.model import PlanStep
from orchestrator.testing import fake_plan


class ListJournal:
    """Stands in for the SQLite journal: keeps each transaction as a list of event types."""

    def __init__(self) -> None:
        self.transactions: list[list[str]] = []
        self.fail_next = False

    def append(self, run_id: str, events: Sequence[Event], *, unless_started_after: int | None = None) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        self.transactions.append([f"{e.type}:{e.step}" for e in events])


def _recorder(steps: int = 3) -> tuple[Recorder, ListJournal]:
    plan = fake_plan(PlanStep(id=f"s{i}", name=f"s{i}", skill="noop") for i in range(steps))
    journal = ListJournal()
    return Recorder("run-1", RunState("run-1", plan), journal), journal  # type: ignore[arg-type]


def _started(step: str) -> AttemptStarted:
    return AttemptStarted(ts=0.0, step=step, attempt=1, idempotency_key=f"run-1:{step}:1", skill="noop")


async def test_a_commit_returns_with_every_earlier_event_written_in_order() -> None:
    recorder, journal = _recorder()
    recorder.emit(StepReady(ts=0.0, step="s0"))
    recorder.emit(_started("s0"))
    await recorder.commit()
    assert journal.transactions == [["step_ready:s0", "attempt_started:s0"]]


async def test_commits_asked_for_in_one_turn_of_the_loop_share_a_transaction() -> None:
    recorder, journal = _recorder(64)

    async def start(step: str) -> None:
        recorder.emit(_started(step))
        await recorder.commit()

    await asyncio.gather(*(start(f"s{i}") for i in range(64)))
    assert len(journal.transactions) == 2  # the first at once, the 63 others together
    assert [t for tx in journal.transactions for t in tx] == [f"attempt_started:s{i}" for i in range(64)]


async def test_a_chain_of_commits_writes_each_at_once() -> None:
    recorder, journal = _recorder()
    for i in range(3):
        recorder.emit(_started(f"s{i}"))
        await recorder.commit()
        assert len(journal.transactions) == i + 1  # durable before the next step is even emitted
        await asyncio.sleep(0)  # the next turn of the loop


async def test_a_task_going_on_to_its_next_step_writes_at_once_without_a_turn_of_the_loop() -> None:
    recorder, journal = _recorder()
    turns: list[int] = []
    asyncio.get_running_loop().call_soon(turns.append, 1)  # runs at the next turn of the loop
    for i in range(3):
        recorder.emit(_started(f"s{i}"))
        await recorder.commit()
        assert len(journal.transactions) == i + 1
        recorder.next_step()  # no asyncio.sleep(0) in between
    assert turns == []


async def test_without_next_step_a_second_commit_of_the_turn_waits_for_the_next_turn() -> None:
    recorder, journal = _recorder()
    turns: list[int] = []
    recorder.emit(_started("s0"))
    await recorder.commit()
    asyncio.get_running_loop().call_soon(turns.append, 1)
    recorder.emit(_started("s1"))
    await recorder.commit()
    assert turns == [1]  # the loop turned before the group write
    assert journal.transactions == [["attempt_started:s0"], ["attempt_started:s1"]]


async def test_next_step_lets_no_task_write_at_once_in_a_turn_another_task_wrote_in() -> None:
    recorder, journal = _recorder()

    async def start(step: str) -> None:
        recorder.emit(_started(step))
        recorder.next_step()  # s1 and s2 did not write this turn's commit: nothing changes for them
        await recorder.commit()

    await asyncio.gather(*(start(f"s{i}") for i in range(3)))
    assert journal.transactions == [["attempt_started:s0"], ["attempt_started:s1", "attempt_started:s2"]]


async def test_a_failed_write_keeps_its_events_for_the_next_commit() -> None:
    recorder, journal = _recorder()
    recorder.emit(_started("s0"))
    journal.fail_next = True
    with pytest.raises(OSError, match="disk full"):
        await recorder.commit()
    await asyncio.sleep(0)
    recorder.emit(_started("s1"))
    await recorder.commit()
    assert journal.transactions == [["attempt_started:s0", "attempt_started:s1"]]


async def test_a_failed_group_write_reaches_every_waiter() -> None:
    recorder, journal = _recorder()

    async def start(step: str) -> None:
        recorder.emit(_started(step))
        if step == "s1":
            journal.fail_next = True  # the group write of s1 and s2
        await recorder.commit()

    results = await asyncio.gather(*(start(f"s{i}") for i in range(3)), return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["NoneType", "OSError", "OSError"]
    recorder.flush()
    assert journal.transactions == [["attempt_started:s0"], ["attempt_started:s1", "attempt_started:s2"]]


async def test_a_queued_output_is_written_by_the_next_commit_or_the_final_flush() -> None:
    recorder, journal = _recorder()
    recorder.emit(StepReady(ts=0.0, step="s0"))
    recorder.soon()
    assert journal.transactions == []
    recorder.flush()
    assert journal.transactions == [["step_ready:s0"]]


async def test_a_timed_write_that_failed_reaches_the_next_caller_and_keeps_its_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("orchestrator.engine.recorder.FLUSH_DELAY_S", 0.0)
    recorder, journal = _recorder()
    recorder.emit(_started("s0"))
    journal.fail_next = True
    recorder.soon()
    await asyncio.sleep(0.01)  # the timer fires; its write fails, and nobody waits for it
    assert journal.transactions == []
    recorder.emit(_started("s1"))
    journal.fail_next = True
    with pytest.raises(OSError, match="disk full"):  # the next step learns of it, not the run's end
        recorder.soon()
    recorder.soon()  # the write works again: written at once, in order
    assert journal.transactions == [["attempt_started:s0", "attempt_started:s1"]]
    recorder.emit(_started("s2"))
    recorder.soon()  # and timed again
    assert journal.transactions == [["attempt_started:s0", "attempt_started:s1"]]
    await asyncio.sleep(0.01)
    assert journal.transactions[-1] == ["attempt_started:s2"]


async def test_queued_events_are_written_when_their_time_is_up_even_if_the_loop_never_turned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tasks that never wait (instant contained steps) keep the timer from firing:
    the first soon() after its time writes instead, so the queue stays bounded."""
    now = [1000.0]  # the recorder's clock, moved by hand: the loop's timer never comes due here
    monkeypatch.setattr("orchestrator.engine.recorder.monotonic", lambda: now[0])
    recorder, journal = _recorder()
    recorder.emit(_started("s0"))
    recorder.soon()
    now[0] += FLUSH_DELAY_S / 2
    recorder.emit(_started("s1"))
    recorder.soon()  # not yet due: queued
    assert journal.transactions == []
    now[0] += FLUSH_DELAY_S  # no turn of the loop
    recorder.emit(_started("s2"))
    recorder.soon()
    assert journal.transactions == [["attempt_started:s0", "attempt_started:s1", "attempt_started:s2"]]
    await asyncio.sleep(FLUSH_DELAY_S * 2)
    assert len(journal.transactions) == 1  # the timer was dropped with the write


async def test_a_listener_hears_of_an_event_only_once_it_is_durable() -> None:
    plan = fake_plan(PlanStep(id=f"s{i}", name=f"s{i}", skill="noop") for i in range(2))
    journal = ListJournal()
    heard: list[str] = []
    recorder = Recorder(
        "run-1", RunState("run-1", plan), journal, on_event=lambda e: heard.append(f"{e.type}:{e.step}")  # type: ignore[arg-type]
    )
    recorder.emit(StepReady(ts=0.0, step="s0"))
    recorder.emit(_started("s0"))
    assert heard == []  # a progress line must not announce what a SIGKILL now would lose
    journal.fail_next = True
    with pytest.raises(OSError):
        await recorder.commit()
    assert heard == []
    await recorder.commit()
    assert heard == ["step_ready:s0", "attempt_started:s0"]


def test_without_a_journal_a_listener_hears_of_each_event_at_once() -> None:
    plan = fake_plan([PlanStep(id="s0", name="s0", skill="noop")])
    heard: list[str] = []
    recorder = Recorder("run-1", RunState("run-1", plan), None, on_event=lambda e: heard.append(e.type))
    recorder.emit(StepReady(ts=0.0, step="s0"))
    assert heard == ["step_ready"]


def test_a_retry_line_says_when_and_after_what_not_an_empty_error() -> None:
    from orchestrator.engine.recorder import describe
    from orchestrator.journal.events import RetryScheduled

    event = RetryScheduled(ts=0.0, step="s0", attempt=1, delay_s=0.5, not_before=0.5, error_class="timeout")
    assert describe(event) == "retry in 0.50s after timeout"
