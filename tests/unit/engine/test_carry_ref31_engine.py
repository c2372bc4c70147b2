"""The engine reads a value to go on with from earlier data when the fallback applies (`plan.carry_ref31`):
a weeding-style check that fails hands on each candidate's code, and the run ends degraded saying so."""

from __future__ import annotations

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.plan.model import InputBinding, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import Carried, ErrorClass, Fallback, FallbackAction
from orchestrator.testing import Fail, FakeRunner, fake_plan

CODE = Fail(ErrorClass.CODE_ERROR, "KeyError: 'holds'")


def _steps(carry: tuple[Carried, ...]) -> list[PlanStep]:
    fallback = Fallback(action=FallbackAction.DEFAULT, value={"kept": []}, carry=carry)
    return [
        PlanStep(id="find", name="Find", skill="finder"),
        PlanStep(id="check", name="Check", skill="checker", depends_on=("find",),
                 inputs={"items": InputBinding(source="step", step="find", pointer="/items")},
                 policy=StepPolicy(fallback=fallback)),
        PlanStep(id="log", name="Log", skill="logger", depends_on=("check",),
                 inputs={"codes": InputBinding(source="step", step="check", pointer="/go")}),
    ]


async def test_a_failed_step_goes_on_with_each_item_s_field_of_an_earlier_list_and_the_run_is_degraded(
    execute,
) -> None:
    carry = (Carried(field="go", said="all the items' codes", step="find", pointer="/items", each="code"),)
    runner = FakeRunner({"find": [{"items": [{"code": "A1"}, {"code": "B2"}]}], "check": [CODE]})
    summary = await execute(fake_plan(_steps(carry)), runner)
    assert summary.status is RunStatus.DEGRADED
    assert summary.step("check").status is StepStatus.DEFAULTED
    assert summary.outputs["log"] == {"codes": ["A1", "B2"]}
    (degraded,) = summary.degraded
    assert "go carried from find's output items (each code)" in degraded.reason


async def test_a_value_that_is_not_there_when_the_fallback_applies_fails_the_step(execute) -> None:
    carry = (Carried(field="go", said="the input batch", input="batch"),)
    plan = fake_plan(_steps(carry), inputs=[PlanInput(name="batch", required=False)])
    summary = await execute(plan, FakeRunner({"find": [{"items": []}], "check": [CODE]}))
    assert summary.status is RunStatus.FAILED
    assert "could not be read: workflow input batch was not given" in (summary.step("check").message or "")
