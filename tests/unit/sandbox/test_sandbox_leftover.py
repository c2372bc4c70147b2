"""A killed run's leftover sandboxes are reaped by the next runner of that run; others are not."""

from __future__ import annotations

import subprocess
import sys
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


def sleeper(procs: list[subprocess.Popen[bytes]], *args: str, cwd: Path | None = None) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER, *args], cwd=cwd)
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
