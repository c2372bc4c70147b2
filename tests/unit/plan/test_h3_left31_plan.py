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


# -- a preposition-named skill input given by the text's "to the `reviewer`" (`bind_addressed`) -----------

from orchestrator.plan.h3_left31 import bind_addressed  # noqa: E402
from orchestrator.spec.model import StepSpec  # noqa: E402


def _bind(text: str, names: list[str], inputs: list[str]) -> dict[str, str | None]:
    step = StepSpec(id="step-3", name="Send", where="doc.md:9")
    bindings: dict = {}
    bind_addressed(step, names, inputs, text, [], bindings, {}, "doc.md")
    return {k: v.name for k, v in bindings.items()}


@pytest.mark.parametrize(("text", "names", "inputs", "bound"), [
    # an e-mail asking for a report
    ("Last, send-review-email to the `reviewer`, with the app name.", ["to", "app"], ["reviewer", "app"],
     {"to": "reviewer"}),
    # a school newsletter's checklist
    ("`mail-parents` goes out from the `office_address` and cc `head_teacher`.", ["from", "cc"],
     ["office_address", "head_teacher"], {"from": "office_address", "cc": "head_teacher"}),
    # a ticket: the courier named after "via"
    ("Ship it via `courier` with `ship-parcel`.", ["via"], ["courier"], {"via": "courier"}),
])
def test_a_preposition_named_input_takes_the_workflow_input_named_after_the_word(
        text: str, names: list[str], inputs: list[str], bound: dict[str, str]) -> None:
    assert _bind(text, names, inputs) == bound


@pytest.mark.parametrize(("text", "names", "inputs"), [
    ("Send it to the `reviewer` and to `auditor`.", ["to"], ["reviewer", "auditor"]),  # two names: a guess
    ("Send it to the `reviewer`.", ["to"], ["owner"]),  # not a workflow input
    ("Send it to the `reviewer`.", ["recipient"], ["reviewer"]),  # the skill's name is no preposition
    ("Send it to the reviewer.", ["to"], ["reviewer"]),  # no backticks: the rename readers' words
])
def test_an_addressed_input_is_not_bound_on_a_guess(text: str, names: list[str], inputs: list[str]) -> None:
    assert _bind(text, names, inputs) == {}


# -- a gathered input its skill says is a list of the loop step's results: whole results (`whole_results`) ---

from orchestrator.plan.h3_left31 import whole_results  # noqa: E402
from orchestrator.plan.model import InputBinding  # noqa: E402


@pytest.mark.parametrize(("about", "loop_skill", "pointer"), [
    ("list of convert-prices results", "convert-prices", ""),  # an ADR's validate step
    ("(list of `grade-essay` outputs)", "grade-essay", ""),  # a teacher's marking sheet
    ("list of brew-batch results, one per tank", "brew-batch", ""),  # a brewery log
    ("list of prices", "convert-prices", "/feed"),  # no skill's results: as bound
    ("list of other-skill results", "convert-prices", "/feed"),  # another skill's results: as bound
])
def test_a_list_of_the_loop_skills_results_is_the_whole_results(about: str, loop_skill: str, pointer: str) -> None:
    bindings = {"feeds": InputBinding(source="step", step="step-3", pointer="/feed", gather=True)}
    found = whole_results(StepSpec(id="step-4", name="Check", where="doc.md:4"), bindings, lambda n: about,
                          {"step-3": loop_skill}.get, "doc.md")
    assert bindings["feeds"].pointer == pointer
    assert bool(found) is (pointer == "")
