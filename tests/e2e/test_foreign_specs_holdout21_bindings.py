"""Values said in the text and outputs named differently, through the real `skillweave` (holdout21):
129, a JSON pipeline of its author's own schema whose `po` step reads `"rate": "$fx.rate"` though fx-rate
gives `usd_per_unit` (and `source`): the po-builder's `rate` (USD per EUR) is read as `usd_per_unit`,
warned as a guess, and the run reaches its author's purchase order (it got fx's whole output and failed
before); 134, an RFC memo whose `dns-names (given ..., and the zone "labs.northfield.example")` sits in
the paragraph of another step: the plan gives `zone` that text, warned."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, plan_json, run_to_the_end

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout21"


def test_a_reference_to_a_field_of_another_name_reaches_the_authors_order(tmp_path: Path) -> None:
    folder = HOLDOUT / "129-shop-restock"
    expected = expectation(folder)
    result = run_to_the_end(folder / "spec.json", expected["inputs"], tmp_path, "--skills-dir",
                            str(folder / "skills"))
    assert final_output(result) == expected["final_output"]


def test_a_quoted_value_in_another_steps_paragraph_is_the_steps_literal() -> None:
    folder = HOLDOUT / "134-lab-vlan-rfc"
    steps = {s["skill"]: s for s in plan_json(folder / "spec.txt", "--skills-dir", str(folder / "skills"))["steps"]}
    assert steps["dns-names"]["inputs"]["zone"]["value"] == "labs.northfield.example"
