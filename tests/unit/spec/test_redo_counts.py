"""A count of tries said with a word of doing again other than "retry" ("re-send it 3 times", "resend it
twice", "re-fire it once after 5 s") is that many retries (`spec.grammar_families`); "re-try once" is one
retry, never "try once" (no retry). Near-misses: "never re-use a PO number" is no policy, "try it just once"
is no retry."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("text", "retries", "wait_s"), [
    ("If the printer jams, re-send it 3 times.", 3, None),
    ("No answer? resend it twice.", 2, None),
    ("If a cue doesn't come back, re-fire it once after 5 s.", 1, 5.0),
    ("Should the line drop, re-dial it 2 more times, 10 s apart.", 2, 10.0),
    ("If the upload fails, re-try once after 30 s.", 1, 30.0),
    ("If it fails, re-ping it once more.", 1, None),
])
def test_a_count_said_with_a_word_of_doing_again_is_retries(text: str, retries: int, wait_s: float | None) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.retries == retries, phrase
    assert not phrase.statement.no_retry
    assert (phrase.statement.wait.seconds[0] if phrase.statement.wait else None) == wait_s
    assert not phrase.problems


def test_near_misses_are_no_retries() -> None:
    assert read_phrase("Never re-use a PO number.").statement.retries is None
    once = read_phrase("Try it just once.").statement
    assert once.no_retry and once.retries is None
