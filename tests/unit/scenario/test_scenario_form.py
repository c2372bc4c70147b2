"""Reading a Testing Plan entry's structured form: Inputs, Fault, Approve/Reject, Expect."""

from __future__ import annotations

import pytest

from orchestrator.plan.model import PlanInput, PlanStep, Scenario
from orchestrator.scenario import FormError, read_case
from orchestrator.scenario.form import read_clauses, split_items
from orchestrator.testing import fake_plan

PLAN = fake_plan(
    [PlanStep(id="step-1", name="Fetch", skill="s"), PlanStep(id="step-2", name="Use", skill="s")],
    inputs=[
        PlanInput(name="module_name", schema={"type": "string"}),
        PlanInput(name="numbers", schema={"type": "array"}),
        PlanInput(name="strict", schema={"type": "boolean"}, required=False),
    ],
)


def case(description: str):
    return read_case(Scenario(name="s", description=description, where="spec.md:9"), PLAN)


def test_items_split_on_semicolons_and_commas_outside_brackets_and_quotes() -> None:
    text = 'a=[1, 2]; b={"x": 1, "y": "p;q"}, c=it\'s fine, d="one, two"'
    assert split_items(text) == ["a=[1, 2]", 'b={"x": 1, "y": "p;q"}', "c=it's fine", 'd="one, two"']


def test_clauses_run_to_the_next_keyword_and_prose_before_them_is_ignored() -> None:
    text = "The server times out once → retried. Inputs: module_name=json Fault: step-1 timeout Expect: succeeded."
    assert read_clauses(text) == {"input": "module_name=json", "fault": "step-1 timeout", "expect": "succeeded"}


def test_inputs_are_json_unless_the_input_is_a_string() -> None:
    found = case("Inputs: module_name=1.5; numbers=[1, 2, 3]; strict=true; Expect: succeeded")
    assert found is not None
    assert found.inputs == {"module_name": "1.5", "numbers": [1, 2, 3], "strict": True}


def test_faults_name_a_step_a_kind_and_how_often() -> None:
    found = case(
        'Fault: step-1 timeout; Step 2 code-error twice; step-1 transient x3; step-2 crash always; '
        'step-1 returns {"docs": "", "found": false} once; Expect: failed'
    )
    assert found is not None
    assert [(f.step, f.kind, f.times) for f in found.faults] == [
        ("step-1", "timeout", 1),
        ("step-2", "code-error", 2),
        ("step-1", "transient", 3),
        ("step-2", "crash", None),
        ("step-1", "returns", 1),
    ]
    assert found.faults[-1].value == {"docs": "", "found": False}


def test_expectations_read_statuses_counts_fallbacks_and_limits() -> None:
    found = case(
        "Expect: the run escalated; limit max_total_attempts; step-1 defaulted; Step 2 awaiting approval; "
        "step-1 retried; step-2 regenerated; step-1 compensated; step-1 attempts >= 2; step-2 retries=0; "
        "step-1 fallback=default"
    )
    assert found is not None
    assert [(e.check, e.step, e.metric, e.op, e.value) for e in found.expectations] == [
        ("run", None, None, "=", "escalated"),
        ("limit", None, None, "=", "max_total_attempts"),
        ("status", "step-1", None, "=", "defaulted"),
        ("status", "step-2", None, "=", "awaiting_approval"),
        ("retried", "step-1", None, "=", ""),
        ("regenerated", "step-2", None, "=", ""),
        ("compensated", "step-1", None, "=", ""),
        ("metric", "step-1", "attempts", ">=", 2),
        ("metric", "step-2", "retries", "=", 0),
        ("fallback", "step-1", None, "=", "default"),
    ]


def test_approve_and_reject_decide_gates() -> None:
    found = case("Approve: step-1; Reject: Step 2; Expect: failed")
    assert found is not None and found.approvals == {"step-1": True, "step-2": False}


def test_an_entry_without_expect_is_not_a_case() -> None:
    assert case("a module with docstrings goes through all four steps") is None
    assert case("Inputs: module_name=json") is None


@pytest.mark.parametrize(
    ("description", "message"),
    [
        ("Fault: step-9 timeout; Expect: failed", "Fault 'step-9 timeout': no step 'step-9' in the plan (steps: step-1, step-2)"),
        ("Fault: step-1 meltdown; Expect: failed", "unknown fault 'meltdown'"),
        ("Fault: step-1 timeout sometimes; Expect: failed", "cannot read 'sometimes' as a count"),
        ("Fault: step-1 timeout x0; Expect: failed", "a fault fires at least once ('x0')"),
        ("Fault: step-1 crash 0 times; Expect: failed", "a fault fires at least once"),
        ("Fault: step-1 returns {oops; Expect: failed", "`returns` needs a JSON value"),
        ("Inputs: colour=red; Expect: failed", "the plan has no input 'colour' (inputs: module_name, numbers, strict)"),
        ("Inputs: module_name; Expect: failed", "'module_name' is not NAME=VALUE"),
        ("Expect: step-1 happier", "Expect 'step-1 happier': cannot read it"),
        ("Expect: ;", "Expect: names nothing to check"),
    ],
)
def test_an_unreadable_form_says_which_item_and_why(description: str, message: str) -> None:
    with pytest.raises(FormError) as info:
        case(description)
    assert message in info.value.message


def test_steps_a_failed_run_never_reached_can_be_expected_as_not_run() -> None:
    found = case("Expect: failed; step-2 not run; step-1 cancelled")
    assert found is not None
    assert [(e.check, e.step, e.value) for e in found.expectations] == [
        ("run", None, "failed"),
        ("status", "step-2", "not_run"),
        ("status", "step-1", "cancelled"),
    ]
