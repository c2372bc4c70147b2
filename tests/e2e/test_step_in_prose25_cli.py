"""A run the reading of a step named mid-answer changes (`spec.step_in_prose25`), through the real
`skillweave`: holdout21 131's FAQ answer names `holiday-calendar` mid-sentence ("At the same time - it
doesn't wait for anything - `holiday-calendar` counts ..."); read as a step of its own, its closure
count reaches `fine-calc`, whose total is the author's (before, closed_days stayed unbound and the
script's default of 0 gave a wrong total)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout21" / "131-overdue-notices"


def test_the_calendar_named_mid_answer_runs_and_its_count_reaches_the_fines(tmp_path: Path) -> None:
    expected = expectation(FOLDER)
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(expected["inputs"]), encoding="utf-8")
    ran = run("run", str(FOLDER / "spec.md"), "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "s"))
    result = json.loads(ran.stdout)
    outputs = result["outputs"]
    calendar = next(step for step, out in outputs.items() if isinstance(out, dict) and "closed_days" in out)
    fines = next(step for step, out in outputs.items() if isinstance(out, dict) and "fines" in out)
    assert outputs[calendar]["closed_days"] == 4
    assert outputs[fines]["total"] == expected["final_output"]["total_due"]
    if result["status"] == "succeeded":  # once the branch "Maple Street" is bound (another family)
        assert final_output(result) == expected["final_output"]
