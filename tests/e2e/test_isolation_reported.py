"""A script run under a sandbox weaker than bubblewrap says so in its result (a real run)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from engine_plans import chaos_plan, skillweave_command, write_plan

pytestmark = pytest.mark.e2e


def run_with_sandbox(mode: str, tmp_path: Path) -> dict[str, object]:
    plan_file = write_plan(chaos_plan(chain=1, sleep_ms=0), tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    env["SKILLWEAVE_SANDBOX"] = mode
    state = tmp_path / f"state-{mode}"
    command = skillweave_command("run", plan_file, "-i", "start=1", "-i", "numbers=[]", "--json", "--state-dir", state)
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)
    if result.returncode != 0 and f"sandbox ({mode}) cannot run here" in result.stderr:
        # e.g. `none` as root with a Python other users cannot reach (pyenv under /root)
        pytest.skip(f"the {mode} sandbox cannot run on this machine: {result.stderr.strip().splitlines()[-1]}")
    assert result.returncode == 0, result.stderr
    summary: dict[str, object] = json.loads(result.stdout)
    return summary


@pytest.mark.parametrize(("mode", "said"), [("unshare", "under unshare"), ("none", "WITHOUT isolation")])
def test_a_weaker_sandbox_is_named_in_the_summary_the_steps_and_the_report(mode: str, said: str, tmp_path: Path) -> None:
    summary = run_with_sandbox(mode, tmp_path)
    steps = summary["steps"]
    assert isinstance(steps, list)
    assert {s["step_id"]: s.get("isolation") for s in steps}["c01"] == mode
    notes = summary["notes"]
    assert isinstance(notes, list) and any(said in n and n.startswith("step c01:") for n in notes), notes
    report = Path(str(summary["report"])).read_text()
    assert said in report


def test_bubblewrap_needs_no_note(tmp_path: Path) -> None:
    summary = run_with_sandbox("bwrap", tmp_path)
    assert {s["step_id"]: s.get("isolation") for s in summary["steps"]}["c01"] == "bwrap"  # type: ignore[union-attr]
    assert not any("isolation" in n or "unshare" in n for n in summary["notes"])  # type: ignore[union-attr]
