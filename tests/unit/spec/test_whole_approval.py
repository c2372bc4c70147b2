"""A person's approval said in prose in the words of many kinds of document (a lab safety SOP, a
grant proposal's budget clause, an HR onboarding checklist, a tweet thread, a shift handover):
who approves before the step goes on, under which condition, how long they have and what silence
means are read onto the step, as an `Approval:` line would be."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.whole_approval import said_approval, said_condition, said_wait

HEAD = "# Doc\n\n## Steps\n\n### Step 1: Prepare\n- Skill: `prepare`\n\n### Step 2: Release\n- Skill: `release`\n\n"


@pytest.mark.parametrize("sentence", [
    "Disposal MUST NOT proceed until the safety officer approves the form.",  # a lab safety SOP
    "No funds shall be released without the prior written approval of the Programme Officer.",  # a grant clause
    "A team lead has to OK the laptop order before it ships.",  # an HR onboarding checklist
    "The rota change needs a supervisor's OK.",  # a shift handover
    "if the reach is over 10k I get a DM and eyeball it first",  # a tweet thread
    "The head chef checks the plating first.",  # a kitchen's service sheet
    "Review the draft before it goes.",  # a newsletter
])
def test_a_person_who_approves_before_the_step_goes_on_is_an_approval(sentence: str) -> None:
    assert said_approval(sentence)


@pytest.mark.parametrize("sentence", [
    "The officer approved the budget last year.",
    "Nothing here needs approval.",
    "Leads get 4 hours of training.",
    # the step's own work done first, told to whoever runs it: a stock room, a bike workshop, a lab, a recipe
    "Check the seal first, then log the trays.",
    "Check the chain first and oil it.",
    "Look at the plate first; count the colonies.",
    "Check the oven first, then start the loaves.",
])
def test_a_sentence_about_an_approval_in_the_past_or_none_is_no_approval(sentence: str) -> None:
    assert not said_approval(sentence)


@pytest.mark.parametrize(("sentence", "condition"), [
    ("Where the grant exceeds EUR 50,000 (fifty thousand euros), funds shall not be released without ...",
     "the grant exceeds 50,000"),
    ("if the reach from tweet 3 is over 10 I get a DM and eyeball it first", "the reach is over 10"),
    ("Laptops over $2,000: a team lead has to OK the order.", "the laptop is over 2,000"),  # `spec.h3_left31`
])
def test_a_condition_said_before_the_approval_without_an_if_is_read(sentence: str, condition: str) -> None:
    assert said_condition(sentence) == condition


@pytest.mark.parametrize(("sentence", "wait"), [
    ("Leads get 4 hours; if nobody answers, treat it as a no.", (14400, "reject")),
    ("absent such approval within forty-eight (48) hours, approval shall be deemed refused", (172800, "reject")),
    ("I give myself 1h, if I don't answer it just goes out anyway", (3600, "approve")),
    ("the officer has two hours to answer", (7200, None)),  # silence: not said
    ("the officer answers when she can", (None, None)),
])
def test_the_persons_wait_and_what_silence_means_are_read(sentence: str, wait: tuple[float | None, str | None]) -> None:
    assert said_wait(sentence) == wait


def test_a_lab_sops_approval_with_its_condition_and_wait_is_on_the_step() -> None:
    text = HEAD + ("When the `hazard` is high, release MUST NOT proceed until the safety officer approves; if no "
                   "officer responds within two hours, the request SHALL be treated as rejected.\n")
    spec = parse_spec_text(text, "sop.md", "markdown")
    approval = spec.steps[1].approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (7200, "reject")
    assert approval.when is not None and "hazard" in approval.when


def test_a_grant_clauses_approval_without_an_if_is_on_the_step_with_its_condition() -> None:
    text = HEAD + ("Where the `amount` exceeds EUR 50,000 (fifty thousand euros), funds shall not be released without "
                   "the prior written approval of the Programme Officer; absent such approval within forty-eight (48) "
                   "hours of the request, approval shall be deemed refused.\n")
    spec = parse_spec_text(text, "grant.md", "markdown")
    approval = spec.steps[1].approval
    assert approval is not None and approval.when == "the `amount` exceeds 50,000"
    assert (approval.timeout_s, approval.on_timeout) == (172800, "reject")
