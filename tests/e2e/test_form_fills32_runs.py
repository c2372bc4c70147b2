"""A paper form's header fields, several to a line (`spec.form_fills32`), through the real `skillweave run` with
real script skills: a hire-car checkout sheet's "[from the booking]" fields and a blank the steps name are the run's
inputs, its written "Agent .... J. Patel" and a skill's bracketed "window 09:30" are literals, and a rate "45.50/day
(NOT the 39 on the old card)" is 45.50. Before, the run was refused ("unknown inputs")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import final_output, run, write_script_skills

pytestmark = pytest.mark.e2e

_SKILLS = {
    "car-check": ("Checks a hire car out.", "`plate` (string), `fuel_level` (string)", "`ok` (boolean)",
                  "out = {'ok': bool(d['plate']) and d['fuel_level'] in ('full', 'half')}"),
    "hire-price": ("Prices the hire.", "`days` (integer), `rate` (number)", "`total` (number)",
                   "out = {'total': round(d['days'] * d['rate'], 2)}"),
    "key-release": ("Releases the keys and texts the customer.",
                    "`customer` (string), `agent` (string), `window` (string), `total` (number)", "`text` (string)",
                    "out = {'text': '%s: keys from %s at %s, total %.2f' % (d['customer'], d['agent'], d['window'],"
                    " d['total'])}"),
}

_SHEET = """\
SWIFTWHEELS CAR HIRE - CHECKOUT SHEET                       Sheet No. 0 1 9 3
Customer ...... [from the booking]          Plate ....... [from the booking]
Days .......... [from the booking]          Fuel level: ____________
Agent ......... J. Patel   (always Jas on the early desk)      Bay: ______
=============================================================================
  A.  Check the car over with car-check: plate and fuel level.
  B.  Price it with hire-price, charged at 45.50/day (our rate, NOT the 39 on the old card).
  C.  Hand the keys over with key-release (customer, window 09:30) and text the total.
"""


def test_a_checkout_sheet_s_fields_are_the_inputs_and_its_written_values_the_literals(tmp_path: Path) -> None:
    write_script_skills(tmp_path, _SKILLS)
    spec = tmp_path / "sheet.txt"
    spec.write_text(_SHEET, encoding="utf-8")
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps({"customer": "R. Osei", "plate": "YX21 ABC", "days": 3, "fuel_level": "full"}),
                     encoding="utf-8")
    done = run("run", str(spec), "--skills-dir", str(tmp_path / "skills"), "--input-file", str(given), "--json",
               "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert final_output(json.loads(done.stdout)) == {"text": "R. Osei: keys from J. Patel at 09:30, total 136.50"}
