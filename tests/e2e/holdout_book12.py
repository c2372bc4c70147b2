"""The twelfth holdout (tests/fixtures/foreign-specs-holdout12, specs 75-80), its data for
test_foreign_specs_holdouts.py. Blind at d2c0eb4 and again at c74ed1e (BLIND-RESULTS-*.md): 7 of 27 steps fully
right, 1 of 8 runs at its final output; round 14 tuned on this set, so it is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (a count's `not failed` is `failed == 0`). What is not so yet is listed with
its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout12"
BREW, LOAN, SUBS, WARD, PODCAST, PERMIT = folders_of(FIXTURES / NAME)

_FAILED = "steps['#3'].output.failed"
_BIG = "steps['#1'].output.est_cost > 50000 or steps['#1'].output.work_type == 'structural'"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    # `failed` is a count: "nothing failed" is == 0, not failed, not > 0
    (BREW, 4): (10, (f"{_FAILED} == 0", f"not {_FAILED}", f"not ({_FAILED} > 0)")),
    (BREW, 5): (11, (f"{_FAILED} > 0", _FAILED, f"{_FAILED} != 0", f"not ({_FAILED} == 0)")),
    (PERMIT, 3): (22, (_BIG,)),
    (PERMIT, 4): (25, (f"not ({_BIG})",)),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (LOAN, 3): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                "when": ("steps['#2'].output.insured_value_eur > 250000",)},
    (WARD, 3): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                "when": ("steps['#1'].output.has_controlled", "steps['#1'].output.has_controlled == true",
                         "steps['#1'].output.has_controlled is true")},
}


# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (WARD, 12, 0): "the later message's 'the ward message: if it hasn't gone in 30 seconds treat it as failed' names "
                   "no step by its skill, so it is not read (warned 'spec.unread' at line 12)",
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
