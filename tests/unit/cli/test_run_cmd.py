"""`run`'s input parsing and its human summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.cli.run_cmd import parse_inputs, render_summary
from orchestrator.engine import RunErrorInfo, RunStatus, RunSummary
from orchestrator.errors import ConfigError
from orchestrator.plan.model import PlanInput, PlanStep
from orchestrator.testing import fake_plan

PLAN = fake_plan(
    [PlanStep(id="a", name="A", skill="s")],
    inputs=[PlanInput(name="module", schema={"type": "string"}), PlanInput(name="depth", schema={"type": "integer"})],
)


def test_values_are_json_unless_the_input_is_a_string() -> None:
    values = parse_inputs(PLAN, ("module=42", "depth=3", "extra=[1, 2]", "free=not json"), ())
    assert values == {"module": "42", "depth": 3, "extra": [1, 2], "free": "not json"}


def test_input_files_come_first_and_flags_override_them(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text("module: yaml\ndepth: 1\n")
    (tmp_path / "in.json").write_text('{"depth": 2}')
    values = parse_inputs(PLAN, ("depth=5",), (tmp_path / "in.yaml", tmp_path / "in.json"))
    assert values == {"module": "yaml", "depth": 5}


def test_a_malformed_input_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="NAME=VALUE"):
        parse_inputs(PLAN, ("module",), ())
    (tmp_path / "list.json").write_text("[1]")
    with pytest.raises(ConfigError, match="mapping"):
        parse_inputs(PLAN, (), (tmp_path / "list.json",))
    (tmp_path / "bad.yaml").write_text("a: [")
    with pytest.raises(ConfigError, match="not a JSON or YAML document"):
        parse_inputs(PLAN, (), (tmp_path / "bad.yaml",))


def test_a_paused_summary_says_how_to_continue() -> None:
    summary = RunSummary(
        run_id="r1", plan_name="p", plan_sha256="x", status=RunStatus.PAUSED, created_at=0, awaiting=("publish",)
    )
    text = render_summary(summary)
    assert "skillweave approve r1 publish" in text
    assert "skillweave resume r1" in text


def test_a_failed_summary_names_where_and_the_limit() -> None:
    summary = RunSummary(
        run_id="r1", plan_name="p", plan_sha256="x", status=RunStatus.FAILED, created_at=0,
        error=RunErrorInfo(where="fetch", message="too many attempts", limit="max_attempts_per_step"),
    )
    assert "error: fetch: too many attempts [limit max_attempts_per_step]" in render_summary(summary)
