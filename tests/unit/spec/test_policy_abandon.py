"""The policy reader on a time after which a step is abandoned (`spec.policy_abandon`): the attempt's
timeout, then the step fails; never a wait before a retry.

In wordings of our own, as a lab protocol, a kitchen prep sheet, a support runbook, a ship's log and a
chat export would say them; none is a blind set's sentence.
"""

from __future__ import annotations

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("text", "seconds"), [
    ("The reader sometimes freezes: if no reading within 3 MIN, abandon and pipette by hand.", 180),  # a lab protocol
    ("If there's no answer in 90 s, give up.", 90),  # a support runbook
    ("Probe thermometer is flaky - no result after 45 seconds -> bail and use the dial one.", 45),  # a kitchen sheet
    ("When we get no reply within 2 hours, drop it.", 7200),  # a ship's log (the harbour radio)
    ("abandon it after 10 minutes without a response", 600),  # a chat export
    ("Give up on the scan after 40 s with no result.", 40),  # a lab protocol
])
def test_no_result_in_a_time_then_abandoned_is_the_attempt_s_timeout(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    effect = effect_of(phrase.statement)
    assert effect.attempt_timeout_s == seconds, phrase
    assert effect.retry is None or effect.retry.max_retries == 0, effect.retry  # no retry made of the time
    assert effect.fallback is None or effect.fallback.action is FallbackAction.FAIL, effect.fallback


@pytest.mark.parametrize("text", [
    "If no result in 2 min, try again.",  # a retry, not an abandon
    "Abandon the batch if the dough smells sour.",  # no time
    "No results in the last 30 days means the account is dormant.",  # a window, no giving up
])
def test_a_time_without_giving_up_is_not_read_as_abandoning(text: str) -> None:
    statement = read_phrase(text).statement
    assert statement.on_failure is None or statement.on_failure.kind != "fail" or statement.timeout_s is None, statement


_DOCS = [
    ("protocol.txt", "SOP 7\n\n1. Read the plate with `plate-read`. {}\n2. File it with `file-result`.\n"),
    ("prep.md", "# Prep sheet\n\n## Step 1: Probe the stock\n\nUse `probe-temp`. {}\n"),
    ("runbook.md", "# On-call\n\n- [ ] Ping the host with `host-ping`. {}\n- [ ] Page with `page-oncall`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_the_time_is_the_step_s_timeout_in_each_document_kind(name: str, doc: str) -> None:
    spec = parse_spec_text(doc.format("If no answer within 2 MIN, abandon."), name, "markdown")
    effects = [effect_of(r.statement) for r in spec.readings if r.steps == ("step-1",)]
    assert [e.attempt_timeout_s for e in effects if e.attempt_timeout_s is not None] == [120], spec.readings
    assert all(e.retry is None for e in effects)


@pytest.mark.parametrize("text", [
    "If the allergen check fails, do not proceed.",  # a kitchen sheet
    "Should the torque reading error out, don't carry on: the aircraft stays in the hangar.",  # a work card
    "If the consent form scan breaks we must not continue.",  # a clinic protocol
])
def test_not_going_on_is_a_failure_never_going_on(text: str) -> None:
    on_failure = read_phrase(text).statement.on_failure
    assert on_failure is not None and on_failure.kind == "fail", on_failure


@pytest.mark.parametrize("text", [
    "Wait max 30 min for the duty engineer; none in 30 min = do not proceed.",  # a work card
    "Wait up to 2 h for the editor's sign-off.",  # a newsroom run sheet
    "Waiting at most 1 hour for the head chef, then bin the batch.",  # a kitchen sheet
])
def test_a_time_given_to_a_person_is_no_retry_and_is_said(text: str) -> None:
    phrase = read_phrase(text)
    effect = effect_of(phrase.statement)
    assert effect.retry is None and effect.attempt_timeout_s is None, effect
    assert any("approval" in p for p in phrase.problems), phrase.problems


def test_a_wait_for_a_thing_is_still_a_wait() -> None:
    effect = effect_of(read_phrase("Wait 10 s for the page to load, then retry 3 times.").statement)
    assert effect.retry is not None and effect.retry.max_retries == 3


@pytest.mark.parametrize(("text", "no_retry"), [
    ("The tech log goes once only. A duplicate entry is a finding at audit.", True),  # a work card
    ("The payslip email is sent once.", True),  # an HR checklist
    ("Posting happens exactly once, never twice.", True),  # a newsroom run sheet
    ("It runs once the upload is in.", False),  # "once" as "when"
    ("The sample is read once per well.", False),
])
def test_a_step_said_to_go_once_is_never_retried(text: str, no_retry: bool) -> None:
    assert read_phrase(text).statement.no_retry is no_retry
