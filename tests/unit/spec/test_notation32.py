"""Policies in a document's own notation, and asides that take a line out (`spec.notation32`),
in documents of kinds no fixture has: a runbook, a YAML file of our own schema, a chat line, a
ticket; and texts that look alike but must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec.effect import effect_of
from orchestrator.spec.notation32 import cause_spans, plain
from orchestrator.spec.phrase import read_phrase, read_policy_value


def _effect(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase, effect_of(phrase.statement, retry_said=phrase.retry_said)


@pytest.mark.parametrize(("text", "count", "wait"), [
    ("Runbook, step 4: if the DNS check flaps, retry x4, 15s apart.", 4, 15.0),  # a runbook
    ("[ops-chat] 09:14 kim: mirror sync is patchy today, retries x2 @ 45s pls", 2, 45.0),  # a chat line
    ("TICKET-811 note: attempts x5, 10 s apart, then page storage.", 4, 10.0),  # a ticket: 5 attempts, 4 retries
])
def test_a_count_after_an_x_is_the_count_never_a_first_wait(text: str, count: int, wait: float) -> None:
    phrase, effect = _effect(text)
    assert effect.retry is not None and effect.retry.max_retries == count, phrase
    assert effect.retry.delays_s == (wait,), phrase


@pytest.mark.parametrize(("text", "wait"), [
    ("retry: 4 @ 00:01:30", 90.0),  # a YAML value of our own schema
    ("Runbook: on a 503, retry 3 times, wait 0:00:45 between them.", 45.0),
    ("re-sync x2 every 00:10:00 (ticket OPS-3)", 600.0),
])
def test_a_clock_duration_after_a_wait_word_is_that_many_seconds(text: str, wait: float) -> None:
    _, effect = _effect(text)
    assert effect.retry is not None and effect.retry.delays_s == (wait,)


@pytest.mark.parametrize(("text", "start", "factor"), [
    ("--max-retries=3 --backoff=500ms*4", 0.5, 4.0),  # a CLI line in a runbook
    ("backoff: 3s x 2, retries: 5", 3.0, 2.0),  # our own YAML's value
    ("ticket: retry 4 times, backoff=10s×3", 10.0, 3.0),
])
def test_a_backoff_written_as_start_times_factor_keeps_its_start(text: str, start: float, factor: float) -> None:
    _, effect = _effect(text)
    assert effect.retry is not None
    assert (effect.retry.initial_s, effect.retry.multiplier) == (start, factor)


def test_a_yaml_policy_value_of_our_own_schema_reads_the_notation() -> None:
    phrase = read_policy_value("retry", "x3 @ 00:00:20")
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    assert effect.retry is not None and (effect.retry.max_retries, effect.retry.delays_s) == (3, (20.0,))


@pytest.mark.parametrize("text", [
    "The reminder text goes out once; if nobody answers we don't send it again.",  # a runbook
    "kim: the invoice email is sent once, we never re-send it again",  # a chat line
])
def test_a_run_once_with_again_or_twice_denied_is_no_retry(text: str) -> None:
    phrase, effect = _effect(text)
    assert effect.retry is not None and effect.retry.max_retries == 0, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "A failed thumbnail isn't fatal - carry on with thumb = null.",
    "ticket: a missing logo wasn't fatal last time, keep going with logo = \"none\".",
])
def test_isn_t_fatal_is_going_on_with_no_failure_class(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.on_failure is not None and phrase.statement.on_failure.kind == "continue_with_value"
    assert phrase.statement.applies_to is None


def test_pairs_joined_by_a_slash_after_assume_are_every_pair() -> None:
    phrase = read_phrase("gauge offline? carry on anyway, assume depth_m 2.5 / temp_c 11 (seasonal mean)")
    assert phrase.statement.on_failure is not None
    assert phrase.statement.on_failure.value == {"depth_m": 2.5, "temp_c": 11}


@pytest.mark.parametrize("text", [
    "the mirror is slow on fridays -> retry it 3 times, 1 min apart.",  # a runbook
    "kim: ledger api gets busy at month end => retry twice, 30s apart",  # a chat line
])
def test_a_cause_before_an_arrow_is_why_not_which_failures(text: str) -> None:
    assert cause_spans(text)
    phrase = read_phrase(text)
    assert phrase.statement.applies_to is None and (phrase.statement.retries or 0) >= 2


@pytest.mark.parametrize("text", [
    "Judges' deliberation limit 45 min after the last entry (that's a rules thing, not for the app).",  # a ticket
    "max_attempts: 1   # retries are per step now, see the steps block",  # our own YAML, a comment
    "Cooling time 20 min (not meant for the scheduler, the chef watches it)",  # a recipe card
])
def test_an_aside_taking_the_line_out_leaves_no_policy_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and phrase.problems == (), phrase


# -- negatives: texts that look alike and must not be read so ------------------------------------


@pytest.mark.parametrize("text", [
    "The ferry leaves at 10:55:00 and the run starts after it.",  # a time of day, no wait word
    "Build for linux/x86_64 and arm64, retry 2 times.",  # "x86" is no count after an x
    "Resize the photo to 3x2 and retry once.",
])
def test_clock_times_and_x_words_are_left_as_written(text: str) -> None:
    assert plain(text) == text


def test_a_plain_x_count_elsewhere_is_not_rewritten() -> None:
    assert plain("box x3 of the pallet") == "box x3 of the pallet"


def test_once_without_again_or_only_is_not_no_retry() -> None:
    assert not read_phrase("The digest goes out once a week.").statement.no_retry


def test_fatal_said_plainly_still_names_its_class() -> None:
    phrase = read_phrase("A schema error is fatal: stop the run.")
    assert phrase.statement.on_failure is not None and phrase.statement.on_failure.kind == "fail"


def test_a_cause_without_an_arrow_is_no_cause_span() -> None:
    assert cause_spans("the mirror is slow, retry it 3 times") == []


def test_an_aside_that_does_not_take_the_line_out_leaves_its_policy() -> None:
    phrase = read_phrase("Give the upload 90 s (the vendor's limit, not ours to change).")
    assert phrase.statement.timeout_s == 90.0


@pytest.mark.parametrize(("text", "timeout"), [
    ("Runbook: if the index rebuild is still grinding after 90 s, count it as failed.", 90.0),
    ("ticket: stop the export at 12 min and page data-eng.", 720.0),
    ("[chat] if that OCR job is still churning at 2 min just mark it as dead", 120.0),
])
def test_a_time_past_which_the_step_counts_as_failed_or_is_stopped_is_its_timeout(text: str, timeout: float) -> None:
    assert read_phrase(text).statement.timeout_s == timeout


def test_the_whole_of_something_done_inside_a_time_is_the_whole_run_s_limit() -> None:
    statement = read_phrase("Get through the whole stocktake in under 40 minutes or scrap it.").statement
    assert (statement.timeout_s, statement.whole_run) == (2400.0, True)


@pytest.mark.parametrize(("text", "seq"), [
    ("Runbook: on a 502, three more attempts spaced 10 s, 1 min and 5 min.", (10.0, 60.0, 300.0)),
    ("ticket: wait 5s, retry; wait 20s, retry; wait 1m, retry; then escalate.", (5.0, 20.0, 60.0)),
    ("[chat] back off 2 s, then 8 s, then 30 s, one try after each", (2.0, 8.0, 30.0)),
])
def test_waits_listed_one_per_retry_are_a_series(text: str, seq: tuple[float, ...]) -> None:
    phrase, effect = _effect(text)
    assert effect.retry is not None and effect.retry.delays_s == seq, phrase
    assert effect.retry.max_retries == len(seq)


def test_a_backoff_s_start_said_in_words_is_its_start() -> None:
    _, effect = _effect("Runbook: retry 4 times; start the back-off at 3 seconds and double it each time.")
    assert effect.retry is not None and effect.retry.initial_s == 3.0


def test_give_up_looking_after_a_time_is_the_polling_budget() -> None:
    statement = read_phrase("ticket: check the courier feed every 10 min and give up checking after 1 hour.").statement
    assert statement.for_up_to_s == 3600.0


@pytest.mark.parametrize("text", [
    "The nightly rebuild takes about twenty minutes normally.",
    "Runbook note: it takes roughly 5 min usually, more at quarter end.",
])
def test_how_long_a_step_usually_takes_is_no_limit_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and phrase.problems == (), phrase


def test_stop_at_a_clock_time_or_give_up_without_polling_are_not_these_readings() -> None:
    assert read_phrase("Stop the boats at 10:55 and wait for the gun.").statement.timeout_s is None
    assert read_phrase("Give up looking after 2 hours.").statement.for_up_to_s is None
    assert read_phrase("The series 3 s, 9 s, 27 s is the retry schedule, 4 attempts in all.").statement.wait is not None
