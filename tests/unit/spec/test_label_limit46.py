"""The forty-sixth round's recovery phrasing (`spec.label_limit46`): a label, a colon, a time and then giving up is the
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


@pytest.mark.parametrize(("text", "seconds"), [
    ("the courier site is slow, 45 seconds then give up on it", 45.0),  # round 49: a clause, a comma, the time
    ("the mail relay drags at night, 2 min then stop", 120.0),
])
def test_a_clause_then_a_time_then_giving_up_is_the_attempt_s_time(text: str, seconds: float) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s == seconds and not problems, (statement, problems)


@pytest.mark.parametrize("text", [
    "retry after 30s, 1 min, then give up",  # the clause says a time: a list of waits
    "if it fails try again, 10s then give up",  # the clause says a retry
])
def test_a_clause_with_a_time_or_a_retry_is_no_label(text: str) -> None:
    statement, _problems = _read(text)
    assert statement.timeout_s is None, statement
