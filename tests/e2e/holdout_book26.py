"""The twenty-sixth holdout (tests/fixtures/foreign-specs-holdout26, specs 159-164), its data for
test_foreign_specs_holdouts.py. Blind at 4219662f (BLIND-RESULTS.md): 4 of 6 validate (159 and 161 refused),
9 of 31 steps fully right, 8 of 25 policy lines as meant, 0 of 12 runs at their final output (none started: all
refused with the spec or on inputs), 12 of 12 statuses honest; its kinds are a `justfile`, a wedding planner's
fixed-width day-before timeline, a ward's markdown discharge checklist, a systemd service unit, a beekeeping club's
paper hive-inspection form and a choir's rehearsal plan with its laptop jobs inside the tea break. It is tuning
data now; what main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 161's and 164's approvals are asked only under a condition
(`required_when`): 161's first and third runs and 164's first do not meet it; 161's second run and 164's second
are approved and resumed (`approval_answer: approved`). What is not so yet is listed with its reason: one that
starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import falsy, truthy

NAME = "foreign-specs-holdout26"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
OVERDUE, WEDDING, WARD, ASRUN, HIVE, CONCERT = (_BY_NUMBER[n] for n in ("159", "160", "161", "162", "163", "164"))

_HIGH_RISK = "steps['#1'].output.high_risk"
_QUEENLESS = "steps['#3'].output.any_queenless"


# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (WARD, 2): (22, truthy(_HIGH_RISK)),
    (WARD, 3): (23, falsy(_HIGH_RISK)),
    (HIVE, 4): (31, truthy(_QUEENLESS)),
    (HIVE, 5): (37, falsy(_QUEENLESS)),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (WARD, 4): {"required": True, "timeout_s": 1800.0, "on_timeout": "approve",
                "when": ("inputs.mobility == 'stretcher'", 'inputs.mobility == "stretcher"')},
    (CONCERT, 5): {"required": True, "timeout_s": 1200.0, "on_timeout": "skip",
                   "when": ("steps['#4'].output.print_cost > 150",)},
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread, checked against the plan at 57efe9a1; (folder, line) -> what the plan does and why it is
# not as meant. The scorer has no "wrong" line for holdout26 and all 12 runs reach their author's output there.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
