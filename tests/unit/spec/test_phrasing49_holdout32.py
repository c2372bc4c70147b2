"""Round 49's recovery phrasings (`spec.phrasing49`), in words that are not the thirty-second blind set's, each with a
near-miss that must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("text", "start", "factor", "cap"), [
    ("Back off on the price feed: 2 s, then 4, 8, 16 and so on, capped at 60 s, 5 retries.", 2.0, 2.0, 60.0),
    ("Retry the sync up to 4 times waiting 3, 9, 27 s etc.", 3.0, 3.0, None),
])
def test_an_open_series_growing_by_one_factor_is_a_backoff(text: str, start: float, factor: float,
                                                           cap: float | None) -> None:
    wait = read_phrase(text).statement.wait
    assert wait is not None and wait.kind == "exponential"
    assert (wait.start_s, wait.factor) == (start, factor)
    if cap is not None:
        assert wait.cap_s == cap


@pytest.mark.parametrize("text", [
    "Retry the sync up to 4 times waiting 2 s, then 5, 9 and so on.",  # not one factor
    "Retry the sync 3 times, waiting 2 s, then 4, then 8.",  # not left open
])
def test_a_series_not_one_factor_or_not_open_stays_its_list(text: str) -> None:
    wait = read_phrase(text).statement.wait
    assert wait is not None and wait.kind == "sequence"


@pytest.mark.parametrize(("text", "waits"), [
    ("If the upload fails, retry after 10 s, then after 1 min, then a final try after 10 minutes.", (10.0, 60.0, 600.0)),
    ("Resend after 2 s, then after 20 s, then one last attempt after 2 minutes.", (2.0, 20.0, 120.0)),
])
def test_a_series_last_go_is_its_next_wait(text: str, waits: tuple[float, ...]) -> None:
    statement = read_phrase(text).statement
    assert statement.wait is not None and statement.wait.seconds == waits
    assert statement.retries in (None, len(waits))


def test_a_last_go_without_a_series_before_it_is_still_one_retry() -> None:
    assert read_phrase("If it fails, wait 10 s and give it one last go.").statement.retries == 1


@pytest.mark.parametrize("text", [
    "Never have another go at the refund; once sent, it's sent.",
    "Don't ever give it a second try - the SMS costs money.",
    "The door-unlock call is a one-shot command.",
    "Fire the payout once: no re-runs.",
])
def test_no_retry_said_as_never_another_go_a_single_shot_or_no_repeats(text: str) -> None:
    statement = read_phrase(text).statement
    assert statement.no_retry and not statement.retries


@pytest.mark.parametrize("text", [
    "If the upload fails, have another go.",  # one retry
    "No repeats of the header row in the export.",  # what the output holds, no policy
    "Pour a single shot of espresso.",
])
def test_near_misses_are_no_no_retry(text: str) -> None:
    assert not read_phrase(text).statement.no_retry


@pytest.mark.parametrize("text", [
    "A failed signature check stops the batch dead.",
    "If the vault unlock errors, everything halts right there.",
    "A broken manifest stops the pipeline in its tracks.",
])
def test_a_failure_stopping_the_run_where_it_stands_is_a_fail(text: str) -> None:
    on_failure = read_phrase(text).statement.on_failure
    assert on_failure is not None and on_failure.kind == "fail"


def test_a_run_stopped_dead_with_no_failure_named_is_no_fail() -> None:
    assert read_phrase("The night shift stops the line dead at 6 am for cleaning.").statement.on_failure is None


@pytest.mark.parametrize("text", ["The OCR step gets 1 more chance after a minute.", "Give the modem one more chance."])
def test_one_more_chance_is_one_retry(text: str) -> None:
    assert read_phrase(text).statement.retries == 1


@pytest.mark.parametrize("text", [
    "If the meter log can't be read, carry on with kwh = 0.",
    "Should the calendar not be readable - it can't be read - go on with frozen = true.",
])
def test_a_thing_that_cannot_be_read_is_any_failure_not_invalid_input(text: str) -> None:
    statement = read_phrase(text).statement
    assert statement.on_failure is not None and statement.applies_to is None


def test_a_thing_that_cannot_be_parsed_is_still_invalid_input() -> None:
    assert read_phrase("If the CSV can't be parsed, carry on with rows = 0.").statement.applies_to == "invalid_input"


@pytest.mark.parametrize(("text", "wait"), [
    ("Dial the kiosk again three times, leaving 20 seconds between calls.", 20.0),
    ("Resend the fax twice more, leaving 2 minutes each time.", 120.0),
])
def test_a_wait_said_as_leaving_time_between_goes(text: str, wait: float) -> None:
    statement = read_phrase(text).statement
    assert statement.wait is not None and statement.wait.seconds == (wait,) and statement.applies_to is None


def test_a_call_that_hangs_up_is_no_timeout_but_one_that_hangs_is() -> None:
    assert read_phrase("If the line hangs up, call back twice more.").statement.applies_to is None
    assert read_phrase("If the line hangs, call back twice more.").statement.applies_to == "timeout"


@pytest.mark.parametrize(("text", "waits"), [
    ("Waits before each retry of the export: 30 s, 5 min, 20 min.", (30.0, 300.0, 1200.0)),
    ("Pauses before every re-post to the board - 10 s, 1 min.", (10.0, 60.0)),
])
def test_a_list_of_waits_before_each_retry(text: str, waits: tuple[float, ...]) -> None:
    statement = read_phrase(text).statement
    assert statement.wait is not None and statement.wait.seconds == waits


def test_a_backoff_from_an_opening_wait() -> None:
    wait = read_phrase("Retry up to 4 times, doubling the wait from an initial 5 seconds.").statement.wait
    assert wait is not None and (wait.start_s, wait.factor) == (5.0, 2.0)


@pytest.mark.parametrize(("text", "seconds"), [
    ("Give the geocoder 45 seconds; past that, it has failed.", 45.0),
    ("Give it 2 minutes - if it stays quiet, carry on with found = false.", 120.0),
    ("Stop the thumbnailer if it runs longer than 30 s.", 30.0),
    ("Abort the export when it goes past 10 minutes.", 600.0),
    ("Never let the index build run on for more than 2 hours.", 7200.0),
])
def test_a_time_given_to_a_step_and_what_happens_past_it(text: str, seconds: float) -> None:
    statement = read_phrase(text).statement
    assert statement.timeout_s == seconds and not statement.whole_run


def test_letting_a_thing_go_on_that_is_not_forbidden_is_no_time_limit() -> None:
    phrase = read_phrase("Let the dough rest for more than 20 minutes.")
    assert phrase.statement.timeout_s is None and phrase.problems  # not read, and said


@pytest.mark.parametrize(("text", "seconds"), [
    ("All the jobs together get a combined budget of 45 min.", 2700.0),
    ("If the batch as a whole is still running after 3 hours, kill everything.", 10800.0),
    ("Hard stop for the whole run at the 90-minute mark.", 5400.0),
])
def test_the_whole_run_s_time(text: str, seconds: float) -> None:
    statement = read_phrase(text).statement
    assert statement.timeout_s == seconds and statement.whole_run


@pytest.mark.parametrize(("text", "skill"), [
    ("If the FX feed is broken, get rates from `fx-rates-yesterday` instead.", "fx-rates-yesterday"),
    ("Should the printer fail, the fallback is `pdf-to-email`.", "pdf-to-email"),
    ("If the scheduler can't cope, plan B: `manual-rota`.", "manual-rota"),
])
def test_a_fallback_skill_said_as_where_to_take_it_from_or_the_backup(text: str, skill: str) -> None:
    on_failure = read_phrase(text).statement.on_failure
    assert on_failure is not None and on_failure.skill == skill


def test_taking_data_from_a_skill_with_no_failure_named_is_no_fallback() -> None:
    assert read_phrase("Take the prices from `price-feed` each morning.").statement.on_failure is None
