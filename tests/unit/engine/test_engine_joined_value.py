"""One input put together from several values in order (`InputBinding.joined`): a list part's items each an
item, any other value one item, a step skipped by its condition adding nothing."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.engine.render import Renderer, RenderError
from orchestrator.plan.model import InputBinding, PlanInput, PlanStep
from orchestrator.testing import FakeRunner, fake_plan

ROUGH = PlanInput(name="rough", schema={"type": "boolean"})
PARTS = (InputBinding(source="step", step="sand", pointer="/boards"),
         InputBinding(source="step", step="plane", pointer="/boards"))
JOINED = InputBinding(source="step", step="sand", joined=PARTS)


def workshop(joined: InputBinding = JOINED, when: str | None = None) -> list[PlanStep]:
    return [
        PlanStep(id="sand", name="Sand", skill="s"),
        PlanStep(id="plane", name="Plane", skill="s", when=when),
        PlanStep(id="stack", name="Stack", skill="s", depends_on=("sand", "plane"), inputs={"boards": joined}),
    ]


async def test_both_steps_ran_their_lists_are_joined_in_order(execute) -> None:
    runner = FakeRunner({"sand": [{"boards": ["oak-1", "oak-2"]}], "plane": [{"boards": ["ash-7"]}]})
    summary = await execute(fake_plan(workshop()), runner, {})
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.outputs["stack"] == {"boards": ["oak-1", "oak-2", "ash-7"]}


async def test_a_step_skipped_by_its_condition_adds_nothing(execute) -> None:
    runner = FakeRunner({"sand": [{"boards": ["oak-1"]}]})
    summary = await execute(fake_plan(workshop(when="inputs.rough"), inputs=[ROUGH]), runner, {"rough": False})
    assert summary.step("plane").status is StepStatus.SKIPPED
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.outputs["stack"] == {"boards": ["oak-1"]}


def test_a_scalar_counts_as_one_item_a_null_as_none_and_a_missing_field_is_no_value() -> None:
    plan = fake_plan(workshop())
    step = plan.step("stack")
    assert Renderer(plan, {}).step_input(step, {"sand": {"boards": "oak-1"}, "plane": {"boards": ["ash-7", "ash-8"]}}) \
        == {"boards": ["oak-1", "ash-7", "ash-8"]}
    assert Renderer(plan, {}).step_input(step, {"sand": {"boards": None}, "plane": {"boards": {"id": 3}}}) \
        == {"boards": [{"id": 3}]}
    assert Renderer(plan, {}).step_input(step, {}) == {"boards": []}  # neither ran: nothing to join
    with pytest.raises(RenderError, match="has no value"):  # it ran, and lacks its field
        Renderer(plan, {}).step_input(step, {"sand": {"planks": []}, "plane": {"boards": []}})


def test_a_workflow_input_can_be_a_part_and_the_binding_reads_each_step() -> None:
    extra = InputBinding(source="step", step="sand", joined=(PARTS[0], InputBinding(source="input", name="spare")))
    plan = fake_plan(workshop(extra), inputs=[PlanInput(name="spare")])
    assert Renderer(plan, {"spare": ["pine"]}).step_input(plan.step("stack"), {"sand": {"boards": ["oak"]}}) \
        == {"boards": ["oak", "pine"]}
    assert JOINED.sources() == ("sand", "plane") and extra.sources() == ("sand",)


def test_a_joined_value_needs_two_parts_and_no_join_of_joins() -> None:
    with pytest.raises(ValidationError, match="two parts or more"):
        InputBinding(source="step", step="sand", joined=PARTS[:1])
    with pytest.raises(ValidationError, match="no join"):
        InputBinding(source="step", step="sand", joined=(JOINED, PARTS[1]))
    assert "joined" not in InputBinding(source="step", step="sand").model_dump(exclude_defaults=False)
