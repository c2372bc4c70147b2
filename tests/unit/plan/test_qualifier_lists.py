"""A qualifier is the word just before a name in one clause ("the arrival port"); a name listed after a
comma ("the delivery, copies and send-to from the form") has none (`plan.output_aliases.qualifier`): a
form page, a packing note, a recipe."""

from __future__ import annotations

from orchestrator.plan.output_aliases import qualifier


def test_a_listed_name_is_not_qualified_by_the_one_before_the_comma() -> None:
    assert qualifier("copies", "using the PDF reference plus the delivery, copies and send-to from the form") is None
    assert qualifier("weight", "pack it with the label; weight and size from the scale") is None
    assert qualifier("flour", "mix the sugar (flour later) and the eggs") is None


def test_a_qualifier_in_one_clause_is_still_read() -> None:
    assert qualifier("port", "book the berth at the arrival port, then file") == "arrival"
    assert qualifier("weight", "print the gross weight on the label") == "gross"


def test_a_name_joined_by_a_plus_or_an_ampersand_is_not_qualified_by_the_one_before() -> None:
    assert qualifier("weight", "log the species + weight in the chart") is None
    assert qualifier("depth", "check the width & depth against the bay") is None
    assert qualifier("weight", "log the species and the gross weight") == "gross"  # near-miss: still a qualifier
