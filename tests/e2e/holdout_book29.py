"""The twenty-ninth holdout (tests/fixtures/foreign-specs-holdout29, specs 177-182), its data for
test_foreign_specs_holdouts.py. Blind at 1d426731 (BLIND-RESULTS.md): 4 of 6 validate (180 and 182 refused),
4 of 27 steps fully right, 9 of 25 policy lines as meant, 0 of 14 runs at their final output (177, 179 and 181
refuse every run, "unknown inputs"), 14 of 14 statuses honest; its kinds are a Nix-like expression, a parish
pew-sheet rota in plain text, a vet clinic's analgesia protocol, a PowerShell script, a GitHub Discussions thread
copied as markdown and a quote sheet pasted from a spreadsheet as tab-separated text. It is tuning data now; what
main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 179's dose steps are a condition and its other branch, the
chart entry after whichever ran. 182's approval is asked only under a condition (PRICE OVER 2,500): its first run
does not meet it (548, sent with no approval); its second is approved and resumed, its third meets three hours of
silence and is held at the approval, its timeout and what silence does (approve: the quote is sent anyway)
checked on the plan. 178's second run and 180's second go on by a fallback (the offline lectionary, the standard
boundaries), so they end `degraded` (NOT_A_SUCCESS); 181's third fails at material-check (PVC) as its author
says. What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout29"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
NIGHT, PEWSHEET, ANALGESIA, MOCKS, LASER, QUOTE = (_BY_NUMBER[n] for n in ("177", "178", "179", "180", "181", "182"))

_CAT = ("inputs.species == 'cat'", 'inputs.species == "cat"')

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (ANALGESIA, 2): (17, _CAT),  # "b) CAT -> feline-dose-calc"
    # "c) DOG (i.e. anything that isn't a cat) ->": the otherwise of step 2
    (ANALGESIA, 3): (19, (*(f"not ({c})" for c in _CAT), "inputs.species != 'cat'", 'inputs.species != "cat"')),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (QUOTE, 5): {"required": True, "timeout_s": 10800.0, "on_timeout": "approve",
                 "when": ("steps['#4'].output.price > 2500",)},
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
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output by a fallback, so not `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
    (PEWSHEET, 1): "lectionary-lookup has nothing for 2026-12-20 and exits 1: the fallback lectionary-offline gives "
                   "the readings, and a run that went on by a fallback says so (`degraded`)",
    (MOCKS, 1): "grade-boundaries exits 1 for CHEM and the run goes on with line 31's standard boundaries: said "
                "(`degraded`), not hidden",
    (LASER, 2): "PVC: material-check exits 1 and line 34 says no retry and the request fails there: the run fails at "
                "step 2 with no output, as its author says (`final_output: null`)",
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at cf8872d9; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
}
