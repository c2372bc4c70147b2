"""The thirteenth holdout (tests/fixtures/foreign-specs-holdout13, specs 81-86), its data for
test_foreign_specs_holdouts.py. Blind at 85d328a and again at 5008bff (BLIND-RESULTS*.md): 5 of 31 steps fully right, 0 of 10 runs at their
final output; three of its kinds are uncommon shapes (a CSV sheet, a MediaWiki page, a WhatsApp export). It is
tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (an otherwise's `not (x >= 4)` is `x < 4`).
What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout13"
VET, WIND, GRADES, CUSTOMS, THEATRE, WEDDING = folders_of(FIXTURES / NAME)

_GRADE = "steps['#1'].output.top_grade"
_OVER = "steps['#1'].output.headcount > inputs.capacity"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (WIND, 3): (37, (f"{_GRADE} >= 4",)),
    (WIND, 4): (47, (f"not ({_GRADE} >= 4)", f"{_GRADE} < 4")),
    (THEATRE, 5): (33, ("steps['#2'].output.missing_count > 0",)),
    (WEDDING, 2): (9, (_OVER,)),
    (WEDDING, 3): (10, (f"not ({_OVER})", "steps['#1'].output.headcount <= inputs.capacity")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (GRADES, 4): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                  "when": ("steps['#3'].output.max_jump >= 1.0",)},
    (CUSTOMS, 4): {"required": True, "timeout_s": 10800.0, "on_timeout": "reject",
                   "when": ("steps['#3'].output.total_usd > 10000",)},
    (THEATRE, 6): {"required": True, "timeout_s": 600.0, "on_timeout": "approve",
                   "when": ("steps['#4'].output.failed_count > 0",)},
    (WEDDING, 4): {"required": True, "timeout_s": 86400.0, "on_timeout": "reject",
                   "when": ("steps['#4'].output.total_gbp > 9000",)},
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason); none
# since the round-15 readers (82's table condition, 84's sign-off comment, 85's 'any failures', 86's prose inputs)
REFUSED: dict[str, str] = {}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
_OPERATOR = ("the author's placeholder {} (line {}) is bound as a literal string, not as {} ('read as a literal "
             "value' in the plan, no warning)")
KNOWN: dict[tuple[str, int, str], str] = {
    (WEDDING, 4, "approval"): "line 15's sign-off ('over £9,000 I'll need your ok ... within 24 hrs I won't place it') is "
                              "read, but its condition is step 4's own `total_gbp`, known only once the order is "
                              "placed: an approval holds a step before it runs and the plan has no gate after a step's "
                              "work, so it is asked on every run (warned at line 15, saying so and how to split the step)",
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
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
    **{(WEDDING, n): "the sign-off over £9,000 (line 15) names step 4's own `total_gbp`, known only once the order is "
                     "placed: it is asked on every run (warned, never acting unasked), so this run under £9,000 "
                     "pauses for a yes its author did not want asked" for n in (0, 1)},
}
# (folder, run) -> the answers of a run whose expect.yaml says them only in its notes, and why; approved and resumed
ANSWERED: dict[tuple[str, int], tuple[dict[int, str], str]] = {
    (GRADES, 0): ({4: "approved"}, "max_jump 1.0: the Associate Registrar is asked; 'final_output assumes it is granted'"),
    **{(THEATRE, n): ({6: "approved"}, "LX 14 fails, so Fi is asked before clearance; 'final_output is the same whether "
                                        "she approves or does not answer within 10 minutes (no answer = approve)'")
       for n in (0, 1)},
}
# runs whose author's final output is an approval asked (prose, not an output): (author's step that asks, what
# follows); such a run must pause awaiting that step alone, and what follows an approval is not run here
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (CUSTOMS, 1): (4, "'approval asked (total_usd 14176.49 > 10000)': the entry is filed only if Carla approves"),
}
