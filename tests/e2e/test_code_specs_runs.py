"""A spec written as code, through the real `skillweave`: holdout21 130, a Python settings module whose
steps are `dict(...)` calls with `when="intake.attendees > BIG_EVENT"` / `when="else"` and policies in
comments inside each call (`spec.code_calls`), runs one branch per run to its author's output on
both of its runs (it ran both branches and said `succeeded` with a wrong letter before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, run_to_the_end

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout21" / "130-pavilion-permits"


def test_the_settings_module_runs_one_branch_to_its_authors_output(tmp_path: Path) -> None:
    expected = expectation(FOLDER)
    runs = [(expected["inputs"], expected["final_output"]),
            *((more["inputs"], more["final_output"]) for more in expected["more_runs"])]
    for n, (inputs, output) in enumerate(runs):
        folder = tmp_path / f"run{n}"
        folder.mkdir()
        result = run_to_the_end(FOLDER / "spec.py", inputs, folder, "--skills-dir", str(FOLDER / "skills"))
        assert final_output(result) == output
        ran = {sid for sid, out in result["outputs"].items() if out is not None}
        assert len(ran & {"bigdesk", "easy"}) == 1, result["outputs"]  # one branch, never both
