"""The thirtieth holdout (tests/fixtures/foreign-specs-holdout30, specs 183-188), its data for
test_foreign_specs_holdouts.py. Blind at 8c759452 (BLIND-RESULTS.md): 3 of 6 validate (183, 185 and 187 refused),
4 of 28 steps fully right, 9 of 25 policy lines as meant, 0 of 13 runs at their final output (184 and 188 refuse
every run, "unknown inputs"; 186 fails at step 3), 13 of 13 statuses honest; its kinds are a troff man page, a Lua
config table, an iCalendar invite with the steps in its folded DESCRIPTION, a todo.txt list, a PlantUML activity
diagram and an MS Project task sheet saved as text. It is tuning data now; what main does not read as meant yet is
listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 187's steps 4 and 5 are the two branches of `if (total_loss?)
then (yes) / else (no)`, its step 6 after whichever ran. 188's approval is asked only under a condition (the price
over 5,000): its first run does not meet it (756, no approval); its second is approved and resumed, its third meets
an hour of silence and is held at the approval, its timeout and what silence does (reject: no order, the run stops)
checked on the plan. 183 (the man page) is planned since r46man (its SYNOPSIS arguments the inputs, each `.TP` item
tagged "N. skill" a step) and is read as meant throughout. What is not so yet is listed with its reason: one that
starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import falsy, truthy

NAME = "foreign-specs-holdout30"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
MANPAGE, NIGHTCOVER, SWIM, MONTHEND, FNOL, SLAB = (_BY_NUMBER[n] for n in ("183", "184", "185", "186", "187", "188"))

_TOTAL_LOSS = "steps['#3'].output.total_loss"

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (FNOL, 4): (23, truthy(_TOTAL_LOSS)),  # "if (total_loss?) then (yes)"
    (FNOL, 5): (25, falsy(_TOTAL_LOSS)),  # "else (no)": the otherwise of step 4
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (SLAB, 4): {"required": True, "timeout_s": 3600.0, "on_timeout": "reject",
                "when": ("steps['#3'].output.price_gbp > 5000",)},  # ">> if price_gbp is over £5,000 Gary ... OKs it"
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
# folder -> why its success check is not on the step, field and value meant at its line yet (test_foreign_specs_holdouts's
# own success-check case)
KNOWN_CHECK: dict[str, str] = {
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
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output by a fallback, so not `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at 8d31a6d7 (185 line 15 and 186 line 4 out since the sentences declaring their inputs are read, r46need); (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
}
