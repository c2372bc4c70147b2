"""Round 45's recovery phrasings (`spec.phrasing45`), in words that are not the twenty-ninth blind set's, each with
a near-miss that must not be read that way."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


def _wait(text: str) -> dict[str, object]:
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    wait = phrase.statement.wait
    assert wait is not None
    return wait.model_dump(exclude_none=True)


@pytest.mark.parametrize(("text", "start", "cap"), [
    ("Retry the upload 5 times, doubling the wait from 2 s each time, and cap it at 30 s.", 2.0, 30.0),
    ("Back off exponentially from 1 s on the feed, 6 retries, cap the pause at 20 s.", 1.0, 20.0),
])
def test_cap_it_beside_a_doubling_is_the_backoff_s_cap_not_the_attempt_s_time(text: str, start: float, cap: float) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.timeout_s is None
    assert (_wait(text)["start_s"], _wait(text)["cap_s"]) == (start, cap)


def test_cap_it_alone_is_still_the_attempt_s_time() -> None:
    statement = read_phrase("Cap it at 8 s.").statement
    assert statement.timeout_s == 8.0 and statement.wait is None


@pytest.mark.parametrize(("text", "start", "factor", "cap"), [
    ("Retry 4 times, starting with a 3-second pause and doubling it each round.", 3.0, 2.0, None),
    ("Five retries, starting at a 2-second gap, doubling, never waiting past 1 minute.", 2.0, 2.0, 60.0),
])
def test_a_backoff_s_first_gap_and_a_wait_never_past_a_time(text: str, start: float, factor: float,
                                                              cap: float | None) -> None:
    wait = _wait(text)
    assert (wait["kind"], wait["start_s"], wait["factor"], wait.get("cap_s")) == ("exponential", start, factor, cap)


def test_a_gap_with_no_growth_stays_a_fixed_wait() -> None:
    assert _wait("Retry 3 times with a 5-second gap.") == {"kind": "fixed", "seconds": (5.0,)}


@pytest.mark.parametrize(("text", "wait_kind"), [
    ("If the scan fails, take one more crack at it right away.", "none"),
    ("On a failed upload, have one more stab at it straight away.", "none"),
    ("If the print jams, have one more go at it, then give up.", None),
])
def test_one_more_crack_at_it_is_one_retry(text: str, wait_kind: str | None) -> None:
    statement = read_phrase(text).statement
    assert statement.retries == 1
    assert (statement.wait.kind if statement.wait else None) == wait_kind


@pytest.mark.parametrize(("text", "seconds", "whole"), [
    ("The export has until the 10-minute mark.", 600.0, False),
    ("The lookup gets until the 30-second mark, no more.", 30.0, False),
    ("The upload is stopped at the 20-minute mark.", 1200.0, False),
    ("Whatever stage it has reached, the nightly batch is cancelled at the 2-hour mark.", 7200.0, True),
])
def test_a_time_said_as_a_mark_is_the_time_limit(text: str, seconds: float, whole: bool) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == ()
    assert (phrase.statement.timeout_s, phrase.statement.whole_run) == (seconds, whole)


def test_a_mark_that_limits_nothing_is_no_time_limit() -> None:
    assert read_phrase("The meeting is at the 10-minute mark.").statement.timeout_s is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("Allow the import 45 minutes; past that, stop it.", 2700.0),
    ("Give the render 2 hours - beyond that, abort.", 7200.0),
])
def test_a_time_allowed_then_what_is_done_past_it_is_the_attempt_s_time(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == () and phrase.statement.timeout_s == seconds


def test_a_time_allowed_to_people_is_no_time_limit() -> None:
    assert read_phrase("Allow the reviewers 2 days.").statement.timeout_s is None


@pytest.mark.parametrize(("text", "skill"), [
    ("Feed down? `feed-cache` will do.", "feed-cache"),
    ("If the courier API fails, `courier-manual` will have to do.", "courier-manual"),
])
def test_a_skill_that_will_do_after_a_failure_is_the_fallback(text: str, skill: str) -> None:
    fallback = read_phrase(text).statement.on_failure
    assert fallback is not None and (fallback.kind, fallback.skill) == ("use_skill", skill)


def test_a_skill_that_will_do_a_job_with_no_failure_said_is_no_fallback() -> None:
    assert read_phrase("`courier-manual` will do the booking.").statement.on_failure is None


@pytest.mark.parametrize(("text", "value"), [
    ("If the tagger breaks, keep going anyway - confidence 0, labels [].", {"confidence": 0, "labels": []}),
    ('When the scorer errors, continue: grade "ungraded", points null.', {"grade": "ungraded", "points": None}),
])
def test_values_after_going_on_and_a_dash_are_the_values_to_go_on_with(text: str, value: dict[str, object]) -> None:
    fallback = read_phrase(text).statement.on_failure
    assert fallback is not None and (fallback.kind, fallback.value) == ("continue_with_value", value)


def test_words_after_going_on_and_a_dash_that_are_no_values_leave_a_plain_going_on() -> None:
    fallback = read_phrase("If it fails, carry on regardless - the report is optional.").statement.on_failure
    assert fallback is not None and fallback.kind == "continue"


@pytest.mark.parametrize(("text", "seconds"), [
    ("Retry after a 5-second wait, then 20 seconds, then 1 minute.", (5.0, 20.0, 60.0)),
    ("Try again after a 2-minute gap then 10 minutes.", (120.0, 600.0)),
    ("Wait 10 seconds, have another go; wait 1 minute, one more go.", (10.0, 60.0)),
    ("Wait 2 mins, another try; wait 10 mins, another try; wait an hour, final try.", (120.0, 600.0, 3600.0)),
])
def test_waits_said_one_by_one_are_a_list_of_retries_waits(text: str, seconds: tuple[float, ...]) -> None:
    assert _wait(text) == {"kind": "sequence", "seconds": seconds}


@pytest.mark.parametrize("text", ["Retry after a 5-second wait, then give up.", "Wait 10 seconds, have another go."])
def test_one_wait_is_no_list(text: str) -> None:
    assert _wait(text)["kind"] == "fixed"


@pytest.mark.parametrize(("text", "seconds"), [
    ("Overall, the pipeline must wrap up within 20 minutes.", 1200.0),
    ("The job as a whole must be done within 2 hours.", 7200.0),
])
def test_a_time_for_the_run_overall_is_the_whole_run_s(text: str, seconds: float) -> None:
    statement = read_phrase(text).statement
    assert (statement.timeout_s, statement.whole_run) == (seconds, True)


def test_a_time_for_this_run_without_overall_stays_the_step_s() -> None:
    assert not read_phrase("This run must wrap up inside 8 minutes.").statement.whole_run


@pytest.mark.parametrize("text", [
    "The whole thing gets 60 seconds while the caller waits on the line.",
    "Time out after 30 s, as the customer is waiting at the desk.",
])
def test_a_person_waiting_is_no_wait_of_the_step(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == () and phrase.statement.wait is None


def test_a_wait_with_its_time_beside_a_person_is_still_read() -> None:
    assert _wait("Retry while the user waits 5 seconds.") == {"kind": "fixed", "seconds": (5.0,)}
