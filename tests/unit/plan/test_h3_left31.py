"""A condition's text value spelled as the skill that gives the field lists it (`plan.h3_left31`): a
server runbook ("is HIGH"), a kitchen ticket ("is Done"), a lab protocol ("= PASS"); negatives: a value
the skill does not list, two listed values that differ only in case, a skill that lists nothing."""

from __future__ import annotations

import pytest
from plan_factory import SaidCatalog, plan_of_text

from orchestrator.plan.h3_left31 import listed_values, value_spelling


@pytest.mark.parametrize(("about", "values"), [
    ("low, medium or high: high from 8, medium from 4", ["low", "medium", "high"]),
    ("one of open / done / cancelled", ["open", "done", "cancelled"]),
    ("ok|failed (the run's verdict)", ["ok", "failed"]),
    ('"red" at 8+, "amber" at 4-7, else "green"', ["red", "amber", "green"]),
    ("integer", []),
    ("the number of plates read, and the reader's name", []),
    ("list of text", []),
])
def test_the_values_a_skill_lists_for_a_field(about: str, values: list[str]) -> None:
    assert listed_values(about) == values


ABOUT = {("step-2", "risk"): "low, medium or high", ("step-1", "state"): "one of open / done / cancelled",
         ("step-3", "verdict"): "pass or fail", ("step-4", "mode"): "Fast, fast or slow", ("step-5", "note"): "free text"}


@pytest.mark.parametrize(("expression", "spelled"), [
    ("steps['step-2'].output.risk == 'HIGH'", "steps['step-2'].output.risk == 'high'"),  # a runbook
    ("not (steps['step-1'].output.state == 'Done')", "not (steps['step-1'].output.state == 'done')"),  # a kitchen
    ("steps['step-3'].output.verdict != 'PASS'", "steps['step-3'].output.verdict != 'pass'"),  # a lab protocol
    ("steps['step-2'].output.risk == 'severe'", "steps['step-2'].output.risk == 'severe'"),  # not listed: as written
    ("steps['step-4'].output.mode == 'FAST'", "steps['step-4'].output.mode == 'FAST'"),  # two spellings: no guess
    ("steps['step-5'].output.note == 'OK'", "steps['step-5'].output.note == 'OK'"),  # nothing listed
    ("inputs.risk == 'HIGH'", "inputs.risk == 'HIGH'"),  # a workflow input: not a skill's output
])
def test_a_text_compared_to_a_field_takes_the_skills_spelling(expression: str, spelled: str) -> None:
    got, notes = value_spelling(expression, lambda sid, field: ABOUT.get((sid, field)))
    assert got == spelled
    assert bool(notes) is (got != expression)


CATALOG = SaidCatalog({
    "rate-change": "Inputs: `change`.\n\nOutputs: `risk` (low, medium or high), `score` (integer).\n",
    "canary-push": "Inputs: `change`.\n\nOutputs: `pushed`.\n",
    "direct-push": "Inputs: `change`.\n\nOutputs: `pushed`.\n",
})


def test_a_runbook_condition_in_capitals_runs_on_the_value_the_skill_gives() -> None:
    doc = ("# Change runbook\n\n## Inputs\n- change: the change\n\n## Steps\n\n"
           "### Step 1: Rate\n`rate-change` rates the change.\n\n"
           "### Step 2: Canary\nIf the risk from step 1 is HIGH: `canary-push` pushes the change.\n\n"
           "### Step 3: Direct\nOtherwise `direct-push` pushes the change.\n")
    plan = plan_of_text(doc, CATALOG, "runbook.md")
    assert plan.step("step-2").when == "steps['step-1'].output.risk == 'high'"
    assert [w for w in plan.warnings if w.code == "plan.value-spelling"], [w.message for w in plan.warnings]
