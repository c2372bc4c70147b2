"""A rooftop yield report (HCL in the author's own schema) run through `skillweave run`: its `check` block compares
the sites the rollup counted with the sites loaded, two values of the run, checked after the run: it holds and the
run succeeds; written as `>` it does not, and the run fails naming the check, its line and both values
(`spec.success_compare31`, `engine.success_compare`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
ROOFTOP = Path(__file__).resolve().parents[1] / "fixtures" / "foreign-specs-holdout24" / "148-rooftop-yield"


def _run(tmp_path: Path, spec_text: str | None = None) -> subprocess.CompletedProcess[str]:
    shutil.copytree(ROOFTOP, tmp_path / "roof")
    spec = tmp_path / "roof" / "spec.hcl"
    if spec_text is not None:
        spec.write_text(spec_text, encoding="utf-8")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"region": "North", "month": "2026-11"}), encoding="utf-8")
    return subprocess.run([SKILLWEAVE, "run", str(spec), "--skills-dir", str(tmp_path / "roof" / "skills"), "--input-file",
                           str(inputs), "--state-dir", str(tmp_path / "state")], capture_output=True, text=True, timeout=120,
                          check=False)


def test_the_sites_counted_match_the_sites_loaded_and_the_run_succeeds(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "succeeded" in done.stdout.split("\n", 2)[1] or " succeeded " in done.stdout


def test_a_check_that_does_not_hold_fails_the_run_naming_its_line_and_both_values(tmp_path: Path) -> None:
    text = (ROOFTOP / "spec.hcl").read_text(encoding="utf-8").replace(
        "job.rollup.sites_counted == job.sites.count", "job.rollup.sites_counted > job.sites.count")
    done = _run(tmp_path, text)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "spec.hcl:43" in done.stdout and "rollup.sites_counted is 3" in done.stdout and "sites.count is 3" in done.stdout
