"""`plan.header_value30`: a one-word input named with its qualifier ("the bunker port") takes the value
the text before the steps states for those words."""

from __future__ import annotations

from orchestrator.plan.header_value30 import qualified_value


def test_a_log_header_default_with_its_override() -> None:
    header = "Fill in before each run:\nBunker port is Rotterdam unless I write otherwise here: ROTTERDAM\n"
    assert qualified_value("port", "bunker-order with that margin and the bunker port.", header) == \
        ("ROTTERDAM", "Bunker port is ROTTERDAM")


def test_a_coach_s_sheet_and_a_ticket() -> None:
    sheet = "U12 session plan\nHome venue: RIVER3G\nKick-off 18:00\n"
    assert qualified_value("venue", "book-pitch for our home venue", sheet) == ("RIVER3G", "Home venue : RIVER3G")
    ticket = 'Summary: refund\nBilling region = "EU-WEST"\n'
    assert qualified_value("region", "refund-order in the billing region", ticket) == ("EU-WEST", 'Billing region = "EU-WEST"')


def test_negatives() -> None:
    header = "Bunker port: ROTTERDAM\n"
    assert qualified_value("port", "bunker-order with the port", header) is None  # no qualifier in the step's text
    assert qualified_value("port", "bunker-order with the home port", header) is None  # another qualifier
    assert qualified_value("port", "bunker-order with the bunker port", "Bunker port is open today\n") is None
    assert qualified_value("port_code", "the bunker port_code", header) is None  # not one word
    assert qualified_value("port", "the bunker port", "The bunker port is Rotterdam unless the agent says so\n") is None
