"""A labelled list whose items say where their values come from ("the order from iii and the stock from
i") makes an item that names no earlier item a root (`spec.parallel_said24`); when that item's words
also say a fan-out over a workflow input list ("one go per dish on the list"), it stays a root
(`plan.steps34c`): the fan-out's words are about its items, not about waiting for the item before.
A kitchen prep sheet, a lab protocol and a maintenance runbook; and a list that cites nothing."""

from __future__ import annotations

import pytest
from plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill

A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("check-stock", input_schema=obj(("service_date",), service_date="string"),
          output_schema=obj(("stock",), stock="object")),
    skill("portion-dish", input_schema=obj(("dish",), dish="object"), output_schema=obj(("portion",), portion="object")),
    skill("order-list", input_schema=obj(("portions",), portions=A), output_schema=obj(("order",), order="object")),
    skill("print-sheet", input_schema=obj(("order", "stock"), order="object", stock="object"),
          output_schema=obj(("sheet",), sheet="string")),
)

_KITCHEN = """\
# Prep sheet, Saturday service

## Inputs
- service_date: the day of the service
- dishes: the dishes on tonight's menu (a list)

## Prep
 i.   check-stock for the service date.
 ii.  portion-dish, one go per dish on the list, each should be quick.
 iii. order-list once every dish is back - all the portions together.
 iv.  print-sheet: the order from iii and the stock from i.
"""

_LAB = """\
# Plate run

## Inputs
- service_date: the run date
- dishes: the plates to read (a list)

## Protocol
(a) check-stock for the run date in the reagent fridge.
(b) portion-dish, one go per plate on the rack.
(c) order-list once every plate is back, all the portions together.
(d) print-sheet with the order from (c) and the stock from (a).
"""

_RUNBOOK = """\
# Nightly restock runbook

## Inputs
- service_date: tonight's date
- dishes: the bins to refill (a list)

## Steps
1) check-stock for tonight's date.
2) portion-dish for each dish in the list.
3) order-list once every bin is back, all of them together.
4) print-sheet: the order from 3 and the stock from 1.
"""


@pytest.mark.parametrize("text", [_KITCHEN, _LAB, _RUNBOOK], ids=["kitchen", "lab", "runbook"])
def test_an_item_that_names_no_earlier_item_stays_a_root_when_it_loops_over_an_input(text: str) -> None:
    plan = plan_of_text(text, CATALOG, "sheet.txt")
    portion = step_by_skill(plan, "portion-dish")
    assert portion.for_each is not None
    assert not portion.depends_on  # no wait for check-stock
    printing = step_by_skill(plan, "print-sheet")
    assert {step_by_skill(plan, "check-stock").id, step_by_skill(plan, "order-list").id} <= set(printing.depends_on)


_IN_ORDER = """\
# Prep sheet, Sunday service

## Inputs
- service_date: the day of the service
- dishes: the dishes on tonight's menu (a list)

## Prep
 i.   check-stock for the service date.
 ii.  portion-dish, one go per dish on the list.
 iii. order-list once every dish is back - all the portions together.
 iv.  print-sheet with the order and the stock.
"""


def test_a_list_that_says_no_sources_by_label_is_read_in_order() -> None:
    plan = plan_of_text(_IN_ORDER, CATALOG, "sheet.txt")
    assert step_by_skill(plan, "portion-dish").depends_on == (step_by_skill(plan, "check-stock").id,)


_ITEMS_APART = """\
# Prep sheet, Monday service

## Inputs
- service_date: the day of the service
- dishes: the dishes on tonight's menu (a list)

## Step 1: Stock
Run `check-stock` for the service date.

## Step 2: Portions
Run `portion-dish` per dish; the dishes don't depend on each other.

## Step 3: Order
`order-list` once every dish is back, all the portions together.
"""


def test_words_about_the_items_do_not_make_the_step_a_root() -> None:
    plan = plan_of_text(_ITEMS_APART, CATALOG, "sheet.md")
    assert step_by_skill(plan, "portion-dish").depends_on == (step_by_skill(plan, "check-stock").id,)
