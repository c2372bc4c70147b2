"""Saved plans load back or fail clearly; plans render as JSON, Mermaid and text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow

from orchestrator.compile import load_spec_or_plan
from orchestrator.errors import ConfigError, NotFoundError
from orchestrator.plan import build_plan, load_plan, render_plan
from orchestrator.plan.model import Plan
from orchestrator.spec.model import ConvergenceSpec

GEN = skill("gen-docs", output_schema=obj(("docs",), docs="string"))
CHECK = skill("check-docs", input_schema=obj(("docs",), docs="string"))


@pytest.fixture
def plan() -> Plan:
    conv = ConvergenceSpec(feedback={"step-2": ("step-1", 2)}, where={"step-2.feedback": at(88)})
    spec = workflow(
        step(1, 'Write "docs"', "`gen-docs`", outputs=(field("docs", "string", line=12),), compensation="gen-docs"),
        step(2, "Check", "`check-docs`", inputs=(field("docs", line=22),)),
        convergence=conv,
    )
    return build_plan(spec, FakeCatalog(GEN, CHECK), settings=SETTINGS)


def test_a_saved_plan_loads_back_equal(plan: Plan, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(render_plan(plan, "json"))
    assert load_plan(path) == plan
    assert load_spec_or_plan(path, SETTINGS) == plan


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a skillweave plan"),
        ('{"format": 99, "spec": {}, "steps": []}', "plan format 99"),
        ('{"format": 1, "name": "x", "spec": {"path": "a"}, "steps": [], "skills": {}}', "not a valid plan"),
    ],
)
def test_a_file_that_is_not_a_plan_is_a_config_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_plan(path)
    assert message in caught.value.message
    assert str(path) in caught.value.render()


def test_a_plan_edited_after_it_was_written_is_refused(plan: Plan, tmp_path: Path) -> None:
    data = json.loads(plan.to_json())
    data["steps"][0]["policy"]["retry"]["max_retries"] = 9
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="sha256 does not match"):
        load_plan(path)


def test_a_missing_plan_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        load_plan(tmp_path / "absent.json")


def test_mermaid_draws_steps_handoffs_feedback_and_compensation(plan: Plan) -> None:
    text = render_plan(plan, "mermaid")
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    assert 's_step_1["step-1: Write #quot;docs#quot;<br/>gen-docs (script)"]' in text
    assert "    s_step_1 -->|docs| s_step_2" in lines
    assert "    s_step_2 -.->|feedback, 2 attempts max| s_step_1" in lines
    assert any("compensate: gen-docs" in line for line in lines)


def test_text_review_shows_bindings_policies_and_where_they_came_from(plan: Plan) -> None:
    text = render_plan(plan, "text")
    assert "step-2: Check  [flow.md:20]" in text
    assert "skill        check-docs (script, dir)  [spec flow.md:21: named]" in text
    assert "input        docs <- step-1 output /docs" in text
    assert "feedback     failure regenerates step-1, 2 attempts max  [spec flow.md:88:" in text
    assert "Warnings (0)" in text


def test_an_unknown_format_is_refused(plan: Plan) -> None:
    with pytest.raises(ValueError, match="unknown plan format"):
        render_plan(plan, "yaml")  # type: ignore[arg-type]
