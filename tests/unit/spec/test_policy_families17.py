"""The policy reader on the seventeenth round's misread families (`spec.grammar_families17`).

Written the way a lesson plan, a ship's log, a podcast run sheet, an HR onboarding checklist, a lab
protocol, a choir rehearsal schedule and a garden centre stock-take would say it; none is a sentence
of a blind set, and no fixture is a lesson plan, a lab protocol, a choir schedule or a stock-take.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.effect import effect_of
from orchestrator.spec.grammar_families17 import comma_reason_spans
from orchestrator.spec.phrase import read_phrase


def _read(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase, effect_of(phrase.statement, retry_said=phrase.retry_said)


@pytest.mark.parametrize(("text", "value"), [
    # a lesson plan
    ("If the room booking system is down, carry on with room `TBA` and tutor `cover`.",
     {"room": "TBA", "tutor": "cover"}),
    # a ship's log (reStructuredText's double ticks)
    ("Should the AIS feed drop, carry on with berth ``ANCHORAGE-2`` and eta ``unknown``.",
     {"berth": "ANCHORAGE-2", "eta": "unknown"}),
    # a lab protocol
    ("If the plate reader errors, go ahead with a blank of 0 and note it in the book.", {"blank": 0}),
    # a garden centre stock-take
    ("When the scanner dies, continue with shrinkage 0.", {"shrinkage": 0}),
    # an HR onboarding checklist
    ('If the payroll lookup crashes, treat it as tax code "BR" and carry on.', {"tax_code": "BR"}),
    # a choir rehearsal schedule
    ("If the attendance sheet won't load, count it as headcount 40 and keep going.", {"headcount": 40}),
])
def test_a_field_and_its_value_said_beside_going_on_are_the_value(text: str, value: dict[str, Any]) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.value == value, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "value"), [
    # a lesson plan
    ("If the quiz marker breaks, just put N/A and keep going.", "N/A"),
    # a lab protocol
    ("If the pH probe fails, log it as 7 and move on.", 7),
    # a podcast run sheet
    ("If the loudness meter crashes, call it a -16 and press on.", -16),
    # a choir rehearsal schedule
    ("If the tuner app freezes, write TBC in and carry on.", "TBC"),
    # a garden centre stock-take
    ("When the till count fails, mark it as zero and carry on.", 0),
])
def test_a_value_with_no_field_beside_going_on_is_the_value(text: str, value: Any) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.value == value, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    # a ship's log: a value in capitals, with its field written as prose
    "If the tide table is down, carry on with port ANCHORAGE and move on.",
    # a lab protocol: the number belongs to more words than a value
    "If the centrifuge trips, carry on with tube 3 spun by hand.",
    # an HR onboarding checklist
    "If the desk booking fails, continue with desk HOT-5 for now.",
])
def test_a_value_going_on_that_no_row_reads_is_said(text: str) -> None:
    phrase, effect = _read(text)
    if effect.fallback is not None and effect.fallback.value is not None:
        return  # read as a value: nothing dropped
    assert any("looks like the value to go on with" in p for p in phrase.problems), phrase


@pytest.mark.parametrize("text", [
    "If the seating app fails, carry on with lane 2 closed.",  # a value with more words after it
    "If the projector fails, carry on with the next 5 slides.",
    "If step 2 fails, carry on.",
])
def test_prose_after_going_on_is_no_value(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is None or effect.fallback.value is None, phrase


@pytest.mark.parametrize("text", [
    # a lab protocol
    "Only send the sample order once; a second order doubles the bill.",
    # a podcast run sheet
    "Publish the episode notice exactly once. A second notice confuses subscribers.",
    # an HR onboarding checklist
    "The welcome email goes out strictly once.",
    # a choir rehearsal schedule
    "Just print the programmes once, the printer charges per run.",
    # a ship's log
    "Fire the flare only once.",
])
def test_once_said_of_the_step_is_no_retry(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries == 0, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "Re-run it just once, 30 minutes later.",  # one retry, with its wait
    "Send the rota once a week.",
    "Run it once more after 5 min.",
])
def test_once_as_a_retry_or_a_schedule_is_no_no_retry(text: str) -> None:
    phrase, _effect = _read(text)
    assert not phrase.statement.no_retry, phrase


@pytest.mark.parametrize(("text", "wait"), [
    ("If the harbour office doesn't pick up, ring them again after 10 seconds.", 10.0),  # a ship's log
    ("If the upload fails, post it again in 2 min.", 120.0),  # a podcast run sheet
    ("If the parent email bounces, send it again after 30 s.", 30.0),  # a lesson plan
    ("If the HR portal rejects the form, submit the form again after 1 minute.", 60.0),  # HR onboarding
])
def test_doing_it_again_after_a_wait_is_one_retry(text: str, wait: float) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None, phrase
    assert (effect.retry.max_retries, effect.retry.delays_s) == (1, (wait,))
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "waits"), [
    ("Retry after 10 seconds, and if needed again after 40.", (10.0, 40.0)),  # a lab protocol
    ("Try again in 1 min and, if necessary, again in 5 min.", (60.0, 300.0)),  # a choir schedule
])
def test_a_second_retry_said_if_needed_is_a_series(text: str, waits: tuple[float, ...]) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.delays_s == waits, phrase
    assert effect.retry.max_retries == 2


@pytest.mark.parametrize("text", [
    "If the label print fails, retry, but don't wait 5 min between tries.",  # a garden centre stock-take
    "Retry the centrifuge log; no need to pause 30 seconds between attempts.",  # a lab protocol
    "Don't wait for 2 minutes before each go.",  # a podcast run sheet
])
def test_a_wait_said_not_to_happen_is_no_wait(text: str) -> None:
    phrase, effect = _read(text)
    assert phrase.statement.wait is not None and phrase.statement.wait.kind == "none", phrase
    assert effect.retry is None or all(d == 0 for d in effect.retry.delays_s)


@pytest.mark.parametrize("text", [
    "If the scale hasn't answered in 20 s, don't wait, carry on with weight 0.",  # a post room
    "When the kiosk is slow past 10s do not wait any longer - just move on.",  # a cinema box office
])
def test_not_waiting_and_going_on_is_no_retry(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is None or effect.retry.max_retries == 0, phrase
    assert phrase.statement.wait is None or phrase.statement.wait.kind != "none", phrase


def test_not_waiting_between_tries_is_still_no_wait() -> None:  # near-miss: no going-on after it
    phrase, _effect = _read("Retry twice and don't wait in between.")
    assert phrase.statement.wait is not None and phrase.statement.wait.kind == "none", phrase


@pytest.mark.parametrize("text", [
    "Email the parents the trip letter.",  # a lesson plan
    "Text the crew the berth number.",  # a ship's log
    "Tell the guest the recording time.",  # a podcast run sheet
    "Send the new starter the handbook.",  # an HR onboarding checklist
])
def test_sending_something_as_the_step_s_job_is_no_escalation(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is None, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "If the letter fails, email the head of year.",
    "Email the office the error if it breaks.",
])
def test_sending_after_a_failure_is_still_an_escalation(text: str) -> None:
    _phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.action.value == "escalate"


@pytest.mark.parametrize("text", [
    "The tide gauge feed is slow on the hour, give it 3 more goes, 20 seconds in between",  # a ship's log
    "The stock database is sluggish on Mondays, retry twice, 10 s apart.",  # a garden centre stock-take
    "The incubator log times out sometimes, have another go 2 times.",  # a lab protocol
    "The RSS host is slow in the mornings, so give it 2 more goes.",  # a podcast run sheet
])
def test_a_failure_said_as_the_reason_before_a_bare_retry_is_no_failure_class(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries in (2, 3), phrase
    assert phrase.statement.applies_to is None


@pytest.mark.parametrize("text", [
    "If it times out, retry twice.",
    "When the scanner is slow to answer and times out, give it 2 more goes.",
])
def test_a_failure_said_as_the_retry_s_condition_keeps_its_class(text: str) -> None:
    phrase, _effect = _read(text)
    assert phrase.statement.applies_to is not None, phrase


def test_the_comma_reason_span_ends_at_the_comma() -> None:
    text = "the feed is slow at noon, give it 3 more goes"
    spans = comma_reason_spans(text)
    assert spans and text[spans[0][0]:spans[0][1]].strip().endswith(",")
    assert comma_reason_spans("if the feed is slow at noon, give it 3 more goes") == []


# --- the run's success check said in words about the outputs (`spec.success_words`) ---

_OUTPUTS = {"register-class": frozenset({"class_code", "pupils"}), "send-letter": frozenset({"sent", "letter_id"}),
            "log-entry": frozenset({"entry_no", "text"}), "file-report": frozenset({"filed", "report_ref"}),
            "run-assay": frozenset({"plate_id", "reading"}), "seal-plate": frozenset({"sealed"})}


def _spec(text: str, path: str = "flow.md", form: str = "markdown"):  # type: ignore[no-untyped-def]
    from orchestrator.spec import parse_spec_text
    from orchestrator.spec.vocabulary import Vocabulary

    vocabulary = Vocabulary.of([(name, None) for name in _OUTPUTS]).with_outputs(
        lambda skill: _OUTPUTS.get(skill, frozenset()))
    return parse_spec_text(text, path, "markdown" if form == "markdown" else form, vocabulary)


def _success_checks(spec):  # type: ignore[no-untyped-def]
    return {(c.producer, v) for c in spec.contracts if c.consumer is None for v in c.validation}


@pytest.mark.parametrize(("text", "want"), [
    # a lesson plan
    ("# Trip letters\n\n## Steps\n1. Set up the class with `register-class`\n2. Send the letter with `send-letter`\n\n"
     "The lesson is done when the class register has a class code and the letter is sent.\n",
     {("step-1", "class_code is not empty"), ("step-2", "sent == true")}),
    # a ship's log
    ("# Watch handover\n\n## Steps\n1. Write the watch entry with `log-entry`\n2. File it with `file-report`\n\n"
     "We're good once the log entry has an entry number.\n", {("step-1", "entry_no is not empty")}),
    # a lab protocol, the check behind a label
    ("# Assay\n\n## Steps\n1. Read the plate with `run-assay`\n2. Seal it with `seal-plate`\n\n"
     "Notes: the assay is finished when the plate is sealed.\n", {("step-2", "sealed == true")}),
    # an HR onboarding checklist: a short form of the field's name
    ("# New starter\n\n## Steps\n1. Write the welcome note with `log-entry`\n2. Send the report with `file-report`\n\n"
     "Onboarding is complete when the report comes back with a report reference.\n", {("step-2", "report_ref is not empty")}),
])
def test_a_success_check_in_words_is_checked_on_the_outputs_it_names(text: str, want: set[tuple[str, str]]) -> None:
    spec = _spec(text)
    assert _success_checks(spec) == want
    said = [w for w in spec.warnings if w.code == "spec.success"]
    assert len(said) == len(want) and all("is read as the run's success check" in w.message for w in said)


def test_a_part_of_the_check_that_names_no_output_is_said() -> None:
    spec = _spec("# Assay\n\n## Steps\n1. Read the plate with `run-assay`\n2. Seal it with `seal-plate`\n\n"
                 "It's ready when the plate is sealed and the bench is tidy.\n")
    assert _success_checks(spec) == {("step-2", "sealed == true")}
    unread = [w for w in spec.warnings if w.code == "spec.success" and "names no step's output" in w.message]
    assert len(unread) == 1 and "the bench is tidy" in unread[0].message


def test_a_check_in_words_that_names_no_output_is_warned_not_dropped() -> None:
    spec = _spec("# Choir\n\n## Steps\n1. Take the register with `register-class`\n2. Send the rota with `send-letter`\n\n"
                 "Rehearsal is done when everyone has a folder.\n")
    assert _success_checks(spec) == set()
    assert any(w.code == "spec.success" and w.line == 7 for w in spec.warnings)


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the lesson video hangs, cut it off after 2 min.", 120.0),  # a lesson plan
    ("Cut the sample scan off at 45 seconds.", 45.0),  # a lab protocol
    ("The titration log can be slow; 90 s is the hard limit.", 90.0),  # a lab protocol
    ("The episode render can drag, but two hours is the absolute ceiling.", 7200.0),  # a podcast run sheet
    ("Weather fax: 10 minutes is the max.", 600.0),  # a ship's log
])
def test_a_cut_off_or_a_ceiling_is_the_attempt_s_time(text: str, seconds: float) -> None:
    phrase, _effect = _read(text)
    assert phrase.statement.timeout_s == seconds, phrase
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "count"), [
    ("Give the podcast upload 2 additional tries, 30 s apart.", 2),  # a podcast run sheet
    ("The stock sync gets four extra attempts.", 4),  # a garden centre stock-take
    ("Allow the rota email 3 further goes if it bounces.", 3),  # a choir rehearsal schedule
    ("If the plate reader errors, it gets one extra attempt.", 1),  # a lab protocol
])
def test_extra_attempts_are_retries(text: str, count: int) -> None:
    _phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries == count


@pytest.mark.parametrize(("text", "value"), [
    ("If the duplicate pupil check fails, let the pupil through as new (is_repeat=false).", {"is_repeat": False}),  # lesson plan
    ("If the allergy lookup fails, serve it as safe (allergen_free = true) and carry on.", {"allergen_free": True}),  # a menu
    ("If the tide API is down, log the height as unknown (height_m=null) and move on.", {"height_m": None}),  # ship's log
    ("If the pH meter dies, record it as neutral (`ph=7`) and continue.", {"ph": 7}),  # a lab protocol
])
def test_a_field_and_value_in_brackets_say_what_the_words_meant(text: str, value: dict[str, Any]) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.value == value, phrase
