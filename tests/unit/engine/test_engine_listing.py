"""Listing runs: a finished run's summary is kept in the journal and read back, not replayed."""

from __future__ import annotations

import pytest

from orchestrator.config import Settings
from orchestrator.engine import list_runs
from orchestrator.engine.listing import summary_form
from orchestrator.engine.state import RunState
from orchestrator.journal import Journal
from orchestrator.plan.model import PlanStep
from orchestrator.testing import FakeRunner, fake_plan

PLAN = fake_plan([PlanStep(id="a", name="A", skill="s"), PlanStep(id="b", name="B", skill="s", depends_on=("a",))])


async def test_a_finished_runs_summary_is_kept_and_read_back_without_a_replay(
    execute, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = await execute(PLAN, FakeRunner())
    first = list_runs(settings)
    assert [s.run_id for s in first] == [done.run_id]

    def no_replay(*args: object, **kwargs: object) -> RunState:
        raise AssertionError("a kept summary was replayed")

    monkeypatch.setattr(RunState, "replay", no_replay)
    assert list_runs(settings) == first
    assert first[0].steps[1].status.value == "succeeded" and first[0].outputs == {}


async def test_a_kept_summary_counts_only_for_the_events_and_the_form_it_was_made_from(
    execute, settings: Settings
) -> None:
    done = await execute(PLAN, FakeRunner())
    list_runs(settings)
    with Journal(settings.state_dir) as journal:
        last = journal.events(done.run_id)[-1].seq
        assert last is not None
        assert journal.kept_summary(done.run_id, summary_form()) is not None
        assert journal.kept_summary(done.run_id, "another-form") is None
        journal.keep_summary(done.run_id, summary_form(), last - 1, "{}")  # made before the last event
        assert journal.kept_summary(done.run_id, summary_form()) is None
        # a kept summary that no longer reads as one is made again
        journal.keep_summary(done.run_id, summary_form(), last, '{"not": "a summary"}')
    assert [s.status.value for s in list_runs(settings)] == ["succeeded"]


async def test_a_journal_this_process_cannot_write_keeps_nothing_and_still_lists(
    execute, settings: Settings
) -> None:
    done = await execute(PLAN, FakeRunner())
    with Journal(settings.state_dir) as journal:
        journal._conn.execute("PRAGMA query_only = ON")  # as a journal of another user's would be
        journal.keep_summary(done.run_id, summary_form(), 1, "{}")
        assert journal.kept_summary(done.run_id, summary_form()) is None
