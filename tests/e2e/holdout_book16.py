"""The sixteenth holdout (tests/fixtures/foreign-specs-holdout16, specs 99-104), its data for
test_foreign_specs_holdouts.py. Blind at 2b56f19 and again at 63d7fd2 (BLIND-RESULTS*.md): 8 of 31 steps fully
right, 0 of 11 runs at their final output, 99 and 100 refused; three of its kinds are uncommon shapes (a
PowerPoint outline, an Obsidian note, a request form of `Step N - Field: value` lines) and 101 is YAML in its
author's own schema with anchors and a merge key. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x >= 3)` is `x < 3`). What is not so yet is listed
with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout16"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
VET, REEFER, BLADE, SKI, SEEDBANK, PHARMACY = (_BY_NUMBER[n] for n in ("99", "100", "101", "102", "103", "104"))

_EXCURSION = "steps['#3'].output.excursion"
_HAZARD = "steps['#3'].output.hazard_level"
_AFFECTED = "steps['#1'].output.affected_count"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (REEFER, 4): (44, (_EXCURSION, f"{_EXCURSION} == true", f"{_EXCURSION} is true")),
    (REEFER, 5): (55, (f"not ({_EXCURSION})", f"not {_EXCURSION}", f"{_EXCURSION} == false",
                       f"not ({_EXCURSION} == true)")),
    (SKI, 4): (26, (f"{_HAZARD} >= 3",)),
    (SKI, 5): (33, (f"not ({_HAZARD} >= 3)", f"{_HAZARD} < 3")),
    (PHARMACY, 3): (33, (f"{_AFFECTED} >= 1", f"{_AFFECTED} > 0")),
    (PHARMACY, 4): (41, (f"not ({_AFFECTED} >= 1)", f"{_AFFECTED} == 0", f"{_AFFECTED} < 1",
                         f"not ({_AFFECTED} > 0)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (REEFER, 4): {"required": True, "timeout_s": 7200.0, "on_timeout": "approve",
                  "when": ("steps['#3'].output.severity == 'major'",)},
    (SKI, 4): {"required": True, "timeout_s": 900.0, "on_timeout": "reject", "when": (f"{_HAZARD} >= 4",)},
    (PHARMACY, 3): {"required": True, "timeout_s": 1800.0, "on_timeout": "reject",
                    "when": ("steps['#2'].output.high_alert_count > 0",)},
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
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (SKI, 1): (4, "hazard 4: the Snow Safety Director's sign-off on radio ch. 3 (lines 30-31) comes before the route"),
    (PHARMACY, 2): (3, "the heparin swap is high-alert: the RPh on duty signs off before the worklist (line 34)"),
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
    (SEEDBANK, 1): "germ-test-sheet fails on the genus Succisa and its fallback generic-germ-protocol makes that sheet "
                   "(line 23): the run reaches its author's output and ends `degraded`, a fallback used",
}
