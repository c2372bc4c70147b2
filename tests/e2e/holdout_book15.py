"""The fifteenth holdout (tests/fixtures/foreign-specs-holdout15, specs 93-98), its data for
test_foreign_specs_holdouts.py. Blind at 5c74870 and again at 5bd331d (BLIND-RESULTS*.md): 6 of 31 steps fully
right, 2 of 9 runs at their final output, 94 and 96 refused; three of its kinds are uncommon shapes (a Notion
export, an INI file, a typed letter) and 95 is YAML in its author's own schema. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x >= 1)` is `x == 0` for a count). What is not so yet
is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout15"
PLATELET, SLATE, RACE, KICKOFF, CRANE, HARVEST = folders_of(FIXTURES / NAME)

_FITS = "steps['#3'].output.fits"
_RISK = "steps['#3'].output.risk"
_READY = "steps['#1'].output.ready_count"
_KIDS, _SEATS = "steps['#1'].output.kids", "steps['#2'].output.seats"  # 96: headcount = len(kids)
_LISTED = "steps['#1'].output.ready_blocks"  # average-samples gives ready_count = len(ready_blocks)
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (SLATE, 4): (54, (_FITS, f"{_FITS} == true", f"{_FITS} is true")),
    (SLATE, 5): (71, (f"not ({_FITS})", f"not {_FITS}", f"{_FITS} == false", f"not ({_FITS} == true)")),
    (CRANE, 4): (36, (f"{_RISK} == 'high'",)),
    (CRANE, 5): (44, (f"not ({_RISK} == 'high')", f"{_RISK} != 'high'")),
    # "at least one block is ready": a count, so >= 1 and > 0 are one case, and "no block" is == 0
    (HARVEST, 3): (22, (f"{_READY} >= 1", f"{_READY} > 0", _LISTED)),
    (HARVEST, 4): (28, (f"not ({_READY} >= 1)", f"{_READY} == 0", f"{_READY} < 1", f"not ({_READY} > 0)",
                        f"not ({_LISTED})")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (PLATELET, 5): {"required": True, "timeout_s": 900.0, "on_timeout": "approve",
                    "when": ("steps['#4'].output.total_units > 12",)},
    (KICKOFF, 4): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                   "when": ("steps['#1'].output.headcount > steps['#2'].output.seats",
                            # "more kids than seats": clean-signups gives headcount = len(kids), one count
                            f"({_KIDS} if {_KIDS} is number else {_KIDS} | length) > "
                            f"({_SEATS} if {_SEATS} is number else {_SEATS} | length)")},
    (HARVEST, 3): {"required": True, "timeout_s": 10800.0, "on_timeout": "reject",
                   "when": (f"{_READY} > 2", f"{_LISTED} | length > 2")},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (SLATE, 37, 0): "'Mark it `cleared: false` and keep going' is read as continue with {title: null, runtime_min: null, "
                    "cleared: false}: the other outputs are set to null (the contract's whole output), warned at line 37",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
}
# (folder, run: 0 the author's inputs, n the n-th of more_runs) -> (what stops it reaching the author's
# output, asserted on the plan, and why); these runs are not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly (never
# `succeeded`), and one that reaches its author's output must leave this list
FAILS: dict[tuple[str, int], str] = {
}
