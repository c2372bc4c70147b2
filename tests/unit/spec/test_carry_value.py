"""The policy reader on the nineteenth round's phrasing FAMILIES: the value a step goes on with said in
words (`spec.carry_value`), "the default" with no value, a time something "gets" (its attempt's, or
the whole run's), a last go, and a backoff named by habit (`spec.grammar_families18_policy`).

Each family in four wordings of our own, as a lesson plan, a ship's log, a recipe card, a lab
protocol, a podcast run sheet or an HR onboarding checklist would say it; none is a blind set's sentence.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _read(text: str, *, problems: bool = False) -> dict[str, Any]:
    """What the sentence sets, in a few plain keys; nothing left unread unless `problems`."""
    phrase = read_phrase(text)
    if not problems:
        assert phrase.problems == (), phrase.problems
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if effect.run_timeout_s is not None:
        got["run_s"] = effect.run_timeout_s
    if effect.fallback is not None:
        got["fallback"] = effect.fallback.skill or effect.fallback.value
        if effect.fallback.action is FallbackAction.CONTINUE:
            got["fallback"] = "continue"
    if problems:
        got["problems"] = len(phrase.problems)
    return got


# -- a field and its value to go on with, said in words ---------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # `field: value` after a verb of writing it down
    ("If the thermometer probe drops out, plug in water_temp: 12 and carry on.", {"water_temp": 12}),  # a lab protocol
    ("Should the GPS die, enter `fix_quality`: 0 then keep going.", {"fix_quality": 0}),  # a ship's log
    ("If the scale glitches, write in grams_used: null and move on.", {"grams_used": None}),  # a recipe card
    ("When the badge printer jams, set badge_ready: false and proceed.", {"badge_ready": False}),  # an HR checklist
    # a field left empty
    ("If the roster sync is down, carry on with seat_plan left empty (null).", {"seat_plan": None}),  # a lesson plan
    ("If the tide service times out, keep going with `tide_m` left unset.", {"tide_m": None}),  # a ship's log
    ("If the guest bio lookup fails, leave the guest_bio empty and move on.", {"guest_bio": None}),  # a run sheet
    ("If the allergen check errors, proceed with allergen_note left blank.", {"allergen_note": ""}),  # a recipe card
    # a field called or taken as a value
    ("If the grading model falls over, call the essay_score 0 and go on.", {"essay_score": 0}),  # a lesson plan
    ("If the barometer read fails, take the pressure as 1013 and keep going.", {"pressure": 1013}),  # a ship's log
    ("Should the pH meter crash, count the ph_reading as 7.0 and continue.", {"ph_reading": 7.0}),  # a lab protocol
    ("If the laptop check stalls, peg laptop_issued at false and press on.", {"laptop_issued": False}),  # HR
    # a value used for a field
    ("If the stock count can't be fetched, use zero for on_hand and keep going.", {"on_hand": 0}),  # a food bank
    ("If the kiln probe drops out, put 0 in peak_temp and carry on.", {"peak_temp": 0}),  # a pottery firing log
    ("When the roll-call sync fails, use \"absent\" as the `status` and move on.", {"status": "absent"}),  # a school trip
    ("Should the hive scale die, use null for weight_kg and continue.", {"weight_kg": None}),  # a beekeeping notebook
    # the pair said right after going on
    ("If the card reader is down, carry on anyway, paid: false.", {"paid": False}),  # a market stall's sheet
    ("Should the projector die, keep going - slides_shown: 0.", {"slides_shown": 0}),  # a lesson plan
    ("If the tag printer jams: proceed regardless - tagged: false.", {"tagged": False}),  # a ringing station's log
])
def test_a_field_and_its_value_said_in_words_are_the_value_to_go_on_with(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == {"fallback": want}


@pytest.mark.parametrize("text", [
    "Call the vet_team 3 times a day.",  # no failure nor going on: what the step does
    "Set the oven_temp: 180 before the bake.",
    "Plug in water_temp: 12.",
    "Count the ph_reading as 7 in the notebook.",
])
def test_a_value_said_without_going_on_is_no_value_to_go_on_with(text: str) -> None:
    assert "fallback" not in _read(text, problems=True)


@pytest.mark.parametrize("text", [
    "If the scanner fails, keep going, the batch_id: 7 is on the label.",  # a pair that names, after "the"
    "If the gate sticks, proceed to bay 4: 12 boats are waiting.",  # a place to go on to, no value
])
def test_a_pair_after_going_on_that_is_no_field_of_the_output_is_no_value(text: str) -> None:
    assert not isinstance(_read(text, problems=True).get("fallback"), dict)


def test_a_time_after_take_as_is_no_value_to_go_on_with() -> None:
    got = _read("If the kiln stalls, take the bake_time as 30 s and continue.", problems=True)
    assert not isinstance(got.get("fallback"), dict), got


# -- "the default" with nothing that says which ------------------------------------------------------

@pytest.mark.parametrize("text", [
    "If the seating chart lookup fails, use the default.",  # a lesson plan
    "Should the chart plotter crash, fall back to the defaults.",  # a ship's log
    "If the oven profile can't be loaded, go with the default one.",  # a recipe card
    "When the payroll form errors, just use the default value instead.",  # an HR checklist
])
def test_the_default_with_no_value_or_skill_is_warned_not_read(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems and "the default" in phrase.problems[0], phrase.problems
    assert phrase.statement.on_failure is None


def test_a_default_with_its_value_said_is_still_read() -> None:
    assert _read("If the lookup fails, default the score to 0.5.") == {"fallback": {"score": 0.5}}


# -- a time something "gets": its attempt's; of a whole run, the run's ---------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Each slide gets 250 ms to render; anything slower is skipped.", {"timeout_s": 0.25}),  # a lesson plan
    ("The position fix is given 40 s to lock on, after that it counts as lost.", {"timeout_s": 40.0}),  # a ship's log
    ("The proofing check gets 2 min; past that, hand the dough to `manual-proof`.",  # a recipe card
     {"timeout_s": 120.0, "fallback": "manual-proof"}),
    ("The episode upload gets 10 minutes; beyond that, send the file to `slow-uploader`.",  # a podcast run sheet
     {"timeout_s": 600.0, "fallback": "slow-uploader"}),
])
def test_a_time_a_thing_gets_to_do_its_work_is_the_attempt_s_time(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


@pytest.mark.parametrize(("text", "seconds"), [
    ("The complete onboarding run has 45 minutes, not a minute longer.", 2700.0),  # an HR checklist
    ("The whole plate-reading workflow gets 2 h, tops.", 7200.0),  # a lab protocol
    ("The entire watch handover is given 15 min.", 900.0),  # a ship's log
    ("The full Sunday bake batch has 3 hours.", 10800.0),  # a recipe card
])
def test_a_time_the_whole_run_gets_is_the_run_s_limit(text: str, seconds: float) -> None:
    assert _read(text) == {"run_s": seconds}


def test_a_time_to_wait_is_no_time_a_thing_gets() -> None:
    assert "timeout_s" not in _read("The glaze gets 10 minutes to cool, then retry twice.", problems=True)


# -- a last go is one retry ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("If the register export fails, wait 5 minutes and try one final time.", {"retries": 1, "waits": (300.0,)}),
    ("Should the AIS feed drop, give it a last go after 30 s.", {"retries": 1, "waits": (30.0,)}),
    ("If the timer app crashes, run it one last time.", {"retries": 1}),
    ("When the mic check fails, wait 2 min and have one final go.", {"retries": 1, "waits": (120.0,)}),
])
def test_a_last_go_is_one_retry(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a backoff named by habit ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Retry with our standard backoff.",  # a lab protocol
    "If the chart download fails, back off using the normal back-off.",  # a ship's log
    "Use the house retry policy if the POS is down.",  # a recipe card
    "Re-run with the regular retries when the HR portal hiccups.",  # an HR checklist
])
def test_a_backoff_named_by_habit_is_warned_and_assumes_no_count(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems, phrase
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    assert effect.retry is None or effect.retry.max_retries == 0, effect


# -- through whole documents: four kinds ----------------------------------------------------------------

_DOCS = [
    # a lesson plan: step headings
    ("lesson.md", "# Year 9 lesson\n\n## Step 1: Mark the quiz\n\nUse `mark-quiz`.\n{}\n"),
    # a ship's log: a numbered list in a text file
    ("watch-log.txt", "Watch handover\n\n1. Log the position with `log-position`. {}\n2. Plot it with `plot-course`.\n"),
    # a recipe card: Method with bullets of fields
    ("card.md", "# Focaccia card\n\n## Method\n\n### 1. Weigh the flour\n\n- Skill: `weigh-flour`\n- On error: {}\n"),
    # an HR onboarding checklist: a checkbox list
    ("onboarding.md", "# New starter checklist\n\n- [ ] Issue the badge with `issue-badge`. {}\n"
     "- [ ] Book the laptop with `book-laptop`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_a_value_to_go_on_with_said_in_words_reaches_the_step_in_each_document_kind(name: str, doc: str) -> None:
    spec = parse_spec_text(doc.format("If it fails, call the tally_count 0 and go on."), name, "markdown")
    fallbacks = [effect_of(r.statement).fallback for r in spec.readings if r.steps == ("step-1",)]
    assert any(f is not None and f.value == {"tally_count": 0} for f in fallbacks), spec.readings


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_the_default_with_no_value_is_warned_at_its_line_in_each_document_kind(name: str, doc: str) -> None:
    spec = parse_spec_text(doc.format("If it fails, use the default."), name, "markdown")
    assert any("the default" in w.message for w in spec.warnings), [w.message for w in spec.warnings]
    fallbacks = [effect_of(r.statement).fallback for r in spec.readings if r.steps == ("step-1",)]
    assert all(f is None or f.action is not FallbackAction.DEFAULT for f in fallbacks)
