"""A YAML spec written in another tool's words, through the real `skillweave` executable.

GitHub Actions' shape (`jobs:`, `uses:`, `with:`, `needs:`, `if: ${{ }}`), Airflow's
`$input.x`, a retry mapping with `attempts`/`wait` and policy values in words: `plan
--format json` binds, conditions and retries them as the author meant, each cited at
its YAML line, and a retry in words nobody can read is a warning at its line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
SKILLS = REPO / "tests" / "fixtures" / "foreign-specs-holdout" / "11-expense-claim" / "skills"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
SPEC = """\
workflow: claims
input:
  employee: string
  receipts: list
jobs:
  check:
    uses: validate-receipts
    with: {receipts: "${{ inputs.receipts }}", employee: $input.employee}
    retries: 4 times, 3s apart
  total:
    uses: sum-claim
    needs: check
    with: {items: "{{ steps.check.outputs.receipts }}"}
    if: ${{ needs.check.outputs.employee != '' }}
    retry: {attempts: 2, wait: 1s}
    on-failure: notify #claims-oncall
    timeout: %s
"""


def plan(tmp_path: Path, timeout: str) -> subprocess.CompletedProcess[str]:
    if not (tmp_path / "skills").exists():
        shutil.copytree(SKILLS, tmp_path / "skills")
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC % timeout, encoding="utf-8")
    return subprocess.run([SKILLWEAVE, "plan", str(spec), "--format", "json"], capture_output=True, text=True,
                          timeout=120, check=False)


def test_a_spec_in_github_actions_words_plans_as_its_author_meant(tmp_path: Path) -> None:
    result = plan(tmp_path, "45 seconds")
    assert result.returncode == 0, result.stderr
    check, total = json.loads(result.stdout)["steps"]
    assert {n: (b["source"], b["name"]) for n, b in check["inputs"].items()} == {
        "receipts": ("input", "receipts"), "employee": ("input", "employee")}
    assert check["policy"]["retry"]["max_retries"] == 4 and check["policy"]["retry"]["delays_s"] == [3.0]
    assert (total["depends_on"], total["when"]) == (["check"], "steps['check'].output.employee != ''")
    assert (total["inputs"]["items"]["step"], total["inputs"]["items"]["pointer"]) == ("check", "/receipts")
    assert (total["policy"]["retry"]["max_retries"], total["policy"]["retry"]["delays_s"]) == (1, [1.0])
    assert total["policy"]["attempt_timeout_s"] == 45.0
    assert total["policy"]["fallback"]["action"] == "escalate"
    lines = {k: (v["where"] or "").rpartition(":")[2] for k, v in total["provenance"].items()}
    assert (lines["when"], lines["policy.retry"], lines["policy.fallback"], lines["policy.attempt_timeout_s"]) == (
        "14", "15", "16", "17")


def test_a_value_in_words_nobody_can_read_is_a_warning_at_its_line_not_a_policy(tmp_path: Path) -> None:
    result = plan(tmp_path, "when it feels right")
    assert result.returncode == 0, result.stderr
    total = json.loads(result.stdout)["steps"][1]
    assert total["policy"]["attempt_timeout_s"] is None
    assert "spec.yaml:17: warning: total: 'timeout: when it feels right' states a policy that was not understood" in (
        result.stderr)
