"""A step that "waits for" or "holds until" a person approves, said the author's way in documents of
several kinds (a vet clinic's dosing sheet, a ship's log, a kitchen prep list, a radio run sheet,
a hospital email): read as the step's approval with its wait and what silence means. When the
condition in front of it cannot be read, the step waits for the approval on every run, warned,
never on none: a run that skips a person's yes the author asked for is the worst misreading."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.condition import approval_sentence


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def _heading_doc(sentence: str) -> WorkflowSpec:  # a vet clinic's dosing sheet, a heading per step
    return _parse("# Dosing\n\n## Inputs\n- dose_mg: number\n\n## Steps\n\n### Step 1: Weigh\n- Skill: `weigh`\n\n"
                  f"### Step 2: Dispense\n- Skill: `dispense`\n\n{sentence}\n")


def _list_doc(sentence: str) -> WorkflowSpec:  # a kitchen prep list, numbered steps in sentences
    return _parse(f"# Prep\n\n## Steps\n\n1. Count stock with `count-stock`.\n2. Order with `order-stock`. {sentence}\n")


@pytest.mark.parametrize("sentence", [
    "It waits for the duty pharmacist to approve.",
    "The order holds until the head chef signs off.",
    "Then it pauses for the producer to OK it.",
    "The sailing waits until the skipper says yes.",
    "It waits for the charge nurse to give the go-ahead.",
])
def test_waiting_for_a_person_to_say_yes_is_an_approval_sentence(sentence: str) -> None:
    assert approval_sentence(sentence)


@pytest.mark.parametrize("sentence", [
    "It waits for the upload to finish.",
    "The order holds until the truck arrives.",
    "Wait for the oven to reach 180 degrees.",
    "It pauses for ten seconds between pages.",
])
def test_waiting_for_a_thing_is_no_approval(sentence: str) -> None:
    assert not approval_sentence(sentence)


def test_a_readable_condition_in_front_makes_the_approval_conditional_with_its_wait() -> None:
    step = _heading_doc("If the dose_mg is over 50, it waits for the duty vet to approve; no answer within "
                        "1 hour and we don't dispense.").steps[1]
    approval = step.approval
    assert approval is not None and approval.when is not None and "50" in approval.when
    assert (approval.timeout_s, approval.on_timeout) == (3600.0, "reject")


@pytest.mark.parametrize("build", [_heading_doc, _list_doc])
def test_an_unreadable_condition_makes_the_person_approve_every_run_and_says_so(build: object) -> None:
    spec = build("If the count looks odd, it holds until the head chef signs off; nobody answers in 2 hours "  # type: ignore[operator]
                 "and it is not sent.")
    step = spec.steps[-1]
    assert step.approval is not None and step.approval.when is None
    assert (step.approval.timeout_s, step.approval.on_timeout) == (7200.0, "reject")
    said = [w for w in spec.warnings if w.code == "spec.approval-condition"]
    assert said and "every run" in said[0].message


def test_a_ship_s_log_skipper_who_must_say_yes_before_sailing_is_read_from_a_bullet() -> None:
    spec = _parse("# Log\n\n## Steps\n\n- Check the weather with `read-forecast`.\n"
                  "- Sail with `log-departure`. When the wind is odd the sailing waits until the skipper says "
                  "yes.\n")
    assert spec.steps[-1].approval is not None  # its condition kept as written: the plan says whether it reads


def test_a_run_sheet_step_that_waits_for_a_thing_gets_no_approval() -> None:
    spec = _parse("# Show\n\n## Steps\n\n1. Cut the promo with `cut-promo`.\n"
                  "2. Publish with `publish-episode`. If the file is big it waits for the upload to finish.\n")
    assert spec.steps[-1].approval is None
