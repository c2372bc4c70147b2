"""The twenty-eighth holdout (tests/fixtures/foreign-specs-holdout28, specs 171-176), its data for
test_foreign_specs_holdouts.py. Blind at 54fdacd6 (BLIND-RESULTS.md): 4 of 6 validate (171 and 174 refused),
0 of 28 steps fully right, 12 of 28 policy lines as meant, 0 of 13 runs at their final output, 13 of 13 statuses
honest (its SKILL.md files name their inputs and outputs without backticks); its kinds are a go-task Taskfile.yml,
a cook-chill HACCP sheet in fixed-width text, a nursing SBAR note, a tour-bus day sheet, a letting agency's `.env`
file and a vineyard's Rakefile. It is tuning data now; what main does not read as meant yet is listed below with
its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 175's approval is asked only under a condition
(`required_when`): its first run does not meet it (4 days late: the friendly email, no approval); its second is
approved and resumed, its third meets 24 hours of silence and is held at the approval, its timeout and what
silence does (reject: nothing is sent, the run stops) checked on the plan. What is not so yet is listed with its
reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import falsy, truthy

NAME = "foreign-specs-holdout28"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
TASKFILE, HACCP, SBAR, DAYSHEET, ARREARS, PICK = (_BY_NUMBER[n] for n in ("171", "172", "173", "174", "175", "176"))

_WORSE = "steps['#1'].output.worse"
_LATE = "steps['#1'].output.days_late"


# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (SBAR, 2): (18, truthy(_WORSE)),
    (SBAR, 3): (20, falsy(_WORSE)),
    (ARREARS, 2): (17, (f"{_LATE} > 14",)),  # GRACE_DAYS=14 (line 11), the constant filled in
    (ARREARS, 3): (19, (f"{_LATE} <= 14", f"not ({_LATE} > 14)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (ARREARS, 2): {"required": True, "timeout_s": 86400.0, "on_timeout": "reject",
                   "when": ("steps['#1'].output.arrears_gbp > 1000",)},
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
# folder -> why its success check is not yet on the step, field and value meant (its own test, not the Book's)
KNOWN_CHECK: dict[str, str] = {
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
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at c04ab3ad; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
}
