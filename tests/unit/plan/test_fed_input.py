"""Two things said in words that fit one skill input, told apart by their first words (`plan.prose_inputs`,
`plan.fed_input`)."""

from __future__ import annotations

from orchestrator.plan.fed_input import fed_input, told_apart_inputs
from orchestrator.plan.prose_inputs import prose_inputs, told_apart
from orchestrator.spec.prose_inputs import read_prose_inputs

# the texts of the steps that read each skill input: a name made by first words is a guess only where a step says it
STEPS = {"csv": "Load: the warehouse CSV", "lines": "Takes the billing CSV"}


def test_two_things_for_one_name_are_named_by_their_first_words() -> None:
    said = [("the billing CSV dump", "s.md:3"), ("the warehouse stock CSV", "s.md:3")]
    found, warnings = prose_inputs(said, {"csv": ("", False)}, [], [], "s.md", STEPS)
    assert [i.name for i in found] == ["billing_csv", "warehouse_csv"]
    assert "told apart by their first words, a guess" in warnings[0].message


def test_no_step_saying_the_names_made_makes_no_guess() -> None:
    said = [("one well per line", "s.md:3"), ("blank wells tagged blank", "s.md:3")]  # a gloss, not two things
    found, warnings = prose_inputs(said, {"well": ("", False)}, [], [], "s.md", {"well": "Back-calculate each result"})
    assert found == [] and "told apart" not in warnings[0].message


def test_another_phrasing_of_two_rosters() -> None:
    assert told_apart(["the morning shift roster", "the night roster export"], "roster") == {
        "the morning shift roster": "morning_roster", "the night roster export": "night_roster"}


def test_the_same_first_word_tells_nothing_apart() -> None:
    assert told_apart(["the lab sheet from monday", "the lab sheet from friday"], "sheet") is None
    said = [("the lab sheet from monday", "s.md:3"), ("the lab sheet from friday", "s.md:3")]
    found, warnings = prose_inputs(said, {"sheet": ("", False)}, [], [], "s.md")
    assert found == [] and "not read, as each could be `sheet`" in warnings[0].message


def test_the_step_whose_text_says_the_words_takes_the_input() -> None:
    said = [("the billing CSV dump", "s.md:3"), ("the warehouse stock CSV", "s.md:3")]
    told = told_apart_inputs(prose_inputs(said, {"csv": ("", False)}, [], [], "s.md", STEPS)[0])
    assert fed_input("Load: the warehouse CSV", {"csv"}, set(), told) == ("csv", "warehouse_csv", False)
    assert fed_input("Takes the billing CSV", {"lines"}, set(), told) == ("lines", "billing_csv", True)


def test_a_step_that_says_both_or_none_takes_neither() -> None:
    told = {"billing_csv": "csv", "warehouse_csv": "csv"}
    assert fed_input("Diff the billing CSV against the warehouse CSV", {"csv"}, set(), told) is None
    assert fed_input("Send the summary", {"csv"}, set(), told) is None
    assert fed_input("Takes the billing CSV", {"lines", "mode"}, set(), told) is None  # which of two? neither


def test_a_password_the_vpn_asks_for_is_no_input() -> None:
    lines = ["# Nightly sync", "", "You'll be asked for a password by the VPN when it connects.", ""]
    assert read_prose_inputs(lines, lambda n: f"s.md:{n}") == ()
    asked = ["# Sync", "", "You'll be asked for: the billing CSV dump and the warehouse stock CSV.", ""]
    assert [p for p, _ in read_prose_inputs(asked, lambda n: f"s.md:{n}")] == [
        "the billing CSV dump", "the warehouse stock CSV"]
