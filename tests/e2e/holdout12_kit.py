"""What the holdout12 e2e tests share (tests/fixtures/foreign-specs-holdout12, specs 75-80): holdout11_kit's
readings of expect.yaml against the plan, for this folder, with the source words holdout12's expect.yaml
adds ("workflow input x, field f", "step N output f or step M output f (whichever ran)", "workflow input
x (or step N output x)", a source with a parenthetical note) and its conditions and approvals.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (a count's `not failed` is `failed == 0`). The readings are
holdout_kit's; this module binds them to its folder."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout11_kit import NOT_ABOUT_THE_LINE as _SHAPE_WARNINGS
from holdout_kit import Holdout, meant_inputs
from holdout_kit import Plans as _Plans

HOLDOUT_NAME = "foreign-specs-holdout12"
FOLDERS = folders_of(FIXTURES / HOLDOUT_NAME)
BREW, LOAN, SUBS, WARD, PODCAST, PERMIT = FOLDERS

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


# warnings that say nothing of how a policy, condition, approval or check line was read: holdout11's, and
# 'limits' (an approval's timeout against the wall time says the approval was kept, not how its condition was read)
NOT_ABOUT_THE_LINE = _SHAPE_WARNINGS | {"limits"}


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
