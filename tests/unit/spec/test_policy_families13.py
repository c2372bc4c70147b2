"""The policy reader on the thirteenth round's step-policy family: a wait said as a range.

Written the way a lesson plan, a ship's log, a recipe card, a podcast run sheet and a CI config's
comment would say it; none is a sentence of a blind set. The plan's waits are one time each (or a
backoff with full jitter), so a range is read as its start and said at its line (`spec.grammar_families13`).
"""

from __future__ import annotations

import pytest

from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("text", "retries", "wait"), [
    # a lesson plan
    ("If the projector feed drops, retry it 3 times, 10-20 s apart.", 3, 10.0),
    # a ship's log
    ("Radio check: if no reply, retry up to 4 times, waiting between 2 and 5 minutes each time.", 4, 120.0),
    # a recipe card
    ("If the loaf probe fails, retry twice, 5 to 8 min between tries.", 2, 300.0),
    # a podcast run sheet
    ("Upload flaky - give it 2 more goes, pausing 30-45 seconds between goes.", 2, 30.0),
    # a CI config's comment
    ("# retry 5 times, sleep 1-3 s before each retry", 5, 1.0),
])
def test_a_range_of_waits_is_read_as_its_start_and_said(text: str, retries: int, wait: float) -> None:
    phrase = read_phrase(text)
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    assert effect.retry is not None
    assert (effect.retry.max_retries, effect.retry.delays_s) == (retries, (wait,))
    assert len(phrase.problems) == 1 and "range of waits" in phrase.problems[0], phrase.problems


def test_a_random_range_is_still_its_middle_jittered_and_no_range_is_said() -> None:
    phrase = read_phrase("Sleep a random 4-8 seconds between retries, 3 retries.")
    retry = effect_of(phrase.statement).retry
    assert retry is not None and (retry.initial_s, retry.jitter) == (6.0, True)
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "Batches of 10-20 rows are normal.",  # a range of something else, no wait
    "Retry 3 times, 10 s apart.",  # one wait
])
def test_no_range_of_waits_is_said_where_there_is_none(text: str) -> None:
    assert not any("range of waits" in p for p in read_phrase(text).problems)


@pytest.mark.parametrize(("text", "skill"), [
    # a lab protocol
    ("If the plate reader is down, use the bench-top backup skill `reader-manual` instead.", "reader-manual"),
    # a podcast run sheet
    ("When the cloud transcriber falls over, run our local whisper tool `transcribe-local` instead.", "transcribe-local"),
    # an HR onboarding checklist
    ("If the HRIS sync errors, use the old CSV import script `hris-csv` instead.", "hris-csv"),
    # a ship's log
    ("Should the chart plotter die, use the paper-chart routine `plot-by-hand` instead.", "plot-by-hand"),
])
def test_a_fallback_skill_named_after_a_few_words_of_its_own_is_read(text: str, skill: str) -> None:
    phrase = read_phrase(text)
    fallback = effect_of(phrase.statement).fallback
    assert fallback is not None and fallback.skill == skill
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "value"), [
    # a lesson plan
    ('If the quiz marker fails, carry on with grade "ungraded".', {"grade": "ungraded"}),
    # a ship's log
    ("If the depth sounder is down, go on with depth_m 0.", {"depth_m": 0}),
    # a recipe card
    ("Should the scale app crash, proceed with weighed false anyway.", {"weighed": False}),
    # an HR onboarding checklist
    ("If the laptop order errors, continue with laptop_ticket null.", {"laptop_ticket": None}),
])
def test_one_field_and_its_value_after_a_going_on_is_the_value_to_go_on_with(text: str, value: object) -> None:
    phrase = read_phrase(text)
    fallback = effect_of(phrase.statement).fallback
    assert fallback is not None and fallback.value == value
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "If it fails, continue with batch 2.",  # a word of prose and a number: no field
    "If it fails, carry on with the rest.",
])
def test_a_going_on_with_no_field_and_value_is_a_plain_continue(text: str) -> None:
    fallback = effect_of(read_phrase(text).statement).fallback
    assert fallback is not None and fallback.value is None


@pytest.mark.parametrize("text", [
    "If the slides won't load, try the backup.",  # a lesson plan
    "Should the autopilot log fail, use the old one.",  # a ship's log
    "If the mixer app errors, switch to the spare one instead.",  # a recipe card
    "If the intro bed won't render, fall back to the previous version.",  # a podcast run sheet
])
def test_a_fallback_that_names_no_skill_is_said_and_not_guessed(text: str) -> None:
    phrase = read_phrase(text)
    assert effect_of(phrase.statement).fallback is None
    assert any("names no skill" in p for p in phrase.problems), phrase.problems


@pytest.mark.parametrize("text", [
    "Don't let the grading take all day.",  # a lesson plan
    "Never let the chart sync run forever.",  # a ship's log
    "Do not let the proofing step go on too long.",  # a recipe card
    "Don't let the render take all night.",  # a podcast run sheet
])
def test_a_limit_wished_for_with_no_time_is_said(text: str) -> None:
    phrase = read_phrase(text)
    assert effect_of(phrase.statement).attempt_timeout_s is None
    assert any("no time limit is given" in p for p in phrase.problems), phrase.problems


@pytest.mark.parametrize(("text", "start", "cap"), [
    ("Re-send the roster up to 4 times, wait 10s then keep doubling it, never more than 2 min.", 10.0, 120.0),  # HR
    ("Retry the depth log 3 times: pause 5 s and keep doubling the wait, at most 1 min.", 5.0, 60.0),  # a ship's log
])
def test_a_wait_then_keep_doubling_is_a_backoff_from_that_wait(text: str, start: float, cap: float) -> None:
    retry = effect_of(read_phrase(text).statement).retry
    assert retry is not None and (retry.initial_s, retry.multiplier, retry.max_delay_s) == (start, 2.0, cap)


@pytest.mark.parametrize("text", [
    "Second and third tries after 15 and 45 seconds.",  # a lesson plan
    "After 2 failed attempts, an hour apart, log it and stop.",  # a ship's log
    "Re-check after 5, 10 and 20 minutes if the dough has not risen.",  # a recipe card
    "After 3 more tries the upload is dropped.",  # a podcast run sheet
])
def test_numbers_before_a_unit_after_after_are_no_steps_to_wait_for(text: str) -> None:
    from orchestrator.spec.step_prose import dependency_phrase

    assert dependency_phrase(text) is None


def test_bare_step_numbers_after_after_are_still_the_steps_waited_for() -> None:
    from orchestrator.spec.step_prose import dependency_phrase

    found = dependency_phrase("Runs after 1, 2 and 4.")
    assert found is not None and found.ids == ("step-1", "step-2", "step-4")


@pytest.mark.parametrize(("text", "waits"), [
    ("Second and third tries at the quiz upload after 30 and 90 seconds.", (30.0, 90.0)),  # a lesson plan
    ("The 2nd and 3rd calls to the harbour master go after 5 and 15 min.", (300.0, 900.0)),  # a ship's log
    ("Second and third attempts at the proof after 10 s, 40 s.", (10.0, 40.0)),  # a recipe card
    ("2nd & 3rd goes at the RSS push after 1 and 4 minutes.", (60.0, 240.0)),  # a podcast run sheet
])
def test_the_second_and_third_tries_after_two_waits_are_two_retries_with_those_waits(text: str,
                                                                                     waits: tuple[float, ...]) -> None:
    phrase = read_phrase(text)
    retry = effect_of(phrase.statement).retry
    assert retry is not None and (retry.max_retries, retry.delays_s) == (2, waits)
    assert phrase.problems == ()
