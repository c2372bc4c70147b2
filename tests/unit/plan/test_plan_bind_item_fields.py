"""Inside a loop over a list whose producer's SKILL.md says its items in words ("`hires` (list of
`{hire, desk}`)"), an input named after one of those fields is that field of each item, not the whole
item, even when the loop's variable has the same name (`plan.bind_item_fields`)."""

from __future__ import annotations

from typing import Any

import pytest
from plan_factory import SETTINGS, SaidCatalog

from orchestrator.errors import Severity
from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text

BODIES = {
    "list-rows": "Inputs: `sheet`.\n\nOutputs: `rows` (list of `{slot, qty}`), `total`.",
    "handle-row": "Inputs: `slot`, `qty`.\n\nOutputs: `done`.",
}


def _plan(text: str) -> Any:
    spec = parse_spec_text(text, "w.md", "markdown")
    plan, built = draft_plan(spec, SaidCatalog(BODIES), settings=SETTINGS)
    assert not [d.render() for d in built if d.severity is Severity.ERROR]
    return plan


_HR_CHECKLIST = """\
# New starter week

Inputs: `sheet`.

1. Pull the desk sheet with `list-rows`. Gives back `rows` and `total`.
2. Book a desk for each slot in `rows` with `handle-row` (the row's slot and quantity).
"""

_SHIPS_LOG = """\
# Deck log: stores loading

Inputs: `sheet`.

- 0600 `list-rows` on the manifest sheet -> `rows`, `total`.
- 0630 For every slot in `rows`: `handle-row` with that row's slot and qty.
"""

_LAB_PROTOCOL = """\
# Protocol 12 - plate loading

Inputs: `sheet`.

## Step 1
Run `list-rows` on the plate map.
Output: `rows`, `total`.

## Step 2
For each entry in `rows`, run `handle-row` with that entry's slot and its qty.
"""

_RECIPE_CARD = """\
# Mise en place, card 4

Inputs: `sheet`.

1. `list-rows` reads the prep sheet. Out: `rows`, `total`.
2. Portion it out, one slot at a time: for each slot in `rows`, `handle-row`.
"""


@pytest.mark.parametrize("text", [_HR_CHECKLIST, _SHIPS_LOG, _LAB_PROTOCOL, _RECIPE_CARD],
                         ids=["hr-checklist", "ships-log", "lab-protocol", "recipe-card"])
def test_an_input_named_after_a_field_the_producer_says_its_items_have_is_that_field(text: str) -> None:
    plan = _plan(text)
    handle = next(s for s in plan.steps if s.skill == "handle-row")
    assert handle.for_each is not None
    assert (handle.inputs["slot"].source, handle.inputs["slot"].pointer) == ("item", "/slot")
    assert (handle.inputs["qty"].source, handle.inputs["qty"].pointer) == ("item", "/qty")


def test_an_input_named_after_the_loop_is_the_whole_item_when_nothing_says_its_fields() -> None:
    bodies = {**BODIES, "list-rows": "Inputs: `sheet`.\n\nOutputs: `rows`, `total`."}
    text = _HR_CHECKLIST.replace(" (the row's slot and quantity)", "")  # nor does the text
    spec = parse_spec_text(text, "w.md", "markdown")
    plan, _ = draft_plan(spec, SaidCatalog(bodies), settings=SETTINGS)
    handle = next(s for s in plan.steps if s.skill == "handle-row")
    assert (handle.inputs["slot"].source, handle.inputs["slot"].pointer) == ("item", "")


_NO_FIELDS = {**BODIES, "list-rows": "Inputs: `sheet`.\n\nOutputs: `rows`, `total`."}


@pytest.mark.parametrize("said", [
    "For each entry in `rows`, run `handle-row` with that entry's slot and its qty.",  # a stock-take sheet
    "For every slot in `rows`: `handle-row` on each row's `slot`.",  # a ship's log
    "For each slot in `rows`, `handle-row` takes the item's slot.",  # a choir rota
    "For each slot in `rows`, `handle-row` gets this record's slot number.",  # a lab protocol
], ids=["stock-take", "ships-log", "choir-rota", "lab-protocol"])
def test_the_text_naming_a_field_by_its_item_binds_that_field_when_nothing_says_the_fields(said: str) -> None:
    text = f"# Weekly\n\nInputs: `sheet`.\n\n1. `list-rows` on the sheet. Out: `rows`, `total`.\n2. {said}\n"
    spec = parse_spec_text(text, "w.md", "markdown")
    plan, _ = draft_plan(spec, SaidCatalog(_NO_FIELDS), settings=SETTINGS)
    handle = next(s for s in plan.steps if s.skill == "handle-row")
    assert handle.for_each is not None
    assert (handle.inputs["slot"].source, handle.inputs["slot"].pointer) == ("item", "/slot")
