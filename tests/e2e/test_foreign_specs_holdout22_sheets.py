"""Step sheets pasted as CSV/TSV, through the real `skillweave` (holdout22): 136, an email with a CSV
sheet whose cells say `date = trip date` (the input keeps the author's name `trip_date`) and
`transport_cost = cost from whichever of 3/4 happened`: both runs (coach, minibus) reach the author's
letter; 137, a bakery TSV whose notes cell says "starts same time as 1, dont wait", whose `flour_kg =
flour in the bin (FLOUR CHECK)` is flour-stock's `kg_on_hand` and whose done line "OVEN LOADS says fits"
is `fits == true`: the run reaches the author's oven loads (`spec.sheet_cells27`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, run_to_the_end

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout22"


@pytest.mark.parametrize("run", [0, 1])
def test_a_csv_sheet_in_an_email_reaches_the_authors_letter_by_coach_and_by_minibus(tmp_path: Path, run: int) -> None:
    folder = HOLDOUT / "136-year5-museum-trip"
    expected = expectation(folder)
    given = [expected, *expected["more_runs"]][run]
    result = run_to_the_end(folder / "spec.eml.txt", given["inputs"], tmp_path, "--skills-dir", str(folder / "skills"))
    assert final_output(result) == given["final_output"]


def test_a_bakery_tsv_sheet_reaches_the_authors_oven_loads(tmp_path: Path) -> None:
    folder = HOLDOUT / "137-friday-bake-plan"
    expected = expectation(folder)
    result = run_to_the_end(folder / "spec.tsv", expected["inputs"], tmp_path, "--skills-dir", str(folder / "skills"))
    assert final_output(result) == expected["final_output"]
