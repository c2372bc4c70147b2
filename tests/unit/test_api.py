"""The Python API's edges: what it refuses, and how; the happy path is docs/api.md's."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator import ConfigError, NotFoundError, PlanError, UserError, Workflow
from orchestrator.plan.model import PlanInput, PlanStep
from orchestrator.testing import FakeRunner, fake_plan


@pytest.fixture
def flow(tmp_path: Path) -> Workflow:
    from orchestrator.api import settings_for

    plan = fake_plan([PlanStep(id="a", name="A", skill="s")], inputs=[PlanInput(name="city", required=False)])
    return Workflow(plan, settings_for(state_dir=tmp_path / "state"))


async def test_run_refuses_a_running_event_loop_and_arun_works_there(flow: Workflow) -> None:
    with pytest.raises(UserError, match=r"use `await Workflow.arun\(...\)` there"):
        flow.run({})
    result = await flow.arun({}, runners={"script": FakeRunner(default={"x": 1})})
    assert result.ok and result.outputs == {"a": {"x": 1}}
    assert result.run_dir is not None and Path(result.run_dir).is_dir()
    assert result.report is not None and Path(result.report).is_file()
    assert [r.run_id for r in flow.runs()] == [result.run_id]
    assert flow.get(result.run_id).status == "succeeded"


def test_inputs_the_plan_does_not_take_are_a_config_error_naming_them(flow: Workflow) -> None:
    with pytest.raises(ConfigError) as caught:
        flow.run({"nope": 1})
    assert caught.value.where == "inputs.nope"


def test_a_spec_that_is_not_there_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="no such spec"):
        Workflow.from_spec(tmp_path / "missing.md", state_dir=tmp_path / "state")


def test_a_spec_binding_an_unknown_skill_is_a_plan_error_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "w.md"
    spec.write_text("# W\n\n## Intent\nX.\n\n## Workflow Steps\n\n### Step 1: Go\n- Skill: `no-such-skill`\n")
    with pytest.raises(PlanError) as caught:
        Workflow.from_spec(spec, state_dir=tmp_path / "state")
    assert any(d.line == 9 and d.code == "unknown-skill" for d in caught.value.diagnostics)
