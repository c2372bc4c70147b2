"""The forty-sixth round's recovery phrasing (`spec.phrasing46`): a label, a colon, a time and then giving up is the
attempt's time, in a courier's and a clinic's words (no blind set's), and texts that look alike but are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.phrase import read_phrase


def _read(text: str) -> tuple[Any, tuple[str, ...]]:
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "seconds"), [
    ("label printer: 45s, then give up and fail the run.", 45.0),
    ("Lab results API: 2 min then stop.", 120.0),
    ("the courier's quote service: 30 seconds, then bail", 30.0),
])
def test_a_labelled_time_then_giving_up_is_the_attempt_s_time(text: str, seconds: float) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s == seconds and not statement.whole_run and not problems, (statement, problems)


@pytest.mark.parametrize("text", [
    "retry waits: 30s, then give up",  # the label says waits
    "pauses between tries: 10s, 30s, then stop",  # a list of waits
    "wait 1 min, then 5 min, then give up",  # no label: waits, as before
])
def test_a_labelled_wait_or_a_list_of_waits_is_no_attempt_time(text: str) -> None:
    statement, _problems = _read(text)
    assert statement.timeout_s is None, statement
