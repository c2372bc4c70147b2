"""A full disk while a script's artifacts are copied, through a real `skillweave run`.

The state directory sits on a small tmpfs (root only; skipped elsewhere). A script
writes a file that fits in its work directory but whose copy into the run's
artifact folder does not: the run stops with one line naming the file and the
`resume` command (as a full disk while storing an output does), no truncated
artifact is left or listed, and once there is space `resume` runs the step again
and lists the whole file.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_plans import skillweave_command, write_plan
from sandbox_modes import write_script

from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.build import seal
from orchestrator.plan.model import (
    InputBinding,
    Plan,
    PlanInput,
    PlanStep,
    SpecRef,
)
from orchestrator.policy import Limits
from orchestrator.sandbox import Isolation, probe_isolation

pytestmark = [pytest.mark.e2e]

WAIT_S = 120.0
BIG = 5 << 20  # fits the 8 MB disk once (the work directory), not twice (its copy)

WRITER = """
import json, sys
size = json.load(sys.stdin)["size"]
with open("big.bin", "wb") as f:
    f.write(b"x" * size)
json.dump({"written": size}, sys.stdout)
"""


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


def _sw(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_STATE", "SKILLWEAVE_SANDBOX"))}
    return subprocess.run(skillweave_command(*args), capture_output=True, text=True, timeout=WAIT_S,
                          env=env, check=False)  # fmt: skip


def _plan(folder: Path) -> Plan:
    writer = BoundSkill(name="writer", kind=BuiltinKind.SCRIPT, path=str(folder), origin="dir", sha256="0",
                        entry="main.py", timeout_s=30)  # fmt: skip
    step = PlanStep(id="write", name="write", skill="writer",
                    inputs={"size": InputBinding(source="input", name="size")})  # fmt: skip
    return seal(
        Plan(
            name="artifact-disk",
            spec=SpecRef(path="<qa>", sha256="0" * 64, format="yaml"),
            inputs=(PlanInput(name="size", schema={"type": "integer"}),),
            steps=(step,),
            skills={"writer": writer},
            limits=Limits(concurrency=1),
        )
    )


def test_a_full_disk_while_copying_artifacts_stops_the_run_and_resume_finishes_it(
    tmp_path: Path, small_disk: Path
) -> None:
    reason = probe_isolation(Isolation.BWRAP)
    if reason is not None:
        pytest.skip(f"bwrap cannot run scripts here: {reason}")
    folder = tmp_path / "writer"
    write_script(folder, WRITER)
    folder.chmod(0o755)
    state = small_disk / "state"
    plan_file = write_plan(_plan(folder), tmp_path)
    first = _sw("run", plan_file, "-i", f"size={BIG}", "--state-dir", state)
    assert first.returncode == 1, first.stderr
    assert "Traceback" not in first.stderr and "internal error" not in first.stderr
    lines = [line for line in first.stderr.splitlines() if "No space left on device" in line]
    assert len(lines) == 1, first.stderr
    run_id = lines[0].split("run ", 1)[1].split(" stopped", 1)[0]
    copy = state / "runs" / run_id / "artifacts" / "write" / "big.bin"
    assert lines[0].startswith(f"{copy}: No space left on device; run {run_id} stopped: free space"), lines[0]
    assert lines[0].endswith(f"skillweave resume {run_id} --state-dir {state}")
    assert not copy.exists()  # no truncated copy left behind

    grown = subprocess.run(["mount", "-o", "remount,size=48m", str(small_disk)],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert grown.returncode == 0, grown.stderr
    resumed = _sw("resume", run_id, "--json", "--state-dir", state)
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert result["status"] == "succeeded"
    assert copy.stat().st_size == BIG
    listed = [a for a in json.dumps(result["artifacts"]).split('"') if a.endswith("big.bin")]
    assert listed, result["artifacts"]
