"""A condition said as a plural-noun label before a colon, leading a sentence that asks a person's OK
(`spec.h3_left31`): an IT purchase checklist, a warehouse runbook, a lab's sample log; negatives: labels
that state no comparison with a number, and label-like openings that are no condition."""

from __future__ import annotations

import pytest

from orchestrator.spec.h3_left31 import label_condition, singular
from orchestrator.spec.whole_approval import said_approval, said_condition


@pytest.mark.parametrize(("sentence", "condition"), [
    # an IT purchase checklist
    ("Laptops over $2,000: a team lead has to OK the order.", "the laptop is over 2,000"),
    # a warehouse runbook
    ("Pallets above 900 kg: the floor manager has to OK the move before it goes out.", "the pallet is above 900 kg"),
    # a lab's sample log
    ("Batches under 10 ml: the PI has to OK the run.", "the batch is under 10 ml"),
    # a finance ticket, words of two
    ("Refund amounts of more than €500: finance has to OK the refund.", "the refund amount is more than 500"),
])
def test_a_plural_noun_label_is_the_approvals_condition(sentence: str, condition: str) -> None:
    assert said_approval(sentence)
    assert said_condition(sentence) == condition


@pytest.mark.parametrize("label", [
    "Orders",  # no comparison
    "Orders over budget",  # no number
    "If the order is over 150",  # an if-clause: the other readers' words
    "The order over 150",  # an article: not a label of things
    "Over 150",  # no noun
])
def test_a_label_that_states_no_comparison_of_things_is_no_condition(label: str) -> None:
    assert label_condition(label) is None


@pytest.mark.parametrize("sentence", [
    "Leads get 4 hours of training.",  # no approval cue
    "Boxes over 20 kg: use the trolley.",  # a label, but nobody approves
])
def test_a_label_without_a_persons_ok_is_no_approval(sentence: str) -> None:
    assert not said_approval(sentence)


@pytest.mark.parametrize(("word", "one"), [
    ("orders", "order"), ("batches", "batch"), ("entries", "entry"), ("boxes", "box"),
    ("status", "status"), ("glass", "glass"), ("analysis", "analysis"), ("kit", "kit"),
])
def test_the_singular_is_read_by_the_ending(word: str, one: str) -> None:
    assert singular(word) == one
