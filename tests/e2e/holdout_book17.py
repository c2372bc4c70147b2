"""The seventeenth holdout (tests/fixtures/foreign-specs-holdout17, specs 105-110), its data for
test_foreign_specs_holdouts.py. Blind at 8ce6cdd (BLIND-RESULTS.md): 5 of 25 steps fully right, 0 of 12 runs at
their final output, 107 and 110 refused; three of its kinds are uncommon shapes (an AsciiDoc page, a GitHub issue
with a task list and comments, a Word SOP saved as text with 3.1.1 numbering) and 107 is YAML in its author's own
schema with the wiring in a block at the end. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x > 0)` is `x == 0`). What is not so yet is listed
with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout17"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
BAKE, DENTAL, INVERTER, FERRY, BIRDS, WATER = (_BY_NUMBER[n] for n in ("105", "106", "107", "108", "109", "110"))

_TRUCK = "steps['#1'].output.needs_truck"
_POSITIVE = "steps['#1'].output.positive_count"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (INVERTER, 2): (21, (_TRUCK, f"{_TRUCK} == true", f"{_TRUCK} is true")),
    (INVERTER, 3): (27, (f"not ({_TRUCK})", f"not {_TRUCK}", f"{_TRUCK} == false", f"not ({_TRUCK} == true)",
                         f"not ({_TRUCK} is true)")),
    (WATER, 2): (21, (f"{_POSITIVE} > 0", f"{_POSITIVE} >= 1")),
    (WATER, 3): (25, (f"not ({_POSITIVE} > 0)", f"{_POSITIVE} == 0", f"{_POSITIVE} <= 0", f"{_POSITIVE} < 1",
                      f"not ({_POSITIVE} >= 1)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (BAKE, 4): {"required": True, "timeout_s": 2700.0, "on_timeout": "approve",
                "when": ("steps['#3'].output.short_kg > 0",)},
    (WATER, 2): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                 "when": (f"{_POSITIVE} >= 2", f"{_POSITIVE} > 1")},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    **{(WATER, n, "input week"): "section 2's list (lines 12-13) is read, but 'The reporting week' becomes the input "
                                 "`reporting_week` (the text's words, warned at line 12), not the skill's `week`: a run "
                                 "given `week` takes it as `reporting_week`, said so"
       for n in (2, 3, 4)},
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (BAKE, 1): (4, "short 47.8 kg of flour: Marco's OK (line 21) comes before the bake sheet"),
    (WATER, 2): (2, "two sites positive: the Distribution Superintendent approves the advisory first (line 22)"),
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
    (FERRY, 1): "no sea-state feed for BUOY-07, so the fallback sea-state-manual runs (line 24): the run reaches its "
                "author's output and ends `degraded`, a fallback used",
    (DENTAL, 1): "Bev Osei has no phone and no email, so her reminder falls back to plain-reminder (line 15): the run "
                 "reaches its author's output and ends `degraded`, a fallback used",
}
