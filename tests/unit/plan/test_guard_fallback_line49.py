"""`plan.guards` (round 49): an "if" on the line the step's own fallback was read from ("if the price feed is
down, use price-cache instead") is the failure the fallback is for, not a condition of the step's running."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("price-feed", output_schema=obj(("price",), price="number")),
    skill("price-cache", output_schema=obj(("price",), price="number")),
    skill("book-bench", output_schema=obj(("slot",), slot="string")),
)


def _codes(sentence: str) -> tuple[Plan, list[str]]:
    text = f"# Card\n\n## Step 1: Price\n\nRun `price-feed`.\n\n{sentence}\n\n## Step 2: Book\n\nRun `book-bench`.\n"
    plan = build_plan(parse_spec_text(text, "card.md", "markdown"), CATALOG, settings=SETTINGS)
    return plan, [w.code for w in plan.warnings if w.line == 7]


def test_an_if_on_the_fallbacks_own_line_is_no_condition_not_read() -> None:
    for sentence in ("if the price feed is down, use `price-cache` instead",
                     "when the feed is unreachable, switch to `price-cache`"):
        plan, codes = _codes(sentence)
        assert plan.steps[0].policy.fallback is not None and plan.steps[0].policy.fallback.skill == "price-cache"
        assert "spec.condition-not-read" not in codes, sentence


def test_near_miss_an_if_about_a_value_with_no_fallback_is_still_warned() -> None:
    plan, codes = _codes("if the price is over 40, round it down to the nearest pound")
    assert plan.steps[0].policy.fallback is None or plan.steps[0].policy.fallback.action.value == "fail"
    assert "spec.condition-not-read" in codes
