"""A pull-request description's branches written as bold lead-ins, through the real `skillweave run`:
holdout24 149's "**Big refunds** (order `amount` over 100):" and "**Everything else** (amount 100 or less):"
(`spec.lead_in_branch30`) run one branch per order, the other skipped in the run's report, and the
ledger takes `decision` from whichever ran ("the `verdict` from step 2 or 3"). Both branches ran on every
run before, and `decision` always came from step 3."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, run_to_the_end

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout24" / "149-refund-triage"


def test_each_order_runs_only_its_own_branch_to_the_authors_output(tmp_path: Path) -> None:
    expected = expectation(FOLDER)
    runs = [(expected["inputs"], expected["final_output"], "step-3"),
            *((more["inputs"], more["final_output"], "step-2") for more in expected["more_runs"])]
    for n, (inputs, output, other) in enumerate(runs):
        folder = tmp_path / f"run{n}"
        folder.mkdir()
        result = run_to_the_end(FOLDER / "spec.md", inputs, folder, "--skills-dir", str(FOLDER / "skills"))
        assert final_output(result) == output
        status = {s["step_id"]: s["status"] for s in result["steps"]}
        assert status[other] == "skipped", status
        assert {status["step-2"], status["step-3"]} == {"skipped", "succeeded"}, status
        report = Path(result["report"]).read_text(encoding="utf-8")
        assert f"`{other}`" in report and "condition is false" in report
