"""Comparisons people write in a hurry (`spec.condition_said`), read through the condition reader, in
the words of several kinds of document: a lesson plan, a ship's log, a recipe card, an HR onboarding
checklist, a lab protocol, a podcast run sheet."""

from __future__ import annotations

import pytest

from orchestrator.spec.condition import approval_condition, read_condition
from orchestrator.spec.condition_said import said_number, without_aside


def _one(text: str) -> tuple[tuple[str, ...], str, object, str]:
    read = read_condition(text)
    assert read is not None and read.expression is None and len(read.clauses) == 1, text
    clause = read.clauses[0]
    return clause.subject, clause.op, clause.value, clause.guess


@pytest.mark.parametrize(("said", "value"), [
    ("€85k", 85_000),  # HR: a salary band
    ("12,500 EUR", 12_500),
    ("£2.5m", 2_500_000),
    ("$1.2k", 1_200),
    ("95 %", 95),  # lab: purity
    ("1.5 kg", 1.5),  # recipe card
    ("45 min", 45),  # podcast run sheet
    ("-3", -3),
])
def test_a_number_is_read_with_its_money_suffix_and_unit(said: str, value: object) -> None:
    assert said_number(said) == (True, value)


@pytest.mark.parametrize("said", ["5m", "3 or more", "two", "12 and the rest", "1,00,0"])
def test_a_number_that_is_not_one_value_alone_is_not_read(said: str) -> None:
    assert said_number(said)[0] is False  # "5m": minutes or a million, not said


@pytest.mark.parametrize(("text", "subject", "op", "value"), [
    ("the offered salary is over €85k", ("offered", "salary"), ">", 85_000),  # HR onboarding checklist
    ("signing_bonus more than 12,500 EUR", ("signing_bonus",), ">", 12_500),
    ("purity under 95 %", ("purity",), "<", 95),  # lab protocol
    ("the dough weight is over 1.5 kg", ("dough", "weight"), ">", 1.5),  # recipe card
    ("episode_length is 45 min or more", ("episode_length",), ">=", 45),  # podcast run sheet
    ("late_count of 3 or more", ("late_count",), ">=", 3),  # lesson plan
    ("absorbance 0.8 or higher", ("absorbance",), ">=", 0.8),
    ("the swell is 2 or less", ("swell",), "<=", 2),  # ship's log
])
def test_a_comparison_with_money_units_and_bounds_is_read(text: str, subject: tuple[str, ...], op: str,
                                                          value: object) -> None:
    assert _one(text)[:3] == (subject, op, value)


def test_worse_and_better_are_read_as_a_higher_number_being_worse_and_say_it_is_a_guess() -> None:
    subject, op, value, guess = _one("Bosun's sea_state is 6 or worse")  # ship's log: the possessive dropped
    assert (subject, op, value) == (("sea_state",), ">=", 6) and "a higher number taken as worse" in guess
    subject, op, value, guess = _one("the reading_level 3 or better")  # lesson plan
    assert (subject, op, value) == (("reading_level",), "<=", 3) and "`reading_level >= 3`" in guess


def test_a_bound_joined_with_another_clause_stays_one_comparison() -> None:
    read = read_condition("temperature_c 40 or above and shift is night")  # lab protocol
    assert read is not None and [(c.subject, c.op, c.value) for c in read.clauses] == [
        (("temperature_c",), ">=", 40), (("shift",), "==", "night")]


def test_an_aside_ending_a_condition_is_taken_off() -> None:
    assert without_aside("sea_state is 6 or worse (force 6 = strong breeze)") == "sea_state is 6 or worse"
    assert without_aside("(all of them)") == "(all of them)"


@pytest.mark.parametrize(("sentence", "condition"), [
    # lesson plan: a trip; recipe card: an order; HR: an offer; ship's log: cargo
    ("anything costing more than £2,000 needs the bursar to approve first.", "costing more than £2,000"),
    ("Any order priced over €300 needs the head chef to sign off.", "order over €300"),
    ("Anything offered at more than €85k needs the HR director to approve it.", "offered more than €85k"),
    ("any cargo valued at over $50k needs the master to sign off", "cargo over $50k"),
])
def test_an_approval_condition_before_the_person_without_an_if_is_read(sentence: str, condition: str) -> None:
    found = approval_condition(sentence)[0]
    assert found == condition and read_condition(found) is not None


@pytest.mark.parametrize(("sentence", "condition"), [
    ("if batch_cost > 400 Chef Ana signs off first - 2 hrs, no reply = bin it", "batch_cost > 400"),  # recipe card
    ("if the trip_cost > 1500 the head teacher signs off first, no answer = no trip", "the trip_cost > 1500"),
    ("if reagent_cost > 900 Dr Wu signs off; no answer in 4h = stop", "reagent_cost > 900"),  # lab protocol
])
def test_an_approval_condition_ends_where_the_person_starts_not_at_what_silence_means(sentence: str,
                                                                                     condition: str) -> None:
    assert approval_condition(sentence)[0] == condition
