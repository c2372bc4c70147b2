"""`spec.notation33`: a second retry said in passing, "a couple of goes", a setting's line as a time,
"call it a day", "full stop", in documents of other kinds than the holdouts' (a runbook, a recipe, a chat,
an SQL script, a manifest, a config file, a ticket), with texts that look alike but must not be read so."""

from __future__ import annotations

from orchestrator.spec.notation33 import plain
from orchestrator.spec.phrase import read_phrase


def _s(text: str):  # type: ignore[no-untyped-def]
    return read_phrase(text).statement


# -- a second retry said after the first ---------------------------------------------------------------


def test_and_again_once_more_is_a_second_retry_in_a_recipe_a_runbook_and_a_chat() -> None:
    recipe = read_phrase("If the dough won't rise, leave it 10 minutes and try again, and again once more.")
    assert (recipe.statement.retries, recipe.statement.wait.seconds, recipe.problems) == (2, (600.0,), ())  # type: ignore[union-attr]
    runbook = _s("If the depot line is busy, wait 30 s and try again, then once more after that.")
    assert (runbook.retries, runbook.wait.seconds) == (2, (30.0,))  # type: ignore[union-attr]
    chat = read_phrase("if the bot doesn't answer, send it again, and again after that")
    assert (chat.statement.retries, chat.problems) == (2, ())


def test_once_more_without_a_retry_said_before_it_stays_one_retry() -> None:
    assert _s("Try again once more.").retries == 1
    assert _s("Once more after that, we close the ticket.").retries != 2


# -- "a couple of goes" ---------------------------------------------------------------------------------


def test_a_couple_of_goes_or_tries_is_reported_not_read_in_a_ticket_a_protocol_and_a_chat() -> None:
    for text in ("Printer jam? Give it a couple of tries.",
                 "Have the plate reader take another couple of shots at the well.",
                 "lol just give the upload a couple of goes"):
        phrase = read_phrase(text)
        assert phrase.statement.retries is None and phrase.statement.max_attempts is None, text
        assert any("couple of" in p for p in phrase.problems), text


def test_a_couple_of_times_or_retries_stays_two_retries_and_a_couple_of_minutes_stays_vague() -> None:
    assert _s("Retry it a couple of times.").retries == 2
    assert not read_phrase("Wait a couple of minutes.").read


# -- a setting's line as a time -------------------------------------------------------------------------


def test_a_database_session_timeout_is_the_attempt_s_time_with_or_without_a_unit() -> None:
    assert _s("SET lock_timeout TO '30s';").timeout_s == 30
    assert _s("set session max_execution_time = 5 s").timeout_s == 5
    assert _s("SET statement_timeout = 5000;").timeout_s == 5  # milliseconds, as the database reads it
    assert plain("set lock_timeout to 750") == "set lock_timeout to 750 ms"


def test_a_key_with_its_unit_in_its_name_is_a_time_in_a_manifest_a_config_and_an_ini() -> None:
    assert _s("timeoutSeconds: 30").timeout_s == 30
    assert _s("request_timeout_ms = 2500").timeout_s == 2.5
    assert _s("deadline_minutes: 5").timeout_s == 300
    whole = _s("activeDeadlineSeconds: 600  # for the entire job")
    assert (whole.timeout_s, whole.whole_run) == (600, True)
    assert not _s("activeDeadlineSeconds: 600").whole_run


def test_other_settings_and_keys_are_no_time() -> None:
    assert not read_phrase("retentionSeconds: 30").read
    assert _s("SET work_mem = '64MB';").timeout_s is None
    assert plain("timeout_count: 3") == "timeout_count: 3"
    assert plain("timeouts: 3") == "timeouts: 3"  # a count of timeouts, not 3 s
    assert plain("TIMEOUT_MS=400") == "TIMEOUT_MS=400 ms"
    assert plain("checked at 10:30 = fine") == "checked at 10:30 = fine"


# -- "call it a day", "full stop" -----------------------------------------------------------------------


def test_calling_it_a_day_after_the_tries_is_the_failure() -> None:
    assert _s("Give the till two more goes before we call it a day.").on_failure.kind == "fail"  # type: ignore[union-attr]
    assert _s("Retry twice, then call it quits.").on_failure.kind == "fail"  # type: ignore[union-attr]


def test_calling_it_a_day_alone_is_no_policy() -> None:
    assert not read_phrase("We call it a day when the queue is empty.").read
    assert not read_phrase("Call it a day at 5 pm.").read


def test_full_stop_and_period_after_a_policy_are_emphasis_not_a_failure() -> None:
    assert _s("No retries, period.").on_failure is None
    assert _s("No retries, period.").no_retry
    assert _s("Max two attempts - end of story.").on_failure is None
    assert _s("Stop the run.").on_failure.kind == "fail"  # type: ignore[union-attr]
    assert not read_phrase("The period between checks is 5 min.").read
