"""One input put together from several steps' values in order (`plan.joined_value40`): read from a joined
reference, said by the plan, checked against its consumer's schema."""

from __future__ import annotations

import json

import pytest
from plan_factory import SETTINGS, FakeCatalog, field, obj, skill, step, workflow

from orchestrator.plan.build import draft_plan
from orchestrator.plan.checks import check_plan
from orchestrator.plan.joined_value40 import joined_parts
from orchestrator.plan.model import Plan
from orchestrator.plan.render import render_text
from orchestrator.spec.model import WorkflowSpec

LIST = {"type": "array", "items": {"type": "string"}}
PICK_A = skill("pick-north", output_schema=obj(("picked",), picked=LIST, crates="integer"))
PICK_B = skill("pick-south", output_schema=obj(("picked", "crates"), picked=LIST, crates="integer"))
LOAD = skill("load-van", input_schema=obj(("lines",), lines=LIST), output_schema=obj(("ok",), ok="boolean"))
COUNT = skill("count-lines", input_schema=obj(("lines",), lines="integer"), output_schema=obj(("ok",), ok="boolean"))


def depot(source: str, consumer: str = "`load-van`") -> WorkflowSpec:
    return workflow(step(1, "North", "`pick-north`"), step(2, "South", "`pick-south`"),
                    step(3, "Load", consumer, depends_on=("step-1", "step-2"),
                         inputs=(field("lines", line=31, source=source),)))


def planned(spec: WorkflowSpec) -> tuple[Plan, list[str]]:
    plan, errors = draft_plan(spec, FakeCatalog(PICK_A, PICK_B, LOAD, COUNT), settings=SETTINGS)
    assert not errors, errors
    return plan, [d.render() for d in check_plan(plan, spec)]


@pytest.mark.parametrize(("ref", "parts"), [
    ("steps.step-1.output.picked + steps.step-2.output.picked", ["steps.step-1.output.picked",
                                                                 "steps.step-2.output.picked"]),
    ("step-1.picked+step-2.crates+inputs.spare", ["step-1.picked", "step-2.crates", "inputs.spare"]),
])
def test_a_joined_reference_is_its_parts_in_order(ref: str, parts: list[str]) -> None:
    assert joined_parts(ref) == parts


@pytest.mark.parametrize("ref", ["steps.step-1.output.count + 1", "picked + ", "steps.step-1.output.picked",
                                 "a.b + c d.e"])
def test_a_sum_with_a_number_a_dangling_plus_or_one_reference_is_no_join(ref: str) -> None:
    assert joined_parts(ref) is None


def test_a_joined_reference_binds_each_steps_field_in_order_and_the_plan_says_so() -> None:
    plan, found = planned(depot("steps.step-2.output.picked + steps.step-1.output.picked"))
    lines = plan.step("step-3").inputs["lines"]
    assert [(p.step, p.pointer) for p in lines.joined] == [("step-2", "/picked"), ("step-1", "/picked")]
    assert not [f for f in found if "error" in f], found
    text = render_text(plan)
    assert "lines <- joined from step-2 output /picked + step-1 output /picked" in text
    assert "joined in order into one list" in plan.step("step-3").provenance["inputs.lines"].note
    assert json.loads(plan.model_dump_json())["steps"][2]["inputs"]["lines"]["joined"][0]["step"] == "step-2"


def test_a_scalar_part_fits_a_list_of_its_type_and_a_mismatched_one_is_refused() -> None:
    _, found = planned(depot("steps.step-1.output.picked + steps.step-2.output.crates"))
    assert any("`lines` joins /crates, which cannot be one of its items" in f and "integer" in f for f in found), found


def test_a_consumer_that_takes_no_list_is_refused() -> None:
    _, found = planned(depot("steps.step-1.output.picked + steps.step-2.output.picked", "`count-lines`"))
    assert any("`lines` is joined from 2 values into one list, but its schema takes integer" in f for f in found), found


def test_a_part_that_names_no_earlier_output_leaves_the_input_unbound() -> None:
    plan, _ = planned(depot("steps.step-1.output.picked + steps.step-9.output.picked"))
    assert not plan.step("step-3").inputs.get("lines", None) or not plan.step("step-3").inputs["lines"].joined
