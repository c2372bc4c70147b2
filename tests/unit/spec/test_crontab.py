"""A crontab whose jobs run the skills is read as a runbook of its jobs (`spec.crontab`): the comment
lines above a job its step comment and text, `NAME=value` lines the workflow inputs, `<each X>`,
`<all of N>`, `<from N>` and `<N>` placeholders the loop, the gather and the values of earlier steps.
A backup box's cron.d file, a user crontab of a lab's instruments, a shop's `crontab -l` (no user
field, `@daily`); and files that look like crontabs but are not read as one."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.crontab import is_crontab
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("snapshot-db", "check-space", "ship-offsite", "verify-copy", "mail-report", "read-plates", "scan-plate",
          "merge-scans", "count-stock", "price-list", "post-prices")
OUTPUTS = {"read-plates": frozenset({"plates", "count"}), "scan-plate": frozenset({"wells"}),
           "snapshot-db": frozenset({"snapshot", "size"}), "check-space": frozenset({"free_gb"})}


def _spec(text: str, name: str, outputs: bool = True) -> Any:
    words = Vocabulary.of([(s, None) for s in SKILLS])
    if outputs:
        words = words.with_outputs(lambda s: OUTPUTS.get(s, frozenset()))
    return parse_spec_text(text, name, "markdown", words)


def _step(spec: Any, skill: str) -> Any:
    return next(s for s in spec.steps if s.skill == skill)


BACKUPS = """\
# /etc/cron.d/nightly-backup  -- the accounts server
# chained: each job starts when the ones it needs are done; times kept for reference
HOST=ledger-01          # which box
KEEP_DAYS=14
MAILTO=ops@example.org
SHELL=/bin/bash
# [1] snapshot the ledger database
15 1 * * *  backup  /usr/local/bin/run-skill snapshot-db host="$HOST"
# [2] check the offsite bucket has room - doesn't need (1), fire it at the same time
15 1 * * *  backup  /usr/local/bin/run-skill check-space bucket=offsite-eu
# [3] ship it: the snapshot from (1), the space from (2)
30 1 * * *  backup  /usr/local/bin/run-skill ship-offsite snapshot=<from 1> free_gb=<from 2> keep="$KEEP_DAYS"
# [4] morning mail
0 7 * * *   backup  /usr/local/bin/run-skill mail-report shipped=<3>
# was: 0 3 * * * backup /usr/local/bin/old-backup.sh
"""


def test_a_cron_d_files_jobs_are_its_steps_and_its_variables_the_inputs() -> None:
    spec = _spec(BACKUPS, "nightly-backup.crontab")
    assert [s.skill for s in spec.steps] == ["snapshot-db", "check-space", "ship-offsite", "mail-report"]
    assert {i.name: i.default for i in spec.inputs} == {"host": "ledger-01", "keep_days": "14"}  # not MAILTO/SHELL
    ship = _step(spec, "ship-offsite")
    assert {f.name: f.source for f in ship.inputs} == {
        "snapshot": "steps.step-1.output.snapshot", "free_gb": "steps.step-2.output.free_gb",
        "keep": "inputs.keep_days"}
    assert _step(spec, "mail-report").inputs[0].source == "steps.step-3.output.shipped"
    assert _step(spec, "check-space").input_values == {"bucket": "offsite-eu"}
    assert _step(spec, "check-space").unordered_where is not None  # "doesn't need (1)"
    assert any(w.line == 15 and "commented out" in w.message for w in spec.warnings)  # the old job: no step


PLATES = """\
# crontab for the plate lab (user: lab). Times are only when these used to fire.
# step 1 - read the plate list for the run
0 6 * * 1-5 /opt/lab/run read-plates
# step 2 - scan each plate from (1), 20 s at most for any one plate
5 6 * * 1-5 /opt/lab/run scan-plate plate=<each plate>
# step 3 - merge every plate's scan
30 6 * * 1-5 /opt/lab/run merge-scans scans=<all of 2>
"""


def test_a_user_crontabs_each_and_all_of_placeholders_are_a_loop_and_a_gather() -> None:
    spec = _spec(PLATES, "lab.cron")
    scan = _step(spec, "scan-plate")
    assert scan.for_each == "item in steps.step-1.output.plates"  # "plate" -> read-plates' `plates`
    assert scan.input_values == {"plate": "{{ item }}"}
    assert _step(spec, "merge-scans").inputs[0].source == "steps.step-2.output"  # every result, gathered


SHOP = """\
# shop jobs (crontab -l)
@daily count-stock
# then the price list, for each item from 1 - it runs once for each one
@daily price-list item=<each item>
@daily post-prices prices=<all of 2> note=<whatever the boss says>
"""


def test_a_shops_crontab_with_no_user_field_and_its_unread_placeholder_warned() -> None:
    spec = _spec(SHOP, "shop.crontab", outputs=False)
    assert [s.skill for s in spec.steps] == ["count-stock", "price-list", "post-prices"]
    price = _step(spec, "price-list")
    assert price.for_each == "item in steps.step-1.output.items"  # no outputs known: the step it cites
    assert not any("once" in t.text for t in price.texts)  # the loop's own sentence is read, not a policy
    assert any("`note=<whatever the boss says>` is not read" in w.message for w in spec.warnings)


def test_what_is_a_crontab() -> None:
    assert is_crontab("jobs.crontab", "0 1 * * * backup run-skill snapshot-db\n")
    assert is_crontab("notes.txt", "# nightly\nA=1\n*/5 * * * * run-skill check-space\n")
    assert not is_crontab("notes.txt", "# nightly\nrun the backup at 1 am\n0 1 * * * run-skill x\n")  # prose too
    assert not is_crontab("steps.md", "0 1 * * * run-skill snapshot-db\n")  # markdown is markdown
    assert not is_crontab("deploy.sh", "#!/bin/sh\nskill snapshot-db\n")  # a script, no job line


def test_a_markdown_note_with_a_cron_line_in_it_is_still_markdown() -> None:
    text = ("# Backups\n\n## Step 1: Snapshot\n- Skill: snapshot-db\n\nRuns from cron: `15 1 * * * backup run`.\n\n"
            "## Step 2: Ship\n- Skill: ship-offsite\n")
    spec = _spec(text, "backups.md")
    assert [s.skill for s in spec.steps] == ["snapshot-db", "ship-offsite"]
    assert not any("read as a crontab" in w.message for w in spec.warnings)
