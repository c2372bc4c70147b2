"""A person's sign-off said in a hurry is an approval with its condition, wait and outcome, never a
retry rule: the condition before an arrow or colon ("load % over 95 -> the duty manager signs off"),
a wait given to the person ("give the skipper 30 min to OK it, else we sail anyway"), a wait said
after the approval ("Wait 20 min max; no answer = go anyway"). Each in several kinds of document."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_lead import condition_ahead, wait_said
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = FakeCatalog(
    skill("measure-batch", input_schema=obj((), batch="string"),
          output_schema=obj(("dose_mg", "runtime_min", "sample_count"), dose_mg="number", runtime_min="number",
                            sample_count="integer")),
    skill("release-batch", input_schema=obj((), dose_mg="number"), output_schema=obj(("done",), done="boolean")),
)


def _plan(text: str) -> Plan:
    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    plan, errors = draft_plan(parse_spec_text(text, "doc.md", "markdown", words), CATALOG, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan


def _release(plan: Plan) -> PlanStep:
    return next(s for s in plan.steps if s.skill == "release-batch")


WARD_CHECKLIST = """\
# Ward round: evening meds

- [ ] Check the chart with `measure-batch`.
- [ ] Give it with `release-batch`.
    - Dose over 10 mg -> the charge nurse signs off before it goes in. Wait 20 min max; no answer = hold it.
"""
LAB_PROTOCOL = """\
# Protocol 4: plate release

## Step 1
Read the plate, `measure-batch`.

## Step 2
`release-batch`. Sample count above 96: the lab manager signs off first. Give them 2 hours; silence = bin it.
"""
PODCAST = """\
# Run sheet, ep. 40

1. Timing pass: `measure-batch`.
2. Publish with `release-batch`. Runtime over 90 — producer signs off. Wait up to 1 hour; no reply = publish anyway.
"""


@pytest.mark.parametrize(("text", "field", "value", "seconds", "then"), [
    (WARD_CHECKLIST, "dose_mg", 10, 1200, "reject"),
    (LAB_PROTOCOL, "sample_count", 96, 7200, "reject"),
    (PODCAST, "runtime_min", 90, 3600, "approve"),
], ids=["ward-checklist", "lab-protocol", "podcast-run-sheet"])
def test_a_sign_off_with_its_condition_before_an_arrow_is_an_approval_with_its_wait(
        text: str, field: str, value: int, seconds: int, then: str) -> None:
    plan = _plan(text)
    approval = _release(plan).policy.approval
    assert approval is not None
    assert approval.when is not None and field in approval.when and f"> {value}" in approval.when
    assert (approval.timeout_s, approval.on_timeout) == (seconds, then)
    assert not _release(plan).policy.rules and _release(plan).policy.retry.max_retries == 0  # the wait is no retry


SHIPS_LOG = """\
# Deck log, MV Tern

- 0800 Mate takes the readings: `measure-batch`.
- 0830 Sail with `release-batch`; give the skipper 30 min to OK it, else we sail anyway.
"""


def test_a_ships_log_giving_the_skipper_time_to_ok_it_is_an_approval_that_times_out_to_yes() -> None:
    step = _release(_plan(SHIPS_LOG))
    approval = step.policy.approval
    assert approval is not None and approval.when is None
    assert (approval.timeout_s, approval.on_timeout) == (1800, "approve")


@pytest.mark.parametrize(("sentence", "said"), [
    ("[ ] load % over 95 -> the duty manager signs off", "load % over 95"),
    ("Weight above 20 kg: the foreman signs off", "Weight above 20 kg"),
    ("Then the foreman signs off", None),  # no condition before it
    ("Step 3 -> the foreman signs off", None),  # a step, not a comparison
])
def test_the_condition_before_the_mark_is_read_only_when_it_compares_with_a_value(sentence: str,
                                                                                said: str | None) -> None:
    assert condition_ahead(sentence, sentence.index("signs")) == said


@pytest.mark.parametrize(("text", "got"), [
    ("Wait 30 min max; no answer = file anyway", (1800, "approve")),
    ("give the cook 10 minutes to OK it, otherwise scrap it", (600, "reject")),
    ("wait 30 seconds between tries", (None, None)),  # no person's wait: seconds are a retry's
    ("Wait 2 hours.", (7200, None)),  # silence not said
])
def test_a_wait_given_to_a_person_and_what_silence_means(text: str, got: tuple[object, object]) -> None:
    assert wait_said(text) == got


ONBOARDING = """\
# Starter checklist

- [ ] Count the kit with `measure-batch`.
- [ ] Hand it over with `release-batch`.
    - Anything that looks off to the buddy needs IT to sign off. Give them 2 hours; silence = we stop.
"""


def test_an_approval_whose_condition_is_a_clause_waits_on_every_run_warned_and_its_wait_is_no_retry() -> None:
    plan = _plan(ONBOARDING)
    policy = _release(plan).policy
    assert not policy.rules and policy.retry.max_retries == 0 and policy.attempt_timeout_s is None
    assert policy.approval is not None and policy.approval.when is None  # on every run: the safe side
    assert (policy.approval.timeout_s, policy.approval.on_timeout) == (7200, "reject")
    assert any(w.code == "spec.approval-condition" and w.where == "doc.md:5" for w in plan.warnings)


HANDOVER = """\
# Desk handover

1. `measure-batch` on the batch.
2. `release-batch`; the lead has a look at the odd ones first. Wait 30 min max; no answer = release anyway.
"""


def test_a_persons_wait_with_no_approval_read_is_reported_and_never_a_retry() -> None:
    plan = _plan(HANDOVER)
    policy = _release(plan).policy
    assert not policy.rules and policy.retry.max_retries == 0 and policy.attempt_timeout_s is None
    assert any(w.where == "doc.md:4" for w in plan.warnings)
