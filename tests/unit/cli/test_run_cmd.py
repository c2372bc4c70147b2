"""`run`'s input parsing and its human summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.cli.run_cmd import parse_inputs
from orchestrator.cli.run_view import (
    DIFF_LINES,
    RunFiles,
    render_files,
    render_regenerations,
    render_summary,
)
from orchestrator.engine import RunErrorInfo, RunStatus, RunSummary
from orchestrator.errors import ConfigError
from orchestrator.plan.model import PlanInput, PlanStep
from orchestrator.report import RunReport
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


def report_with_regenerations() -> RunReport:
    from orchestrator.report.model import FailedAttempt, RegenerationRecord, StepReport

    diff = "--- a/scripts/main.py\n+++ b/scripts/main.py\n@@ -1,50 +1,50 @@\n" + "".join(
        f"-line {i}\n+line {i}!\n" for i in range(25)
    )
    fix = StepReport(
        step_id="fix", name="Fix", skill="s", status="succeeded",
        failed_attempts=(FailedAttempt(ts=1, attempt=1, error_class="code_error", message="KeyError: 'email'"),),
        regenerations=(
            RegenerationRecord(ts=2, attempt=1, rejected="the new script does not compile: line 3\nmore"),
            RegenerationRecord(ts=3, attempt=1, code_path="code/fix/v2-abc/main.py", diff=diff),
        ),
    )  # fmt: skip
    gone = StepReport(step_id="gone", name="Gone", skill="s", status="failed", regeneration_unavailable="no API key")
    return RunReport(run_id="r1", plan_name="p", plan_sha256="x", status="succeeded", created_at=0, steps=(fix, gone))


def test_each_regeneration_shows_what_failed_and_a_short_diff(tmp_path: Path) -> None:
    lines = render_regenerations(report_with_regenerations(), tmp_path)
    assert lines[0] == "regeneration of fix after attempt 1 refused: the new script does not compile: line 3"
    assert lines[1] == (
        f"regeneration of fix after attempt 1 (KeyError: 'email'): new version {tmp_path}/code/fix/v2-abc/main.py"
    )
    diff = lines[2:-1]
    assert diff[:3] == ["  --- a/scripts/main.py", "  +++ b/scripts/main.py", "  @@ -1,50 +1,50 @@"]
    assert len(diff) == DIFF_LINES + 1 and diff[-1] == "  ... 13 more lines"
    assert lines[-1] == "gone: regeneration is unavailable: no API key"


def test_the_files_part_names_the_report_and_each_artifact_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run_dir = tmp_path / ".skillweave" / "runs" / "r1"
    (run_dir / "artifacts" / "step-3" / "docs").mkdir(parents=True)
    (run_dir / "artifacts" / "step-3" / "docs" / "json.md").write_text("# json\n")
    files = RunFiles(run_dir, None, run_dir / "report.md")
    assert render_files(files) == [
        "report:    .skillweave/runs/r1/report.md",
        "artifacts: .skillweave/runs/r1/artifacts/step-3/docs/json.md",
    ]
    assert render_files(RunFiles(run_dir, None, None, "disk full")) == [
        "report:    not written (disk full)",
        "artifacts: .skillweave/runs/r1/artifacts/step-3/docs/json.md",
    ]


def test_a_report_that_cannot_be_written_is_said_not_raised(tmp_path: Path) -> None:
    from orchestrator.cli.run_view import save_report
    from orchestrator.config import Settings

    files = save_report("r-missing", Settings(state_dir=tmp_path / "empty"))
    assert files.report is None and files.report_path is None
    assert "no runs in" in files.problem
    assert render_files(files)[0].startswith("report:    not written (")
