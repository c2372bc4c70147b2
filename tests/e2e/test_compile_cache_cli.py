"""`skillweave run` reads the seed's plan from the compile cache on its second run, and prints the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
PREFIX = "skillweave profile: "


def run_seed(tmp_path: Path, state: str, **env: str) -> tuple[dict[str, Any], list[str]]:
    """The run's --json document and the names of its profile's spans."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [
        str(Path(sys.executable).with_name("skillweave")), "run", str(SEED), "--input", "module_name=json",
        "--state-dir", str(tmp_path / state), "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
                          env={**clean, "XDG_CACHE_HOME": str(tmp_path / "cache"), "SKILLWEAVE_PROFILE": "json", **env})
    assert done.returncode == 0, done.stderr
    profile = next(json.loads(line[len(PREFIX):]) for line in done.stderr.splitlines() if line.startswith(PREFIX))
    return json.loads(done.stdout), [row["name"] for row in profile["spans"]]


def _same_run(document: dict[str, Any]) -> dict[str, Any]:
    """What two runs of one plan share: the shape, the plan's names, statuses and outputs."""
    return {
        "keys": sorted(document),
        "status": document["status"],
        "plan": (document["plan_name"], document["plan_sha256"]),
        "steps": [(s["step_id"], s["skill"], s["status"], s["code_sha256"], sorted(s)) for s in document["steps"]],
        "outputs": document["outputs"],
    }


def test_the_second_run_reads_its_plan_from_the_cache_and_prints_the_same_document(tmp_path: Path) -> None:
    first, first_spans = run_seed(tmp_path, "one")
    second, second_spans = run_seed(tmp_path, "two")

    assert "compile cache: miss, compiled" in first_spans and "compile cache: hit" not in first_spans
    assert "compile cache: hit" in second_spans and "compile cache: miss, compiled" not in second_spans
    assert _same_run(first) == _same_run(second)
    assert first["run_id"] != second["run_id"]


def test_with_the_cache_off_every_run_compiles(tmp_path: Path) -> None:
    run_seed(tmp_path, "one", SKILLWEAVE_PLAN_CACHE="0")
    _, spans = run_seed(tmp_path, "two", SKILLWEAVE_PLAN_CACHE="0")

    assert "compile cache: hit" not in spans and "compile cache: miss, compiled" in spans
    assert not (tmp_path / "cache" / "skillweave").exists()
