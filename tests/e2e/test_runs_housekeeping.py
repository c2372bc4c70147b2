"""`skillweave runs prune` and `runs rm` through the real CLI, on journals of real runs.

Runs are made by the durable engine in this process (fake runners: hundreds of runs
in seconds) or by a real `skillweave run` (the live process that holds a run). What
must hold: finished runs go with their files, a running or paused run never goes
(nor one a live process executes, even with --force), and a prune killed with
SIGKILL half-way leaves a journal where every run is wholly there or wholly gone;
the next prune finishes the job, folders left behind included, and vacuums.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.engine import create_run, execute_run, journal_session
from orchestrator.journal import Journal
from orchestrator.journal.events import RunStarted
from orchestrator.plan.model import ApprovalPolicy, PlanStep, StepPolicy
from orchestrator.testing import Fail, FakeRunner, fake_plan

pytestmark = pytest.mark.e2e

RANGE = 1 << 32
F_SETPIPE_SZ = 1031


def _sw(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd, env=env, check=False)


def _command(*args: str | Path) -> list[str]:
    return [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]


@dataclass
class Made:
    finished: list[str]
    paused: str
    interrupted: str
    events: dict[str, int]  # run id -> how many events it has


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _make_runs(state: Path, finished: int, *, blob: int = 0) -> Made:
    """`finished` runs (every fourth fails), one paused at a gate, one interrupted (its process gone);
    each run's folder holds a log file. `blob`: bytes of input per run (to give the journal weight)."""
    settings = Settings(state_dir=state)
    plan = fake_plan([PlanStep(id="a", name="A", skill="s"), PlanStep(id="b", name="B", skill="s", depends_on=("a",))])
    gated = fake_plan(
        [PlanStep(id="a", name="A", skill="s"),
         PlanStep(id="b", name="B", skill="s", depends_on=("a",), policy=StepPolicy(approval=ApprovalPolicy()))],
        name="gated",
    )
    inputs: dict[str, Any] = {"blob": "x" * blob} if blob else {}

    async def make() -> Made:
        done = []
        with journal_session():
            for i in range(finished):
                runner = FakeRunner({"b": [Fail(message="no")]} if i % 4 == 3 else None)
                rid = create_run(plan, inputs, settings)
                await execute_run(rid, settings, runners={"script": runner})
                done.append(rid)
            paused = create_run(gated, {}, settings)
            await execute_run(paused, settings, runners={"script": FakeRunner()})
            interrupted = create_run(plan, {}, settings)
        with Journal(state) as journal:
            journal.append(interrupted, [RunStarted(ts=0, pid=_dead_pid(), host=socket.gethostname())])
            counts = {rid: len(journal.events(rid)) for rid in [*done, paused, interrupted]}
            for rid in counts:
                logs = journal.run_dir(rid) / "logs"
                logs.mkdir(parents=True, exist_ok=True)
                (logs / "b-1.stderr").write_text("a log line\n" * 20)
        return Made(done, paused, interrupted, counts)

    return asyncio.run(make())


def _statuses(state: Path) -> dict[str, str]:
    with sqlite3.connect(state / "journal.db") as conn:
        return dict(conn.execute("SELECT run_id, status FROM runs").fetchall())


def _assert_consistent(state: Path, made: Made) -> dict[str, str]:
    """Every run in the journal has all its events, summaries and plans; nothing of a gone run is left."""
    conn = sqlite3.connect(state / "journal.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        runs = conn.execute("SELECT run_id, seq_base, plan_sha256, status FROM runs").fetchall()
        for run_id, base, plan, _ in runs:
            count = conn.execute("SELECT count(*) FROM events WHERE seq >= ? AND seq < ?", (base, base + RANGE))
            assert count.fetchone()[0] == made.events[run_id], f"run {run_id} lost events"
            assert conn.execute("SELECT 1 FROM plans WHERE sha256 = ?", (plan,)).fetchone(), f"{run_id}: no plan"
        strays = conn.execute(
            "SELECT count(*) FROM events e WHERE NOT EXISTS "
            "(SELECT 1 FROM runs r WHERE e.seq >= r.seq_base AND e.seq < r.seq_base + ?)", (RANGE,)
        ).fetchone()[0]
        assert strays == 0, "events of removed runs are left"
        assert conn.execute(
            "SELECT count(*) FROM run_summaries s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.run_id = s.run_id)"
        ).fetchone()[0] == 0
        assert conn.execute(
            "SELECT count(*) FROM plans p WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.plan_sha256 = p.sha256)"
        ).fetchone()[0] == 0
        return {r[0]: r[3] for r in runs}
    finally:
        conn.close()


def test_prune_removes_finished_runs_and_their_files_and_keeps_the_paused_and_the_interrupted(tmp_path: Path) -> None:
    state = tmp_path / "state"
    made = _make_runs(state, 6)
    newest = made.finished[-1]
    dry = _sw("runs", "prune", "--older-than", "0", "--keep", "1", "--dry-run", "--json", "--state-dir", state,
              cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    listed = json.loads(dry.stdout)
    assert listed["dry_run"] and sorted(r["run_id"] for r in listed["removed"]) == sorted(made.finished[:-1])
    assert len(_statuses(state)) == 8  # nothing removed

    failed_only = _sw("runs", "prune", "--older-than", "0", "--status", "failed", "--state-dir", state, cwd=tmp_path)
    assert failed_only.returncode == 0, failed_only.stderr
    assert "removed 1 run" in failed_only.stdout.splitlines()[-1]  # the fourth run failed
    assert "2 running, paused or pending kept" in failed_only.stdout

    pruned = _sw("runs", "prune", "--older-than", "0", "--keep", "1", "--json", "--state-dir", state, cwd=tmp_path)
    assert pruned.returncode == 0, pruned.stderr
    result = json.loads(pruned.stdout)
    assert len(result["removed"]) == 4 and all(r["bytes"] > 0 for r in result["removed"])
    assert result["unfinished_kept"] == 2 and result["journal"]["vacuumed"] is False
    left = _assert_consistent(state, made)
    assert left == {newest: "succeeded", made.paused: "paused", made.interrupted: "running"}
    assert sorted(p.name for p in (state / "runs").iterdir()) == sorted(left)

    recent = _sw("runs", "prune", "--state-dir", state, cwd=tmp_path)  # default: finished 30 days ago
    assert recent.returncode == 0 and recent.stdout.startswith("removed 0 runs"), recent.stdout
    bad = _sw("runs", "prune", "--older-than", "a week", "--state-dir", state, cwd=tmp_path)
    assert bad.returncode == 2 and "--older-than takes an age such as 30d" in bad.stderr
    running = _sw("runs", "prune", "--status", "running", "--state-dir", state, cwd=tmp_path)
    assert running.returncode == 2 and "'running' is not one of" in running.stderr


def test_rm_refuses_paused_and_interrupted_runs_unless_forced(tmp_path: Path) -> None:
    state = tmp_path / "state"
    made = _make_runs(state, 1)
    one = made.finished[0]
    refused = _sw("runs", "rm", made.paused, made.interrupted, "no-such-run", "--state-dir", state, cwd=tmp_path)
    assert refused.returncode == 2
    assert f"run {made.paused} is paused awaiting approval" in refused.stderr
    assert f"run {made.interrupted} is running (or was interrupted)" in refused.stderr
    assert "no run 'no-such-run'" in refused.stderr
    assert len(_statuses(state)) == 3

    removed = _sw("runs", "rm", one, "--json", "--state-dir", state, cwd=tmp_path)
    assert removed.returncode == 0, removed.stderr
    assert [r["run_id"] for r in json.loads(removed.stdout)["removed"]] == [one]
    assert not (state / "runs" / one).exists()
    forced = _sw("runs", "rm", made.paused, made.interrupted, "--force", "--state-dir", state, cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert _statuses(state) == {} and list((state / "runs").iterdir()) == []


SLEEPER_SKILL = """\
---
name: qa-sleep
description: Test skill. Sleeps until killed.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "300"
---
Sleeps.
"""


def test_a_run_a_live_process_executes_is_never_removed_not_even_forced(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "qa-sleep"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SLEEPER_SKILL)
    (skill / "scripts" / "main.py").write_text("import time\ntime.sleep(300)\n")
    (tmp_path / "sleep.yaml").write_text("name: sleepy\nsteps:\n  - id: nap\n    skill: qa-sleep\n    input: {}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    proc = subprocess.Popen(_command("run", "sleep.yaml", "--state-dir", "state"), cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # progress lines, one per event: wait for the attempt to start
            if "attempt_started" in line:
                break
        else:
            pytest.fail("the run never started its attempt")
        (run_id,) = _statuses(tmp_path / "state")
        held = _sw("runs", "rm", run_id, "--force", "--state-dir", "state", cwd=tmp_path)
        assert held.returncode == 2
        assert f"run {run_id} is being executed by process {proc.pid}: it cannot be removed" in held.stderr
        pruned = _sw("runs", "prune", "--older-than", "0", "--json", "--state-dir", "state", cwd=tmp_path)
        assert pruned.returncode == 0 and json.loads(pruned.stdout)["removed"] == []
        assert _statuses(tmp_path / "state") == {run_id: "running"}
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()  # type: ignore[union-attr]
    gone = _sw("runs", "rm", run_id, "--force", "--state-dir", "state", cwd=tmp_path)  # its process is dead now
    assert gone.returncode == 0, gone.stderr
    assert _statuses(tmp_path / "state") == {} and not (tmp_path / "state" / "runs" / run_id).exists()


def test_a_prune_killed_half_way_leaves_every_run_whole_or_gone_and_the_next_one_finishes(tmp_path: Path) -> None:
    state = tmp_path / "state"
    made = _make_runs(state, 400, blob=6000)
    orphan = state / "runs" / "20200101-000000-dead00"  # a folder whose run is not in the journal
    (orphan / "logs").mkdir(parents=True)
    (orphan / "logs" / "x.stderr").write_text("left behind\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    proc = subprocess.Popen(_command("runs", "prune", "--older-than", "0", "--state-dir", state), cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    fcntl.fcntl(proc.stdout.fileno(), F_SETPIPE_SZ, 4096)  # a full pipe stops it well before the end
    first = proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert first.startswith("removed "), first + proc.stderr.read()  # type: ignore[union-attr]
    proc.stdout.close()
    proc.stderr.close()  # type: ignore[union-attr]

    left = _assert_consistent(state, made)
    assert 2 < len(left) < len(made.events), "the prune was not killed half-way"
    assert left[made.paused] == "paused" and left[made.interrupted] == "running"
    listed = _sw("runs", "--json", "--limit", "1000", "--state-dir", state, cwd=tmp_path)
    assert listed.returncode == 0 and len(json.loads(listed.stdout)["runs"]) == len(left)
    some = next(rid for rid, status in left.items() if status == "succeeded")
    shown = _sw("runs", "show", some, "--format", "json", "--state-dir", state, cwd=tmp_path)
    assert shown.returncode == 0 and json.loads(shown.stdout)["status"] == "succeeded"

    again = _sw("runs", "prune", "--older-than", "0", "--json", "--state-dir", state, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    result = json.loads(again.stdout)
    assert "20200101-000000-dead00" in [o["run_id"] for o in result["orphan_folders"]]
    assert result["journal"]["vacuumed"] is True
    assert result["journal"]["bytes_after"] < result["journal"]["bytes_before"] / 4
    assert _assert_consistent(state, made) == {made.paused: "paused", made.interrupted: "running"}
    assert sorted(p.name for p in (state / "runs").iterdir()) == sorted([made.paused, made.interrupted])
    assert (state / "journal.db").stat().st_size < result["journal"]["bytes_before"] / 4
