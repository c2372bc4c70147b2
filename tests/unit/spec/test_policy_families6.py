"""Phrasing families met in the sixth blind set, each in words that are not the set's own.

A value to go on with keeps its type (a number under its field, a string said as one, an
empty list under a name); "unavailable" or "flaky" beside a fallback names no class; a
speed wish without a time is reported; waits listed before their noun or after a word of
doing again that is not "retry"; a budget given to something; the whole run capped;
counts of re-doings; "no automatic retry"; a limit in brackets after "times out"; a backoff
said as "twice as long as the one before"; a skill to hand the work to, in backticks or
named by the catalog without them; and quotes of what was not read are whole words.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import ErrorClass
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _read(text: str, names: frozenset[str] = frozenset()) -> Any:
    phrase = read_phrase(text, names)
    assert phrase.problems == (), phrase.problems
    return phrase.statement


# -- silent misreads: a value keeps its value and type, and the class is not narrowed --


@pytest.mark.parametrize(("text", "value"), [
    ("When the FX feed breaks, use a rate of 1 and carry on.", {"rate": 1}),
    ("If scoring errors, assume a confidence of 0.25 and keep going.", {"confidence": 0.25}),
    ("On failure take a label of 'other' and continue.", {"label": "other"}),
])
def test_a_value_said_with_its_field_is_kept_under_that_field(text: str, value: Any) -> None:
    s = _read(text)
    assert s.on_failure is not None and s.on_failure.kind == "continue_with_value"
    assert effect_of(s).fallback is not None and effect_of(s).fallback.value == value  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "value"), [
    ('If the summariser fails, carry on with the text "no summary".', "no summary"),
    ("Should tagging break, move on with the value 0.", 0),
    ("If the lookup errors, continue with the string '-'.", "-"),
])
def test_a_value_said_with_its_type_keeps_it(text: str, value: Any) -> None:
    s = _read(text)
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.value) == ("continue_with_value", value)
    assert type(s.on_failure.value) is type(value)


@pytest.mark.parametrize("text", [
    "If the enrichment service errors out, move on with an empty keyword list.",
    "On failure carry on with an empty recipients array.",
])
def test_an_empty_list_under_a_name_is_an_empty_list(text: str) -> None:
    s = _read(text)
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.value) == ("continue_with_value", [])


def test_a_field_set_to_null_beside_the_run_going_on_is_kept_as_that_field() -> None:
    s = _read("A page that fails to render is logged as skipped (pages = null) and the batch continues.")
    fallback = effect_of(s).fallback
    assert fallback is not None and fallback.value == {"pages": None}


@pytest.mark.parametrize("text", [
    "Switch to `geo-lite` whenever the premium geocoder is unavailable.",
    "It is flaky; if it still fails, fall back to `rates-cache`.",
])
def test_unavailable_or_flaky_beside_a_fallback_names_no_failure_class(text: str) -> None:
    assert _read(text).applies_to is None


def test_a_named_class_beside_a_fallback_is_still_its_rule() -> None:
    assert _read("If the API is rate limited, fall back to `rates-cache`.").applies_to is ErrorClass.TRANSIENT
    assert _read("If the mirror is down, fall back to `mirror-two`.").applies_to is ErrorClass.TRANSIENT


def test_flaky_beside_a_retry_only_is_the_step_s_retry() -> None:
    phrase = read_phrase("The SMTP relay is flaky, so retry it 4 times.")
    assert phrase.statement.retries == 4 and effect_of(phrase.statement).on is None


@pytest.mark.parametrize(("text", "attempts"), [
    ("Poll it every 20 s, but give up after 6 tries.", 6),
    ("Stop after 4 attempts.", 4),
])
def test_giving_up_after_n_tries_counts_the_first_try(text: str, attempts: int) -> None:
    s = read_phrase(text).statement
    assert s.max_attempts == attempts and effect_of(s).retry is not None
    assert effect_of(s).retry.max_retries == attempts - 1  # type: ignore[union-attr]


@pytest.mark.parametrize("text", [
    "Ought to be snappy; if not, don't wait around for it.",
    "Must be fast, otherwise bail.",
    "Don't hang around on this one.",
])
def test_a_speed_wish_with_something_to_do_but_no_time_is_reported(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems and not phrase.read


def test_a_speed_wish_alone_is_a_description() -> None:
    phrase = read_phrase("Should be fast, it only reads a small file.")
    assert not phrase.problems and not phrase.read


# -- families that were warned but not read --------------------------------------------


@pytest.mark.parametrize(("text", "waits"), [
    ("Try again with 2s, 20s, 3m gaps.", (2.0, 20.0, 180.0)),
    ("If the upload fails, resend after 1 s, 10 s and 40 s.", (1.0, 10.0, 40.0)),
    ("Re-fetch in 30 s, 2 min and 5 min if the page is blank.", (30.0, 120.0, 300.0)),
])
def test_waits_listed_before_their_noun_or_after_a_word_of_doing_again_are_a_series(text: str, waits: Any) -> None:
    s = _read(text)
    assert s.wait is not None and (s.wait.kind, s.wait.seconds) == ("sequence", waits)
    assert effect_of(s).retry is not None and effect_of(s).retry.max_retries == len(waits)  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "seconds"), [
    ("Give the callback a 2.5 s budget.", 2.5),
    ("Allow each lookup a 40-second window.", 40.0),
    ("Grant the scraper a 3 min time limit.", 180.0),
])
def test_a_budget_given_to_something_is_its_attempt_timeout(text: str, seconds: float) -> None:
    assert _read(text).timeout_s == seconds


@pytest.mark.parametrize(("text", "seconds"), [
    ("Cap the whole pipeline at three hours wall clock.", 10800.0),
    ("Limit the entire job to an hour.", 3600.0),
    ("Total time from upload to invoice should remain under 45 min.", 2700.0),
    ("The overall duration must stay ≤ 2 h, the samples spoil.", 7200.0),
])
def test_the_whole_run_capped_in_words_or_figures_is_its_limit(text: str, seconds: float) -> None:
    s = _read(text)
    assert s.whole_run and s.timeout_s == seconds


def test_a_count_in_words_after_a_total_of_is_the_attempts() -> None:
    s = _read("Run it a total of four times; spread them out by 30 seconds.")
    assert s.max_attempts == 4 and s.wait is not None and s.wait.seconds == (30.0,)


@pytest.mark.parametrize("text", ["Space the tries out by a minute, five retries.",
                                  "Leave 1 minute between tries, five retries."])
def test_a_wait_said_as_spacing_is_the_wait(text: str) -> None:
    s = _read(text)
    assert s.wait is not None and s.wait.seconds == (60.0,) and s.retries == 5


@pytest.mark.parametrize(("text", "count"), [
    ("If the sync stalls, re-sync; at most 3 re-syncs.", 3),
    ("Re-upload on a checksum mismatch, max. 2 re-uploads.", 2),
    ("Two reruns at most.", 2),
])
def test_a_count_of_redoings_is_the_retries_not_a_condition(text: str, count: int) -> None:
    assert _read(text).retries == count


@pytest.mark.parametrize("text", [
    "No automatic retry: a second charge costs money.",
    "Without any further re-sends.",
    "Do NOT repeat it; the ticket is already open.",
    "Never re-send the batch.",
])
def test_saying_there_is_no_automatic_retry_or_repeat_is_no_retry(text: str) -> None:
    s = _read(text)
    assert s.no_retry and s.retries is None


def test_a_repeat_of_what_the_text_is_about_is_no_policy() -> None:
    phrase = read_phrase("Do not repeat the header row in the output.")
    assert not phrase.read and not phrase.problems


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the nightly upload times out (> 40 s), try again up to 2 times.", 40.0),
    ("When the scan times out (over 2 min), retry it once.", 120.0),
    ("Kill it (> 15 s).", 15.0),
])
def test_a_limit_in_brackets_is_the_attempt_timeout(text: str, seconds: float) -> None:
    assert _read(text).timeout_s == seconds


@pytest.mark.parametrize(("text", "factor"), [
    ("Four retries, each wait twice as long as the one before, from 3s.", 2.0),
    ("Retry 5 times, every pause three times as long as the previous one, starting at 1s.", 3.0),
])
def test_a_wait_said_as_times_as_long_as_the_last_is_a_backoff(text: str, factor: float) -> None:
    s = _read(text)
    assert s.wait is not None and (s.wait.kind, s.wait.factor) == ("exponential", factor)


@pytest.mark.parametrize("text", [
    "The HTTP client does its own retry handling; nothing to add here.",
    "The storage SDK retries internally, see its README.",
])
def test_retry_logic_that_belongs_to_a_library_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems and not phrase.signal


# -- a skill to hand the work to -------------------------------------------------------


@pytest.mark.parametrize("text", [
    "If it fails, pass the scan over to `ocr-lite` instead.",
    "On error, hand the document to 'pdf-fallback'.",
    "Should the fit be rejected, use the tool `fit-robust` on the same points instead.",
])
def test_a_skill_the_work_is_handed_to_is_the_fallback(text: str) -> None:
    s = _read(text)
    assert s.on_failure is not None and s.on_failure.kind == "use_skill"
    assert s.on_failure.skill in ("ocr-lite", "pdf-fallback", "fit-robust")


@pytest.mark.parametrize("text", [
    "If the fit is rejected, do not repeat it: use module *linefit* on the same points instead.",
    "If the fit is rejected, do not repeat it: use module [linefit](skills/linefit) on the same points instead.",
    "If the fit is rejected, do not repeat it: use module \"linefit\" on the same points instead.",
])
def test_a_catalog_skill_named_without_backticks_is_the_fallback(text: str) -> None:
    s = _read(text, frozenset({"linefit", "curvefit"}))
    assert s.no_retry and s.on_failure is not None and s.on_failure.skill == "linefit"


def test_without_the_catalog_a_single_word_in_italics_is_not_taken_for_a_skill() -> None:
    phrase = read_phrase("If the fit is rejected, use module *linefit* instead.")
    assert phrase.statement.on_failure is None or phrase.statement.on_failure.skill != "linefit"
    assert phrase.problems  # "instead" is not read: reported, never silent


# -- warnings quote whole words --------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Three retries, and five retries more.",
    "Retry twice, or retry three times.",
])
def test_a_quote_of_a_number_word_is_the_whole_word(text: str) -> None:
    problems = " ".join(read_phrase(text).problems)
    assert problems and "'e retries" not in problems and "'ee " not in problems
    quoted = [q for q in problems.split("'")[1::2]]
    assert all(q.split()[0].lower() in ("three", "five", "retry", "twice", "retries", "and") for q in quoted), quoted


def test_again_after_a_named_object_is_the_retry_not_an_unread_word() -> None:
    assert _read("Call the mailer again up to three times on a 502.").retries == 3


# -- the holdout6 specs' own lines, as families in other words -------------------------


def test_fields_set_in_brackets_beside_going_ahead_are_the_object_to_go_on_with() -> None:
    s = _read('If the draft fails, go ahead with the stock text instead (body = "See attached", lang = en).')
    assert effect_of(s).fallback is not None
    assert effect_of(s).fallback.value == {"body": "See attached", "lang": "en"}  # type: ignore[union-attr]


def test_a_literal_in_brackets_after_carrying_on_is_the_value() -> None:
    s = read_phrase("If the feed stalls, skip it and carry on as if nothing came back (no rows, `[]`).").statement
    assert s.on_failure is not None and (s.on_failure.kind, s.on_failure.value) == ("continue_with_value", [])


@pytest.mark.parametrize("text", ["Re-running it on a failure is pointless — don't.",
                                  "Retrying would be a waste of time: the input is fixed."])
def test_saying_a_retry_is_pointless_is_no_retry(text: str) -> None:
    assert _read(text).no_retry


@pytest.mark.parametrize(("text", "seconds"), [("The parser gets forty seconds, no more.", 40.0),
                                                ("The billing API's SLA is 8 s.", 8.0)])
def test_a_time_something_gets_and_no_more_or_its_sla_is_its_timeout(text: str, seconds: float) -> None:
    assert _read(text).timeout_s == seconds


def test_stopping_the_whole_of_anything_fails_and_not_stopping_it_does_not() -> None:
    assert _read("If it cannot finish, halt the whole rollout.").on_failure.kind == "fail"
    assert read_phrase("Don't stop the whole rollout for it.").statement.on_failure is None or \
        read_phrase("Don't stop the whole rollout for it.").statement.on_failure.kind != "fail"


def test_a_list_of_number_words_ending_in_a_unit_is_a_series() -> None:
    s = _read("If the sync chokes, try again, at most three more times, pausing two, five, then ten minutes.")
    assert s.wait is not None and s.wait.seconds == (120.0, 300.0, 600.0) and s.retries == 3


def test_a_label_put_on_an_item_beside_going_on_that_is_not_read_is_reported() -> None:
    phrase = read_phrase("If a check still fails, mark that one row `manual` and keep going.")
    assert phrase.problems


def test_a_budget_given_to_a_person_is_not_the_step_s_timeout() -> None:
    assert read_phrase("Give the reviewer a 2 h window to answer.").statement.timeout_s is None


def test_a_count_of_reruns_said_about_last_week_is_reported_as_the_past() -> None:
    assert any("past" in p for p in read_phrase("We needed 3 reruns last week.").problems)
