"""Workflow inputs written as a paper form's own lines, through the real `skillweave run` with real script skills:
a greenhouse job sheet's capitalised labels (a list of benches, the author's `sow_date` for a skill's `date`) run
each bench once and hand every result to the step that gathers them; a courier card's dotted lines give a skill's
`from`/`to` from "pickup to dropoff". Before, both runs were refused ("unknown input(s)")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import final_output, run, write_script_skills

pytestmark = pytest.mark.e2e

_SKILLS = {
    "seed-count": ("Seeds needed for one bench.", "`bench` (object {name, trays}), `date` (string)",
                   "`bench_name` (string), `seeds` (integer)",
                   "out = {'bench_name': d['bench']['name'], 'seeds': d['bench']['trays'] * 72}"),
    "order-seed": ("Orders the seed for every bench.", "`benches` (array of objects {bench_name, seeds}), "
                   "`date` (string)", "`line` (string)",
                   "out = {'line': '%s: %d seeds for %d benches' % (d['date'], sum(b['seeds'] for b in d['benches']),"
                   " len(d['benches']))}"),
    "plan-van": ("Plans a van route.", "`from` (string), `to` (string)", "`route` (string)",
                 "out = {'route': d['from'] + ' -> ' + d['to']}"),
    "book-slot": ("Books a loading slot.", "`route` (string)", "`slot` (string)",
                  "out = {'slot': 'slot for ' + d['route']}"),
}

_GREENHOUSE = """\
WESTFIELD NURSERY - SOWING JOB SHEET                    (keep with the propagation log)

SOW DATE:      sow_date
BENCHES:       benches     (list - bench name / trays)

HOW IT RUNS:
 i.   seed-count for the sow date, one go per bench on the list.
 ii.  order-seed once all the bench counts are back together, for the sow date.
"""

_COURIER = """\
HARBOUR COURIERS - JOB CARD
Pickup ........ pickup     (e.g. DOCK 4)
Dropoff ....... dropoff
  ^ fill these in each job

 a) plan-van from pickup to dropoff, shortest road.
 b) book-slot for that route.
"""


def _catalog(root: Path) -> None:
    write_script_skills(root, _SKILLS)


def _run(tmp_path: Path, text: str, inputs: dict[str, Any]) -> dict[str, Any]:
    _catalog(tmp_path)
    spec = tmp_path / "sheet.txt"
    spec.write_text(text, encoding="utf-8")
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps(inputs), encoding="utf-8")
    done = run("run", str(spec), "--skills-dir", str(tmp_path / "skills"), "--input-file", str(given), "--json",
               "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_job_sheet_s_labelled_list_is_looped_over_and_gathered(tmp_path: Path) -> None:
    benches = [{"name": "B1", "trays": 10}, {"name": "B2", "trays": 5}]
    result = _run(tmp_path, _GREENHOUSE, {"sow_date": "2026-03-02", "benches": benches})
    assert final_output(result) == {"line": "2026-03-02: 1080 seeds for 2 benches"}


def test_a_job_card_s_dotted_lines_give_a_skill_its_two_ends(tmp_path: Path) -> None:
    result = _run(tmp_path, _COURIER, {"pickup": "DOCK 4", "dropoff": "MILL YARD"})
    assert final_output(result) == {"slot": "slot for DOCK 4 -> MILL YARD"}
