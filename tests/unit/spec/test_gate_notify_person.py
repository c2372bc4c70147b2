"""Whom to tell, said in a step's text with no failure calling for it ("Email Priya when it finishes",
"carry on with printed = 0 and ping me"), is no escalation: the step's fallback stays what the author
wrote and the message is warned at its line as one the run does not send (`spec.notify_person`).
Tested in a library digitisation workflow, a club's match-day plan, a warehouse returns page and a
clinic triage protocol; an escalation after a failure stays one."""

from __future__ import annotations

import pytest

from orchestrator.spec.notify_person import told
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

CATALOG = FakeCatalog(skill("do-it", output_schema=obj(printed="integer", status="string")))


def _plan(title: str, line: str) -> object:
    return plan_of_text(f"# {title}\n\n## Steps\n\n### Step 1: Do it\n- Skill: do-it\n- {line}\n", CATALOG)


@pytest.mark.parametrize(("title", "line", "words"), [
    ("Digitisation", "Email Priya when it finishes.", "Email Priya"),
    ("Match day", "Then tell the coach it is up so he knows.", "tell the coach"),
    ("Returns desk", "Once done, message the dock lead with the results.", "message the dock lead"),
    ("Walk-in triage", "Let the charge nurse know when it's done.", "Let the charge nurse"),
])
def test_a_message_when_the_step_is_done_is_no_fallback_and_is_warned(title: str, line: str, words: str) -> None:
    plan = _plan(title, line)
    assert plan.steps[0].policy.fallback.action.value == "fail"  # type: ignore[attr-defined]
    said = [w for w in plan.warnings if "asks for a person to be told" in w.message]  # type: ignore[attr-defined]
    assert said or any(w.line == 7 and "not read" in w.message for w in plan.warnings)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("title", "line"), [
    ("Match day", "If the printer jams, carry on with printed = 0 and ping me on WhatsApp."),
    ("Digitisation", "If the scanner is down, carry on with printed = 0 and email Sam."),
    ("Returns desk", "When the label API errors, carry on with printed = 0 and email the shift lead."),
    ("Walk-in triage", "If it fails, carry on with printed = 0, and page the charge nurse."),
])
def test_a_carry_on_beside_a_message_stays_the_fallback(title: str, line: str) -> None:
    plan = _plan(title, line)
    fallback = plan.steps[0].policy.fallback  # type: ignore[attr-defined]
    assert fallback.action.value != "escalate" and fallback.value == {"printed": 0}
    assert any(w.line == 7 and "asks for a person to be told" in w.message for w in plan.warnings)  # type: ignore[attr-defined]


@pytest.mark.parametrize("line", [
    "On failure, page the charge nurse.",  # a clinic: after a failure, an escalation
    "If it still fails, ping the on-call.",
    "If the scanner jams twice, email Priya.",
])
def test_a_person_to_tell_after_a_failure_is_still_an_escalation(line: str) -> None:
    plan = _plan("Any", line)
    assert plan.steps[0].policy.fallback.action.value == "escalate"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("sentence", "message", "carry", "expected"), [
    ("Email Priya when it finishes.", "Email Priya", False, True),
    ("If it fails, email Priya.", "email Priya", False, False),
    ("Hand it to a human.", "hand it to a human", False, False),  # no telling words
    ("carry on with x = 0 and ping me", "ping me", True, True),
])
def test_told(sentence: str, message: str, carry: bool, expected: bool) -> None:
    assert told(sentence, message, carry) is expected


@pytest.mark.parametrize(("title", "line", "words"), [
    ("Digitisation", "If the scanner jams, retry once after 30 s; then call the conservator.", "call the conservator"),
    ("Match day", "If the kit van is late, retry twice, 5 min apart, then text Sam.", "text Sam"),
    ("Returns desk", "When the label API errors, retry 3 times and let the shift lead know.", "let the shift lead know"),
    ("Walk-in triage", "If the pager API is down, retry once after 10 s, then ring the duty doctor.",
     "ring the duty doctor"),
])
def test_a_person_to_tell_no_reader_took_is_warned_beside_the_policy(title: str, line: str, words: str) -> None:
    plan = _plan(title, line)
    assert plan.steps[0].policy.retry.max_retries >= 1  # type: ignore[attr-defined]
    assert any(w.line == 7 and f"'{words}' asks for a person to be told" in w.message
               for w in plan.warnings)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("approval", "words"), [
    ("required; 10 min, then reject, ring the duty doctor", "ring the duty doctor"),  # a clinic
    ("the coach signs off within 20 min, else reject; text the captain", "text the captain"),  # match day
    ("yes, wait up to 1 hour, then reject and call the conservator", "call the conservator"),  # a library
    ("the shift lead approves within 30 min or it's a no; let the dock crew know", "let the dock crew know"),
])
def test_a_person_to_tell_beside_an_approval_in_any_role_is_warned(approval: str, words: str) -> None:
    plan = _plan("Any", f"Approval: {approval}")
    assert plan.steps[0].policy.approval is not None  # type: ignore[attr-defined]
    assert any(f"'{words}' asks for a person to be told" in w.message for w in plan.warnings)  # type: ignore[attr-defined]
