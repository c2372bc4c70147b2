"""A Gherkin feature's step lines that name skills are steps of their own, its Background's names its
inputs, an Outline's Examples table with a skill column a branch (`spec.gherkin28`); in feature files of
other kinds than any fixture's (a shop checkout, an ops runbook, a lab QC), and texts that must not be
read so (steps naming no skill, "Given" in prose)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.gherkin28 import background_names
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _vocab(*names: str, outputs: dict[str, frozenset[str]] | None = None) -> Vocabulary:
    known = outputs or {}
    return Vocabulary.of((n, None) for n in names).with_outputs(lambda s: known.get(s, frozenset()))


def _skills(spec: WorkflowSpec) -> list[str | None]:
    return [s.skill or (s.mentions[0].text if s.mentions else None) for s in spec.steps]


_CHECKOUT = """\
Feature: Shop checkout
  Background:
    Given the shopper's "cart_id", their "card_token" and the "postcode"

  Scenario: Pay for the cart
    When price-cart prices the cart
    And charge-card takes the money
      # the card gateway drops calls: try again 3 times, 5 seconds apart
    Then send-receipt mails the receipt
"""


def test_each_skill_line_of_a_checkout_scenario_is_a_step_in_order() -> None:
    spec = parse_spec_text(_CHECKOUT, "checkout.feature", "markdown",
                           vocabulary=_vocab("price-cart", "charge-card", "send-receipt"))
    assert _skills(spec) == ["price-cart", "charge-card", "send-receipt"]
    assert [s.where for s in spec.steps] == ["checkout.feature:5", "checkout.feature:7", "checkout.feature:9"]
    assert any("3 times" in t.text for t in spec.steps[1].texts)  # the comment under it is its policy
    assert not any("3 times" in t.text for t in spec.steps[2].texts)


def test_a_background_line_with_several_quoted_names_declares_each() -> None:
    spec = parse_spec_text(_CHECKOUT, "checkout.feature", "markdown",
                           vocabulary=_vocab("price-cart", "charge-card", "send-receipt"))
    assert [i.name for i in spec.inputs] == ["cart_id", "card_token", "postcode"]
    assert background_names('an order <order_no> and a warehouse called north_dc, "carrier"') == [
        "carrier", "order_no", "north_dc"]


_RUNBOOK = """\
Feature: Disk pressure on a database host
  Background:
    Given the on-call types the "host" and the "threshold_pct"

  Scenario: Look and clean
    When `disk-usage` measures the host
    And `rotate-logs` rotates the old logs
      # never retry this one

  Scenario Outline: Escalate or not
    Given disk-usage measured <used> of the disk
    Then it goes to <skill>
    Examples:
      | used              | skill       |
      | more than 90      | page-dba    |
      | anything else     | post-note   |
      # the pager is slow, 1 minute limit on page-dba
"""


def test_an_outline_s_examples_with_a_skill_column_is_a_branch_on_the_earlier_output() -> None:
    vocab = _vocab("disk-usage", "rotate-logs", "page-dba", "post-note",
                   outputs={"disk-usage": frozenset({"used_pct", "host"})})
    spec = parse_spec_text(_RUNBOOK, "disk.feature", "markdown", vocabulary=vocab)
    assert _skills(spec) == ["disk-usage", "rotate-logs", "page-dba", "post-note"]
    page, note = spec.steps[2], spec.steps[3]
    assert page.when is not None and "used_pct" in page.when and "90" in page.when
    assert note.otherwise_of == page.id
    assert any("1 minute limit" in t.text for t in page.texts)  # the comment after the table names page-dba
    assert not any("1 minute limit" in t.text for t in note.texts)
    assert any(w.line == 15 and "Examples row" in w.message for w in spec.warnings)


_LAB = """\
Feature: Plate QC
  Background:
    Given the technician scans the plate called plate_id

  Scenario: Read and check
    When read-plate reads the plate
    Then qc-wells checks every well
      # a failed QC is not the end: carry on with passed = false

  Scenario: File it
    Given qc-wells passed the plate
    When file-result files the plate
"""


def test_a_lab_qc_feature_s_then_line_naming_a_skill_is_a_step_and_a_reference_is_none() -> None:
    spec = parse_spec_text(_LAB, "qc.feature", "markdown",
                           vocabulary=_vocab("read-plate", "qc-wells", "file-result"))
    assert _skills(spec) == ["read-plate", "qc-wells", "file-result"]
    assert [i.name for i in spec.inputs] == ["plate_id"]
    assert any("carry on" in t.text for t in spec.steps[1].texts)


def test_a_feature_whose_steps_name_no_skill_keeps_a_step_per_scenario() -> None:
    text = ("Feature: Returns\n  Scenario: Take it back\n    Given a customer at the desk\n"
            "    When the clerk checks the receipt\n    And the clerk refunds the money\n"
            "  Scenario: Restock\n    When the item goes back on the shelf\n")
    spec = parse_spec_text(text, "r.feature", "markdown", vocabulary=_vocab("refund-card"))
    assert [s.name for s in spec.steps] == ["Take it back", "Restock"]
    assert not any("Scenario's first" in w.message for w in spec.warnings)


def test_given_in_prose_is_no_feature_file() -> None:
    text = ("# Nightly\n\nGiven the load, when `pack-logs` runs and then `ship-logs`, we are fine.\n\n"
            "## Steps\n\n1. `pack-logs` packs the logs.\n2. `ship-logs` ships them.\n")
    spec = parse_spec_text(text, "n.md", "markdown", vocabulary=_vocab("pack-logs", "ship-logs"))
    assert _skills(spec) == ["pack-logs", "ship-logs"]
    assert not any("Scenario" in w.message or "Examples" in w.message for w in spec.warnings)


def test_an_examples_table_without_a_skill_column_is_sample_rows_not_a_branch() -> None:
    text = ("Feature: Fees\n  Scenario Outline: Charge a fee\n    When charge-fee charges <amount>\n"
            "    Examples:\n      | amount |\n      | 10     |\n      | 20     |\n")
    spec = parse_spec_text(text, "f.feature", "markdown", vocabulary=_vocab("charge-fee"))
    assert _skills(spec) == ["charge-fee"]
    assert spec.steps[0].when is None
