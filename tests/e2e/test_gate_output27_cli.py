"""A lettered order form run through the real `skillweave run`: its dotted fill-in is the one input, a
value after a name is a literal (`spec.fill_in27`), a word in capitals names an output, and the finance
director's sign-off is asked only when step A "comes out over 5,000" (`plan.gate_output27`): a small
order is sent without a pause, a large one waits (exit 3), and goes on after `skillweave approve`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import prose_skills, run

pytestmark = pytest.mark.e2e

FORM = """==============================================================
  PURCHASE ORDER - STATIONERY                      FORM PO-7
==============================================================
  ORDER LINES: ........................ (lines)
  VAT: 20%
--------------------------------------------------------------
  A) TALLY  - po-total on the order lines.
  B) SEND   - po-send: amount = the TOTAL from A, vat_pct 20,
       copies 2.
       >> If A comes out over 5,000 the FD signs it off before B runs.
       >> Under 5,000 just send it.
==============================================================
"""

_SKILLS = {
    "po-total": ("`lines` (list of numbers)", "`total` (number), `count` (int)",
                 'print(json.dumps({"total": sum(d["lines"]), "count": len(d["lines"])}))'),
    "po-send": ("`amount` (number), `vat_pct` (number), `copies` (int)", "`sent` (true), `gross` (number)",
                'print(json.dumps({"sent": True, "gross": d["amount"] * (100 + d["vat_pct"]) / 100 * d["copies"]}))'),
}


def _form(tmp_path: Path) -> Path:
    prose_skills(tmp_path, _SKILLS, "order")
    spec = tmp_path / "po.txt"
    spec.write_text(FORM, encoding="utf-8")
    return spec


def test_a_small_order_is_sent_and_a_large_one_waits_for_the_fd(tmp_path: Path) -> None:
    spec = _form(tmp_path)
    state = str(tmp_path / "state")
    ran = run("run", str(spec), "--input", "lines=[100, 200]", "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["step-2"] == {"sent": True, "gross": 720.0}
    ran = run("run", str(spec), "--input", "lines=[4000, 3000]", "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 3 and result["awaiting"] == ["step-2"], result
    assert run("approve", result["run_id"], "step-2", "--state-dir", state).returncode == 0
    ran = run("resume", result["run_id"], "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["step-2"] == {"sent": True, "gross": 16800.0}
