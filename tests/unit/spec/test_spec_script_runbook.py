"""A runbook written as a script (bash, PowerShell, Python, a Makefile recipe): its comments are
the text people read, its code says which skill each step calls with which inputs, and the
`if`/`elif`/`else` around the steps are their conditions; what is not understood is said once
at its line, and a comment is never taken for a second title."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text

_LAB_BASH = """\
#!/bin/bash
# nightly plate QC -- bench 4
# run from the lab PC, needs $PLATE_ID in the env
set -e

# 1) read the plate
#    reader hangs now and then -- retry 3 times, 20s apart
PLATE=$(run-skill read-plate plate=$PLATE_ID)

# 2) score wells
run-skill score-wells wells=$PLATE.wells > scores.json

# 3) flag for a human if too many fail
if (( $(jq .failed scores.json) >= 4 )); then
  run-skill page-bench-lead failed=scores.failed
elif [[ $(jq -r .grade scores.json) == "B" ]]; then
  run-skill queue-retest grade=scores.grade
else
  # 4) all fine, archive it
  run-skill archive-plate plate=$PLATE_ID
fi

# 5) post the summary to the channel
run-skill post-summary plate=$PLATE_ID
cp scores.json /mnt/share/
"""

_HR_POWERSHELL = """\
<#
  New starter onboarding (HR ops). Param is the new hire's id.
#>
param([string]$HireId)
$ErrorActionPreference = 'Stop'

# Step 1 - look up the hire
$hire = Invoke-Skill lookup-hire -HireId $HireId

if ($hire.contractor -eq $true) {
    # Step 2: contractor badge only
    Invoke-Skill issue-badge -Person $hire.email
} else {
    # Step 3: staff get the full set of accounts
    Invoke-Skill create-accounts -Person $hire.email
}

# Step 4: send the welcome pack
Invoke-Skill send-welcome -Person $hire.email
"""

_PODCAST_PYTHON = '''\
#!/usr/bin/env python3
"""Podcast episode publish run sheet.

Whole run: 30 minutes at most.
"""
import sys

episode = sys.argv[1]

# STEP 1: master the audio
mastered = run_skill("master-audio", episode=episode)

# STEP 2: long episodes get chapter markers
if mastered["minutes"] > 60:
    chapters = run_skill("add-chapters", audio=mastered["file"])

# STEP 3: push to the host
run_skill("upload-episode", audio=mastered["file"], host="anchor")
'''

_SHIPS_LOG_MAKEFILE = """\
# Ship's log: end-of-watch filing for the MV Tern
VOYAGE ?=

watch:
\t## step: pull the bridge log
\tskill pull-bridge-log voyage=$(VOYAGE) > bridge.json
\t## step: weather squawk, only in heavy weather
\tif [ "$$(jq .sea_state bridge.json)" -gt 5 ]; then \\
\t  skill file-weather-report state=bridge.sea_state; \\
\tfi
\t## step: file the log with the company
\tskill file-log entries=bridge.entries
"""


def _steps(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "markdown")
    return spec, {s.id: s for s in spec.steps}


def test_a_bash_runbook_reads_each_step_comment_with_the_skill_its_code_calls_and_the_inputs_it_passes() -> None:
    spec, steps = _steps(_LAB_BASH, "qc.sh")
    assert [(s.name, s.skill) for s in spec.steps] == [
        ("read the plate", "read-plate"), ("score wells", "score-wells"),
        ("flag for a human if too many fail", "page-bench-lead"), ("queue-retest", "queue-retest"),
        ("all fine, archive it", "archive-plate"), ("post the summary to the channel", "post-summary")]
    assert [(f.name, f.source) for f in steps["step-2"].inputs] == [("wells", "steps.step-1.output.wells")]
    assert [(f.name, f.source) for f in steps["step-3"].inputs] == [("failed", "steps.step-2.output.failed")]
    assert [i.name for i in spec.inputs] == ["plate_id"]
    assert [t.text for t in steps["step-1"].texts] == ["reader hangs now and then -- retry 3 times, 20s apart"]


def test_a_bash_if_elif_else_around_steps_gives_each_arm_its_condition_and_the_next_step_joins_them() -> None:
    _, steps = _steps(_LAB_BASH, "qc.sh")
    assert steps["step-3"].when == "failed >= 4"
    assert steps["step-4"].when == "failed < 4 and grade == 'B'"
    assert steps["step-5"].when == "failed < 4 and grade != 'B'"
    assert steps["step-6"].depends_on == ("step-3", "step-4", "step-5") and steps["step-6"].join == "any"
    assert steps["step-1"].when is None and steps["step-6"].when is None


def test_a_script_comment_is_never_a_second_title_and_a_command_that_calls_no_skill_is_said_once_at_its_line() -> None:
    spec, _ = _steps(_LAB_BASH, "qc.sh")
    messages = [(w.line, w.message) for w in spec.warnings]
    assert not [m for _, m in messages if "second title" in m]
    assert [line for line, m in messages if "calls no skill" in m] == [25]
    assert spec.title == "nightly plate QC -- bench 4"


def test_a_powershell_runbook_reads_invoke_skill_its_dash_arguments_and_if_else_braces() -> None:
    spec, steps = _steps(_HR_POWERSHELL, "onboard.ps1")
    assert [s.skill for s in spec.steps] == ["lookup-hire", "issue-badge", "create-accounts", "send-welcome"]
    assert [(f.name, f.source) for f in steps["step-2"].inputs] == [("person", "steps.step-1.output.email")]
    assert steps["step-2"].when == "contractor == true"
    assert steps["step-3"].otherwise_of == "step-2" and steps["step-3"].when is None
    assert steps["step-4"].depends_on == ("step-2", "step-3") and steps["step-4"].join == "any"
    assert not [w for w in spec.warnings if w.code == "spec.unread"]


def test_a_python_runbook_reads_run_skill_keyword_inputs_an_indented_if_and_its_docstring_limit() -> None:
    spec, steps = _steps(_PODCAST_PYTHON, "publish_episode.py")
    assert [s.skill for s in spec.steps] == ["master-audio", "add-chapters", "upload-episode"]
    assert [i.name for i in spec.inputs] == ["episode"]
    assert [(f.name, f.source) for f in steps["step-2"].inputs] == [("audio", "steps.step-1.output.file")]
    assert steps["step-2"].when == "minutes > 60"
    assert steps["step-3"].when is None and steps["step-3"].join == "all"
    assert steps["step-3"].input_values == {"host": "anchor"}  # a quoted word is a string, not a variable
    assert [(r.where, r.statement.whole_run) for r in spec.readings] == [("publish_episode.py:4", True)]


def test_a_makefile_with_one_recipe_written_as_a_script_reads_its_steps_and_a_continued_shell_if() -> None:
    spec, steps = _steps(_SHIPS_LOG_MAKEFILE, "Makefile")
    assert [s.skill for s in spec.steps] == ["pull-bridge-log", "file-weather-report", "file-log"]
    assert [(i.name, i.where) for i in spec.inputs] == [("voyage", "Makefile:2")]
    assert steps["step-2"].when == "sea_state > 5"
    assert [(f.name, f.source) for f in steps["step-3"].inputs] == [("entries", "steps.step-1.output.entries")]


def test_a_condition_that_cannot_be_read_is_one_warning_at_its_if_and_the_steps_under_it_always_run() -> None:
    text = ("#!/bin/sh\n# Recipe card: sourdough bake\n# Step 1: feed the starter\nskill feed-starter > s.json\n"
            "if grep -q bubbly s.json; then\n  # Step 2: bake\n  skill bake-loaf\nfi\n")
    spec, steps = _steps(text, "bake.txt")
    assert steps["step-2"].when is None
    unread = [w for w in spec.warnings if w.code == "spec.condition-not-read"]
    assert [w.line for w in unread] == [5] and "step-2" in unread[0].message


def test_a_step_comment_with_no_call_below_it_is_no_step_and_its_text_is_said_not_read() -> None:
    text = "# 1) check stock\n# keep it under a minute\n# 2) order more\nskill order-stock\n"
    spec, _ = _steps(text, "stock.bash")
    assert [s.skill for s in spec.steps] == ["order-stock"]
    said = [w for w in spec.warnings if "no call of a skill" in w.message]
    assert [w.line for w in said] == [1] and "line 2" in said[0].message


def test_a_check_of_a_steps_output_file_is_that_steps_success_check() -> None:
    text = "# Step 1: post the rota\nskill post-rota > rota.json\n# only good if it went out\njq -e '.posted == true' rota.json\n"
    spec, steps = _steps(text, "rota.sh")
    assert [(t.kind, t.text) for t in steps["step-1"].texts if t.kind == "success"] == [("success", "posted == true")]
    # said once, at the comment that says what it checks, as every reading of the run's success check is
    assert [(w.line, w.code) for w in spec.warnings if "success" in w.message] == [(3, "spec.success")]
    assert "is read as the run's success check" in next(w.message for w in spec.warnings if w.line == 3)


def test_a_check_of_an_output_file_with_no_comment_is_said_at_its_own_line() -> None:
    text = "# Step 1: weigh the hives\nskill weigh-hives > hives.json\n\njq -e '.weighed == true' hives.json\n"
    spec, steps = _steps(text, "hives.sh")
    assert [t.text for t in steps["step-1"].texts if t.kind == "success"] == ["weighed == true"]
    assert [(w.line, w.code) for w in spec.warnings if "success" in w.message] == [(4, "spec.success")]


def test_a_jq_check_of_a_file_no_step_writes_is_no_success_check() -> None:
    text = "# Step 1: weigh the hives\nskill weigh-hives > hives.json\n# sanity\njq -e '.ok == true' other.json\n"
    spec, steps = _steps(text, "hives.sh")
    assert [t for t in steps["step-1"].texts if t.kind == "success"] == []
    assert not [w for w in spec.warnings if "is read as the run's success check" in w.message]


def test_a_script_that_calls_no_skill_is_refused_with_its_file_and_line_not_a_traceback() -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec_text("#!/bin/bash\n# tidy up\nrm -rf /tmp/x\n", "tidy.sh", "markdown")
    assert any(d.code == "spec.no-steps" and d.file == "tidy.sh" for d in caught.value.diagnostics)


def test_a_one_line_guard_is_a_condition_and_a_case_or_a_second_call_on_a_line_is_said_not_read() -> None:
    text = ("#!/bin/bash\n# greenhouse watering, runs at 6am\n# STEP 1 -- read the soil probes\nskill read-probes > soil.json\n"
            "[[ $(jq .moisture soil.json) -lt 30 ]] && skill open-valves zone=soil.zone\n"
            "case \"$SEASON\" in\n  winter) skill heat-mats ;;\nesac\nskill text-grower || skill email-grower\n")
    spec, steps = _steps(text, "water.sh")
    assert [s.skill for s in spec.steps] == ["read-probes", "open-valves", "text-grower"]
    assert steps["step-1"].name == "read the soil probes"
    assert steps["step-2"].when == "moisture < 30"
    said = {w.line: w.message for w in spec.warnings}
    assert "not read as branches" in said[6] and "heat-mats" in said[7] and "email-grower" in said[9]


def test_a_catalog_skill_called_by_its_name_as_the_command_is_the_steps_skill() -> None:
    from orchestrator.spec.vocabulary import Vocabulary

    text = "# Step 1: weigh the harvest\nweigh-crates --bay \"$BAY\" > crates.json\n# Step 2: label\nprint-labels n=crates.count\n"
    spec = parse_spec_text(text, "harvest.sh", "markdown", Vocabulary.of([("weigh-crates", None), ("print-labels", None)]))
    assert [(s.skill, [(f.name, f.source) for f in s.inputs]) for s in spec.steps] == [
        ("weigh-crates", [("bay", "inputs.bay")]), ("print-labels", [("n", "steps.step-1.output.count")])]


def test_a_script_whose_code_calls_no_skill_is_not_refused_its_comments_are_read_as_markdown_text() -> None:
    text = ("#!/bin/bash\n# Shelter intake -- volunteers run this by hand\n# 1. Scan the chip with `scan-chip`\n"
            "./scanner --port 3\n# 2. Then book the vet check with `book-vet-check`\ncurl -X POST https://vet.example/b\n")
    spec, _ = _steps(text, "intake.sh")
    assert [(s.name, s.where, [m.text for m in s.mentions]) for s in spec.steps] == [
        ("Scan the chip", "intake.sh:3", ["scan-chip"]), ("Book the vet check", "intake.sh:5", ["book-vet-check"])]
    assert [(w.line, w.code) for w in spec.warnings] == [(1, "spec.script-unread")]


def test_a_branch_inside_an_else_is_said_not_read_and_the_step_after_waits_for_whichever_of_all_three_ran() -> None:
    text = ("# IT offboarding for a leaver\n# Step 1: find the account\nskill find-account > acct.json\n"
            "if [ \"$(jq .admin acct.json)\" = true ]; then\n  skill revoke-admin\nelse\n"
            "  if [ \"$(jq .days acct.json)\" -lt 2 ]; then\n    skill quick-disable\n  else\n    skill archive-mail\n  fi\nfi\n"
            "skill close-ticket\n")
    spec, steps = _steps(text, "leaver.sh")
    assert steps["step-2"].when == "admin == true"
    assert steps["step-5"].depends_on == ("step-2", "step-3", "step-4") and steps["step-5"].join == "any"
    assert sorted(w.line for w in spec.warnings if w.code == "spec.condition-not-read") == [7, 9]
