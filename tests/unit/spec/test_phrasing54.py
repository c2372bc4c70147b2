"""`spec.phrasing54`: recovery phrasings a thirty-fifth blind set misread or dropped, in words that are not its own,
each with a near-miss that must not be read that way."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


def _s(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


def _kind(text: str) -> str | None:
    failure = read_phrase(text).statement.on_failure
    return None if failure is None else failure.kind


@pytest.mark.parametrize("text", [
    "If the upload fails, there is no going on without it.",
    "When the manifest check errors there's no carrying on.",
    "If the lab import fails we can't go on without it.",
    "Should the seal check break, it isn't safe to continue.",
    "If the export dies, the run does not carry on.",
    "If the audit fails, don't skip past it.",
    "On a failed signature, no moving on - the batch is void.",
])
def test_going_on_said_under_a_negation_stops_the_run_never_goes_on(text: str) -> None:
    s, problems = _s(text)
    assert (s.on_failure.kind if s.on_failure else None, problems) == ("fail", ())


@pytest.mark.parametrize("text", [
    "If the thumbnailer fails, don't stop - carry on.",
    "If the weather call fails, never mind, keep going.",
    "If the lookup fails, skip it and carry on.",
])
def test_near_miss_going_on_not_under_a_negation_still_goes_on(text: str) -> None:
    assert _kind(text) == "continue"


@pytest.mark.parametrize("text", [
    "Any error from the label printer ends the whole run.",
    "If the lookup errors, that stops the job.",
    "A failed checksum kills the pipeline.",
])
def test_a_failure_that_ends_the_run_in_the_third_person_fails_it(text: str) -> None:
    assert _kind(text) == "fail"


def test_near_miss_a_step_that_ends_while_the_run_continues_is_no_failure() -> None:
    assert _kind("When the import ends the run continues.") != "fail"


@pytest.mark.parametrize("text", [
    "Retry the scan twice, 10 s apart; if it still fails, abort.",
    "Should it error, halt.",
])
def test_a_bare_abort_closing_a_sentence_with_a_failure_fails_the_run(text: str) -> None:
    assert _kind(text) == "fail"


def test_near_miss_a_negated_halt_before_a_value_is_no_failure() -> None:
    s, _ = _s("If the probe fails, don't halt; take reading as 50.")
    assert s.on_failure is None or s.on_failure.kind != "fail"


@pytest.mark.parametrize(("text", "value"), [
    ('If the band lookup fails, treat it as band "unknown" and keep going.', {"band": "unknown"}),
    ("Should the triage call crash, carry on and count it as status 'pending'.", {"status": "pending"}),
])
def test_a_field_and_its_quoted_value_after_treat_it_as_is_the_value_to_go_on_with(text: str, value: object) -> None:
    s, problems = _s(text)
    assert s.on_failure is not None and s.on_failure.kind == "continue_with_value"
    assert ({s.on_failure.field: s.on_failure.value}, problems) == (value, ())


def test_near_miss_a_field_beside_other_fields_is_left_to_the_rows_of_pairs() -> None:
    s, _ = _s('Should the fetch fail, treat it as miles 0, source "not read", and keep going.')
    assert s.on_failure is not None and s.on_failure.value == {"miles": 0, "source": "not read"}


@pytest.mark.parametrize(("text", "skill"), [
    ("No joy from the rates API? Use `rates-from-cache`.", "rates-from-cache"),
    ("No answer from the depot feed? then try `depot-last-known`, it will do.", "depot-last-known"),
])
def test_a_fallback_after_a_failure_asked_as_a_question_is_the_fallback(text: str, skill: str) -> None:
    s, problems = _s(text)
    assert (s.on_failure.kind if s.on_failure else None, s.on_failure.skill if s.on_failure else None) == ("use_skill", skill)
    assert problems == ()


def test_near_miss_a_skill_named_without_a_failure_is_no_fallback() -> None:
    s, _ = _s("Use `rates-from-cache` for the quote.")
    assert s.on_failure is None


@pytest.mark.parametrize(("text", "start", "cap"), [
    ("Begin the wait at 2 s and double it each time, no wait longer than 1 min, 6 retries.", 2.0, 60.0),
    ("Start the retry delay at 10 seconds, tripling it, no pause above 5 minutes, 3 retries max.", 10.0, 300.0),
])
def test_a_backoff_s_start_said_of_the_gap_and_its_cap_as_no_gap_over(text: str, start: float, cap: float) -> None:
    s, problems = _s(text)
    assert s.wait is not None and (s.wait.start_s, s.wait.cap_s, s.timeout_s, problems) == (start, cap, None, ())


def test_near_miss_no_gap_without_a_time_is_no_wait_not_a_cap() -> None:
    s, _ = _s("Retry 3 times, no gap between them.")
    assert s.wait is not None and (s.wait.kind, s.wait.cap_s) == ("none", None)


@pytest.mark.parametrize("text", [
    "Retry the feed 6 times: 2 s, 4 s, 8 s and so on.",
    "Back off on the map API: 2 sec, 4 sec, 8 sec etc, 6 retries.",
])
def test_an_open_series_of_waits_each_with_its_unit_is_a_backoff_from_the_first(text: str) -> None:
    s, problems = _s(text)
    assert s.wait is not None and (s.wait.kind, s.wait.start_s, s.wait.factor, problems) == ("exponential", 2.0, 2.0, ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("The meter read gets 45 seconds before we declare it failed.", 45.0),
    ("The scan has 2 minutes before we give up on it.", 120.0),
    ("Label print: 20 s per attempt, retry twice.", 20.0),
    ("Each try at the bank API is given 15 seconds.", 15.0),
    ("Never let the export hang around for more than ten minutes.", 600.0),
])
def test_an_attempt_s_time_said_before_its_failure_or_per_go(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, False, ())


def test_near_miss_a_count_of_goes_per_time_is_no_timeout() -> None:
    s, _ = _s("Allow 3 goes per minute.")
    assert s.timeout_s != 60.0


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the whole batch has been running for 3 hours, kill the lot.", 10800.0),
    ("Once the entire run's been going ninety minutes, stop everything there and then.", 5400.0),
])
def test_the_whole_run_said_as_having_been_going_a_time_is_its_limit(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, True, ())


@pytest.mark.parametrize("text", [
    "It takes the deposit - a single go, never a second one.",
    "The refund is sent only once.",
    "The siren sounds once. Never again if it errors.",
])
def test_one_go_and_never_another_is_no_retry(text: str) -> None:
    s, problems = _s(text)
    assert (s.no_retry, problems) == (True, ())


def test_near_miss_running_once_a_day_is_no_retry_rule() -> None:
    s, _ = _s("The backup runs once a day.")
    assert not s.no_retry


# holdout36's constructions, in other words

@pytest.mark.parametrize(("text", "value"), [
    ("If the tax lookup falls over, carry on as though vat_rate was 20.", ("vat_rate", 20)),
    ("Should the stock check error, keep going as if in_stock were false.", ("in_stock", False)),
])
def test_going_on_as_if_a_field_were_a_value_keeps_the_value(text: str, value: tuple[str, object]) -> None:
    s, problems = _s(text)
    assert s.on_failure is not None and (s.on_failure.field, s.on_failure.value) == value and problems == ()


def test_near_miss_going_on_as_if_nothing_happened_has_no_value() -> None:
    s, _ = _s("If the tax lookup fails, carry on as if nothing had happened.")
    assert s.on_failure is None or s.on_failure.value is None


@pytest.mark.parametrize(("text", "wait"), [
    ("Take another stab at the ledger sync in 2 minutes, then drop it.", 120.0),
    ("One more bash at it after 30 seconds.", 30.0),
])
def test_one_more_crack_after_a_time_is_a_retry_and_its_wait(text: str, wait: float) -> None:
    s, problems = _s(text)
    assert (s.retries, s.wait.seconds if s.wait else None, problems) == (1, (wait,), ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("Retry after 5 s and, if it fails again, after 25 s.", (5.0, 25.0)),
    ("Re-send after 1 min and if that errors as well, then after 3 min.", (60.0, 180.0)),
])
def test_a_second_wait_said_after_the_first_retry_s_failure_makes_a_series(text: str, seconds: tuple[float, ...]) -> None:
    s, problems = _s(text)
    assert (s.wait.seconds if s.wait else None, problems) == (seconds, ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("Allow the geocoder 15 s; if it misses, use the postcode centre.", 15.0),
    ("Ten minutes is the limit the render job gets.", 600.0),
    ("Half an hour's the most that the export may take.", 1800.0),
])
def test_the_attempt_s_time_said_before_a_miss_or_as_the_most_it_gets(text: str, seconds: float) -> None:
    s, _ = _s(text)
    assert (s.timeout_s, s.whole_run) == (seconds, False)


def test_near_miss_the_most_time_a_thing_is_done_is_no_timeout() -> None:
    s, _ = _s("An hour is the most the dogs are walked.")
    assert s.timeout_s is None


def test_a_re_verb_with_a_count_is_the_retries() -> None:
    s, _ = _s("Re-ping the tank sensor up to 5 times.")
    assert s.retries == 5


def test_near_miss_a_re_verb_done_a_count_a_day_is_no_retry() -> None:
    s, _ = _s("Re-sync the calendar 4 times a day.")
    assert s.retries != 4


@pytest.mark.parametrize(("text", "seconds"), [
    ("The entire nightly close, start to finish, must not take longer than 50 minutes.", 3000.0),
    ("If the job as a whole isn't done within 2 minutes, stop everything.", 120.0),
    ("Overall limit for the morning round: 45 min.", 2700.0),
    ("The whole run gets 2 hours, including waiting for the manager's approval.", 7200.0),
])
def test_the_whole_run_s_time_said_of_the_whole(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, True, ())
