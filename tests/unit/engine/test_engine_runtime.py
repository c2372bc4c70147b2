"""Runners and the regenerator come from the factory seam; a missing one fails clearly."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from orchestrator.engine import RunStatus
from orchestrator.errors import ConfigError
from orchestrator.kinds import GROUP, BuiltinKind, KindRegistry, SkillKind
from orchestrator.plan.model import PlanStep
from orchestrator.runner import RunnerContext
from orchestrator.testing import FakeRunner, fake_plan, fake_skill


def refusing_factory(ctx: RunnerContext) -> object:
    raise ConfigError("mcp.json names no server 'docs'", where="mcp.json")


class GhostKind(SkillKind):
    name = "ghost"
    runner = "orchestrator.no_such_module:create_runner"


class PickyKind(SkillKind):
    name = "picky"
    runner = f"{__name__}:refusing_factory"


@pytest.fixture(autouse=True)
def test_kinds(monkeypatch: pytest.MonkeyPatch) -> KindRegistry:
    """The engine's registry, with two test kinds installed beside the built-in ones."""
    from orchestrator.engine import runtime

    registry = KindRegistry(installed=[EntryPoint("ghost", f"{__name__}:GhostKind", GROUP),
                                       EntryPoint("picky", f"{__name__}:PickyKind", GROUP)])
    monkeypatch.setattr(runtime, "kind_registry", lambda: registry)
    return registry


async def test_a_kind_without_a_runner_module_fails_its_steps_as_unrecoverable(execute) -> None:
    plan = fake_plan(
        [PlanStep(id="fetch", name="Fetch", skill="docs"), PlanStep(id="local", name="Local", skill="s")],
        skills={"docs": fake_skill("docs", kind="ghost")},
    )
    summary = await execute(plan, FakeRunner())
    assert summary.status is RunStatus.ESCALATED
    step = summary.step("fetch")
    assert step.error_class == "unrecoverable"
    assert "the 'ghost' runner is not installed (module orchestrator.no_such_module not found)" in step.message
    assert step.attempts == 0


async def test_a_runner_factory_that_refuses_names_the_reason(execute) -> None:
    plan = fake_plan(
        [PlanStep(id="fetch", name="Fetch", skill="docs")],
        skills={"docs": fake_skill("docs", kind="picky")},
    )
    summary = await execute(plan, FakeRunner())
    assert "could not start: mcp.json: mcp.json names no server 'docs'" in summary.step("fetch").message


async def test_an_instructions_only_skill_cannot_be_a_step(execute) -> None:
    plan = fake_plan(
        [PlanStep(id="guide", name="Guide", skill="howto")],
        skills={"howto": fake_skill("howto", kind=BuiltinKind.INSTRUCTIONS)},
    )
    summary = await execute(plan, FakeRunner())
    assert "no runner executes skills of kind 'instructions'" in summary.step("guide").message


async def test_runners_the_engine_made_are_closed_and_given_ones_are_left_open(execute) -> None:
    runner = FakeRunner()
    await execute(fake_plan([PlanStep(id="a", name="A", skill="s")]), runner)
    assert runner.closed is False


async def test_a_kind_no_one_registered_fails_its_steps_naming_it(execute) -> None:
    plan = fake_plan(
        [PlanStep(id="send", name="Send", skill="fax")], skills={"fax": fake_skill("fax", kind="fax")}
    )
    summary = await execute(plan, FakeRunner())
    assert summary.step("send").error_class == "unrecoverable"
    assert "no runner executes skills of kind 'fax'" in summary.step("send").message
