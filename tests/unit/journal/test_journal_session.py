"""Journal sessions: one open journal per state directory for a block of engine calls."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.engine import create_run, execute_run, get_run, journal_session
from orchestrator.journal import Journal
from orchestrator.journal.session import JournalSession, use_journal
from orchestrator.plan.model import PlanStep
from orchestrator.testing import FakeRunner, fake_plan


def test_calls_in_a_session_share_one_journal_per_state_directory(tmp_path: Path) -> None:
    with journal_session():
        with use_journal(tmp_path / "a") as first, use_journal(tmp_path / "a") as again:
            assert first is again
        with use_journal(tmp_path / "b") as other:
            assert other is not first


def test_the_session_closes_its_journals_when_the_block_ends(tmp_path: Path) -> None:
    with journal_session():
        with use_journal(tmp_path) as journal:
            pass
        journal.run_dir("x")  # still usable after the inner block: the session holds it
        assert journal._conn.execute("SELECT 1").fetchone() == (1,)
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        journal._conn.execute("SELECT 1")


def test_outside_a_session_each_call_opens_and_closes_its_own(tmp_path: Path) -> None:
    with use_journal(tmp_path) as first:
        pass
    with use_journal(tmp_path) as second:
        assert second is not first


def test_a_nested_session_uses_the_outer_one(tmp_path: Path) -> None:
    with journal_session() as outer, journal_session() as inner:
        assert inner is outer


def test_another_thread_never_gets_the_sessions_connection(tmp_path: Path) -> None:
    seen: list[Journal] = []
    with journal_session(), use_journal(tmp_path) as mine:
        def other() -> None:
            with use_journal(tmp_path) as journal:
                seen.append(journal)

        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
    assert seen and seen[0] is not mine


def test_a_given_session_is_left_open_for_its_owner(tmp_path: Path) -> None:
    owned = JournalSession()
    with journal_session(owned), use_journal(tmp_path) as journal:
        pass
    assert journal._conn.execute("SELECT 1").fetchone() == (1,)  # still open: the owner closes it
    owned.close()


async def test_runs_created_and_executed_in_one_session_match_runs_without_one(tmp_path: Path) -> None:
    plan = fake_plan(PlanStep(id=f"s{i}", name=f"s{i}", skill="work", depends_on=(f"s{i - 1}",) if i else ()) for i in range(3))
    runner = FakeRunner()
    settings = Settings(state_dir=tmp_path / "state")
    with journal_session() as session:
        run_id = create_run(plan, {}, settings)
        summary = await execute_run(run_id, settings, runners={"script": runner})
        assert len(session._open) == 1  # create, execute and the summary used one journal
    assert summary.status.value == "succeeded"
    assert get_run(run_id, settings).model_dump() == summary.model_dump()
