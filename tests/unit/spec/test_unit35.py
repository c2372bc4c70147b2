"""A service unit whose command lines run the skills is read as a runbook of them (`spec.unit35`):
`Environment=` values the workflow inputs with their defaults, `${X}`/`$X` references to them, the
comment lines above each `ExecStartPre=`/`ExecStart=` the step's text (its policy read), the
`TimeoutStartSec=` the whole run's limit, `--out f.json` and `@f.json:field` the wiring. A lab's
nightly backup unit, a supervisor-like program file of a print shop, a bakery's `.unit` with an
env file; and INI-like files that are not read as units."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.unit35 import is_unit
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("snapshot-db", "ship-offsite", "mail-report", "fetch-orders", "render-proofs", "send-proofs",
          "count-flour", "order-flour")


def _spec(text: str, name: str) -> Any:
    return parse_spec_text(text, name, "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _step(spec: Any, skill: str) -> Any:
    return next(s for s in spec.steps if s.skill == skill)


BACKUP = """\
# lab-backup.service -- the sequencer box's nightly copy
[Unit]
Description=nightly copy of the run database
After=network-online.target

[Service]
Type=oneshot
# which box, and how many days the offsite keeps
Environment="HOST=seq-01" KEEP_DAYS=14
# half an hour for all of it
TimeoutStartSec=1800
Restart=no

# (1) snapshot. the disk is slow at night: try it 3 times, 30 s apart
ExecStartPre=-/usr/local/bin/skill snapshot-db host=${HOST} --output=snap.json
# (2) ship it. never retry this one, the bucket bills per upload
ExecStartPre=/usr/local/bin/skill ship-offsite snapshot=@snap.json:snapshot keep=$KEEP_DAYS region=eu-west \\
    -o shipped.json
ExecStart=/usr/local/bin/skill mail-report shipped=@shipped.json:receipt to=lab-ops
# ExecStartPost=/usr/local/bin/skill mail-report shipped=none
ExecStop=/usr/bin/pkill rsync
"""


def test_a_systemd_units_exec_lines_are_its_steps_and_its_environment_the_inputs() -> None:
    spec = _spec(BACKUP, "lab-backup.service")
    assert [s.skill for s in spec.steps] == ["snapshot-db", "ship-offsite", "mail-report"]
    assert {i.name: i.default for i in spec.inputs} == {"HOST": "seq-01", "KEEP_DAYS": "14"}  # as spelled
    ship = _step(spec, "ship-offsite")
    assert {f.name: f.source for f in ship.inputs} == {"snapshot": "steps.step-1.output.snapshot",
                                                         "keep": "inputs.KEEP_DAYS"}
    assert ship.input_values == {"region": "eu-west"}  # a literal on the line stays a literal
    mail = _step(spec, "mail-report")
    assert {f.name: f.source for f in mail.inputs} == {"shipped": "steps.step-2.output.receipt"}
    assert mail.input_values == {"to": "lab-ops"}
    assert _step(spec, "snapshot-db").name == "snapshot. the disk is slow at night: try it 3 times, 30 s apart" or \
        any("3 times" in t.text for t in _step(spec, "snapshot-db").texts)
    assert any("never retry" in t.text for t in ship.texts)  # the comment is the step's text, read for policy
    assert any(r.statement.whole_run and r.statement.timeout_s == 1800 for r in spec.readings)
    lines = {w.line: w.message for w in spec.warnings}
    assert "commented out" in lines[20] and "not a step" in lines[21]
    assert "Restart" in lines[3] and "not read" in lines[3]


PRINT_SHOP = """\
; proofs.conf -- print shop, the morning proofs
[program:proofs]
environment=SHOP="north",BATCH="am"
; pull the night's orders; 2 min tops
command=/opt/shop/bin/run-skill fetch-orders shop=%(ENV_SHOP)s batch=$BATCH --out orders.json
; one proof per order
command=/opt/shop/bin/run-skill render-proofs orders=@orders.json:orders --out proofs.json
; send them. If it fails, carry on.
command=/opt/shop/bin/run-skill send-proofs proofs=@proofs.json:proofs
autorestart=false
"""


def test_a_supervisor_like_program_files_commands_are_steps() -> None:
    assert is_unit("proofs.conf", PRINT_SHOP)
    spec = _spec(PRINT_SHOP, "proofs.conf")
    assert [s.skill for s in spec.steps] == ["fetch-orders", "render-proofs", "send-proofs"]
    assert {i.name: i.default for i in spec.inputs} == {"SHOP": "north", "BATCH": "am"}
    assert {f.name: f.source for f in _step(spec, "render-proofs").inputs} == {
        "orders": "steps.step-1.output.orders"}
    assert any("carry on" in t.text for t in _step(spec, "send-proofs").texts)


BAKERY = """\
[Unit]
Description=Monday flour order

[Service]
EnvironmentFile=/etc/bakery/flour.env
# count what is in the store room
ExecStartPre=/usr/bin/skill count-flour room=${ROOM}
# order the difference, wait up to 5 minutes for the mill
ExecStart=/usr/bin/skill order-flour need=@count.json:short supplier=${MILL}
"""


def test_an_env_files_variables_are_inputs_without_default_and_said() -> None:
    spec = _spec(BAKERY, "flour.unit")
    assert [s.skill for s in spec.steps] == ["count-flour", "order-flour"]
    assert {i.name for i in spec.inputs} >= {"ROOM", "MILL"}  # as spelled
    assert all(i.default is None for i in spec.inputs)
    assert any(w.line == 2 and "read as a service unit" in w.message for w in spec.warnings)  # said, Description
    assert any(w.line == 5 and "not read here" in w.message for w in spec.warnings)


def test_files_that_look_like_units_but_are_not_read_as_one() -> None:
    ini = "[Service]\nname=bakery\nExecStart=/usr/bin/nginx -g 'daemon off;'\n"
    assert not is_unit("site.ini", ini)  # no skill runs: an INI file
    assert not is_unit("notes.md", "Set `ExecStart=/usr/bin/skill count-flour` in [Service]\n[Service]\n")
    assert not is_unit("settings.ini", "[general]\ncommand=skill count-flour\n")  # no unit section
    assert is_unit("x.service", "")  # by its suffix
    spec = _spec("# a plain note\n\nRun count-flour, then order-flour.\n", "plan.txt")
    assert not any("service unit" in w.message for w in spec.warnings)
