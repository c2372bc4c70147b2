"""Phrasing families met in the fifth blind set, each in words that are not the set's own.

A count corrected after "another go"; a random range of waits; waits listed after "the waits
are"; retries told apart by ordinals; a wait "later"; a factor "1.5x"; a budget each try
"gets"; an open series after "double the delay"; a budget after "check every"; values set
on named fields; a skill swapped in or fallen through to; and the sentences that are about
something else (a person to tell when a result looks odd, an estimate) or too vague to
read (a retry "later", "slow" with no time, a value copied from an input).
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _read(text: str) -> Any:
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    return phrase.statement


@pytest.mark.parametrize(("text", "count"), [
    ("If the upload stalls, give it another try - at most 4 more, to be safe.", 4),
    ("Take another shot, no more than 2 more.", 2),
])
def test_a_count_corrected_after_another_go_is_the_count(text: str, count: int) -> None:
    assert _read(text).retries == count


def test_a_random_range_of_waits_is_its_middle_with_jitter() -> None:
    s = _read("Pause a random 4-8 seconds between attempts, at most 3 retries.")
    assert s.wait is not None and (s.wait.kind, s.wait.seconds, s.wait.jitter) == ("fixed", (6.0,), True)
    assert s.retries == 3


def test_waits_listed_after_the_waits_are_make_a_series() -> None:
    s = _read("The delays between attempts are 1s, 10s and then 1m.")
    assert s.wait is not None and (s.wait.kind, s.wait.seconds) == ("sequence", (1.0, 10.0, 60.0))


def test_retries_told_apart_by_ordinals_make_a_series_starting_at_zero() -> None:
    s = _read("First retry right away, second after 10 seconds, third after 2 minutes.")
    assert s.wait is not None and s.wait.seconds == (0.0, 10.0, 120.0)


def test_a_wait_said_later_beside_a_retry_is_the_wait() -> None:
    s = _read("Two retries, each one 20s later.")
    assert s.wait is not None and s.wait.seconds == (20.0,) and s.retries == 2


def test_a_decimal_factor_written_with_x_is_the_backoff_factor_and_a_count_with_x_is_not() -> None:
    s = _read("Back off 2.5x each time from 1s, up to 30 seconds max, 5 retries.")
    assert s.wait is not None and s.wait.factor == 2.5
    assert _read("retry 4x, exponential backoff, max wait 10s").retries == 4


def test_a_budget_each_try_gets_is_its_timeout() -> None:
    assert _read("Every lookup gets a 45-second limit.").timeout_s == 45.0


def test_a_time_it_may_take_that_must_not_be_cut_is_its_timeout() -> None:
    assert _read("The export may take 2 hours and a half; never time it out before that.").timeout_s == 9000.0


def test_an_open_series_after_double_the_delay_is_where_the_backoff_starts() -> None:
    s = _read("Double the delay each time (5s, 10s, 20s...) and stop after 3 retries.")
    assert s.wait is not None and s.wait.start_s == 5.0


def test_a_cap_after_check_every_is_a_budget_not_a_backoff_cap() -> None:
    s = _read("Poll every 10s, max 2 minutes, then fail.")
    assert s.for_up_to_s == 120.0 and s.wait is not None and s.wait.seconds == (10.0,)


@pytest.mark.parametrize(("text", "value"), [
    ("If pricing breaks, default the margin to 0 and carry on.", {"margin": 0}),
    ("On error carry on with width and height set to null.", {"width": None, "height": None}),
    ("When it fails, keep going with an empty list of tags.", {"tags": []}),
])
def test_a_value_set_on_named_fields_is_the_value_to_go_on_with(text: str, value: Any) -> None:
    s = _read(text)
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.value) == ("continue_with_value", value)


@pytest.mark.parametrize(("text", "skill"), [
    ("If that fails, swap in `local-ocr` for the hosted one.", "local-ocr"),
    ("Retry once, otherwise fall through to the stale-cache skill.", "stale-cache"),
    ("Three retries 5s apart, then pass it to batch-uploader.", "batch-uploader"),
])
def test_a_skill_swapped_in_or_fallen_through_to_is_the_fallback(text: str, skill: str) -> None:
    s = read_phrase(text).statement
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.skill) == ("use_skill", skill)


def test_a_repeat_said_twice_before_its_count_is_read_once() -> None:
    s = _read("Hit it again after 2 s, and again, up to 6 times.")
    assert s.retries == 6 and s.wait is not None and s.wait.seconds == (2.0,)


def test_never_re_running_under_any_circumstances_is_no_retry() -> None:
    assert _read("Under no circumstances retry the payout.").no_retry


@pytest.mark.parametrize("text", [
    "Message @lee if the totals look off, he built the report.",
    "Tell the analyst when the figures seem too high.",
    "It runs about 10 minutes most nights.",
    "If the table is locked, wait it out.",
])
def test_a_sentence_about_something_else_reads_no_policy_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems, phrase


@pytest.mark.parametrize(("text", "word"), [
    ("Run it again later if the queue is full.", "later"),
    ("Keep it snappy - if it gets slow, drop it.", "slow"),
    ("If the spell checker fails, pass the paragraph through unchanged (body = draft).", "input"),
])
def test_a_policy_too_vague_to_read_is_reported_with_what_to_write(text: str, word: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems and any(word in p for p in phrase.problems), phrase


def test_an_estimate_followed_by_a_kill_is_still_read_as_a_limit() -> None:
    assert read_phrase("It takes about 5 minutes; kill it after 10 minutes.").statement.timeout_s == 600.0


@pytest.mark.parametrize("text", [
    "The billing API throws 503s every so often: retry 3 times, 30s apart.",
    "The upstream raises the occasional 429; retry twice.",
])
def test_a_status_code_that_something_throws_is_a_transient_failure_not_a_code_error(text: str) -> None:
    s = read_phrase(text).statement
    assert s.retries is not None and s.applies_to in (None, "transient")


def test_a_script_that_throws_is_still_a_code_error() -> None:
    assert read_phrase("If the script throws, regenerate it.").statement.applies_to == "code_error"


@pytest.mark.parametrize("text", [
    "No second attempt at the import; a rejected record = failed import.",
    "A stale label = failed build (ask the release team).",
])
def test_an_equation_of_failures_is_no_value_to_go_on_with(text: str) -> None:
    # the noun before "=" ("a rejected record") is not the verb "record": nothing to continue with
    failure = read_phrase(text).statement.on_failure
    assert failure is None or failure.kind != "continue_with_value", failure


def test_a_field_set_with_an_equals_sign_is_still_the_value_to_go_on_with() -> None:
    statement = read_phrase("If it fails, set the score = 0 and continue.").statement
    fallback = effect_of(statement).fallback
    assert fallback is not None and (fallback.action, fallback.value) == (FallbackAction.DEFAULT, {"score": 0})
