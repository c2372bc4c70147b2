"""`plan.guards`: an "if" sentence that is the failure a step's recovery rule reads ("If the parts site is
down, carry on with ...") is that rule, read, not a condition of the step's running; an "if" about a value
stays warned. The sentence wraps, as in a typed note: its first line alone reads like a condition. Documents of our own: a bike shop's repair card, a bakery's order sheet."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("quote-parts", output_schema=obj(("parts", "cost"), parts="array", cost="number")),
    skill("book-bench", output_schema=obj(("slot",), slot="string")),
    skill("price-flour", output_schema=obj(("price", "bags"), price="number", bags="number")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "card.md", "markdown"), CATALOG, settings=SETTINGS)


def _codes(plan: Plan, line: int) -> list[str]:
    return [w.code for w in plan.warnings if w.line == line]


def _card(sentence: str, skill_name: str = "quote-parts") -> str:
    return f"# Repair card\n\n## Step 1: Quote\n\nRun `{skill_name}`.\n{sentence}\n\n## Step 2: Book\n\nRun `book-bench`.\n"


def test_an_if_that_opens_a_failure_rule_is_no_condition_not_read() -> None:
    plan = _plan(_card("Quote it first. If the parts site is\ndown don't wait for it -- carry on with parts empty and cost 0."))
    step = plan.steps[0]
    assert step.policy.rules and step.when is None
    assert "spec.condition-not-read" not in _codes(plan, 6)


def test_a_second_wording_of_a_failure_rule() -> None:
    plan = _plan(_card("If the mill's price list is\nunreachable, carry on with price 0 and bags 0.", "price-flour"))
    assert plan.steps[0].policy.rules
    assert "spec.condition-not-read" not in _codes(plan, 6)


def test_negative_an_if_about_a_value_is_still_warned() -> None:
    plan = _plan(_card("If the cost is over 200 ring the owner first."))
    assert not plan.steps[0].policy.rules
    assert "spec.condition-not-read" in _codes(plan, 6)
