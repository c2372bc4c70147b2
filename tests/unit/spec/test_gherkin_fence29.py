"""A Gherkin feature inside a markdown page is read as the `.feature` file is (`spec.gherkin_fence29`): pasted
in a ```gherkin fence of a README, or a page's body of `## Scenario:` / `**Scenario:**` blocks of Given/When/
Then lines with no Feature line; texts that must not be read so (a fence of another language, a page with its
own `## Step` headings, "scenario" in prose)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

_NAMES = ("price-cart", "charge-card", "send-receipt", "ship-box")


def _vocab() -> Vocabulary:
    return Vocabulary.of((n, None) for n in _NAMES)


def _skills(spec: WorkflowSpec) -> list[str | None]:
    return [s.skill or (s.mentions[0].text if s.mentions else None) for s in spec.steps]


def _read(text: str, name: str = "README.md") -> WorkflowSpec:
    return parse_spec_text(text, name, "markdown", vocabulary=_vocab())


# a shop's README with its checkout feature pasted in a fence
_README = """\
# Checkout service

How the shop takes money. The feature below is what QA signed off.

```gherkin
Feature: Shop checkout
  Background:
    Given the shopper's "cart_id" and their "card_token"

  Scenario: Pay for the cart
    When price-cart prices the cart
    And charge-card takes the money
      # the card gateway drops calls: try again 3 times, 5 seconds apart
    Then send-receipt mails the receipt
```

Questions to the payments team.
"""


def test_a_feature_in_a_readme_fence_is_read_as_a_feature_file_each_skill_line_a_step() -> None:
    spec = _read(_README)
    assert _skills(spec) == ["price-cart", "charge-card", "send-receipt"]
    assert [s.where for s in spec.steps] == ["README.md:10", "README.md:12", "README.md:14"]
    assert {i.name for i in spec.inputs} >= {"cart_id", "card_token"}
    assert spec.name.lower().startswith("checkout")  # the page's title stays the title
    charge = spec.steps[1]
    assert charge.retries == 3 or any("3 times" in t.text for t in charge.texts)


# a wiki page of a warehouse: the scenarios as headings and bullets, no Feature line
_WIKI = """\
# Dispatch

## Scenario: A paid order leaves the building
- Given the picker scans the "order_id"
- When ship-box books the courier
- Then the customer is told

**Scenario:** a refund
- When charge-card refunds the card
"""


def test_a_page_of_scenario_headings_and_step_bullets_is_read_as_a_feature() -> None:
    spec = _read(_WIKI, "dispatch.md")
    assert _skills(spec) == ["ship-box", "charge-card"]
    assert [s.where for s in spec.steps] == ["dispatch.md:3", "dispatch.md:8"]
    assert any("read as a Gherkin feature" in w.message and w.line == 3 for w in spec.warnings)


# a support ticket: scenarios written plainly under a heading, steps unbulleted
_TICKET = """\
# Ticket 4411: the reorder job

Scenario: Stock runs low
  Given the buyer's "sku"
  When price-cart prices a reorder
  Then ship-box books the delivery
"""


def test_a_ticket_s_plain_scenario_is_read_as_a_feature() -> None:
    spec = _read(_TICKET, "ticket.md")
    assert _skills(spec) == ["price-cart", "ship-box"]


def test_a_fence_of_another_language_is_not_a_feature() -> None:
    text = _README.replace("```gherkin", "```python")
    with pytest.raises(SpecError):  # the fence is code, not the page's steps: none read from it
        _read(text)


def test_a_page_with_its_own_step_headings_is_left_as_it_is() -> None:
    text = ("# Returns\n\n## Step 1: Price it\nRun `price-cart`.\n\n## Step 2: Refund\nRun `charge-card`.\n\n"
            "Scenario: the happy path\n  When the card is refunded\n  Then the shopper is told\n")
    spec = _read(text, "returns.md")
    assert _skills(spec) == ["price-cart", "charge-card"]
    assert not any("read as a Gherkin feature" in w.message for w in spec.warnings)


def test_scenario_in_prose_is_no_feature() -> None:
    text = ("# Plan\n\nIn the worst scenario: the courier is late.\n\n## Step 1: Ship\nRun `ship-box`.\n"
            "Then tell the customer.\n")
    spec = _read(text, "plan.md")
    assert _skills(spec) == ["ship-box"]
    assert not any("read as a Gherkin feature" in w.message for w in spec.warnings)
