"""What the holdout11 e2e tests share (tests/fixtures/foreign-specs-holdout11, specs 69-74): each spec's
plan through the real `skillweave plan`, made once a module (`plans`), and what its expect.yaml says of
each step, of the whole run and of each line that carries a policy, a condition, an approval or a
success check, put in the plan's terms so a test can say "read as meant" or "warned at its line".

expect.yaml gives conditions and approvals in words ("step 2 output foreign_count > 0"); `WHEN` and
`APPROVAL` below are those words as the plan's expressions (with `#N` for the plan id of the author's
step N), with the line each is said at. An otherwise is read as meant when it is the negation of its
other branch's condition, or an expression listed beside it that means the same for the values said.
The readings are holdout_kit's (shared with holdout12 and holdout13); this module binds them to its folder."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from foreign_kit import FIXTURES, folders_of
from holdout_kit import SHAPE_WARNINGS, Holdout
from holdout_kit import Plans as _Plans

HOLDOUT_NAME = "foreign-specs-holdout11"

FOLDERS = folders_of(FIXTURES / HOLDOUT_NAME)
QPCR, PAYOUT, VANS, GATE, FACTS, TRIP = FOLDERS

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (PAYOUT, 3): (26, ("steps['#2'].output.foreign_count > 0",)),
    # "#3a didn't happen (no foreign payees)": foreign_count is a count, so 0 and "not > 0" are one case
    (PAYOUT, 4): (36, ("not (steps['#2'].output.foreign_count > 0)", "not steps['#2'].output.foreign_count",
                       "steps['#2'].output.foreign_count == 0")),
    (GATE, 4): (16, ("steps['#3'].output.green", "steps['#3'].output.green is true")),
    (GATE, 5): (17, ("not (steps['#3'].output.green)", "not (steps['#3'].output.green is true)")),
    (TRIP, 3): (15, ("steps['#1'].output.missing_count > 0",)),
    (TRIP, 4): (19, ("not (steps['#1'].output.missing_count > 0)", "steps['#1'].output.missing_count == 0")),
}
# (folder, author's step number) -> the step's approval meant (its line is expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (PAYOUT, 3): {"required": True, "timeout_s": 86400.0, "on_timeout": "reject",
                  "when": "steps['#2'].output.gross_total > 20000"},
    (TRIP, 5): {"required": True, "timeout_s": 21600.0, "on_timeout": "reject",
                "when": "steps['#2'].output.quote_total > 800"},
}
# warnings about a step's skill, shape or inputs: none of them says how a policy or check line was read
NOT_ABOUT_THE_LINE = set(SHAPE_WARNINGS)


def meant_input(said: Any, ids: dict[int, str]) -> dict[str, Any]:
    """The keys of a plan input binding that expect.yaml's source in words fixes (holdout11's words:
    "workflow input x", "each item of step N output f (the whole item)", "each item's field f", "all
    results of step N, gathered", "step N or step M output f (whichever ran)", "step N output f", or
    a value written in the spec)."""
    text = str(said)
    if text.startswith("workflow input"):
        return {"source": "input", "name": text.split()[-1]}
    if text.startswith("each item of"):
        return {"source": "item", "pointer": ""}
    if text.startswith("each item's field"):
        return {"source": "item", "pointer": f"/{text.split()[-1]}"}
    if m := re.fullmatch(r"all results of step (\d+), gathered", text):
        return {"source": "step", "step": ids.get(int(m[1])), "pointer": "", "gather": True}
    if m := re.fullmatch(r"step (\d+) or step (\d+) output (\w+) \(whichever ran\)", text):
        return {"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[2]), "?")]),
                "pointer": f"/{m[3]}"}
    if m := re.fullmatch(r"step (\d+) output (\w+)", text):
        return {"source": "step", "step": ids.get(int(m[1])), "pointer": f"/{m[2]}"}
    return {"source": "literal", "value": said if not isinstance(said, str) else text.split(" (")[0]}


def _approval_exact(want: dict[str, Any] | None, got: dict[str, Any] | None, spell: Callable[[str], str]) -> bool:
    """holdout11's approvals: the whole gate as meant, its one `when`."""
    return got == ({**want, "when": spell(want["when"])} if want else None)


_H = Holdout(HOLDOUT_NAME, WHEN, APPROVAL, lambda said, ids: [meant_input(said, ids)], NOT_ABOUT_THE_LINE,
             approval_check=_approval_exact)
HOLDOUT = _H.root
expect, spec_of, meant_steps, ids_of, step_of = _H.expect, _H.spec_of, _H.meant_steps, _H.ids_of, _H.step_of
aspects, misread, line_items, read_as_meant = _H.aspects, _H.misread, _H.line_items, _H.read_as_meant


class Plans(_Plans):
    """Each folder's plan JSON, planned on first use."""

    def __init__(self) -> None:
        super().__init__(_H)


def plans_fixture() -> Callable[[], Plans]:
    """A module-scoped fixture `plans` (bind it to that name): one plan per spec for the module."""

    @pytest.fixture(scope="module", name="plans")
    def plans() -> Plans:
        return Plans()

    return plans


def warned_at(plan: dict[str, Any], folder: str, kind: str, line: int, number: int, nth: int) -> list[str]:
    """The plan's warnings about how the item's line was read, at its line (or where its sentence
    starts, when expect.yaml's notes say so)."""
    lines = {line}
    if kind == "policy":
        policy = [p for p in meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
        lines |= {int(n) for n in re.findall(r"starts on line (\d+)", policy.get("notes") or "")}
    return _H.warned_at(plan, folder, lines)
