"""The values a failed step goes on with, said after going on "as" as name-value pairs, one a
yes/no (`spec.two_values29`), in documents of other kinds, and sentences that must not read so."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.phrase import read_phrase


def _value(sentence: str) -> Any:
    failure = read_phrase(sentence).statement.on_failure
    assert failure is not None
    return failure.kind, failure.value


@pytest.mark.parametrize(
    ("sentence", "meant"),
    [
        # a chat export
        ("[09:12] kim: if the printer jams, carry on as pages 0 and duplex no", {"pages": 0, "duplex": False}),
        # a recipe card
        ("If the scale dies, keep going as though flour_g 500 and sifted yes.", {"flour_g": 500, "sifted": True}),
        # a ticket
        ('Lookup down? Proceed with ticket_id null, escalated no.', {"ticket_id": None, "escalated": False}),
        # a lab protocol, a quoted text and a comma
        ('If the reader stalls, move on as label "unread", checked no.', {"label": "unread", "checked": False}),
    ],
)
def test_going_on_as_two_pairs_is_that_object(sentence: str, meant: dict[str, Any]) -> None:
    assert _value(sentence) == ("continue_with_value", meant)


@pytest.mark.parametrize(
    "sentence",
    [
        "If the oven trips, carry on as normal and hope.",  # no pairs
        "carry on as before, no questions",  # "before" no field, "no" no value of one
        "carry on as usual",
    ],
)
def test_going_on_as_with_no_pairs_is_no_value(sentence: str) -> None:
    failure = read_phrase(sentence).statement.on_failure
    assert failure is None or failure.value is None


def test_one_pair_is_left_to_the_earlier_rows_warning() -> None:
    phrase = read_phrase("If the pump stops, carry on as flow 0.")
    failure = phrase.statement.on_failure
    assert failure is None or not isinstance(failure.value, dict) or len(failure.value) < 2
