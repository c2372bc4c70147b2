"""`spec.script_names.word_value`: a script's unquoted number word is a number, as a Dockerfile's RUN reads
it; written with a leading zero (a code), or quoted where quotes reach the reader (PowerShell, Python), it
stays text. In a POSIX shell `label="40"` is the very word `label=40` (the quotes are the shell's): the
skill's declared type decides there (`plan.literal_type40`). Scripts of our own: a greenhouse's
watering cron job and a print shop's PowerShell batch; none is a fixture's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.script_names import word_value

_GREENHOUSE = """\
#!/bin/bash
# 1) read the soil probes
skill read-probes bed=north > probes.json
# 2) water the dry ones, at most 12 litres a bed
skill water-beds moisture=probes.moisture max_litres=12 ratio=0.75 below=-2 zone=007 label="40"
"""

_PRINT_SHOP = """\
# Step 1: count the queued jobs
$jobs = Invoke-Skill count-jobs -Queue 'main'
# Step 2: print them, two copies each
Invoke-Skill print-batch -Jobs $jobs.ids -Copies 2 -Tray "3"
"""


def test_an_unquoted_number_word_is_a_number() -> None:
    spec = parse_spec_text(_GREENHOUSE, "water.sh", "markdown")
    values = spec.steps[1].input_values
    assert values["max_litres"] == 12 and isinstance(values["max_litres"], int)
    assert values["ratio"] == 0.75 and values["below"] == -2


def test_a_powershell_number_argument_is_a_number_and_a_quoted_one_text() -> None:
    spec = parse_spec_text(_PRINT_SHOP, "print.ps1", "markdown")
    assert spec.steps[1].input_values == {"copies": 2, "tray": "3"}


def test_negative_quoted_numbers_and_codes_with_a_leading_zero_stay_text() -> None:
    spec = parse_spec_text(_GREENHOUSE, "water.sh", "markdown")
    values = spec.steps[1].input_values
    assert values["zone"] == "007" and values["label"] == 40  # the shell's quotes are not the reader's
    assert spec.steps[0].input_values["bed"] == "north"
    assert [word_value(w) for w in ("1.", "1e3", "2026-11-28", "0", "'5'")] == ["1.", "1e3", "2026-11-28", 0, "5"]
