"""The values to go on with said in brackets after a failure (`spec.bracket_values40`): two or more `name
value` pairs in brackets, in a sentence that goes on, are the outputs to go on with; brackets of pairs
with no going on are no value."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("sentence", "value"), [
    ('If the booking fails, put them in the side hall (hall "Side Hall", capacity 30) and carry on.',
     {"hall": "Side Hall", "capacity": 30}),
    ('Lookup down? Use the spare van (van_id "V-9", seats 8), keep going.', {"van_id": "V-9", "seats": 8}),
    ("No scale reading? Log it (grams 0, checked false) and move on.", {"grams": 0, "checked": False}),
])
def test_pairs_in_brackets_are_the_value_to_go_on_with(sentence: str, value: dict[str, object]) -> None:
    phrase = read_phrase(sentence)
    failure = phrase.statement.on_failure
    assert failure is not None and failure.kind == "continue_with_value" and failure.value == value
    assert not phrase.problems


@pytest.mark.parametrize("sentence", [
    'Book the smallest room (room "Maple", seats 40).',
    "Retry twice (max 3, wait 10) and carry on.",
])
def test_brackets_with_no_going_on_or_no_pairs_are_no_value(sentence: str) -> None:
    failure = read_phrase(sentence).statement.on_failure
    assert failure is None or failure.kind != "continue_with_value"
