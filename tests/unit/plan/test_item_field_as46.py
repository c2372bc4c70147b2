"""A field of each item handed on under another name (`plan.bind_item_fields.says_item_field_as`):
"their name goes in as swimmer" binds `swimmer` to each item's `name`, not the whole item (holdout30 185)."""

from __future__ import annotations

from typing import Any

from plan_factory import SETTINGS, SaidCatalog

from orchestrator.errors import Severity
from orchestrator.plan.bind_item_fields import says_item_field_as
from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text

BODIES = {
    "list-orders": "Inputs: `shop`.\n\nOutputs: `orders` (list of objects with id text and total number).",
    "pack-order": "Inputs: `ref`, `total`.\n\nOutputs: `parcel`.",
}


def _plan(text: str) -> Any:
    spec = parse_spec_text(text, "w.md", "markdown")
    plan, built = draft_plan(spec, SaidCatalog(BODIES), settings=SETTINGS)
    assert not [d.render() for d in built if d.severity is Severity.ERROR]
    return next(s for s in plan.steps if s.skill == "pack-order")


_WAREHOUSE = """\
# Packing

Inputs: `shop`.

1. Pull today's orders with `list-orders`.
2. For each order in `orders`, `pack-order`: each order's id is passed as `ref`, plus its total.
"""

_MARKET = """\
# Market day

Inputs: `shop`.

1. `list-orders` for the stall.
2. `pack-order` for every one of the `orders`; their id goes in as ref.
"""


def test_an_item_s_field_handed_on_under_another_name_is_that_field() -> None:
    for text in (_WAREHOUSE, _MARKET):
        pack = _plan(text)
        assert pack.for_each is not None
        assert (pack.inputs["ref"].source, pack.inputs["ref"].pointer) == ("item", "/id")


def test_a_field_of_no_owner_is_not_read_as_the_item_s() -> None:
    assert says_item_field_as("the id goes in as ref", "ref") is None  # whose id is not said
    assert says_item_field_as("their id goes in as ref", "total") is None  # another input
    assert says_item_field_as("each order's id is passed as `ref`", "ref") == ("id", "each order's id is passed as `ref")
