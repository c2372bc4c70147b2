"""A failed step goes on with a value taken from an earlier step's output in the real `skillweave run`
(`plan.carry_ref31`): a warehouse pick sheet whose matcher, when it errors, carries on with "to_pick = all
the bins' labels"; the run ends degraded (exit 0) and its reason says what was carried from where
(as holdout23 143's "to_withdraw = all the candidates' barcodes")."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import prose_skills, run_report

pytestmark = pytest.mark.e2e

SHEET = """PICK RUN - aisle 4 (warehouse notes)

You give it the `shelf`.

First, count-bins goes through the shelf and lists the bins.
Then match-orders takes those bins. If it errors just carry on, i.e. reserved = [] and
to_pick = all the bins' labels (the picker checks orders by hand).
Last, print-list prints the to_pick from match-orders.
"""

_SKILLS = {
    "count-bins": ("`shelf`", "`bins` (list of `{label, qty}`)",
                   'print(json.dumps({"bins": [{"label": d["shelf"] + "-1", "qty": 2}, '
                   '{"label": d["shelf"] + "-2", "qty": 0}]}))'),
    "match-orders": ("`bins` (list of `{label, qty}`)", "`to_pick` (list of labels), `reserved` (list of labels)",
                     'raise SystemExit("order service down")'),
    "print-list": ("`to_pick` (list of labels)", "`printed` (list of labels)",
                   'print(json.dumps({"printed": d["to_pick"]}))'),
}


def test_a_failed_matcher_carries_on_with_each_bin_s_label_and_the_run_is_degraded(tmp_path: Path) -> None:
    prose_skills(tmp_path, _SKILLS, "picking")
    spec = tmp_path / "pick.txt"
    spec.write_text(SHEET, encoding="utf-8")
    code, result = run_report(spec, str(tmp_path / "state"), "--input", "shelf=A4")
    assert code == 0 and result["status"] == "degraded", result
    assert result["outputs"]["step-3"] == {"printed": ["A4-1", "A4-2"]}
    (degraded,) = result["degraded"]
    assert "to_pick carried from step-1's output bins (each label)" in degraded["reason"], degraded
