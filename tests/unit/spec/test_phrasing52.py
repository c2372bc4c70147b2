"""`spec.phrasing52`: recovery phrasings a thirty-third blind set misread or dropped, in words that are not its own,
each with a near-miss that must not be read that way."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


def _s(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "retries", "wait"), [
    ("If the upload stalls, have another go every 20 s - 4 goes max.", 4, 20.0),
    ("Should the scanner jam, take another shot every 90 seconds, five tries tops.", 5, 90.0),
])
def test_goes_counted_after_another_go_and_its_wait_are_retries(text: str, retries: int, wait: float) -> None:
    s, problems = _s(text)
    assert (s.retries, s.wait.seconds if s.wait else None, problems) == (retries, (wait,), ())


def test_near_miss_goes_at_most_alone_are_all_the_goes() -> None:
    s, _ = _s("Four goes at most, 20 seconds apart.")
    assert (s.retries, s.max_attempts) == (None, 4)


@pytest.mark.parametrize(("text", "seconds"), [
    ("A 30 s cap on the postcode lookup.", 30.0),
    ("Two-hour ceiling for the render; past that, kill it.", 7200.0),
    ("The export must be wrapped up within 2 h.", 7200.0),
    ("Quit waiting on the scanner after 2 h 5 m.", 7500.0),
    ("Stop waiting for the courier after 90 seconds.", 90.0),
])
def test_a_ceiling_a_time_to_be_finished_in_and_waiting_stopped_are_the_attempt_s_time(text: str,
                                                                                   seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, False, ())


def test_a_ceiling_kept_beside_a_fallback_skill() -> None:
    s, problems = _s("Ten-second cap on the geocoder; past that, use `geo-offline`.")
    assert s.timeout_s == 10.0 and s.on_failure is not None and s.on_failure.skill == "geo-offline" and problems == ()


def test_near_miss_a_ceiling_word_in_a_compound_is_no_time() -> None:
    s, _ = _s("The 5-minute ceiling-paint check runs first.")
    assert s.timeout_s is None


@pytest.mark.parametrize("text", ["No redos on the refund call.", "No mulligans - it posts to the ledger."])
def test_no_do_overs_is_no_retry(text: str) -> None:
    assert _s(text)[0].no_retry


def test_near_miss_a_redo_allowed_is_no_no_retry() -> None:
    assert not _s("A redo is fine if it fails.")[0].no_retry


def test_a_backoff_started_at_a_time_and_a_wait_doubled_each_time() -> None:
    s, problems = _s("Retry twice; begin the wait from 2 s and double it.")
    assert s.wait is not None and (s.wait.kind, s.wait.start_s, problems) == ("exponential", 2.0, ())
    s, problems = _s("Retry with gaps of 30 s, tripled each time, five retries.")
    assert s.wait is not None and (s.wait.kind, s.wait.start_s, s.wait.factor, problems) == ("exponential", 30.0, 3.0, ())


def test_near_miss_something_else_started_at_a_time_is_no_backoff() -> None:
    s, problems = _s("Retry twice; start the pump at 2 s.")
    assert s.wait is None and problems


def test_one_more_go_after_a_time_given_first_is_that_wait() -> None:
    s, problems = _s("Retry once more, but give it 30 seconds first.")
    assert (s.retries, s.wait.kind if s.wait else None, problems) == (1, "fixed", ())


def test_near_miss_a_time_given_first_without_another_go_is_not_this_wait() -> None:
    assert _s("Give it 30 seconds first.")[1]


def test_asking_another_skill_instead_after_a_failure_is_its_fallback() -> None:
    s, _ = _s("If the quote feed won't work, ask `quote-cache` instead.")
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.skill) == ("use_skill", "quote-cache")


def test_near_miss_asking_another_skill_with_no_failure_said_is_no_fallback() -> None:
    s, problems = _s("Ask `quote-cache` instead of the feed for prices.")
    assert s.on_failure is None and problems


def test_pressing_on_with_a_value_is_going_on_with_it() -> None:
    s, problems = _s("If the scale errors, press on with weight_kg = 0.")
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.value, problems) == (
        "continue_with_value", {"weight_kg": 0}, ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("Nothing in the batch may still be running 40 minutes after we hit go.", 2400.0),
    ("Start to finish, the nightly close must be done in 4 hours.", 14400.0),
    ("Every step has until the 20-minute mark.", 1200.0),
    ("All of it, every job, has until the 2-hour mark and not a second more.", 7200.0),
])
def test_everything_s_time_is_the_whole_run_s(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, True, ())


def test_near_miss_top_to_bottom_each_attempt_is_one_attempt_s_time() -> None:
    s, _ = _s("Top to bottom, each attempt has to be finished in 5 minutes.")
    assert s.timeout_s == 300.0 and not s.whole_run


def test_near_miss_nothing_touched_for_a_time_is_no_limit() -> None:
    assert _s("Nothing in this run may be touched for 40 minutes.")[0].timeout_s is None


def test_people_who_will_not_wait_are_an_aside_and_not_a_second_more_after_a_mark_emphasis() -> None:
    assert _s("Customers won't wait, so keep it quick.") == (_s("Keep it quick.")[0], ())
    assert _s("It has 20 seconds and not a second more.")[0].timeout_s == 20.0  # `spec.phrasing48`'s, kept


def test_more_chances_counted_are_retries() -> None:
    assert _s("Give the label printer four more chances, 10 s apart.")[0].retries == 4
    assert _s("The courier lookup gets 2 more chances; then fail.")[0].retries == 2


def test_near_miss_more_chances_without_a_number_are_no_count() -> None:
    assert _s("Give the scale reader more chances when it is cold.")[0].retries is None


def test_near_miss_all_of_this_finished_in_a_time_is_not_one_step_s_time() -> None:
    assert _s("All of this has to be done inside 50 minutes.")[0].timeout_s is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("and the whole lot should be through inside 3 hours (the courier's wait included), otherwise stop it and tell me",
     10800.0),
    ("The whole thing has to be wrapped up within 2 hours.", 7200.0),
])
def test_near_miss_the_whole_lot_finished_in_a_time_is_the_run_s_time_not_one_step_s(text: str, seconds: float) -> None:
    statement = _s(text)[0]
    assert (statement.timeout_s, statement.whole_run) == (seconds, True)
