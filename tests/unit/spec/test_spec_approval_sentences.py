"""Approvals said in a step's prose the many ways people say them: a condition before the person
who signs off, an OK or a thumbs-up from someone, a person who looks and says yes or no, and
what their silence means ("= no", "assume it's fine and go ahead anyway", "it is cancelled").
The answer time is the approval's wait, never the step's attempt timeout."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.phrase import read_phrase


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def _step(sentence: str) -> object:
    spec = parse("# F\n\n## Inputs\n- total: number\n\n## Steps\n\n### Step 1: Score\n- Skill: `score`\n\n"
                 f"### Step 2: Pay\n- Skill: `pay`\n\n{sentence}\n")
    return spec.steps[1]


def test_a_condition_then_a_person_who_has_okd_it_is_a_conditional_approval_with_its_wait() -> None:
    step = _step("When the total is over 2,500, the controller (@ana.r) has OK'd the transfer (no reply within 3h = no).")
    assert step.approval is not None  # type: ignore[attr-defined]
    approval = step.approval  # type: ignore[attr-defined]
    assert (approval.timeout_s, approval.on_timeout) == (10800.0, "reject")
    assert approval.when is not None and "2500" in approval.when.replace(",", "")
    assert step.timeout_s is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(("sentence", "seconds", "then"), [
    ("Large transfers need a thumbs-up from a controller before they leave; if nobody answers within 12 hours "
     "the transfer is called off.", 43200.0, "reject"),
    ("Payments need the go-ahead from treasury.", None, "reject"),
    ("Treasury reviews the amount and says yes or no. If nobody has checked it after 90 minutes, assume it's "
     "fine and pay anyway.", 5400.0, "approve"),
])
def test_an_ok_a_thumbs_up_or_a_yes_or_no_from_a_person_is_an_approval(sentence: str, seconds: float | None,
                                                                        then: str) -> None:
    step = _step(sentence)
    approval = step.approval  # type: ignore[attr-defined]
    assert approval is not None, sentence
    assert (approval.timeout_s, approval.on_timeout) == (seconds, then)
    assert step.timeout_s is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", [
    "(no reply within 3h = no)",
    "If nobody has checked it after 90 minutes, assume it's fine and pay anyway.",
    "If the controller has not answered within 2h, escalate.",
])
def test_an_answer_time_read_by_the_policy_reader_is_reported_never_a_timeout(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.timeout_s is None and phrase.problems, phrase


def test_a_plain_sentence_about_a_review_done_elsewhere_is_no_approval() -> None:
    assert _step("The numbers were checked by finance last quarter.").approval is None  # type: ignore[attr-defined]


def test_an_approval_said_in_a_sentence_that_says_more_leaves_the_rest_to_be_read() -> None:
    spec = parse("# F\n\n## Inputs\n- total: number\n\n## Steps\n\n### Step 1: Score\n- Skill: `score`\n\n"
                 "### Step 2: Pay\nGiven the list And, when the total is over 800, the owner (@lu) has OK'd it "
                 "(no reply within 1h = no) When `pay` sends it, retry twice 10s apart\n")
    step = spec.steps[1]
    assert step.approval is not None and step.approval.timeout_s == 3600.0
    assert "`pay` sends it" in step.description and "OK" not in step.description
    assert any(r.statement.retries == 2 for r in spec.readings if "step-2" in r.steps)


def test_what_a_step_does_said_before_its_approval_clause_in_one_sentence_is_kept() -> None:
    # no stop the sentence reader splits on between the two ("⚠️" opens the clause): the skill and
    # its input said first are the step's, only the approval clause is the approval
    spec = parse("# F\n\n## Inputs\n- amount: number\n\n## Steps\n\n### Step 1: Pay\n"
                 "Runs `pay-out` with `amount`. ⚠️ Large pay-outs need a 👍 from the treasurer before they go; "
                 "if nobody answers within 2 hours it is cancelled.\n")
    step = spec.steps[0]
    assert step.approval is not None and (step.approval.timeout_s, step.approval.on_timeout) == (7200.0, "reject")
    assert "`pay-out` with `amount`" in step.description and "treasurer" not in step.description
