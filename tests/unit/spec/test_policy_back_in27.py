"""A step's time limit said as the time it has to be back in (`spec.policy_back_in27`)."""

from __future__ import annotations

from orchestrator.spec.phrase import read_phrase


def test_a_call_sheet_s_crew_check_is_failed_after_45_seconds() -> None:
    assert read_phrase("If crew-check isn't back in 45 seconds treat it as failed.").statement.timeout_s == 45


def test_a_courier_rota_gives_the_courier_ten_minutes() -> None:
    said = read_phrase("If the courier hasn't come back within 10 min, call it failed.")
    assert said.statement.timeout_s == 600 and not said.problems


def test_a_print_runbook_says_its_skill_in_backticks() -> None:
    said = read_phrase("When `label-print` is not done in 2 minutes, give up on it.")
    assert said.statement.timeout_s == 120


def test_a_time_something_is_due_back_is_no_limit() -> None:
    assert read_phrase("The van is back in 45 minutes.").statement.timeout_s is None
    assert read_phrase("If the van is back in 45 minutes, load it.").statement.timeout_s is None
