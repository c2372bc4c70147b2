"""The policy reader on the fifteenth round's recovery families (`spec.grammar_families15`).

Written the way a lab protocol, a ship's log, a recipe card, a podcast run sheet, an HR onboarding
checklist and a school trip plan would say it; none is a sentence of a blind set, and no fixture is
any of these kinds.
"""

from __future__ import annotations

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.wait_list import waits_in_order


def _read(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase, effect_of(phrase.statement, retry_said=phrase.retry_said)


@pytest.mark.parametrize(("text", "waits"), [
    # a lab protocol
    ("If the plate reader hangs, wait 10 s before the first retry, 40 s before the second and 2 min before the last.",
     (10.0, 40.0, 120.0)),
    # a ship's log
    ("No reply on channel 16: call again after 2 min and once more after 10 min.", (120.0, 600.0)),
    # a recipe card
    ("If the probe reads nothing, re-check #1 after 3 min, re-check #2 after 5.", (180.0, 300.0)),
    # a podcast run sheet
    ("Upload fails? Retry after 1 min, again after 4, a last time after 15.", (60.0, 240.0, 900.0)),
    # an HR onboarding checklist
    ("If the badge printer jams, two more tries: the first after 30 s, the next after 2 min.", (30.0, 120.0)),
    # a school trip plan
    ("If the coach company doesn't pick up, stagger the retries: 5 min, then 15, then 30.", (300.0, 900.0, 1800.0)),
    ("If the coach booking fails, retry after 5, 10 and then 20 minutes.", (300.0, 600.0, 1200.0)),
    # a lab protocol, a ship's log: the waits named after the retries
    ("If the LIMS upload fails, retries: 1 min, then 5, then 15.", (60.0, 300.0, 900.0)),
    ("For the harbour-master call the retries make it 2, 5 and then 10 minutes.", (120.0, 300.0, 600.0)),
])
def test_a_wait_said_before_each_retry_is_the_list_of_waits_in_order(text: str, waits: tuple[float, ...]) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None, phrase
    assert effect.retry.delays_s == waits
    assert effect.retry.max_retries == len(waits)
    assert phrase.problems == ()


def test_a_count_said_beside_the_list_is_kept_and_the_last_wait_repeats() -> None:
    _phrase, effect = _read("If the ferry API is down, retry 4 times: the first after 1 min, the next after 5.")
    assert effect.retry is not None and (effect.retry.max_retries, effect.retry.delays_s) == (4, (60.0, 300.0))


@pytest.mark.parametrize("text", [
    "Retry after 30 s; if it still fails after 5 min, stop.",  # a limit after the wait, no list
    "Batch sizes go 5, 10 and then 20 rows.",  # numbers with no time
    "Room 1 after 9 am, room 2 after noon.",  # no retry said
])
def test_no_list_of_waits_is_read_where_the_words_give_none(text: str) -> None:
    wait = read_phrase(text).statement.wait
    assert wait is None or wait.kind != "sequence"


def test_the_waits_in_order_take_the_unit_before_them_and_skip_a_retry_s_number() -> None:
    assert waits_in_order("5 min, re-run #2 after 20") == (300.0, 1200.0)
    assert waits_in_order("5, 10 and 20 minutes") == (300.0, 600.0, 1200.0)
    assert waits_in_order("the 1st after 2") == ()


@pytest.mark.parametrize(("text", "skill"), [
    # a lab protocol
    ("If the LIMS is unreachable, log the sample through `paper-log` instead.", "paper-log"),
    # a ship's log
    ("Should the satellite link drop, send the noon report instead with `hf-radio-mail`.", "hf-radio-mail"),
    # a recipe card
    ("If the stand mixer fails, knead it by hand instead, using `hand-knead-timer`.", "hand-knead-timer"),
    # an HR onboarding checklist
    ("When the e-signature service is down, collect the contract via `print-and-scan` instead.", "print-and-scan"),
])
def test_a_fallback_skill_named_with_what_is_done_instead_is_read(text: str, skill: str) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and (effect.fallback.action, effect.fallback.skill) == (FallbackAction.SKILL, skill)
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "value"), [
    # a lab protocol
    ("If the pH meter errors, assume ph=7 and move on to the titration.", {"ph": 7}),
    # a ship's log
    ("If the wind sensor is dead, mark it wind_kn=null and keep the log going.", {"wind_kn": None}),
    # a recipe card
    ("Should the scale app crash, set weighed=false and carry on.", {"weighed": False}),
    # a podcast run sheet
    ("If the loudness check fails, just record lufs_ok=false, the episode still goes out.", {"lufs_ok": False}),
    # an HR onboarding checklist
    ("If the laptop order errors, go ahead using ticket 0.", {"ticket": 0}),
    # a school trip plan
    ('If the weather lookup fails, assume forecast="unknown", risk=1 and carry on.', {"forecast": "unknown", "risk": 1}),
])
def test_a_value_written_with_assume_mark_or_using_is_the_value_to_go_on_with(text: str, value: object) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.action is FallbackAction.DEFAULT, phrase
    assert effect.fallback.value == value
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "Set the oven to 180 and bake.",  # no failure said: an instruction, no fallback
    "Assume the guests arrive at 7.",
])
def test_an_assumption_with_no_failure_said_is_no_fallback(text: str) -> None:
    assert read_phrase(text).statement.on_failure is None


@pytest.mark.parametrize(("text", "seconds"), [
    # a lesson plan
    ("The complete lesson must wrap up inside 45 min.", 2700.0),
    # a ship's log
    ("The watch-change job has to be over within 2 h; past that, abandon it.", 7200.0),
    # a podcast run sheet
    ("The publish run should be done within 90 minutes, start to finish.", 5400.0),
    # an HR onboarding checklist
    ("The onboarding batch should finish in 20 min, all told.", 1200.0),
])
def test_the_run_said_done_by_a_time_outside_every_step_is_the_whole_run_s_limit(text: str, seconds: float) -> None:
    from orchestrator.spec.whole_limit import whole_limit

    assert whole_limit(text, outside=True) == seconds
    assert whole_limit(text) is None  # inside a step's text it is that step's own


@pytest.mark.parametrize("text", [
    "Each step must finish inside 5 min.",
    "The run must finish inside 2 min per attempt, retries included.",
])
def test_a_time_for_each_step_or_attempt_is_no_whole_run_limit(text: str) -> None:
    from orchestrator.spec.whole_limit import whole_limit

    assert whole_limit(text, outside=True) is None


@pytest.mark.parametrize(("text", "clause", "check"), [
    # a lesson plan
    ("It's finished once the marking step gives back all_marked = true.", "the marking step gives back all_marked = true",
     "all_marked == true"),
    # a lab protocol, as a chat message with its sender
    ("03/04/2026, 08:12 - Priya: and it's done when the plate step returns passed = true",
     "the plate step returns passed = true", "passed == true"),
    # an HR onboarding checklist
    ("Finished when the checklist lists 12 items.", "the checklist lists 12 items", None),
    # a podcast run sheet, a script check
    ("Done when `jq -e .ok` exits 0 on the publish output.", "ok == true", "ok == true"),
    ("The run counts as done when `jq -e '.episodes >= 1'` passes on the feed.", "episodes >= 1", "episodes >= 1"),
    # a ship's log, a done label whose check is in words
    ("**Done =** the log shows a noon position and status LOGGED.", "the log shows a noon position and status LOGGED",
     None),
])
def test_a_done_when_said_in_any_words_gives_its_check_to_read_or_warn(text: str, clause: str, check: str | None) -> None:
    from orchestrator.spec.whole_success import comparison, success_cue

    assert success_cue(text) == clause
    if check is not None:
        assert comparison(clause) == check


@pytest.mark.parametrize("text", [
    "Done: sent the invoices.",  # a report of what was done
    "We're done with the draft, so retry after 5 min.",
    "It's done when the approver signs off.",  # an approval, not the run's output
    "Finished when it times out.",
])
def test_no_done_check_is_read_where_the_sentence_says_none(text: str) -> None:
    from orchestrator.spec.whole_success import success_cue

    assert success_cue(text) is None


@pytest.mark.parametrize(("text", "timeout", "budget"), [
    # a podcast run sheet
    ("Keep re-uploading every 2 minutes, but never for longer than 1 hour overall.", None, 3600.0),
    # a ship's log
    ("Poll the AIS feed every 30 s, and not for more than 10 minutes in total.", None, 600.0),
    # a lab protocol
    ("Anything past 90 seconds on the centrifuge spin counts as failed.", 90.0, None),
    # an HR onboarding checklist
    ("Whatever runs beyond 2 min is treated as a failure.", 120.0, None),
    # a recipe card
    ("The proving step gets 2 hours and not a minute more.", 7200.0, None),
    # a school trip plan
    ("No second goes at the booking; cap it at 20 seconds.", 20.0, None),
])
def test_a_time_said_as_a_cap_or_an_overall_budget_is_the_limit_it_names(text: str, timeout: float | None,
                                                                         budget: float | None) -> None:
    phrase, effect = _read(text)
    assert effect.attempt_timeout_s == timeout, phrase
    assert (effect.retry.budget_s if effect.retry else None) == budget
    assert phrase.problems == ()


def test_a_bare_done_when_inside_a_step_describes_the_step_and_is_no_run_check() -> None:
    from orchestrator.spec.done_when import done_clause

    assert done_clause("Finished when the register lists every pupil.", outside=False) is None
    assert done_clause("Finished when the register lists every pupil.") == "the register lists every pupil"
    assert done_clause("And it's done when the register lists every pupil.", outside=False) == "the register lists every pupil"


@pytest.mark.parametrize("text", [
    # a recipe card
    "If the scale fails, assume we have 0 eggs and carry on.",
    # a school trip plan
    "If the register is down, assume there are 12 pupils and keep going.",
    # a ship's log
    "If the log sensor dies, assume we've got 5 knots and carry on.",
    # a lab protocol
    "Should the counter fail, assume it is 40 colonies and continue.",
])
def test_a_value_assumed_with_no_field_name_is_said_not_dropped(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.action is FallbackAction.CONTINUE
    assert any("looks like the value to go on with" in p for p in phrase.problems), phrase.problems


@pytest.mark.parametrize(("said", "value"), [
    ("if the lookup fails, assume allergens = [] for now", {"allergens": []}),
    ("if the scale is offline, assume weights = {} and keep going", {"weights": {}}),
    ("if the tide table is unreachable, assume closures = [ ] anyway", {"closures": []}),
])
def test_an_assumed_empty_list_or_object_is_the_value_to_go_on_with_never_an_empty_output(said: str,
                                                                                         value: dict[str, object]) -> None:
    failure = read_phrase(said, ()).statement.on_failure
    assert failure is not None and failure.kind == "continue_with_value" and failure.value == value
