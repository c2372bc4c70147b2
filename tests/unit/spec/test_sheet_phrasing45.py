"""The forty-fifth round's no retry said "never twice" (`spec.sheet_phrasing45`), in a clinic's, a print shop's and a
payroll's words (none of them the blind set's), and texts that count something else with "twice"."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", [
    "Never twice.",
    "don't send it twice - the patient gets two texts",
    "Must not charge them a second time.",
    "never more than once, it bills the card",
])
def test_never_twice_is_no_retry(text: str) -> None:
    statement = read_phrase(text).statement
    assert statement.no_retry and not statement.retries, statement


@pytest.mark.parametrize("text", [
    "The proof is never twice the size of the final print.",
    "It should not take twice as long as the last run.",
    "The payroll runs never twice a day.",
])
def test_twice_counting_something_else_is_no_no_retry(text: str) -> None:
    statement = read_phrase(text).statement
    assert not statement.no_retry, statement
