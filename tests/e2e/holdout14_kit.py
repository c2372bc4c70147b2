"""What the holdout14 e2e tests share (tests/fixtures/foreign-specs-holdout14, specs 87-92): holdout_kit's
readings of expect.yaml against the plan, bound to this folder, with its conditions and approvals and the
source words holdout14's expect.yaml adds ("each item's field f", "constant X (from ...)", a loop over a
workflow input: "for_each: {over: workflow input x}").

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (an otherwise's `not (x == 'C')` is `x != 'C'`)."""

from __future__ import annotations

import re
from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import SHAPE_WARNINGS, Holdout, Ids, meant_inputs
from holdout_kit import Plans as _Plans

HOLDOUT_NAME = "foreign-specs-holdout14"
FOLDERS = folders_of(FIXTURES / HOLDOUT_NAME)
RATES, SAE, SNOW, LOAN, SAILING, BRITE = FOLDERS

_FOUND = "steps['#3'].output.n_discrepancies"
_WORST = "steps['#3'].output.worst_grade"
_IN_SPEC = "steps['#3'].output.in_spec"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (SAE, 4): (34, (f"{_FOUND} > 0", f"{_FOUND} >= 1")),
    (SAE, 5): (42, (f"not ({_FOUND} > 0)", f"{_FOUND} == 0", f"not ({_FOUND} >= 1)", f"{_FOUND} < 1")),
    (SNOW, 5): (45, ("steps['#1'].output.level != 'normal'", "not (steps['#1'].output.level == 'normal')")),
    (LOAN, 4): (55, (f"{_WORST} == 'C'",)),
    (LOAN, 5): (66, (f"not ({_WORST} == 'C')", f"{_WORST} != 'C'", f"{_WORST} in ['A', 'B']")),
    (BRITE, 4): (25, (_IN_SPEC, f"{_IN_SPEC} == true", f"{_IN_SPEC} is true")),
    (BRITE, 5): (27, (f"not ({_IN_SPEC})", f"not {_IN_SPEC}", f"{_IN_SPEC} == false", f"not ({_IN_SPEC} == true)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (RATES, 5): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                 "when": ("steps['#4'].output.max_change_pct > 25",)},
    (SAILING, 4): {"required": True, "timeout_s": 1800.0, "on_timeout": "approve",
                   "when": ("steps['#3'].output.load_pct > 95",)},
}
# warnings that say nothing of how a policy, condition, approval or check line was read (holdout13's)
NOT_ABOUT_THE_LINE = SHAPE_WARNINGS | {"limits"}


def meant_inputs14(said: Any, ids: Ids) -> list[dict[str, Any]]:
    """holdout_kit's source words, and holdout14's: "each item's field f", "constant X (from ...)"."""
    text = str(said)
    if m := re.fullmatch(r"each item's field (\w+)", text):
        return [{"source": "item", "pointer": f"/{m[1]}"}]
    if m := re.fullmatch(r"constant (\S+) \(.*\)", text):
        return [{"source": "literal", "value": m[1]}]
    return meant_inputs(said, ids)


class Holdout14(Holdout):
    """holdout_kit's readings, with a loop over a workflow input (89's reroute runs once per route)."""

    def misread(self, plan: dict[str, Any], folder: str, number: int, aspect: str) -> str | None:
        over = (self.meant_steps(folder)[number].get("for_each") or {}).get("over", "")
        said = re.fullmatch(r"workflow input (\w+)", over)
        if aspect != "for_each" or not said or number not in self.ids_of(plan, folder):
            return super().misread(plan, folder, number, aspect)
        fe = self.step_of(plan, folder, number)["for_each"]
        src = (fe or {}).get("source") or {}
        return None if (src.get("source"), src.get("name"), src.get("pointer") or "") == ("input", said[1], "") \
            else f"for each {fe}"


_H = Holdout14(HOLDOUT_NAME, WHEN, APPROVAL, meant_inputs14, NOT_ABOUT_THE_LINE)
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
