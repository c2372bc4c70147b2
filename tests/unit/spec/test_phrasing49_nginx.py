"""Round 49's recovery phrasings met in an nginx-style config's comments, in words that are not the blind set's:
"do x-skill instead" names the fallback skill; "give it N, then try again" is the attempt's time when the wait
between tries is said on its own in the same sentence."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", ["if the fax line is busy, do the send-letter skill instead",
                                  "when the API is down do `send-letter` instead"])
def test_do_a_skill_instead_is_its_fallback(text: str) -> None:
    phrase = read_phrase(text, ["send-letter"])
    assert phrase.statement.on_failure is not None and phrase.statement.on_failure.skill == "send-letter"
    assert not phrase.problems


@pytest.mark.parametrize("text", ["do send-letter first", "do `send-letter` when the API is up"])
def test_do_a_skill_without_instead_is_no_fallback(text: str) -> None:
    assert read_phrase(text, ["send-letter"]).statement.on_failure is None


@pytest.mark.parametrize(("text", "timeout", "wait"), [
    ("the till api is slow - give it 45 seconds and then retry, twice more, with a 5 s pause between", 45.0, 5.0),
    ("give it 2 min, then try again; 4 tries in all, 30s apart", 120.0, 30.0)])
def test_the_time_given_before_trying_again_is_the_attempt_s_when_the_wait_is_said_apart(
        text: str, timeout: float, wait: float) -> None:
    s = read_phrase(text).statement
    assert s.timeout_s == timeout and s.wait is not None and s.wait.seconds == (wait,)


def test_the_time_given_before_trying_again_alone_is_still_the_wait() -> None:
    s = read_phrase("give it 10 minutes and then try again").statement  # near-miss: no other wait said
    assert s.timeout_s is None and s.wait is not None and s.wait.seconds == (600.0,)
