"""A person's sign-off said as a check done by a role before the work goes on (`approval_sign`): "second check by the
charge nurse before it is given" is the step's approval, with its condition; "wait max 30 min for the inspector; no
inspector in 30 min = do not proceed" is its wait and what silence means, never a retry rule (also when no approval
was read). A condition "any X is Y" with no count of X but a flag `any_Y` is placed on the flag. Tested in a ward
medication round, a crane lift plan, a museum loan checklist and a lab protocol; negative tests for "sign",
"inspector" and "wait" lines that are no approval."""

from __future__ import annotations

import pytest

from orchestrator.plan.count_field import flag_of_count
from orchestrator.spec.approval_sign import role_wait, sign_cue, waits_for_role
from orchestrator.spec.condition import approval_sentence, approval_timeout
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill

CATALOG = FakeCatalog(
    skill("check-dose", input_schema=obj((), chart="string"),
          output_schema=obj(("dose_mg", "any_high"), dose_mg="number", any_high="boolean")),
    skill("give-dose", input_schema=obj((), dose_mg="number"), output_schema=obj(("given",), given="boolean")),
)


@pytest.mark.parametrize("sentence", [
    "RII: IF ANY PART IS CRACKED, DUPLICATE INSPECTION BY A CERTIFYING INSPECTOR BEFORE THE PANEL IS CLOSED.",
    "If the dose is above 10 mg: second check by the charge nurse before it is given.",
    "Any change to the rigging needs a walk-round by the site supervisor prior to the lift.",
    "Crate condition report countersigned by the registrar (or the duty curator) before the lorry leaves.",
    "Plates are reviewed by the lab manager ahead of release.",
])
def test_a_check_by_a_role_before_the_work_is_an_approval(sentence: str) -> None:
    assert sign_cue(sentence) is not None and approval_sentence(sentence)


@pytest.mark.parametrize("sentence", [
    "The inspector signs the log book after the job is closed.",  # after, not before: a record, no gate
    "Checked by the script before upload.",  # a machine, not a person
    "Sign the delivery note and hand it to the inspector.",
    "Inspection of the hangar floor before the shift starts.",  # no one named who does it
    "Wait 30 s for the pump to settle before reading the gauge.",
])
def test_sign_and_inspector_lines_that_are_no_approval(sentence: str) -> None:
    assert sign_cue(sentence) is None and not waits_for_role(sentence)


@pytest.mark.parametrize(("text", "seconds", "then"), [
    ("Wait max 30 min for the inspector; no inspector in 30 min = do not proceed, the job stays open.", 1800.0,
     "reject"),
    ("wait up to 2 hours for the duty manager, no manager by then -> go ahead anyway", 7200.0, "approve"),
    ("Wait 45 minutes for the registrar. No registrar in that time: the crate is not sealed.", 2700.0, "reject"),
    ("Wait at most 1 hour for the lab manager.", 3600.0, None),
])
def test_a_wait_for_a_role_and_what_no_one_means(text: str, seconds: float, then: str | None) -> None:
    assert role_wait(text) == (seconds, then)


@pytest.mark.parametrize("text", [
    "Wait 30 s for the pump to settle.",
    "wait up to 5 min for the server to come back",
    "Wait for the inspector to arrive.",  # no time said
])
def test_waits_for_things_or_without_a_time_are_not_a_roles_wait(text: str) -> None:
    assert role_wait(text) == (None, None)


WARD = """\
# Evening round, bay 3

1. Check the chart with `check-dose`.
2. Give it with `give-dose`.
   If any dose is high, second check by the charge nurse before it is given.
   Wait max 20 min for the nurse; no nurse in 20 min = do not give it, the doctor is bleeped.
   If the pump alarms, retry after 1 min.
"""
LIFT_PLAN = """\
# Lift plan LP-12

## Step 1
Survey the load, `check-dose`.

## Step 2
`give-dose`. IF ANY DOSE IS HIGH, INDEPENDENT CHECK BY THE LIFT SUPERVISOR BEFORE THE HOOK IS LOADED.
Wait up to 1 hour for the supervisor; no supervisor in that hour -> go ahead anyway.
"""
LOAN_CHECKLIST = """\
Loan checklist
- [ ] Condition report with `check-dose`.
- [ ] Crate and ship with `give-dose`. When any dose is high: a condition check by the registrar before the crate is
      sealed. Wait 45 min for the registrar.
"""


@pytest.mark.parametrize(("text", "seconds", "then"), [
    (WARD, 1200.0, "reject"),
    (LIFT_PLAN, 3600.0, "approve"),
    (LOAN_CHECKLIST, 2700.0, "reject"),
])
def test_the_sign_off_is_the_steps_approval_with_its_wait_and_never_a_retry(text: str, seconds: float,
                                                                           then: str) -> None:
    step = step_by_skill(plan_of_text(text, CATALOG), "give-dose")
    approval = step.policy.approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (seconds, then)
    assert approval.when == "steps['step-1'].output.any_high == true"
    assert step.policy.fallback.action.value == "fail"  # "do not proceed" is no carry-on


PROTOCOL = """\
# Protocol 7: buffer prep

1. Weigh out with `check-dose`.
2. Dispense with `give-dose`. Wait max 30 min for the inspector; no inspector in 30 min = do not proceed.
"""


def test_a_wait_for_a_role_with_no_approval_read_is_reported_and_never_a_retry() -> None:
    plan = plan_of_text(PROTOCOL, CATALOG)
    policy = step_by_skill(plan, "give-dose").policy
    assert policy.retry.max_retries == 0 and not policy.rules and policy.attempt_timeout_s is None
    assert policy.fallback.action.value == "fail"
    assert any(w.where == "doc.md:4" and "not a retry" in w.message for w in plan.warnings)


def test_a_wait_for_a_thing_is_still_the_policy_readers() -> None:
    plan = plan_of_text(PROTOCOL.replace("Wait max 30 min for the inspector; no inspector in 30 min = do not proceed.",
                                         "If it fails, retry 3 times, 30 s apart."), CATALOG)
    assert step_by_skill(plan, "give-dose").policy.retry.max_retries == 3


def test_the_wait_joins_an_approval_sentence_of_other_words() -> None:
    assert approval_timeout("Wait max 30 min for the inspector; no inspector in 30 min = do not proceed.") == (
        1800.0, "reject")


@pytest.mark.parametrize(("subject", "op", "value", "found"), [
    (("high", "count"), ">", 0, "steps['s1'].output.any_high == true"),
    (("dose", "high", "count"), ">=", 1, "steps['s1'].output.any_high == true"),
    (("high", "count"), "==", 0, "steps['s1'].output.any_high == false"),
    (("high", "count"), ">", 2, None),  # a count above 2 is no flag
    (("high",), ">", 0, None),  # not a count
    (("low", "count"), ">", 0, None),  # no such flag
])
def test_a_count_of_any_is_placed_on_a_flag_of_the_same_words(subject: tuple[str, ...], op: str, value: int,
                                                                 found: str | None) -> None:
    fields = {"any_high": "steps['s1'].output.any_high"}
    assert flag_of_count(subject, op, value, fields.get) == found
