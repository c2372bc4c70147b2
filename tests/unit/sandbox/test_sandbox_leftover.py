"""A killed run's leftover sandboxes are reaped by the next runner of that run; others are not."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.sandbox import reap_leftovers

SLEEPER = "import time; time.sleep(60)"


@pytest.fixture
def spawned() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        proc.kill()
        proc.wait()


def unique_run_id() -> str:
    return f"r-{uuid.uuid4().hex[:12]}"


def sleeper(
    procs: list[subprocess.Popen[bytes]], *args: str, cwd: Path | None = None, run: str | None = None
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SKILLWEAVE_RUN_ID": run} if run else None
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER, *args], cwd=cwd, env=env)
    procs.append(proc)
    return proc


def test_a_process_naming_the_runs_work_dir_is_killed_and_others_are_left_alone(
    tmp_path: Path, spawned: list[subprocess.Popen[bytes]]
) -> None:
    work = tmp_path / "runs" / "r1" / "work"
    attempt = work / "skillweave-abc123"
    attempt.mkdir(parents=True)
    other = tmp_path / "runs" / "r2" / "work" / "skillweave-def456"
    other.mkdir(parents=True)
    bound = sleeper(spawned, "--bind", str(attempt), "/work")
    inside = sleeper(spawned, cwd=attempt)
    unrelated = sleeper(spawned, "--bind", str(other), "/work")
    sibling = sleeper(spawned, str(work) + "-not-this-run")

    killed = reap_leftovers(work)

    assert sorted(killed) == sorted([bound.pid, inside.pid])
    assert bound.wait(timeout=10) == -9
    assert inside.wait(timeout=10) == -9
    assert unrelated.poll() is None and sibling.poll() is None


def test_nothing_is_killed_when_nothing_is_left(tmp_path: Path) -> None:
    assert reap_leftovers(tmp_path / "runs" / "r1" / "work") == []


def test_given_the_run_id_a_process_naming_the_run_in_its_environment_is_killed(
    tmp_path: Path, spawned: list[subprocess.Popen[bytes]]
) -> None:
    # a daemonised child of a script run without a PID namespace, now elsewhere
    run = unique_run_id()  # tests on other workers run at the same time: never share a run id with them
    work = tmp_path / "runs" / run / "work"
    wandered = sleeper(spawned, cwd=tmp_path, run=run)
    other_run = sleeper(spawned, cwd=tmp_path, run=run + "0")
    assert reap_leftovers(work) == []  # without the run id only the work dirs count
    assert reap_leftovers(work, run) == [wandered.pid]
    assert wandered.wait(timeout=10) == -9
    assert other_run.poll() is None


def test_this_process_and_its_parents_are_spared_whatever_their_environment(
    tmp_path: Path, spawned: list[subprocess.Popen[bytes]]
) -> None:
    # a parent launched with the run's variables (a script that starts skillweave) is not a leftover
    run = unique_run_id()
    script = (
        "import os, sys; from orchestrator.sandbox import reap_leftovers; "
        f"print(reap_leftovers(__import__('pathlib').Path(sys.argv[1]), {run!r}))"
    )
    env = {**os.environ, "SKILLWEAVE_RUN_ID": run}
    parent = subprocess.run(
        [sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {script!r}, sys.argv[1]])",
         str(tmp_path / "work")],
        env=env, capture_output=True, text=True, timeout=60, check=True,
    )
    assert parent.stdout.strip() == "[]"
