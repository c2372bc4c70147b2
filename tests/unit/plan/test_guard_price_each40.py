"""`plan.guards`: "charges for every parcel", "a fee for each booking" say a price, not a loop, and are not
warned `spec.each-not-read`; "send a reminder for every guest" on a step with no For each still is. A
courier desk's card and a salon's booking note of our own."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("book-courier", output_schema=obj(("ref",), ref="string")),
    skill("send-reminder", output_schema=obj(("sent",), sent="boolean")),
)


def _plan(sentence: str, skill_name: str = "book-courier") -> Plan:
    text = f"# Desk card\n\n## Step 1: Book\n\nRun `{skill_name}`.\n{sentence}\n"
    return build_plan(parse_spec_text(text, "card.md", "markdown"), CATALOG, settings=SETTINGS)


def _each(plan: Plan) -> list[int | None]:
    return [w.line for w in plan.warnings if w.code == "spec.each-not-read"]


def test_a_courier_that_charges_for_every_parcel_is_no_loop() -> None:
    assert _each(_plan("Book it once only: the courier charges for every parcel, even duplicates.")) == []


def test_a_fee_for_each_booking_is_no_loop() -> None:
    assert _each(_plan("There's a fee for each booking, so never send it twice.")) == []


def test_negative_a_reminder_for_every_guest_is_still_warned() -> None:
    assert _each(_plan("Send a reminder for every guest on the list.", "send-reminder")) == [6]
