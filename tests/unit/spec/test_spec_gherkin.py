"""A Gherkin feature file read as a spec: the Feature is the title, the Background's quoted names
are the inputs, each Scenario a step named by its title; tags, comments and Examples rows are
not step names, and a comment is the text of the scenario it sits in."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_FEATURE = """\
@weekly @team:stock
Feature: Weekly restock of the shop shelves
  As the shop manager I want low shelves refilled

  # owner: the stock desk
  Background:
    Given the stock sheet as "sheet_text"
    And the warehouse code "depot" (one of N, S)

  Scenario: Load the sheet
    When `read-stock-sheet` reads the sheet_text
    Then I get the "shelves"
    # the sheet server naps at noon, try it 4 times, 10 seconds apart

  Scenario: Look up prices
    # has nothing to do with the sheet, start it alongside "Load the sheet"
    When `fetch-price-list` is called for the depot

  @slow
  Scenario Outline: Refill each shelf
    Given each <shelf> in the "shelves" from "Load the sheet"
    When `plan-refill` plans it with the "prices"

    Examples:
      | shelf      |
      | (each one) |
"""


def test_a_feature_s_scenarios_are_steps_named_by_their_titles() -> None:
    spec = parse_spec_text(_FEATURE, "f.feature.md", "markdown")
    assert [s.name for s in spec.steps] == ["Load the sheet", "Look up prices", "Refill each shelf"]
    assert spec.title == "Weekly restock of the shop shelves"
    assert [s.where for s in spec.steps] == ["f.feature.md:10", "f.feature.md:15", "f.feature.md:20"]


def test_the_background_s_quoted_names_are_the_workflow_inputs() -> None:
    spec = parse_spec_text(_FEATURE, "f.feature.md", "markdown")
    assert [(i.name, i.where) for i in spec.inputs] == [("sheet_text", "f.feature.md:7"), ("depot", "f.feature.md:8")]
    assert "one of N, S" in spec.inputs[1].description


def test_a_comment_in_a_scenario_is_that_step_s_text_and_tags_name_no_step() -> None:
    spec = parse_spec_text(_FEATURE, "f.feature.md", "markdown")
    load = spec.steps[0]
    assert any("4 times, 10 seconds apart" in t.text for t in load.texts)
    assert not any("@" in s.name for s in spec.steps)
    assert not any("Examples" in w.message or w.line in (24, 25, 26) for w in spec.warnings)


def test_an_outline_over_another_scenario_s_list_is_a_fan_out_over_it() -> None:
    spec = parse_spec_text(_FEATURE, "f.feature.md", "markdown")
    assert spec.steps[2].for_each == "shelf in steps.step-1.output.shelves"


def test_a_scenario_started_alongside_another_waits_for_no_step_before_it() -> None:
    spec = parse_spec_text(_FEATURE, "f.feature.md", "markdown")
    assert spec.steps[1].unordered_where == "f.feature.md:16"


def test_a_background_line_that_quotes_no_name_is_warned_at_its_line() -> None:
    text = _FEATURE.replace('And the warehouse code "depot" (one of N, S)', "And the shop is open")
    spec = parse_spec_text(text, "f.feature.md", "markdown")
    assert [i.name for i in spec.inputs] == ["sheet_text"]
    assert any(w.line == 8 and "quotes no name" in w.message for w in spec.warnings)


def test_a_document_that_only_mentions_a_feature_is_not_read_as_one() -> None:
    text = "# Release notes\n\nFeature: dark mode.\n\n## Steps\n1. `build-site` builds it\n"
    spec = parse_spec_text(text, "n.md", "markdown")
    assert spec.title == "Release notes"
    assert [s.name for s in spec.steps] != ["dark mode."]


def test_feature_and_scenario_lines_inside_a_markdown_spec_do_not_make_it_a_feature_file() -> None:
    text = ("# Checkout\n\n## Steps\n\n1. `price-cart` prices the cart.\n\n## Testing Plan\n\n"
            "Feature: coupons\nScenario: an expired coupon is refused\n")
    spec = parse_spec_text(text, "c.md", "markdown")
    assert spec.title == "Checkout"
    assert [s.skill or s.mentions[0].text for s in spec.steps] == ["price-cart"]


def test_a_feature_pasted_in_a_gherkin_fence_is_read_the_same_at_its_own_lines() -> None:
    fenced = "# Restock flow\n\nThe flow, as agreed:\n\n```gherkin\n" + _FEATURE + "```\n"
    spec = parse_spec_text(fenced, "r.md", "markdown")
    assert spec.title == "Restock flow"
    assert [s.name for s in spec.steps] == ["Load the sheet", "Look up prices", "Refill each shelf"]
    assert [s.where for s in spec.steps] == ["r.md:15", "r.md:20", "r.md:25"]
    assert [i.name for i in spec.inputs] == ["sheet_text", "depot"]


_TABLES = """\
Feature: Nightly export
  Background:
    Given these inputs:
      | name       | description       |
      | orders_csv | the orders export |
      | region     | EU or US          |

  Scenario: Price them
    When `price-orders` prices the orders_csv with:
      | currency | EUR |
      | rounding | 2   |
    Then I get "total"
"""


def test_a_background_data_table_declares_the_inputs_its_first_column_names() -> None:
    spec = parse_spec_text(_TABLES, "t.feature", "markdown")
    assert [(i.name, i.description, i.where) for i in spec.inputs] == [
        ("orders_csv", "the orders export", "t.feature:5"), ("region", "EU or US", "t.feature:6")]
    assert not any(w.line in (3, 4) for w in spec.warnings)


def test_a_two_column_data_table_under_a_step_line_gives_those_inputs_their_values() -> None:
    spec = parse_spec_text(_TABLES, "t.feature", "markdown")
    assert spec.steps[0].input_values == {"currency": "EUR", "rounding": "2"}
    assert any("Then I get" in t.text for t in spec.steps[0].texts)
