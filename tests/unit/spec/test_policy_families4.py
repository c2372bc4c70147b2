"""Families behind the fourth blind set's misreadings, in other words than its sentences: a sentence
about something else gives no policy, a value is kept as written, and a doubt is reported."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", [
    "Thumbnails are kept for 30 days, so regenerating the page is fast.",
    "The token stays valid for 2 hours after login.",
    "Re-running this job is safe; it is idempotent.",
    "Questions go to @omar in #platform.",
    "Maintained by @sam, ask him in #infra with any questions.",
])
def test_a_sentence_about_a_cache_a_retention_or_an_owner_gives_no_policy_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems, phrase


@pytest.mark.parametrize(("text", "value"), [
    ("If it errors, mark the total as zero and carry on.", {"total": 0}),
    ("On failure set the count to three and keep going.", {"count": 3}),
    ('When the lookup gives up, put "n/a" for the country and continue.', {"country": "n/a"}),
    ("If it fails, skip it with state 'held'.", {"state": "held"}),
])
def test_a_value_for_a_field_is_kept_as_the_number_or_text_written(text: str, value: object) -> None:
    of = read_phrase(text).statement.on_failure
    assert of is not None and of.kind == "continue_with_value"
    assert {of.field: of.value} == value


def test_a_value_named_in_brackets_after_the_word_value_is_a_value_and_a_skill_after_other_words_stays_a_skill() -> None:
    value = read_phrase("If the feed is late, use last week's value (`stale`).").statement.on_failure
    assert value is not None and (value.kind, value.value) == ("continue_with_value", "stale")
    skill = read_phrase("otherwise use the local copy (`read-local`)").statement.on_failure
    assert skill is not None and (skill.kind, skill.skill) == ("use_skill", "read-local")


def test_a_count_written_x_then_a_number_beside_retry_is_the_retries_but_a_factor_stays_a_factor() -> None:
    assert read_phrase("retries: on, x4, 10 sec gap").statement.retries == 4
    backoff = read_phrase("Backoff from 1s, x3 each time, five retries max.").statement
    assert backoff.retries == 5 and backoff.wait is not None and backoff.wait.factor == 3


def test_stopping_a_repeat_after_a_time_is_a_budget_not_the_attempt_s_timeout() -> None:
    s = read_phrase("Poll the queue every 30 seconds and stop after 5 minutes.").statement
    assert (s.for_up_to_s, s.timeout_s) == (300, None)


@pytest.mark.parametrize(("text", "seconds"), [
    ("Let the export run for at most three quarters of an hour.", 2700),
    ("Allow the job to take no more than a quarter of an hour.", 900),
])
def test_how_long_a_step_may_run_is_its_timeout_not_a_retry_budget(text: str, seconds: float) -> None:
    s = read_phrase(text).statement
    assert (s.timeout_s, s.for_up_to_s, s.retries) == (seconds, None, None)


def test_waits_said_as_number_words_after_then_are_a_series() -> None:
    wait = read_phrase("Pause two seconds, then four, then eight between tries.").statement.wait
    assert wait is not None and wait.kind == "sequence" and wait.seconds == (2.0, 4.0, 8.0)


@pytest.mark.parametrize("text", ["Don't let the crawl take too long.", "It must not hang too long."])
def test_a_limit_without_an_amount_is_reported_never_dropped(text: str) -> None:
    assert read_phrase(text).problems


@pytest.mark.parametrize("text", ["If it is still broken after that, fall back to `plain-export`.",
                                  "If the parser blows up, fall back to `plain-export`."])
def test_still_broken_and_blowing_up_are_every_failure_not_a_script_crash(text: str) -> None:
    s = read_phrase(text).statement
    assert s.on_failure is not None and s.on_failure.skill == "plain-export" and s.applies_to is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the entire pipeline runs longer than 45 min, abort it.", 2700),
    ("The whole job has to fit inside a 2-hour window.", 7200),
])
def test_a_limit_on_the_whole_thing_is_the_run_s_not_one_step_s(text: str, seconds: float) -> None:
    s = read_phrase(text).statement
    assert (s.timeout_s, s.whole_run) == (seconds, True)


@pytest.mark.parametrize("text", [
    "If Legal hasn't approved within 3 days, drop the request.",
    "If the board has not responded within 6 hours, the release proceeds as approved.",
])
def test_an_approval_not_given_in_time_is_reported_and_never_the_step_s_timeout(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.timeout_s is None and phrase.statement.on_failure is None
    assert any("approval" in p for p in phrase.problems)


def test_a_machine_that_has_not_answered_in_time_is_still_a_timeout() -> None:
    assert read_phrase("If the API hasn't responded within 10 seconds, retry twice.").statement.timeout_s == 10


@pytest.mark.parametrize("text", ["Both fetches are independent, no need to wait for each other.",
                                  "Start the export right away, don't wait for the cleanup job."])
def test_not_waiting_for_another_task_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems, phrase


def test_a_broken_input_stopping_the_step_is_about_every_failure_not_a_script_crash() -> None:
    s = read_phrase("No retries; if the upload is broken, just stop.").statement
    assert s.no_retry and s.applies_to is None


def test_a_time_to_give_up_by_with_nothing_tried_again_is_the_attempt_s_timeout_and_with_a_total_a_budget() -> None:
    alone = read_phrase("The mount stalls sometimes; give up after 40 s.").statement
    assert (alone.timeout_s, alone.for_up_to_s) == (40, None)
    total = read_phrase("Give up after 3 min total.").statement
    assert (total.timeout_s, total.for_up_to_s) == (None, 180)


def test_a_field_and_value_in_brackets_after_the_words_for_it_are_the_value() -> None:
    of = read_phrase("If the probe still fails, mark it as unreachable (`reachable: false`) and move on.").statement.on_failure
    assert of is not None and (of.field, of.value) == ("reachable", False)


@pytest.mark.parametrize("text", ["If a row fails, put it under misc with a blank label and move on.",
                                  "When a lookup fails leave those ones empty and carry on."])
def test_a_value_said_in_words_beside_going_on_that_is_not_built_is_reported(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.on_failure is not None and phrase.problems
