"""The journal: migrations recorded once, events durable and in order, plans stored once."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import pytest

from orchestrator.contracts import Violation
from orchestrator.errors import NotFoundError
from orchestrator.journal import Journal
from orchestrator.journal.db import MIGRATIONS, applied_migrations, connect, migrate
from orchestrator.journal.events import (
    AttemptFailed,
    HandoffChecked,
    OutputStored,
    RunCreated,
    RunFinished,
    RunPaused,
    RunStarted,
    parse_event,
)


def created(plan_sha: str = "p" * 64, ts: float = 10.0) -> RunCreated:
    return RunCreated(ts=ts, plan_name="demo", plan_sha256=plan_sha, inputs={"x": 1})


def test_opening_applies_every_migration_once_and_records_it(tmp_path: Path) -> None:
    conn = connect(tmp_path / "journal.db")
    assert applied_migrations(conn) == [name for name, _ in MIGRATIONS]
    assert migrate(conn) == []  # nothing left to apply
    conn.close()
    again = connect(tmp_path / "journal.db")
    assert applied_migrations(again) == [name for name, _ in MIGRATIONS]
    again.close()


def test_the_database_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    conn = connect(tmp_path / "journal.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    conn.close()


def test_events_come_back_in_order_with_their_sequence_numbers(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: '{"plan": 1}', {"x": 1}, created())
        journal.append(
            "r1",
            [
                RunStarted(ts=11, pid=1, host="h"),
                AttemptFailed(ts=12, step="a", attempt=1, error_class="transient", message="reset"),
                HandoffChecked(
                    ts=13, step="a", direction="output", ok=False,
                    violations=(Violation(pointer="/x", expected='type: "string"', actual="1", message="bad"),),
                ),
            ],
        )
        events = journal.events("r1")
        assert [e.type for e in events] == ["run_created", "run_started", "attempt_failed", "handoff_checked"]
        assert [e.seq for e in events] == sorted(e.seq for e in events)
        assert events[3].violations[0].pointer == "/x"
        assert [e.type for e in journal.events("r1", after=events[1].seq or 0)] == ["attempt_failed", "handoff_checked"]


def test_the_run_row_follows_the_run_status(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        assert journal.run("r1").status == "pending"
        journal.append("r1", [RunStarted(ts=11, pid=1, host="h")])
        assert journal.run("r1").status == "running"
        journal.append("r1", [RunPaused(ts=12, awaiting=("gate",))])
        assert journal.run("r1").status == "paused"
        journal.append("r1", [RunFinished(ts=13, status="failed", message="boom")])
        record = journal.run("r1")
        assert (record.status, record.updated_at) == ("failed", 13)


def test_a_plan_is_stored_once_however_many_runs_use_it(tmp_path: Path) -> None:
    calls: list[int] = []

    def plan_json() -> str:
        calls.append(1)
        return '{"name": "demo"}'

    with Journal(tmp_path) as journal:
        journal.create_run("r1", plan_json, {}, created())
        journal.create_run("r2", plan_json, {}, created(ts=20))
        assert len(calls) == 1
        assert journal.plan_json("r2") == '{"name": "demo"}'
        assert [r.run_id for r in journal.runs()] == ["r2", "r1"]


def test_a_second_run_with_the_same_id_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        with pytest.raises(ValueError, match="already exists"):
            journal.create_run("r1", lambda: "{}", {}, created())
        assert len(journal.events("r1")) == 1


def test_an_unknown_run_is_not_found(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal, pytest.raises(NotFoundError, match="no run 'x'"):
        journal.run("x")


def test_a_committed_event_is_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append("r1", [OutputStored(ts=11, step="a", output={"big": "x" * 10})])
        other = sqlite3.connect(tmp_path / "journal.db")
        try:
            rows = other.execute("SELECT type FROM events WHERE run_id = 'r1' ORDER BY seq").fetchall()
        finally:
            other.close()
    assert rows == [("run_created",), ("output_stored",)]


def test_the_step_item_and_attempt_columns_hold_null_where_an_event_has_none(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append(
            "r1",
            [
                RunStarted(ts=11, pid=1, host="h"),
                OutputStored(ts=12, step="a", item=0, attempt=1, output={}),
                AttemptFailed(ts=13, step="b", attempt=2, error_class="transient", message="reset"),
            ],
        )
        other = sqlite3.connect(tmp_path / "journal.db")
        try:
            rows = other.execute("SELECT type, step, item, attempt FROM events WHERE run_id = 'r1' ORDER BY seq").fetchall()
        finally:
            other.close()
    assert rows == [
        ("run_created", None, None, None),
        ("run_started", None, None, None),
        ("output_stored", "a", 0, 1),  # item 0 is an item, not an absent one
        ("attempt_failed", "b", None, 2),
    ]


def test_blobs_are_written_whole_under_the_run_dir(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        digest = journal.store_blob("r1", "outputs/a-1.json", b'{"x": 1}')
        assert journal.load_output("r1", "outputs/a-1.json") == {"x": 1}
        assert len(digest) == 64
        assert not list((tmp_path / "runs" / "r1" / "outputs").glob(".*.tmp"))


def test_unknown_fields_in_old_events_are_ignored_on_replay() -> None:
    event = parse_event('{"type": "step_ready", "ts": 1.0, "step": "a", "added_later": true}', seq=7)
    assert (event.type, event.step, event.seq) == ("step_ready", "a", 7)


def test_an_output_too_big_to_keep_inline_goes_to_a_file_before_its_event(tmp_path: Path) -> None:
    from orchestrator.journal import INLINE_OUTPUT_LIMIT

    big = {"text": "x" * (INLINE_OUTPUT_LIMIT + 1)}
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append("r1", [OutputStored(ts=11, step="a", item=2, attempt=3, output=big), OutputStored(ts=12, step="b", output=[1])])
        stored, small = journal.events("r1")[1:]
        assert (stored.output, stored.path) == (None, "outputs/a.2-3.json")
        assert stored.size > INLINE_OUTPUT_LIMIT and len(stored.sha256) == 64
        assert journal.load_output("r1", stored.path) == big
        assert (small.output, small.path) == ([1], None)


def test_a_run_started_by_another_process_meanwhile_cannot_be_claimed(tmp_path: Path) -> None:
    from orchestrator.errors import ResumeError

    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        loaded = journal.events("r1")[-1].seq
        journal.append("r1", [RunStarted(ts=11, pid=1, host="other")], unless_started_after=loaded)
        with pytest.raises(ResumeError, match="started by another process"):
            journal.append("r1", [RunStarted(ts=12, pid=2, host="me")], unless_started_after=loaded)
        assert [e.type for e in journal.events("r1")] == ["run_created", "run_started"]


def test_an_output_just_under_the_limit_stays_inline_though_its_event_is_over(tmp_path: Path) -> None:
    from orchestrator.journal import INLINE_OUTPUT_LIMIT

    near = {"text": "x" * (INLINE_OUTPUT_LIMIT - 20)}
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append("r1", [OutputStored(ts=11, step="a", attempt=1, output=near)])
        stored = journal.events("r1")[1]
        assert (stored.output, stored.path) == (near, None)


def test_an_output_json_cannot_carry_is_stored_readably(tmp_path: Path) -> None:
    odd = {"lone": "a\ud800b", "when": date(2026, 1, 2), "tags": {"x"}, 1: "int key"}
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append("r1", [OutputStored(ts=11, step="a", attempt=1, output=odd)])
        stored = journal.events("r1")[1]
        assert stored.output == {"lone": "a\ufffdb", "when": "2026-01-02", "tags": ["x"], "1": "int key"}


def test_a_journal_of_the_first_schema_keeps_its_runs_readable_and_appendable(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    old = sqlite3.connect(path, isolation_level=None)
    for statement in filter(str.strip, MIGRATIONS[0][1].split(";")):
        old.execute(statement)
    old.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    old.execute("INSERT INTO _migrations VALUES (?, 0)", (MIGRATIONS[0][0],))
    old.execute("INSERT INTO plans VALUES ('p', '{}', 0)")
    for run_id in ("r1", "r2"):
        old.execute("INSERT INTO runs VALUES (?, 'demo', 'p', 'running', 0, 0, '{}')", (run_id,))
    for seq, (run_id, step) in enumerate([("r1", "a"), ("r2", "a"), ("r1", "b"), ("r2", "b")], start=1):
        data = f'{{"type": "step_ready", "ts": {seq}, "step": "{step}"}}'
        old.execute("INSERT INTO events VALUES (?, ?, 'step_ready', ?, NULL, NULL, ?, ?)", (seq, run_id, step, seq, data))
    old.close()
    with Journal(tmp_path) as journal:
        assert [e.step for e in journal.events("r1")] == ["a", "b"]
        journal.append("r1", [RunStarted(ts=9, pid=1, host="h")])
        events = journal.events("r2") + journal.events("r1")
        assert [(e.step, e.type) for e in events] == [
            ("a", "step_ready"), ("b", "step_ready"), ("a", "step_ready"), ("b", "step_ready"), (None, "run_started"),
        ]
        journal.create_run("r3", lambda: "{}", {}, created())
        assert journal.events("r3")[0].seq > max(e.seq or 0 for e in events)
        assert [e.type for e in journal.events("r1", after=events[3].seq or 0)] == ["run_started"]


def test_runs_appended_to_in_turn_keep_their_events_apart_and_in_order(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.create_run("r2", lambda: "{}", {}, created())
        for ts in range(3):
            for run_id in ("r1", "r2"):
                journal.append(run_id, [AttemptFailed(ts=ts, step=run_id, attempt=ts, error_class="transient", message="x")])
        for run_id in ("r1", "r2"):
            events = journal.events(run_id)
            assert [e.step for e in events[1:]] == [run_id] * 3
            assert [e.attempt for e in events[1:]] == [0, 1, 2]
            assert [e.seq for e in events] == sorted(e.seq or 0 for e in events)
        assert journal.events("nope") == []


def test_two_journals_appending_to_one_run_in_turn_lose_nothing(tmp_path: Path) -> None:
    # each keeps the run's last sequence number in memory; the other's writes make it stale
    with Journal(tmp_path) as first, Journal(tmp_path) as second:
        first.create_run("r1", lambda: "{}", {}, created())
        for attempt in range(1, 7):
            writer = first if attempt % 3 else second
            writer.append("r1", [AttemptFailed(ts=attempt, step="a", attempt=attempt, error_class="transient", message="x")])
        events = second.events("r1")
    assert [e.attempt for e in events[1:]] == [1, 2, 3, 4, 5, 6]
    assert [e.seq for e in events] == [events[0].seq + i for i in range(7)]


def _stored_rows(db_path: Path, run_id: str) -> list[tuple[object, ...]]:
    other = sqlite3.connect(db_path)
    try:
        return other.execute(
            "SELECT type, step, item, attempt, ts, data FROM events WHERE run_id = ? ORDER BY seq", (run_id,)
        ).fetchall()
    finally:
        other.close()


def _some_events(n: int) -> list[OutputStored | AttemptFailed]:
    return [
        OutputStored(ts=20 + i, step="s", item=i if i % 2 else None, attempt=1, output={"i": i})
        if i % 3
        else AttemptFailed(ts=20 + i, step="s", attempt=i, error_class="transient", message="reset")
        for i in range(n)
    ]


def test_a_few_events_in_one_statement_are_stored_as_a_full_transaction_stores_them(tmp_path: Path) -> None:
    # a commit of a few events is one INSERT, a large one a transaction; the rows must not differ
    events = _some_events(24)
    with Journal(tmp_path) as journal:
        journal.create_run("few", lambda: "{}", {}, created())
        journal.create_run("many", lambda: "{}", {}, created())
        for start in range(0, 24, 3):
            journal.append("few", events[start : start + 3])
        journal.append("many", events)
        seqs = [e.seq or 0 for e in journal.events("few")]
    assert _stored_rows(tmp_path / "journal.db", "few") == _stored_rows(tmp_path / "journal.db", "many")
    assert len(seqs) == 25 and seqs == list(range(seqs[0], seqs[0] + 25))


def test_a_commit_refused_by_another_writers_lock_writes_nothing_and_the_next_one_follows_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.journal import db

    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 50)
    events = _some_events(3)
    with Journal(tmp_path) as journal:
        journal.create_run("r1", lambda: "{}", {}, created())
        journal.append("r1", events[:1])
        blocker = sqlite3.connect(tmp_path / "journal.db", isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                journal.append("r1", events[1:])
            assert [e.type for e in journal.events("r1")] == ["run_created", events[0].type]
            blocker.execute("ROLLBACK")
        finally:
            blocker.close()
        journal.append("r1", events[1:])
        stored = journal.events("r1")
    assert [e.ts for e in stored] == [10.0, 20, 21, 22]
    assert [e.seq for e in stored] == [(stored[0].seq or 0) + i for i in range(4)]


def test_a_file_write_that_fails_leaves_no_temporary_file_and_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.journal import store

    def full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "replace", full)
    target = tmp_path / "outputs" / "big.json"
    with pytest.raises(OSError) as caught:
        store.write_file_atomically(target, b"{}")
    assert (caught.value.errno, caught.value.filename) == (28, str(target))
    assert list((tmp_path / "outputs").iterdir()) == []


class FullDisk:
    """The journal's connection, whose COMMIT fails as SQLite's does on a full disk: the
    transaction is rolled back already when the error arrives."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: object) -> object:
        if sql == "COMMIT":
            self._conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)


def test_a_commit_the_disk_refused_reports_the_disk_not_a_failed_rollback(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    try:
        run_id = "20260101-000000-aaaaaa"
        journal.create_run(run_id, lambda: "{}", {}, RunCreated(ts=1.0, plan_name="p", plan_sha256="0" * 64))
        journal._conn = FullDisk(journal._conn)  # type: ignore[assignment]
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):  # not "no transaction is active"
            journal.append(run_id, [RunStarted(ts=2.0, pid=1, host="h")])
        journal._conn = journal._conn._conn  # type: ignore[attr-defined]
        assert [e.type for e in journal.events(run_id)] == ["run_created"]
    finally:
        journal.close()
