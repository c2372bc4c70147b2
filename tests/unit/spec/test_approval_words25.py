"""An approval said over several sentences (`spec.approval_words25`): its wait said as a hold or as a
time in words glossed with the exact time, what silence "by then" means, the case that needs no
sign-off, a condition on what an earlier step said or on its label, and memo lines wrapped at any word
joined into sentences. A purchase policy, a hospital ward checklist, a CI release memo; and texts that
look alike but must not be read so (a sign-off sheet, a skill named `approve-pr`, a machine's hold)."""

from __future__ import annotations

import pytest

from orchestrator.spec.approval_words25 import (
    asks_gate,
    held_wait,
    label_subject,
    names_then,
    no_gate,
    rejoined,
    said_value,
    silence_by_then,
)
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill


@pytest.mark.parametrize(("text", "seconds"), [
    ("Hold the PO for up to 2 hours for finance.", 7200.0),  # a purchase policy
    ("Hold up to 20 min for the registrar.", 1200.0),  # a ward checklist
    ("The release manager gets one working day (treat as 8 hours).", 28800.0),  # a CI release doc
    ("The board gets two working days (i.e. 48 hours) to answer.", 172800.0),
])
def test_a_hold_or_a_glossed_time_is_the_approvals_wait(text: str, seconds: float) -> None:
    got = held_wait(text)
    assert got is not None and got[0] == seconds


@pytest.mark.parametrize("text", [
    "Hold the line.",  # no time
    "hold 3 seconds then release the clamp",  # a machine's hold, not up to / for
    "The batch takes two working days (treat as 48 hours).",  # nobody is given the time
])
def test_holds_and_times_that_are_no_persons_wait(text: str) -> None:
    assert held_wait(text) is None


@pytest.mark.parametrize(("text", "then"), [
    ("No reply by then = release it anyway.", "approve"),
    ("If she has not answered by then the PO is rejected and the run stops.", "reject"),
    ("If nobody answers by then, the dose is not given.", "reject"),
    ("Nothing back in that time? Go ahead.", "approve"),
])
def test_silence_by_then_names_the_wait_said_before(text: str, then: str) -> None:
    assert names_then(text) and silence_by_then(text) == then


@pytest.mark.parametrize("text", [
    "Check the figures by then.",  # no silence
    "If the scan has not finished, wait.",  # a silence of no one, and no "by then"
])
def test_sentences_that_name_no_silence_after_the_wait(text: str) -> None:
    assert not names_then(text)


@pytest.mark.parametrize("text", [
    "Orders under $500: no sign-off needed.",
    'Where triage said "green" no sign-off is needed.',
    "Patch releases need no approval.",
    "No incidents = no hold.",
])
def test_the_case_that_needs_no_sign_off(text: str) -> None:
    assert no_gate(text)


@pytest.mark.parametrize("text", [
    "Fill in the sign-off sheet and file it.",  # the sheet, a noun
    "No sign-off sheet was found in the folder.",
    "The charge nurse must approve the dose first.",
])
def test_a_sign_off_sheet_or_an_approval_is_no_case_without_one(text: str) -> None:
    assert not no_gate(text)


def test_what_an_earlier_step_said_is_the_value_of_its_field() -> None:
    assert said_value('Where triage said "red", the consultant must sign off before discharge.') == (
        "red only", 'Where triage said "red"')
    assert said_value('Where 3.3 said "high", deploy MUST NOT run until the CAB has signed off.') is not None
    assert said_value("Where possible, the consultant signs off before discharge.") is None


def test_a_steps_label_as_the_conditions_subject() -> None:
    names = [(1, "Survey A1"), (2, "Survey B2"), (3, "Report")]
    assert label_subject("B2 found any leaks", names) == "step 2 found any leaks"
    assert label_subject("C4 found any leaks", names) == "C4 found any leaks"  # no step so named
    assert label_subject("B2 found any leaks", [(1, "Bay B2"), (2, "Ward B2")]) == "B2 found any leaks"  # two
    assert label_subject("3 people logged in", [(1, "Login 3")]) == "3 people logged in"  # not the subject


def test_memo_lines_wrapped_at_any_word_are_joined_into_sentences() -> None:
    pieces = [(10, 'Where 2 said "dirty", publish MUST NOT run until the'),
              (11, "release manager has signed off.  The manager gets one working day (treat as 8"),
              (12, "hours).  If they have not answered by then the release is"),
              (13, "cancelled and the run stops."),
              (14, "Publishing MUST NOT be retried.")]
    got = rejoined(pieces)
    assert [line for line, _ in got] == [10, 11, 12, 14]
    assert got[0][1].endswith("release manager has signed off.") and asks_gate(got[0][1])
    assert got[1][1] == "The manager gets one working day (treat as 8 hours)."
    # a shell history or an outline, each line its own: left as it was
    history = [(1, "git pull"), (2, "make build"), (3, "make test")]
    assert rejoined(history) == history


PURCHASE = """\
# Purchase policy (stores)

1. Price the order with `price-order`.
2. Place it with `place-order`.
   If step 1 said "high", the finance lead must approve it first. Hold up to 2 hours for her.
   No reply by then = place it anyway, the supplier closes at five. Orders that came out "low": no sign-off needed.
"""

WARD = """\
# Ward 7 night round

## Round B1
Run `news-score` on the obs chart.

## Round B2
Run `outreach-call` with the score.
If B1 flagged any alarms, the nurse in charge has to okay the call before it goes.
Hold up to 15 min for her. If she has not answered by then the call is cancelled and the run stops.
No alarms = no hold.
"""

CATALOG = FakeCatalog(
    skill("price-order", input_schema=obj(), output_schema=obj(("band",), band={"type": "string",
                                                                              "enum": ["high", "low"]})),
    skill("place-order", input_schema=obj(), output_schema=obj(("placed",), placed="boolean")),
    skill("news-score", input_schema=obj(), output_schema=obj(("alarm_count",), alarm_count="integer")),
    skill("outreach-call", input_schema=obj(), output_schema=obj(("called",), called="boolean")),
    skill("approve-pr", input_schema=obj(), output_schema=obj(("merged",), merged="boolean")),
)


def test_a_purchase_policy_gate_on_what_the_pricing_said_with_its_hold_and_silence() -> None:
    step = step_by_skill(plan_of_text(PURCHASE, CATALOG), "place-order")
    gate = step.policy.approval
    assert gate is not None and gate.timeout_s == 7200.0 and gate.on_timeout == "approve"
    assert gate.when is not None and "step-1" in gate.when and "band" in gate.when and "high" in gate.when
    assert "step-1" in step.depends_on


def test_a_ward_checklist_gate_on_a_rounds_label_waits_then_stops() -> None:
    step = step_by_skill(plan_of_text(WARD, CATALOG), "outreach-call")
    gate = step.policy.approval
    assert gate is not None and gate.timeout_s == 900.0 and gate.on_timeout == "reject"
    assert gate.when is not None and "step-1" in gate.when and "alarm_count" in gate.when


RELEASE = """\
# Release

1. Merge the pull request with `approve-pr`.
   Fill in the sign-off sheet and file it with the release notes.
"""


def test_a_skill_named_approve_and_a_sign_off_sheet_ask_no_one() -> None:
    step = step_by_skill(plan_of_text(RELEASE, CATALOG), "approve-pr")
    assert step.policy.approval is None


def test_a_skills_output_list_goes_on_past_a_stop_inside_a_bracket() -> None:
    from orchestrator.plan.wanted import read_instructions

    body = ('Outputs: `summary` ("Ward 7 (2 beds free). Next round: <time>."), `alarm_count`.\n\n'
            "Inputs: `chart`. It then stops. `later` is no output.\n")
    said = read_instructions(body, "SKILL.md")
    assert [n.name for n in said.outputs] == ["summary", "alarm_count"]
    assert [n.name for n in said.inputs] == ["chart"]


CHECKLIST = """\
# Dispatch checklist

1. Pack the box with `price-order`.
2. Send it with `place-order`.
   No sign-off needed; retry it 3 times if the courier API is down.
"""


def test_a_no_sign_off_sentence_that_says_a_retry_keeps_the_retry() -> None:
    step = step_by_skill(plan_of_text(CHECKLIST, CATALOG), "place-order")
    assert step.policy.approval is None
    assert step.policy.retry.max_retries == 3


def test_a_step_whose_skill_is_named_approve_holds_no_gate() -> None:
    catalog = FakeCatalog(skill("approve", input_schema=obj(), output_schema=obj(("ok",), ok="boolean")),
                          skill("merge-pr", input_schema=obj(), output_schema=obj()))
    plan = plan_of_text("# Merge train\n\n1. Run `approve` on the pull request. Hold up to 5 min for the bot.\n"
                        "2. Merge it with `merge-pr`.\n", catalog)
    assert all(s.policy.approval is None for s in plan.steps)
