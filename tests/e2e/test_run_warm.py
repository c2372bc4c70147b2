"""`skillweave run` from the warm CLI host (SKILLWEAVE_RUN_WARM=1): the same run, signals and all.

Real launchers with a warm folder per test; hosts stopped at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import proc_kit
import pytest
from proc_kit import children_of

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
SKILLS = Path(__file__).resolve().parent / "skills"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
WAIT_S = 90.0
SLOW_SPEC = """name: slow
description: square one number slowly
inputs:
  nums: {type: array}
steps:
  - id: sq
    skill: fan-square
    for_each: "n in nums"
    input:
      n: "{{ n }}"
      sleep_ms: 20000
"""


@pytest.fixture
def warm_dir(short_tmp: Path) -> Iterator[Path]:
    folder = short_tmp / "warm"  # a socket's path has a length limit
    yield folder
    for lock in folder.glob("*.lock"):
        with contextlib.suppress(OSError, ValueError, ProcessLookupError):
            os.kill(int(lock.read_text().strip()), signal.SIGKILL)


@pytest.fixture
def env(warm_dir: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    return {**clean, "SKILLWEAVE_WARM_DIR": str(warm_dir), "SKILLWEAVE_RUN_WARM": "1"}


def host_pid(warm_dir: Path) -> int:
    [lock] = warm_dir.glob("cli-*.lock")
    return int(lock.read_text().strip())


def state_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return "gone"



def wait_until(predicate: Callable[[], bool], what: str) -> None:
    proc_kit.wait_until(predicate, what, WAIT_S)


def run_seed(env: dict[str, str], state: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKILLWEAVE, "run", str(SEED), "--input", "module_name=json", "--state-dir", str(state), "--json"],
        capture_output=True, text=True, timeout=WAIT_S * 2, env=env, cwd=cwd, check=False,
    )  # fmt: skip


def test_a_hosted_run_is_the_same_run_and_later_ones_reuse_the_host(
    env: dict[str, str], warm_dir: Path, tmp_path: Path
) -> None:
    cold = run_seed({**env, "SKILLWEAVE_RUN_WARM": "0"}, tmp_path / "cold", tmp_path)
    first = run_seed(env, tmp_path / "first", tmp_path)
    host = host_pid(warm_dir)
    second = run_seed(env, tmp_path / "second", tmp_path)
    assert host_pid(warm_dir) == host
    for done in (cold, first, second):
        assert done.returncode == 0, done.stderr
        assert "step_finished            step-4#1 succeeded" in done.stderr
    summaries = [json.loads(done.stdout) for done in (cold, first, second)]
    assert {s["status"] for s in summaries} == {"succeeded"}
    assert summaries[1]["outputs"] == summaries[0]["outputs"] == summaries[2]["outputs"]
    assert (tmp_path / "second" / "runs" / summaries[2]["run_id"] / "report.md").is_file()


def slow_run(env: dict[str, str], tmp_path: Path) -> subprocess.Popen[str]:
    spec = tmp_path / "slow.yaml"
    spec.write_text(SLOW_SPEC)
    return subprocess.Popen(
        [SKILLWEAVE, "run", str(spec), "--skills-dir", str(SKILLS), "-i", "nums=[1]",
         "--state-dir", str(tmp_path / "state")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        process_group=0,  # a job of its own in our session, as a shell makes: never an orphaned
    )  # fmt: skip       # group, which the kernel does not stop with Ctrl-Z's signals


def until_started(process: subprocess.Popen[str]) -> list[str]:
    assert process.stderr is not None
    seen = []
    for line in process.stderr:  # bounded by the step's own sleep and the caller's timeouts
        seen.append(line)
        if "attempt_started" in line:
            break
    return seen


def test_ctrl_c_reaches_a_hosted_run_which_exits_130_naming_its_resume(
    env: dict[str, str], tmp_path: Path
) -> None:
    process = slow_run(env, tmp_path)
    try:
        seen = until_started(process)
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, "".join(seen) + rest
    assert "interrupted: run " in rest and "continue with: skillweave resume" in rest


def test_ctrl_z_stops_the_hosted_run_with_its_launcher_and_cont_goes_on(
    env: dict[str, str], warm_dir: Path, tmp_path: Path
) -> None:
    process = slow_run({**env}, tmp_path)
    try:
        until_started(process)
        [child] = [c for c in children_of(host_pid(warm_dir)) if state_of(c) != "gone"]
        process.send_signal(signal.SIGTSTP)
        wait_until(lambda: state_of(process.pid) == "T" and state_of(child) == "T", "both stopped")
        process.send_signal(signal.SIGCONT)
        wait_until(lambda: state_of(child) not in ("T", "t"), "the run went on")
        process.send_signal(signal.SIGINT)  # no need to wait out the step's sleep
        process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130
