"""The thirty-eighth round's recovery phrasings (`spec.phrasing38`), in a runbook's, a recipe card's, a lab
protocol's, a ticket's and a YAML comment's words (none of them a blind set's), and texts that look alike but are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrasing38 import failure_question, plain


def _read(text: str) -> tuple[Any, tuple[str, ...]]:
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "skill"), [
    ("If the LDAP sync keeps failing, switch over to `ldap-readonly`.", "ldap-readonly"),  # a runbook
    ("Should the stand mixer die, swap to `mix-by-hand`.", "mix-by-hand"),  # a recipe card
    ("If the plate reader errors, `read-manually` does the work instead.", "read-manually"),  # a lab protocol
    ("When the SMS gateway is down, route the text through `email-relay`.", "email-relay"),  # a ticket
])
def test_a_fallback_said_as_where_the_work_goes_is_the_fallback_skill(text: str, skill: str) -> None:
    statement, problems = _read(text)
    assert statement.on_failure is not None and statement.on_failure.skill == skill, (statement, problems)
    assert not problems


def test_swap_to_a_skill_with_no_failure_said_is_no_fallback() -> None:
    statement, _ = _read("For the winter menu, swap to `soup-of-the-day`.")
    assert statement.on_failure is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the autoclave hasn't finished the cycle inside 40 min, abort.", 2400.0),  # a lab protocol
    ("Cut the nightly backup loose at the three-hour mark.", 10800.0),  # a runbook
    ("Hold the proofing check at 5 min and, if it runs over, move on.", 300.0),  # a recipe card
])
def test_a_deadline_on_one_attempt_is_its_timeout(text: str, seconds: float) -> None:
    statement, _ = _read(text)
    assert statement.timeout_s == seconds and not statement.whole_run, statement


@pytest.mark.parametrize(("text", "seconds"), [
    ("The entire month-end import has a cap of 90 minutes, start to finish.", 5400.0),  # a ticket
    ("From start to finish, the whole thing must be done within 2 hours.", 7200.0),  # a runbook
    ("Everything in the weekly batch stops dead at 40 min, whatever step it's on.", 2400.0),  # a YAML comment
])
def test_a_whole_run_s_time_is_the_run_s_limit(text: str, seconds: float) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s == seconds and statement.whole_run, (statement, problems)
    assert statement.retries is None and statement.wait is None


@pytest.mark.parametrize(("text", "retries"), [
    ("Five resends max for the invoice mail.", 5),  # a ticket
    ("If the starter won't rise, have three more stabs at it and then down tools.", 3),  # a recipe card
    ("Up to 4 re-scans of the gel if the imager glitches.", 4),  # a lab protocol
])
def test_a_count_said_with_a_noun_of_doing_again_is_that_many_retries(text: str, retries: int) -> None:
    statement, problems = _read(text)
    assert statement.retries == retries and not problems, (statement, problems)


def test_waits_said_as_later_are_the_waits_in_order() -> None:
    statement, problems = _read("Two resends of the pager alert, 30 s and 2 min later.")
    assert statement.retries == 2 and statement.wait is not None and tuple(statement.wait.seconds) == (30.0, 120.0)
    assert not problems


def test_twice_as_long_each_go_doubles_from_its_first_wait() -> None:
    statement, problems = _read("Space the re-polls out - 2 s, then twice as long each go, never more than 30 s, 5 re-polls max.")
    assert statement.wait is not None and statement.wait.start_s == 2.0 and statement.wait.factor == 2.0
    assert statement.retries == 5 and not problems, (statement, problems)


def test_a_settings_line_s_retry_count_and_fixed_backoff() -> None:
    statement, problems = _read("timeout 30s | retry 4 | backoff 5s fixed")  # a YAML comment
    assert statement.retries == 4 and statement.wait is not None and statement.wait.kind == "fixed"
    assert statement.wait.seconds == (5.0,) and statement.timeout_s == 30.0 and not problems


def test_a_quarter_minute_is_fifteen_seconds() -> None:
    assert plain("retry 3 times, a quarter-minute apart") == "retry 3 times, 15 s apart"
    assert plain("a quarter-hour gap") == "15 min gap"
    assert plain("quarter-final results") == "quarter-final results"


def test_values_after_don_t_halt_take_x_as() -> None:
    statement, problems = _read('If the scale fails, don\'t stop; take weight_g as 0 and note "weighed by eye".')
    assert statement.on_failure is not None and statement.on_failure.value == {"weight_g": 0, "note": "weighed by eye"}
    assert not problems


@pytest.mark.parametrize("text", [
    "One shot at the payment capture; no second go.",  # a ticket
    "The siren sounds once.",  # a runbook
    "Do not let anyone send it again.",  # a ticket
])
def test_no_retry_said_as_a_single_shot(text: str) -> None:
    statement, _ = _read(text)
    assert statement.no_retry, statement


def test_runs_once_a_day_is_a_schedule_not_no_retry() -> None:
    statement, _ = _read("The report runs once a day.")
    assert not statement.no_retry


def test_we_can_live_without_it_after_a_failure_is_going_on() -> None:
    statement, _ = _read("If the thumbnail render fails, we can live without it.")
    assert statement.on_failure is not None and statement.on_failure.kind == "continue"
    statement, _ = _read("We can live without the garnish.")
    assert statement.on_failure is None


def test_a_question_naming_a_failure_then_its_recovery_is_no_condition() -> None:
    assert failure_question("Broken label printer? Route the job through `print-pdf` and move on.")
    assert not failure_question("In spec? Release it with `release-batch`.")
    assert not failure_question("Printer broken? We order a new one in March.")
