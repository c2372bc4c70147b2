"""The twenty-third holdout (tests/fixtures/foreign-specs-holdout23, specs 141-146), its data for
test_foreign_specs_holdouts.py. Blind at d6f941ee (BLIND-RESULTS.md): 4 of 6 validate (141 and 142 refused),
3 of 26 steps fully right, 2 of 21 policy lines as meant, 0 of 9 runs at their final output, 8 of 9 statuses
honest (146 a false `succeeded`); its kinds are an Ansible-style playbook, a GitHub Actions workflow, a plain-text
README with a dotted glossary, a museum loan schedule in legal prose, a Gherkin feature file and a knitting
pattern. It is tuning data now; what main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py (143's `withdraw_count` is the length of its `to_withdraw`, so
either is the count meant); expect.yaml does not give the line of 143's approval, so its
APPROVAL entry does (`line`). A run whose expect.yaml says `approval: granted ...` with a
`final_output_after_approval` is approved and resumed. What is not so yet is listed with its reason: one that
starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout23"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
CHAIRSIDE, TICKER, WEEDING, LOAN, BENCH, PARCEL = (_BY_NUMBER[n] for n in ("141", "142", "143", "144", "145",
                                                                           "146"))

_MARGIN = "steps['#1'].output.margin_pct"
_LABOUR = "steps['#1'].output.labour_min"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (TICKER, 2): (31, (f"{_MARGIN} < 2",)),
    (TICKER, 3): (40, (f"{_MARGIN} >= 2", f"not ({_MARGIN} < 2)")),
    (BENCH, 3): (23, (f"{_LABOUR} > 90",)),
    (BENCH, 4): (24, (f"not ({_LABOUR} > 90)", f"{_LABOUR} <= 90")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed, `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (WEEDING, 3): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject", "line": 26,
                   "when": ("steps['#2'].output.withdraw_count > 5", "steps['#2'].output.to_withdraw | length > 5")},
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
    (WEEDING, "success", 34): "'Finished means: the log line is written and the withdrawn number in it equals what "
                              "holds-check said to withdraw' is not checked (warned: not a comparison of an output "
                              "field with a value)",
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
