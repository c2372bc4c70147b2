"""`skillweave run --profile` and SKILLWEAVE_PROFILE: where a real run's time went, on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
PREFIX = "skillweave profile: "


def run_seed(tmp_path: Path, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [
        str(Path(sys.executable).with_name("skillweave")), "run", str(SEED), "--input", "module_name=json",
        "--state-dir", str(tmp_path / "state"), "--json", *extra,
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, cwd=tmp_path, env={**clean, **env}, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "succeeded"  # stdout stays one JSON document
    return done


def test_profile_prints_the_phases_steps_and_server_start_of_a_run_on_stderr(tmp_path: Path) -> None:
    done = run_seed(tmp_path, "--profile")
    table = done.stderr[done.stderr.index("skillweave profile") :]
    for phase in (
        "interpreter start",
        "CLI: imports",
        "plan: compile the spec",
        "journal: create the run",
        "step step-1: succeeded",
        "mcp docs: start the server",
        "mcp docs/get_docs: call",
        "step step-4: succeeded",
        "report: save report.md",
        "until the profile was printed",
    ):
        assert phase in table, table


def test_skillweave_profile_json_gives_one_parseable_line_of_spans(tmp_path: Path) -> None:
    done = run_seed(tmp_path, SKILLWEAVE_PROFILE="json")
    lines = [line for line in done.stderr.splitlines() if line.startswith(PREFIX)]
    assert len(lines) == 1, done.stderr
    data = json.loads(lines[0][len(PREFIX) :])
    spans = {row["name"]: row for row in data["spans"]}
    steps = [spans[f"step step-{n}: succeeded"] for n in range(1, 5)]
    assert [s["start_ms"] for s in steps] == sorted(s["start_ms"] for s in steps)
    assert all(s["ms"] > 0 for s in steps)
    assert data["total_ms"] >= steps[-1]["start_ms"] + steps[-1]["ms"]
    # the sandbox probes the host as the run starts, not on step 2 (its first script)
    assert spans["sandbox: choose the mechanism (in the background)"]["start_ms"] <= steps[0]["start_ms"]


def test_without_the_flag_or_the_variable_nothing_is_printed(tmp_path: Path) -> None:
    done = run_seed(tmp_path)
    assert "skillweave profile" not in done.stderr
