"""The fourteenth holdout (tests/fixtures/foreign-specs-holdout14, specs 87-92), its data for
test_foreign_specs_holdouts.py. Blind at f2614bd and again at 5a3ac7c (BLIND-RESULTS*.md): 6 of 33 steps fully right, 0 of 12 runs at their
final output both times; three of its kinds are uncommon shapes (a reStructuredText page, a Trello export, a
recipe method card) and 89 is YAML in its author's own schema. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (an otherwise's `not (x == 'C')` is `x != 'C'`).
What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout14"
RATES, SAE, SNOW, LOAN, SAILING, BRITE = folders_of(FIXTURES / NAME)

_FOUND = "steps['#3'].output.n_discrepancies"
_LISTED = "steps['#3'].output.discrepancies"
_WORST = "steps['#3'].output.worst_grade"
_IN_SPEC = "steps['#3'].output.in_spec"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    # "at least one discrepancy": the list `discrepancies` not empty, the same as its count `n_discrepancies` > 0
    (SAE, 4): (34, (f"{_FOUND} > 0", f"{_FOUND} >= 1", _LISTED)),
    (SAE, 5): (42, (f"not ({_FOUND} > 0)", f"{_FOUND} == 0", f"not ({_FOUND} >= 1)", f"{_FOUND} < 1", f"not ({_LISTED})")),
    (SNOW, 5): (45, ("steps['#1'].output.level != 'normal'", "not (steps['#1'].output.level == 'normal')")),
    (LOAN, 4): (55, (f"{_WORST} == 'C'",)),
    (LOAN, 5): (66, (f"not ({_WORST} == 'C')", f"{_WORST} != 'C'", f"{_WORST} in ['A', 'B']")),
    (BRITE, 4): (25, (_IN_SPEC, f"{_IN_SPEC} == true", f"{_IN_SPEC} is true")),
    (BRITE, 5): (27, (f"not ({_IN_SPEC})", f"not {_IN_SPEC}", f"{_IN_SPEC} == false", f"not ({_IN_SPEC} == true)",
                      f"not ({_IN_SPEC} is true)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (RATES, 5): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                 "when": ("steps['#4'].output.max_change_pct > 25",)},
    (SAILING, 4): {"required": True, "timeout_s": 1800.0, "on_timeout": "approve",
                   "when": ("steps['#3'].output.load_pct > 95",)},
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason); 89
# (own-schema YAML with stages of name-keyed steps) is read since `spec.yaml_grouped`
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (RATES, 2, "input rates"): "the intro's 'whatever the rate shopper pulled for the comp set' (line 4) is read as "
                               "comp-median's `rates` (warned at line 4: plan.inputs-in-prose): the plan names it "
                               "`rates`, not `comp_rates` (a run given comp_rates takes it as rates, said on stderr)",
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line) -> why what the line says is neither read as meant nor warned at that line
SILENT: dict[tuple[str, int], str] = {
}


# (folder, run: 0 the author's inputs, n the n-th of more_runs) -> (what stops it reaching the author's
# output, asserted on the plan, and why); these runs are not made
NOT_RUN: dict[tuple[str, int], Any] = {}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly (never
# `succeeded`), and one that reaches its author's output must leave this list
FAILS: dict[tuple[str, int], str] = {
}
# runs whose author's final output is an approval asked (prose, not an output): (author's step that asks, what
# follows); such a run must pause awaiting that step alone, and what follows an approval is not run here
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (RATES, 1): (5, "'approval asked (max_change_pct 33.1 > 25)': the rates are pushed only if Marco approves"),
    (SAILING, 1): (4, "'approval asked (load_pct 112.5 > 95)': the filing waits for the duty manager's sign-off"),
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why, to leave the
# list once it pauses (a run that ends `succeeded` here is a success short of what its author meant)
UNPAUSED: dict[tuple[str, int], str] = {
}
