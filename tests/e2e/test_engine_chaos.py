"""SIGKILL a real `skillweave run` at random points; `skillweave resume` must finish it.

The plan has 13 steps of real sandboxed scripts (an 11-step chain, a 6-item
`for each` beside it, a merge). The run is killed (the whole process group, as a
crash would) whenever the journal shows a randomly chosen amount of progress,
several times, and resumed each time. The final outputs must equal those of an
uninterrupted run, and no step or item recorded as completed before a kill may
start again after it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from engine_plans import (
    chaos_plan,
    read_events,
    sandboxes_under,
    skillweave,
    skillweave_command,
    write_plan,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

INPUTS = ("--input", "start=1", "--input", "numbers=[1, 2, 3, 4, 5, 6]")
KILLS = 4
SEED = 20240611
DEADLINE_S = 120


def _query(db: Path, sql: str) -> list[tuple[object, ...]]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=10)
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.OperationalError:  # created, not migrated yet
        return []
    finally:
        conn.close()


def _stored(db: Path) -> int:
    rows = _query(db, "SELECT count(*) FROM events WHERE type = 'output_stored'")
    return int(rows[0][0]) if rows else 0  # type: ignore[call-overload]


def _sessions(db: Path) -> int:
    rows = _query(db, "SELECT count(*) FROM events WHERE type = 'run_started'")
    return int(rows[0][0]) if rows else 0  # type: ignore[call-overload]


def _wait(predicate, proc: subprocess.Popen[str], deadline: float) -> None:
    while not predicate() and proc.poll() is None:
        if time.monotonic() > deadline:
            raise AssertionError("no progress before the deadline")
        time.sleep(0.01)


def _spawn(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        skillweave_command(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )


def test_a_run_killed_at_random_points_resumes_to_the_outputs_of_an_uninterrupted_run(tmp_path: Path) -> None:
    plan_file = write_plan(chaos_plan(sleep_ms=80), tmp_path)
    reference = skillweave("run", plan_file, *INPUTS, "--json", "--state-dir", tmp_path / "reference")
    assert reference.returncode == 0, reference.stderr
    expected = json.loads(reference.stdout)["outputs"]

    state = tmp_path / "state"
    db = state / "journal.db"
    rng = random.Random(SEED)
    total_outputs = 13 + 6 - 1  # every step and item stores one; the for-each step itself stores none
    kill_points = sorted(rng.sample(range(1, total_outputs - 1), KILLS))
    deadline = time.monotonic() + DEADLINE_S

    proc = _spawn("run", plan_file, *INPUTS, "--json", "--state-dir", state)
    snapshots: list[tuple[int, set[tuple[str, int | None]]]] = []
    run_id = ""
    for point in kill_points:
        _wait(lambda: bool(_query(db, "SELECT run_id FROM runs")), proc, deadline)
        run_id = run_id or str(_query(db, "SELECT run_id FROM runs")[0][0])
        # this session has begun (a resume started on a loaded host may not have, when the
        # outputs already reach the next point: a kill then would land before it did anything)
        sessions = len(snapshots) + 1
        _wait(lambda sessions=sessions: _sessions(db) >= sessions, proc, deadline)
        _wait(lambda point=point: _stored(db) >= point, proc, deadline)
        if proc.poll() is not None:
            break
        time.sleep(rng.uniform(0, 0.08))  # land anywhere: in an attempt, in a commit, between steps
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)  # reaps it and closes its pipe
        events = read_events(state, run_id)
        completed = {(step, item) for _, kind, step, item, _ in events if kind == "output_stored"}
        snapshots.append((events[-1][0], completed))
        proc = _spawn("resume", run_id, "--json", "--state-dir", state)

    out, _ = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
    assert proc.returncode == 0, out
    summary = json.loads(out)
    assert summary["status"] == "succeeded"
    assert summary["outputs"] == expected
    assert len(snapshots) >= 3, "the run finished before enough kills"

    events = read_events(state, run_id)
    for last_seq, completed in snapshots:
        restarted = {
            (step, item) for seq, kind, step, item, _ in events if seq > last_seq and kind == "attempt_started"
        }
        assert not restarted & completed, f"completed before the kill at seq {last_seq}, started again"
    stores = [(step, item) for _, kind, step, item, _ in events if kind == "output_stored"]
    assert len(stores) == len(set(stores)) == total_outputs
    sessions = [data for _, kind, _, _, data in events if kind == "run_started"]
    assert len(sessions) == len(snapshots) + 1
    retried = [data for _, kind, _, _, data in events if kind == "attempt_started" and data["attempt"] > 1]
    assert retried, "no kill caught an attempt in flight"
    assert sandboxes_under(state / "runs" / run_id / "work") == [], "a killed process's sandbox outlived it"
