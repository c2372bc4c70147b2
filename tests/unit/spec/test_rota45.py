"""Round 45's policy phrasings of a plain rota sheet (`spec.rota45`): "if one goes wrong" is one of the
items failing, no count of goes; "sits there for 5 mins on a go, stop it" is an attempt's time limit."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("text", "waits"), [
    ("When any goes bad, try again after 1 min then 5 min.", (60.0, 300.0)),
    ("If one of the uploads goes wrong retry after 5 s then 20 s, then give up.", (5.0, 20.0)),
])
def test_one_that_goes_wrong_is_an_item_not_a_single_go(text: str, waits: tuple[float, ...]) -> None:
    said = read_phrase(text).statement
    assert not said.no_retry
    assert said.wait is not None and said.wait.seconds == waits


def test_a_count_of_goes_is_still_read() -> None:
    said = read_phrase("Give it 3 goes, then stop.").statement
    assert said.max_attempts == 3 or said.retries == 2


@pytest.mark.parametrize(("text", "seconds"), [
    ("if the job hangs for 2 min per try, kill it", 120.0),
    ("When the upload stalls for 90 seconds on a go, cancel it.", 90.0),
    ("Retry twice; if it just sits there for 5 mins, stop it.", 300.0),
])
def test_a_step_sitting_for_a_time_then_stopped_is_its_attempt_limit(text: str, seconds: float) -> None:
    assert read_phrase(text).statement.timeout_s == seconds


def test_sitting_for_a_time_with_no_stop_is_no_limit() -> None:
    said = read_phrase("The dough sits there for 5 mins before the next step.").statement
    assert said.timeout_s is None


@pytest.mark.parametrize("text", ["Weigh them -> `weigh-parcel` give it the parcel list.",
                                  "then give it their booking file from step 2."])
def test_give_it_a_value_is_no_policy_left_unread(text: str) -> None:
    phrase = read_phrase(text)
    assert "give it" not in phrase.unread and not phrase.signal


def test_give_it_a_count_of_tries_is_still_a_policy() -> None:
    phrase = read_phrase("give it the usual 3 tries")
    assert phrase.statement.max_attempts == 3
