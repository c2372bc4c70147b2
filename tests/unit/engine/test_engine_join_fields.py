"""A join input whose branches each hand the value over under their own field name."""

from __future__ import annotations

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, StepStatus, approve_step, create_run, execute_run
from orchestrator.engine.render import Renderer, RenderError
from orchestrator.plan.model import InputBinding, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy
from orchestrator.testing import FakeClock, FakeRunner, fake_plan

PICK = PlanInput(name="card", schema={"type": "boolean"})
REFERENCE = InputBinding(source="step", step="refund", pointer="/refund_no", any_of=("refund", "voucher"),
                         pointers={"refund": "/refund_no", "voucher": "/code"})


def branches(reference: InputBinding = REFERENCE, **after: object) -> list[PlanStep]:
    return [
        PlanStep(id="refund", name="Refund", skill="s", when="inputs.card"),
        PlanStep(id="voucher", name="Voucher", skill="s", when="not (inputs.card)"),
        PlanStep(id="tell", name="Tell", skill="s", depends_on=("refund", "voucher"), inputs={"ref": reference},
                 **after),  # type: ignore[arg-type]
    ]


def outputs_of(card: bool) -> FakeRunner:
    return FakeRunner({"refund": [{"refund_no": "R-17", "amount": 30}] if card else [],
                       "voucher": [{"code": "V-88", "valid_days": 90}] if not card else []})


@pytest.mark.parametrize(("card", "ran", "given"), [(True, "refund", "R-17"), (False, "voucher", "V-88")])
async def test_the_step_after_the_branches_gets_the_field_of_the_branch_that_ran(execute, card: bool, ran: str,
                                                                                  given: str) -> None:
    summary = await execute(fake_plan(branches(), inputs=[PICK]), outputs_of(card), {"card": card})
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step(ran).status is StepStatus.SUCCEEDED
    assert summary.outputs["tell"] == {"ref": given}


def test_with_neither_branch_run_a_required_join_input_has_no_value_and_an_optional_one_is_left_out() -> None:
    plan = fake_plan(branches(), inputs=[PICK])
    renderer = Renderer(plan, {"card": True})
    with pytest.raises(RenderError, match="whichever of steps 'refund' at /refund_no, 'voucher' at /code ran"):
        renderer.step_input(plan.step("tell"), {})
    optional = fake_plan(branches(REFERENCE.model_copy(update={"optional": True})), inputs=[PICK])
    assert Renderer(optional, {}).step_input(optional.step("tell"), {}) == {}


def test_the_join_step_with_an_output_gives_the_value_at_its_own_field_and_two_differing_ones_none() -> None:
    plan = fake_plan(branches(), inputs=[PICK])
    both = {"refund": {"refund_no": "R-1"}, "voucher": {"code": "R-1"}}  # both ran, one value: that value
    assert Renderer(plan, {}).step_input(plan.step("tell"), both) == {"ref": "R-1"}
    both = {"refund": {"refund_no": "R-1"}, "voucher": {"code": "V-1"}}  # two values: which is meant is not known
    with pytest.raises(RenderError, match="'refund' and 'voucher' both ran and gave different values"):
        Renderer(plan, {}).step_input(plan.step("tell"), both)
    assert Renderer(plan, {}).step_input(plan.step("tell"), {"voucher": {"code": "V-1"}}) == {"ref": "V-1"}
    with pytest.raises(RenderError, match="has no value"):  # the branch that ran lacks its field
        Renderer(plan, {}).step_input(plan.step("tell"), {"voucher": {"refund_no": "R-1"}})


async def test_a_required_join_input_when_no_branch_ran_fails_the_step_naming_both_branches(execute) -> None:
    never = "inputs.card and not inputs.card"
    steps = [PlanStep(id="start", name="Start", skill="s"), *(s.model_copy(update={"when": never}) for s in branches()[:2]),
             branches()[2].model_copy(update={"depends_on": ("start", "refund", "voucher")})]
    summary = await execute(fake_plan(steps, inputs=[PICK]), FakeRunner(), {"card": True})
    tell = summary.step("tell")
    assert summary.status is RunStatus.FAILED and tell.status is StepStatus.FAILED and tell.attempts == 0
    assert tell.message.startswith("its required input `ref` comes from refund, voucher, which has no output")


async def test_a_resumed_run_gives_the_join_step_the_field_of_the_branch_that_ran_before_the_pause(
    settings: Settings, clock: FakeClock
) -> None:
    plan = fake_plan(branches(policy=StepPolicy(approval=ApprovalPolicy())), inputs=[PICK])
    run_id = create_run(plan, {"card": False}, settings)
    first = await execute_run(run_id, settings, runners={"script": outputs_of(False)}, clock=clock)
    assert first.status is RunStatus.PAUSED and first.awaiting == ("tell",)
    approve_step(run_id, "tell", settings)
    runner = FakeRunner()  # nothing runs again but the join step: its input comes from the journal
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED
    assert [(r.step_id, r.input) for r in runner.requests] == [("tell", {"ref": "V-88"})]
