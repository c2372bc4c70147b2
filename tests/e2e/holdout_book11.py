"""The eleventh holdout (tests/fixtures/foreign-specs-holdout11, specs 69-74), its data for
test_foreign_specs_holdouts.py. Blind at 1e93d43 (BLIND-RESULTS.md): 7 of 29 steps fully right, 6 of 28 policy
lines meant, 3 lines dropped silently that are still so (74's), 71 and 72 refused, 0 of 10 runs at their final
output.

expect.yaml gives conditions and approvals in words ("step 2 output foreign_count > 0"); `WHEN` and `APPROVAL`
are those words as the plan's expressions (with `#N` for the plan id of the author's step N), with the line each
is said at. An otherwise is read as meant when it is the negation of its other branch's condition, or an
expression listed beside it that means the same for the values said. holdout11's source words and its exact
approvals are its own (`MEANT_INPUTS`, `APPROVAL_CHECK`); its warnings about a line are all but the shape ones
(`NOT_ABOUT`). What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import SHAPE_WARNINGS, Ids, still_misread

NAME = "foreign-specs-holdout11"
QPCR, PAYOUT, VANS, GATE, FACTS, TRIP = folders_of(FIXTURES / NAME)

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
NOT_ABOUT = SHAPE_WARNINGS


def _meant_input(said: Any, ids: Ids) -> dict[str, Any]:
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


def _meant_inputs(said: Any, ids: Ids) -> list[dict[str, Any]]:
    """The bindings expect.yaml's source in words allows, in holdout11's words (one each)."""
    return [_meant_input(said, ids)]


MEANT_INPUTS, APPROVAL_CHECK = _meant_inputs, _approval_exact


_ANCHORED_INPUT = ("is both a workflow input and an earlier step's echoed output: bound to the step's output "
                   "(warned 'ambiguous-input', at the skill's SKILL.md:8, not at a spec line)")
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (PAYOUT, 3, "input period"): "'period code' " + _ANCHORED_INPUT,
    (PAYOUT, 4, "input period"): "'period code' " + _ANCHORED_INPUT,
    (GATE, 4, "input build_number"): "`build_number` " + _ANCHORED_INPUT,
    (GATE, 5, "input build_number"): "`build_number` " + _ANCHORED_INPUT,
    (GATE, 6, "input build_number"): "`build_number` " + _ANCHORED_INPUT,
    (TRIP, 2, "input students"): "'Kids who are cleared, from the tally' is read as a gather of a per-item step "
                                 "that is not there, so `ready_count` is not bound (warned at line 12)",
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line) -> why what the line says is neither read as meant nor warned at that line
SILENT: dict[tuple[str, int], str] = {}
# runs whose author says they did not succeed although they reach their final output
NOT_A_SUCCESS = {(VANS, 1): "only one van: two orders are left unassigned, so `finished_if` (line 16) is not met"}

# (folder, run: 0 the author's inputs, n the n-th of more_runs) -> (what stops it reaching the author's
# output, asserted on the plan, and why); these runs are not made
NOT_RUN = {
    (TRIP, 0): (still_misread(2, "input students"),
                "step-2 (quote-bus) is given no `students`, so its script refuses its input and the run fails"),
    (TRIP, 1): (still_misread(2, "input students"),
                "step-2 (quote-bus) is given no `students`, so its script refuses its input and the run fails"),
}
