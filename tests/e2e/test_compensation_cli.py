"""Compensations through real processes: a rejected run undoes its steps' files, a failed undo keeps them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from engine_plans import skillweave

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "examples"


def reject_after_the_page_is_written(spec: Path, state: Path) -> tuple[str, dict[str, object]]:
    first = skillweave("run", spec, "--input", "module_name=shlex", "--json", "--state-dir", state)
    assert first.returncode == 3, first.stderr
    run_id = json.loads(first.stdout)["run_id"]
    assert (state / "runs" / run_id / "artifacts" / "step-2" / "docs" / "shlex.md").is_file()
    rejected = skillweave("approve", run_id, "step-3", "--reject", "--state-dir", state)
    assert rejected.returncode == 0, rejected.stderr
    resumed = skillweave("resume", run_id, "--json", "--state-dir", state)
    assert resumed.returncode == 1, resumed.stderr
    return run_id, json.loads(resumed.stdout)


def test_a_rejected_run_s_compensation_removes_the_page_its_step_wrote(tmp_path: Path) -> None:
    state = tmp_path / "state"
    run_id, summary = reject_after_the_page_is_written(EXAMPLES / "approval-compensation.md", state)
    assert summary["status"] == "failed"
    assert summary["compensations"] == ["step-2: finished"]
    step_files = state / "runs" / run_id / "artifacts" / "step-2"
    assert not (step_files / "docs" / "shlex.md").exists()
    assert not (state / "runs" / run_id / "artifacts" / "step-2.compensation").exists()


def test_a_compensation_that_fails_leaves_its_step_s_files_alone(tmp_path: Path) -> None:
    examples = shutil.copytree(EXAMPLES, tmp_path / "examples")
    script = examples / "skills" / "remove-docs" / "scripts" / "main.py"
    script.write_text(  # deletes the page, then fails: its deletion must not count
        "import pathlib, sys\n"
        "for page in pathlib.Path('docs').glob('*.md'):\n"
        "    page.unlink()\n"
        "sys.exit('remove-docs: the docs server said no')\n"
    )
    state = tmp_path / "state"
    run_id, summary = reject_after_the_page_is_written(examples / "approval-compensation.md", state)
    assert summary["compensations"] == ["step-2: failed"]
    assert (state / "runs" / run_id / "artifacts" / "step-2" / "docs" / "shlex.md").is_file()
