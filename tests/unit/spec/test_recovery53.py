"""`spec.recovery53`: recovery phrasings a thirty-fourth blind set misread or dropped, in words that are not its own,
each with a near-miss that must not be read that way."""

from __future__ import annotations

import pytest

from orchestrator.policy import ErrorClass
from orchestrator.spec.phrase import read_phrase


def _s(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "cap"), [
    ("Back off from 2 s, doubling each time, 5 retries, and cap every pause at 30 seconds.", 30.0),
    ("Retry 4 times with exponential backoff from 1 s; each delay capped at 2 minutes.", 120.0),
])
def test_a_cap_said_of_each_wait_is_the_backoff_s_cap_not_a_timeout(text: str, cap: float) -> None:
    s, problems = _s(text)
    assert (s.wait.cap_s if s.wait else None, s.timeout_s, problems) == (cap, None, ())


def test_near_miss_a_cap_on_each_attempt_is_its_time() -> None:
    s, _ = _s("Cap each attempt at a minute.")
    assert s.timeout_s == 60.0


@pytest.mark.parametrize(("text", "seconds"), [
    ("Pull the plug on the tile renderer at the 7-minute mark.", 420.0),
    ("Call it quits on the VAT check after 25 seconds.", 25.0),
    ("Never let the transcoder grind on a file for more than ten minutes.", 600.0),
    ("The thumbnailer can have forty seconds; then drop it.", 40.0),
    ("The price scrape gets 45 s and not a second more.", 45.0),
])
def test_giving_up_on_the_step_at_a_time_is_the_attempt_s_time(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, problems) == (seconds, False, ())


def test_near_miss_a_step_that_can_have_more_tries_is_given_retries_not_a_time() -> None:
    s, _ = _s("The upload can have two more tries.")
    assert (s.retries, s.timeout_s) == (2, None)


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the import is still running at the 90-minute mark, stop the whole lot.", 5400.0),
    ("The full reconciliation is limited to 20 minutes.", 1200.0),
    ("The entire export, from top down, must be done within 2 hours.", 7200.0),
    ("From the first stage kicking off to the last one done, allow 6 hours.", 21600.0),
])
def test_the_whole_of_the_run_said_still_going_capped_or_spanned_is_the_whole_run_s_time(text: str,
                                                                                        seconds: float) -> None:
    s, problems = _s(text)
    assert (s.timeout_s, s.whole_run, s.retries, problems) == (seconds, True, None, ())


def test_near_miss_the_first_step_alone_given_a_time_is_its_own() -> None:
    s, _ = _s("Allow the first step 6 hours.")
    assert s.whole_run is False


@pytest.mark.parametrize("text", [
    "This posts to the ledger - it won't be re-tried if it fails.",
    "The SMS is not re-sent, ever.",
])
def test_the_step_said_not_run_again_is_no_retry(text: str) -> None:
    s, _ = _s(text)
    assert s.no_retry is True


def test_near_miss_a_step_re_run_is_no_no_retry() -> None:
    s, _ = _s("It does get re-run if it errors, up to 2 times.")
    assert s.no_retry is False


@pytest.mark.parametrize(("text", "retries"), [
    ("Redial the modem up to 4 times.", 4),
    ("Re-poll the queue no more than 3 times.", 3),
])
def test_retries_said_with_the_verb_retried_are_retries(text: str, retries: int) -> None:
    s, problems = _s(text)
    assert (s.retries, problems) == (retries, ())


@pytest.mark.parametrize(("text", "retries", "wait"), [
    ("If the scale stalls, have another go in 30 seconds - twice at most.", 2, 30.0),
    ("Scanner jammed? Another try in 10 s, thrice max.", 3, 10.0),
])
def test_twice_at_most_after_another_go_counts_retries(text: str, retries: int, wait: float) -> None:
    s, problems = _s(text)
    assert (s.retries, s.wait.seconds if s.wait else None, problems) == (retries, (wait,), ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("Keep polling the bank, 5 s then 10 s then 20 s and so on.", 5.0),
    ("Retry the upload, 3 sec then 9 sec then 27 sec and so on, 6 retries.", 3.0),
])
def test_a_series_said_with_then_is_a_backoff_from_its_first_wait(text: str, seconds: float) -> None:
    s, problems = _s(text)
    assert (s.wait.kind if s.wait else None, s.wait.start_s if s.wait else None, problems) == ("exponential", seconds, ())


@pytest.mark.parametrize(("text", "seconds"), [
    ("Resend the invoice after two minutes, again after ten, and one last time after thirty.", (120.0, 600.0, 1800.0)),
    ("Retry after 1 hour, again after 2, and finally after 4.", (3600.0, 7200.0, 14400.0)),
])
def test_a_series_said_as_further_goes_is_its_waits(text: str, seconds: tuple[float, ...]) -> None:
    s, problems = _s(text)
    assert (s.wait.kind if s.wait else None, s.wait.seconds if s.wait else None, s.retries or 3, problems) == (
        "sequence", seconds, 3, ())


@pytest.mark.parametrize("text", [
    "If the price feed throws, carry on with price = 0.",
    "When the mailer throws - use `mail-fallback` instead.",
])
def test_a_bare_throws_is_any_failure(text: str) -> None:
    s, _ = _s(text)
    assert s.applies_to is None and s.on_failure is not None


@pytest.mark.parametrize("text", ["Let the model rewrite the script once if it throws.",
                                  "If the parser throws, retry it twice."])
def test_near_miss_throws_before_a_retry_or_about_the_script_stays_a_code_error(text: str) -> None:
    s, _ = _s(text)
    assert s.applies_to == ErrorClass.CODE_ERROR
