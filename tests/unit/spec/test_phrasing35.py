"""The thirty-fifth round's recovery phrasings (`spec.phrasing35`), in a runbook's, a recipe card's, a lab
protocol's, a YAML file's and a ticket's words (none of them a blind set's), and texts that look alike but are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrasing35 import plain, recovery_opening


def _read(text: str) -> tuple[Any, tuple[str, ...]]:
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "waits"), [
    # a runbook
    ("If the DNS flush errors, hold off 5 s, then 20 s, then 60 s before each new try.", (5.0, 20.0, 60.0)),
    # a lab protocol
    ("Centrifuge controller not answering: sit tight 30 s, 1 min, 2 min between attempts.", (30.0, 60.0, 120.0)),
    # a ticket
    ("Two more tries at the invoice push, one after 10 s and one after 2 min.", (10.0, 120.0)),
    # a YAML file's comment
    ("# the nightly sync gets retried on a 3-6-12 second ladder", (3.0, 6.0, 12.0)),
    # a recipe card
    ("If the oven probe drops out, try again in 1 min, and once more 4 min after that.", (60.0, 240.0)),
])
def test_a_list_of_waits_said_in_other_words_is_the_waits_in_order(text: str, waits: tuple[float, ...]) -> None:
    statement, problems = _read(text)
    assert statement.wait is not None and tuple(statement.wait.seconds) == waits, (statement, problems)
    assert not problems


def test_hyphen_joined_waits_are_written_as_a_series_only_before_a_schedule_word() -> None:
    assert plain("a 1-2-4 min schedule") == "a 1 min, 2 min, 4 min schedule"
    assert plain("batch 2024-11-30 s ladder") == "batch 2024 s, 11 s, 30 s ladder"  # the word after decides, not the number
    assert plain("rooms 1-2-4 on floor 3") == "rooms 1-2-4 on floor 3"
    assert plain("ISO date 2026-11-29 seconds later") == "ISO date 2026-11-29 seconds later"


@pytest.mark.parametrize(("text", "retries"), [
    ("Re-send the pager alert up to four times, 30 seconds apart.", 4),  # a runbook
    ("Resubmit the sample sheet up to 3 times if the LIMS rejects it.", 3),  # a lab protocol
])
def test_a_count_with_a_verb_of_asking_again_is_that_many_retries(text: str, retries: int) -> None:
    statement, problems = _read(text)
    assert statement.retries == retries and not problems, (statement, problems)


@pytest.mark.parametrize(("text", "seconds"), [
    ("Label printing gets 20 seconds, not a second longer.", 20.0),  # a ticket
    ("The dough proof check gets 2 min, max.", 120.0),  # a recipe card
    ("If the plate read is still running at the 12-minute mark, kill it.", 720.0),  # a lab protocol
    ("No answer from the PBX after 25 seconds counts as a failure.", 25.0),  # a runbook
])
def test_an_attempt_s_time_said_as_a_limit_is_its_timeout(text: str, seconds: float) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s == seconds and not statement.whole_run and not problems, (statement, problems)


@pytest.mark.parametrize(("text", "seconds"), [
    ("The entire nightly restock has 2 hours, start to finish.", 7200.0),
    ("The whole picking wave must wrap up inside 45 minutes or we call the supervisor.", 2700.0),
])
def test_a_whole_run_s_time_said_as_what_it_has_is_the_run_s_limit(text: str, seconds: float) -> None:
    statement, _ = _read(text)
    assert statement.timeout_s == seconds and statement.whole_run, statement


def test_a_whole_run_said_with_not_a_minute_more_stays_the_whole_run_s() -> None:
    statement, problems = _read("The whole migration gets 2 hours wall-clock, not a minute more.")
    assert statement.timeout_s == 7200.0 and statement.whole_run and not problems


def test_stop_bothering_after_a_time_is_the_budget_of_the_polling() -> None:
    statement, problems = _read("Check the courier portal every 10 minutes and stop chasing after 2 hours.")
    assert statement.for_up_to_s == 7200.0 and not problems, (statement, problems)


def test_let_a_skill_do_the_job_in_its_place_is_its_fallback() -> None:
    statement, problems = _read("If the label API won't play, let `label-local` do the job in its place.")
    assert statement.on_failure is not None and statement.on_failure.skill == "label-local", (statement, problems)
    statement, _ = _read("When the card terminal sulks, have `cash-only` take over.")
    assert statement.on_failure is not None and statement.on_failure.skill == "cash-only"


@pytest.mark.parametrize(("text", "value"), [
    ('If the allergen feed is down, press on treating it as risk "unknown" and flagged true.',
     {"risk": "unknown", "flagged": True}),
    ('If the seat map crashes, carry on with seats = [] and the note "assign at the door".',
     {"seats": [], "note": "assign at the door"}),
    ("If the tide service is down, assume height_m 2.5 / state falling (the safe guess).",
     {"height_m": 2.5, "state": "falling"}),
    ('If one sample will not read, put it down as result "no read" and keep going.', {"result": "no read"}),
    ("If the grant site is down, carry on as if nothing is owed (owed_items empty, total 0) and check later.",
     {"owed_items": [], "total": 0}),
])
def test_values_to_go_on_with_said_in_other_words_are_every_field_said(text: str, value: dict[str, Any]) -> None:
    statement, problems = _read(text)
    assert statement.on_failure is not None and statement.on_failure.value == value, (statement, problems)


@pytest.mark.parametrize("text", ["IF IT FAILS: SEND ONCE ONLY. Do not let it retry.", "Post the invoice once only.",
                                  "Never let the charge re-run."])
def test_once_only_and_do_not_let_it_retry_are_no_retry(text: str) -> None:
    statement, problems = _read(text)
    assert statement.no_retry and not statement.retries and not problems, (statement, problems)


def test_a_retry_s_own_verb_once_only_stays_one_retry() -> None:
    statement, _ = _read("Retry once only.")
    assert statement.retries == 1 and not statement.no_retry


def test_before_we_call_it_after_retries_is_the_failure_and_alone_is_nothing() -> None:
    statement, _ = _read("If the scanner hangs, try it again twice more before we call it.")
    effect = effect_of(statement)
    assert statement.retries == 2 and effect.fallback is not None and effect.fallback.action.value == "fail"
    statement, problems = _read("Check the URL before calling it.")
    assert statement.on_failure is None and not problems


def test_don_t_spend_all_day_is_said_never_read() -> None:
    statement, problems = _read("Don't spend all day on the label reprint.")
    assert statement.timeout_s is None and problems


def test_having_a_moment_is_no_policy_and_no_warning() -> None:
    statement, problems = _read("The sync is quick unless the vendor portal is having one of its moments.")
    assert statement.model_dump(exclude_defaults=True) == {} and not problems


@pytest.mark.parametrize("text", [
    "The entire step has a header row, start to finish.",  # no time: not a limit
    "The fridge gets 4 degrees, not a tick colder.",  # no time
    "One after the other, the plates go in the reader.",  # no waits
    "Re-label the tubes up to the red line.",  # no count of times
    "Let `report-pdf` do the formatting.",  # no "in its place": what the step runs
])
def test_texts_that_look_alike_state_none_of_these_policies(text: str) -> None:
    statement, _ = _read(text)
    assert statement.timeout_s is None and statement.wait is None and statement.retries is None
    assert statement.on_failure is None or statement.on_failure.skill != "report-pdf"


def test_an_if_clause_read_whole_as_recovery_is_no_condition_and_one_about_data_is() -> None:
    assert recovery_opening("If the fryer controller jams, wait 1 minute and have one more go. Then plate up.")
    assert recovery_opening("If the export is still going at the 5-minute mark, pull the plug on it.")
    assert not recovery_opening("If the cabin is cold, light the stove.")
    assert not recovery_opening("If the total is over 500, ask the lead.")
