"""What the holdout13 e2e tests share (tests/fixtures/foreign-specs-holdout13, specs 81-86): holdout_kit's
readings of expect.yaml against the plan, bound to this folder, with its conditions and approvals.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (an otherwise's `not (x >= 4)` is `x < 4`)."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import SHAPE_WARNINGS, Holdout, meant_inputs
from holdout_kit import Plans as _Plans

HOLDOUT_NAME = "foreign-specs-holdout13"
FOLDERS = folders_of(FIXTURES / HOLDOUT_NAME)
VET, WIND, GRADES, CUSTOMS, THEATRE, WEDDING = FOLDERS

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
# warnings that say nothing of how a policy, condition, approval or check line was read (holdout12's)
NOT_ABOUT_THE_LINE = SHAPE_WARNINGS | {"limits"}

_H = Holdout(HOLDOUT_NAME, WHEN, APPROVAL, meant_inputs, NOT_ABOUT_THE_LINE)
HOLDOUT = _H.root
expect, spec_of, meant_steps, ids_of, step_of = _H.expect, _H.spec_of, _H.meant_steps, _H.ids_of, _H.step_of
aspects, misread, line_items, read_as_meant = _H.aspects, _H.misread, _H.line_items, _H.read_as_meant


class Plans(_Plans):
    """Each folder's plan JSON, planned on first use."""

    def __init__(self) -> None:
        super().__init__(_H)


def warned_at(plan: dict[str, Any], folder: str, line: int) -> list[str]:
    """The plan's warnings about how a line was read, at that line."""
    return _H.warned_at(plan, folder, {line})
