"""A person's approval said where no structural reader looks pauses the real `skillweave run` (exit 3)
when its condition holds, and does not when it does not (`spec.approval_hold`): a ferry's sailing
checklist whose note under an item says the master OKs a windy crossing first, and the harvest letter of
holdout15 (98 l.25-26: more than 2 blocks to pick needs Marguerite's yes within 3 hours), which before
booked the crew for three blocks and ended `succeeded` without asking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import FIXTURES, prose_skills, run

pytestmark = pytest.mark.e2e

FERRY = """# Ferry crossing

What it needs: the `route`.

- [ ] **Check weather.** Run `check-weather` on the `route`. Gives back `wind_kts`.
- [ ] **Sail.** `depart-vessel` with the `wind_kts`.
    - wind_kts over 30? the master OKs it first. Give them 10 min; no answer = stay in port.
"""

def _ferry(tmp_path: Path) -> Path:
    prose_skills(tmp_path, {
        "check-weather": ("`route`", "`wind_kts`",
                          'print(json.dumps({"wind_kts": 35 if d["route"] == "north" else 12}))'),
        "depart-vessel": ("`wind_kts`", "`sailed`", 'print(json.dumps({"sailed": True}))'),
    }, "crossing")
    spec = tmp_path / "crossing.md"
    spec.write_text(FERRY, encoding="utf-8")
    return spec


def _run(spec: Path, inputs: dict[str, object], tmp_path: Path) -> tuple[int, dict[str, object]]:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(spec), "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"))
    return ran.returncode, json.loads(ran.stdout)


def test_a_windy_crossing_waits_for_the_master_and_a_calm_one_sails(tmp_path: Path) -> None:
    spec = _ferry(tmp_path)
    code, result = _run(spec, {"route": "north"}, tmp_path)
    assert code == 3 and result["status"] == "paused" and result["awaiting"] == ["step-2"], result
    code, result = _run(spec, {"route": "south"}, tmp_path)
    assert code == 0 and result["status"] == "succeeded", result


def test_the_harvest_letter_with_three_blocks_ready_waits_for_marguerite(tmp_path: Path) -> None:
    spec = FIXTURES / "foreign-specs-holdout15" / "98-harvest-call-letter" / "memo_to_tomas.txt"
    samples = [{"block": b, "row": 1, "brix": 23.9, "ph": 3.5} for b in ("a3", "b2", "c1")]
    code, result = _run(spec, {"samples": samples, "rain_mm": [0, 1, 2], "harvest_date": "2025-09-04"}, tmp_path)
    assert code == 3 and result["status"] == "paused" and result["awaiting"] == ["step-3"], result
