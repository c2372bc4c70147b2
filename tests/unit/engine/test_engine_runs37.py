"""A step the plan could not give an input its skill reads fails, and the fallback value its author wrote for
the skill failing is not used for it (`engine.runs37`): no run ends `degraded` with a value nobody meant."""

from __future__ import annotations

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.plan.model import InputBinding, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, Fallback, FallbackAction
from orchestrator.testing import Fail, FakeRunner, fake_plan


def _plan(step: str, skill: str, given: str, policy: StepPolicy, not_given: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    return fake_plan([PlanStep(id=step, name=step.title(), skill=skill, not_given=not_given, policy=policy,
                               inputs={given: InputBinding(source="input", name=given)})],
                     inputs=[PlanInput(name=given)])


async def test_a_runbook_step_with_a_value_to_go_on_with_fails_when_its_input_was_never_read(execute) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"slot": "TEMP-DOCK"}))
    runner = FakeRunner({"assign": [{"slot": "A-1"}]})
    summary = await execute(_plan("assign", "assign-slot", "crate", policy, ("count",)), runner,
                            inputs={"crate": "c-9"})
    assert summary.status is RunStatus.FAILED
    assert runner.requests == []
    step = summary.step("assign")
    assert step.status is StepStatus.FAILED
    assert "`count`" in step.message and "fallback (a value to go on with) is not used" in step.message


async def test_a_recipe_step_falling_back_to_another_skill_fails_too(execute) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.SKILL, skill="plain-proof"))
    runner = FakeRunner({"proof": [{"ok": True}]})
    summary = await execute(_plan("proof", "proof-dough", "flour", policy, ("hydration",)), runner,
                            inputs={"flour": 500})
    assert summary.status is RunStatus.FAILED
    assert runner.requests == []
    assert "another skill" in summary.step("proof").message


async def test_a_lab_step_whose_input_is_given_still_goes_on_with_its_fallback_value(execute) -> None:
    """Negative: the skill itself failing is what the fallback is for."""
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"od": None}))
    runner = FakeRunner({"read": [Fail(ErrorClass.UNRECOVERABLE, "reader offline")]})
    summary = await execute(_plan("read", "plate-reader", "plate", policy), runner, inputs={"plate": "p1"})
    assert summary.step("read").status is StepStatus.DEFAULTED
    assert summary.status is not RunStatus.FAILED


async def test_a_ticket_step_that_only_goes_on_without_output_keeps_it(execute) -> None:
    """Negative: `on error: continue` invents no value, so it stands."""
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE))
    runner = FakeRunner({"notify": [{"sent": True}]})
    summary = await execute(_plan("notify", "notify-owner", "ticket", policy, ("owner",)), runner,
                            inputs={"ticket": "T-1"})
    assert summary.step("notify").status is StepStatus.CONTINUED
    assert runner.requests == []
