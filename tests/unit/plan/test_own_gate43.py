"""An approval whose condition names the step's own output (`plan.own_gate43`): asked on every run, said so truthfully,
never asked on every run in its place; one on an earlier step's output is held as before."""

from __future__ import annotations

import pytest

from orchestrator.plan.own_gate43 import own_output
from orchestrator.spec.whole_approval import said_approval
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

SHOP = FakeCatalog(skill("count-stock", output_schema=obj(pallets="integer")),
                   skill("buy-freight", input_schema=obj(pallets="integer"),
                         output_schema=obj(booking_ref="string", freight_cost="number")))

_DOC = """\
# Freight

## Steps

### Step 1: Count
- Skill: count-stock

### Step 2: Book
- Skill: buy-freight
{said}
"""


@pytest.mark.parametrize("said", [
    "If the cost works out above 2,000 euros, the ops lead has to OK it before it's booked.",
    "When the freight cost comes out over two thousand, I'll need your okay before it's booked.",
])
def test_an_approval_on_the_steps_own_output_is_asked_on_every_run_and_says_why(said: str) -> None:
    plan = plan_of_text(_DOC.format(said=said), SHOP)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.required and approval.when is None  # never acting unasked
    [warning] = [w for w in plan.warnings if w.code == "plan.approval-own-output"]
    assert "`freight_cost`" in warning.message and "EVERY run" in warning.message and "split the step" in warning.message
    assert "freight_cost > 2000" in warning.message


def test_an_approval_on_an_earlier_steps_output_is_still_held() -> None:
    plan = plan_of_text(_DOC.format(said="If the pallets are over 20, the ops lead has to OK it first."), SHOP)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.when is not None and "pallets" in approval.when
    assert not [w for w in plan.warnings if w.code == "plan.approval-own-output"]


@pytest.mark.parametrize(("when", "own", "meant"), [
    ("the total is over 9000", ["order_ref", "total_gbp"], ("total_gbp", "total_gbp > 9000")),
    ("the quote is at least 500", ["quote_total", "seats"], ("quote_total", "quote_total >= 500")),
])
def test_own_output_names_the_one_field_of_the_subjects_words(when: str, own: list[str],
                                                              meant: tuple[str, str]) -> None:
    assert own_output(when, own) == meant


@pytest.mark.parametrize(("when", "own"), [
    ("the total is over 9000", ["total_gbp", "total_usd"]),  # two fields: which is not said
    ("the weather is grim", ["total_gbp"]),  # no comparison of a value it gives
    ("step 1's total is over 9000", ["total_gbp"]),  # an earlier step's
])
def test_own_output_is_none_when_not_one_field(when: str, own: list[str]) -> None:
    assert own_output(when, own) is None


@pytest.mark.parametrize(("sentence", "asks"), [
    ("Over 50 seats I'll need your OK before it's booked.", True),
    ("We want her sign-off first.", True),
    ("I need your okay to be quick about it.", False),  # no "before"/"first": no person's yes asked
    ("Your ok needs a reply.", False),
])
def test_a_persons_yes_asked_by_its_owner_is_an_approval(sentence: str, asks: bool) -> None:
    assert said_approval(sentence) is asks
