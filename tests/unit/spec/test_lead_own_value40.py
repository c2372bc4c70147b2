"""`spec.lead_condition`: a title with no if/when whose comparison's number is a value the step itself gives its
skill ("drop readings under 5 degrees" over `min_c=5`) says what the step does with that value: no condition,
no `spec.condition-not-read`; the same title over another value is still warned. Scripts of our own (a cold
store's sensor job, a print shop's PowerShell batch)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_COLD = """\
#!/bin/bash
# 1) read the freezer probes
skill read-probes room=B > probes.json
# 2) drop readings under {said} degrees, they are the defrost cycle
skill clean-readings readings=probes.readings min_c={given} > clean.json
"""

_PRINT = """\
# Step 1: count the queued jobs
$jobs = Invoke-Skill count-jobs -Queue 'main'
# Step 2: hold anything over 200 pages for the big press
Invoke-Skill route-jobs -Jobs $jobs.ids -MaxPages 200
"""


def _unread(spec, line: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [w.message for w in spec.warnings if w.code == "spec.condition-not-read" and w.line == line]


def test_a_title_over_the_value_its_call_gives_is_no_condition() -> None:
    spec = parse_spec_text(_COLD.format(said=5, given=5), "cold.sh", "markdown")
    assert spec.steps[1].when is None and spec.steps[1].input_values["min_c"] == 5
    assert not _unread(spec, 5) and not _unread(spec, 4)


def test_a_powershell_title_over_its_own_argument() -> None:
    spec = parse_spec_text(_PRINT, "print.ps1", "markdown")
    assert spec.steps[1].when is None
    assert not [w for w in spec.warnings if w.code == "spec.condition-not-read"]


def test_negative_a_title_over_another_number_is_still_warned() -> None:
    spec = parse_spec_text(_COLD.format(said=5, given=7), "cold.sh", "markdown")
    assert spec.steps[1].when is None
    assert [w for w in spec.warnings if w.code == "spec.condition-not-read"]
