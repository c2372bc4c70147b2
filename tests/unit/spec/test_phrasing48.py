"""Round 48's recovery phrasings (`spec.phrasing48`, `spec.held_words44`, `spec.notify_person`), in words that are not
the thirty-first blind set's, each with a near-miss that must not be read that way."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.phrase import read_phrase


def _s(text: str) -> tuple[Any, tuple[str, ...]]:
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "seconds"), [("Let the PDF merge run 1 1/2 minutes, then kill it.", 90.0),
                                                ("Give the invoice upload 3 ½ hours, then kill it.", 12600.0),
                                                ("Give the tile render 4 3/4 minutes, then kill it.", 285.0)])
def test_a_time_with_a_mixed_fraction_is_its_decimal(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert s.timeout_s == seconds and not problems


def test_a_date_or_a_ratio_with_a_slash_is_no_fraction_of_a_time() -> None:
    assert read_phrase("Retry 3 times, 1/2 of the shards at a time.").statement.timeout_s is None
    assert read_phrase("Give the tile render 4 5/4 minutes, then kill it.").statement.timeout_s != 300.0


@pytest.mark.parametrize(("text", "factor"), [("Retry 4 times, the wait rising x2 from 3 s.", 2.0),
                                              ("Retry 5 times with the pause increasing ×1.5 from 10 seconds.", 1.5)])
def test_a_growth_said_x_n_is_the_backoff_s_factor(text: str, factor: float) -> None:
    s, _ = _s(text)
    assert s.wait is not None and s.wait.kind == "exponential" and s.wait.factor == factor


def test_a_count_said_x_n_is_still_a_count() -> None:
    s = read_phrase("Retry x4, 10 s apart.").statement
    assert s.retries == 4 and s.wait is not None and s.wait.kind == "fixed"


@pytest.mark.parametrize(("text", "seconds"), [("Try it once more after a short breather (30 s) if the feed errors.", 30.0),
                                                ("If the upload errors, one more go after a long wait (2 min).", 120.0)])
def test_a_wait_in_brackets_after_its_word_is_the_wait(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert s.retries == 1 and s.wait is not None and s.wait.seconds == (seconds,) and not problems


def test_a_bracketed_time_after_another_word_is_no_wait() -> None:
    s = read_phrase("Retry once if the upload (2 min) errors.").statement
    assert s.wait is None or s.wait.seconds != (120.0,)


@pytest.mark.parametrize(("text", "seconds"), [
    ("The thumbnail job has 12 minutes, period.", 720.0),
    ("The nightly pull is given half an hour and no more.", 1800.0),
    ("Pull the plug on the import if it's still grinding after 2 hours.", 7200.0),
    ("Maximum run time for the index rebuild: 20 min.", 1200.0),
    ("Longest duration of the map render = 45 s.", 45.0),
])
def test_a_time_allowed_and_no_more_is_the_attempt_s_timeout(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert s.timeout_s == seconds and not s.whole_run and not problems


def test_a_time_had_with_no_limit_said_is_no_timeout() -> None:
    assert read_phrase("The thumbnail job has 12 minutes of video to cut.").statement.timeout_s is None
    assert read_phrase("Pull the plug on the import if it still fails after 2 tries.").statement.timeout_s is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("No more than 10 minutes for the whole export run.", 600.0),
    ("Whole weekly batch is capped at 2 h - stop anything still going.", 7200.0),
    ("Overall ceiling for the run is a long shift (10 h); after that it all stops.", 36000.0),
    ("The whole thing - each step in the plan - has to finish inside 3 hours.", 10800.0),
])
def test_a_time_for_the_whole_is_the_run_s_limit(text: str, seconds: float) -> None:
    s, _ = _s(text)
    assert s.timeout_s == seconds and s.whole_run


def test_a_backoff_capped_at_a_time_is_still_the_backoff_s_cap() -> None:
    s = read_phrase("Retry 5 times, the wait doubling from 2 s; the wait is capped at 30 s.").statement
    assert s.timeout_s is None and s.wait is not None and s.wait.cap_s == 30.0


def test_every_job_on_the_sheet_with_no_whole_named_is_not_the_whole_run_s() -> None:
    s = read_phrase("Every task on this list must wrap up inside 3 hours.").statement
    assert s.timeout_s == 10800.0 and not s.whole_run


def test_a_poll_said_each_n_minutes_is_the_wait_between_looks() -> None:
    s, problems = _s("Keep checking the upload status each 5 min for up to 2 h.")
    assert s.wait is not None and s.wait.seconds == (300.0,) and s.for_up_to_s == 7200.0 and not problems


def test_each_n_minutes_apart_is_not_read_as_a_poll_here() -> None:
    s = read_phrase("The reports come in each 5 min for the whole day.").statement
    assert s.wait is None


@pytest.mark.parametrize("text", ["Timeout 30s, 1 retry, then fallback `geo-cache`.",
                                  "2 retries 10s apart, else fallback to `rates-yesterday`."])
def test_then_fallback_a_skill_is_the_fallback(text: str) -> None:
    s, problems = _s(text)
    assert s.on_failure is not None and s.on_failure.kind == "use_skill" and not problems


def test_a_fallback_word_with_no_skill_is_no_skill() -> None:
    s = read_phrase("Timeout 30s, 1 retry, then fallback.").statement
    assert s.on_failure is None or s.on_failure.kind != "use_skill"


@pytest.mark.parametrize("text", ["Retry at 30 s and 2 min. Then call it a day.",
                                  "If the price feed fails, the whole run is dead.",
                                  "A failed stock check must not be glossed; don't paper over the failure."])
def test_a_fail_said_in_idiom_is_the_run_s_failure(text: str) -> None:
    s, _ = _s(text)
    assert s.on_failure is not None and s.on_failure.kind == "fail"


def test_the_same_idioms_with_no_failure_or_a_name_are_no_fail() -> None:
    assert read_phrase("Then call it `summary`.").statement.on_failure is None
    assert read_phrase("The whole run is done by 6 am.").statement.on_failure is None


@pytest.mark.parametrize(("text", "value"), [
    ('Tide feed down? Don\'t stop the run; height = 0 for now.', {"height": 0}),
    ('If the rating lookup errors, do not halt everything: band = "C", checked = false.', {"band": "C", "checked": False}),
])
def test_values_after_do_not_stop_the_run_are_the_values_to_go_on_with(text: str, value: dict[str, Any]) -> None:
    s, problems = _s(text)
    assert s.on_failure is not None and s.on_failure.kind == "continue_with_value" and s.on_failure.value == value
    assert not problems


def test_do_not_stop_with_no_failure_said_sets_no_value() -> None:
    s = read_phrase("Don't stop the run; grade = 5 is the pass mark.").statement
    assert s.on_failure is None or s.on_failure.value is None


@pytest.mark.parametrize("text", ["Poll the results API again after 5 s, again after 20 s and a last time after 1 min.",
                                  "Try the upload again in 10 s, then again in 40 s."])
def test_again_beside_waits_said_one_by_one_is_held_by_them(text: str) -> None:
    s, problems = _s(text)
    assert s.wait is not None and s.wait.kind == "sequence" and not problems


def test_again_with_one_wait_and_no_count_is_still_said() -> None:
    assert read_phrase("Wait 10 s and again.").problems


@pytest.mark.parametrize("text", ["Ping the courier tracking endpoint every 5 minutes, and give up after 2 hours.",
                                  "Ping the scanner's results folder each 30 s until it answers."])
def test_a_ping_with_how_often_is_a_poll_not_a_person_told(text: str) -> None:
    s, problems = _s(text)
    assert s.wait is not None and not problems
    assert s.on_failure is None or s.on_failure.kind != "escalate"


def test_a_ping_after_a_failure_is_still_told() -> None:
    s = read_phrase("If the sync still fails, ping the on-call.").statement
    assert s.on_failure is not None and s.on_failure.kind == "escalate"
