"""`--backend`: which options go with which backend, refused before anything starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from orchestrator.cli import cli
from orchestrator.cli.run_view import render_summary
from orchestrator.engine import RunStatus, RunSummary

SEED = Path(__file__).resolve().parents[3] / "specs" / "fetch-analyze-document.md"


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"SKILLWEAVE_BACKEND": "", **(env or {})})
    return result.exit_code, result.output


def test_no_wait_is_refused_for_a_local_run(tmp_path: Path) -> None:
    code, output = invoke("run", str(SEED), "--input", "module_name=json", "--no-wait", "--state-dir", str(tmp_path))
    assert code == 2
    assert "--no-wait is for --backend temporal" in output
    assert not (tmp_path / "journal.db").exists()  # refused before a run was recorded


def test_promote_is_refused_on_temporal_before_anything_is_contacted(tmp_path: Path) -> None:
    code, output = invoke("run", str(SEED), "--input", "module_name=json", "--backend", "temporal", "--promote",
                          "--temporal-address", "127.0.0.1:1", "--state-dir", str(tmp_path))
    assert code == 2
    assert "--promote is for local runs" in output


def test_runs_stats_is_refused_on_temporal_before_anything_is_contacted(tmp_path: Path) -> None:
    code, output = invoke("runs", "--stats", "--backend", "temporal", "--temporal-address", "127.0.0.1:1",
                          "--state-dir", str(tmp_path))
    assert code == 2
    assert "--stats reads the local journal; drop --backend temporal" in output


def test_an_unknown_backend_in_the_environment_is_a_usage_error(tmp_path: Path) -> None:
    code, output = invoke("runs", "--json", "--state-dir", str(tmp_path), env={"SKILLWEAVE_BACKEND": "cloud"})
    assert code == 2
    assert json.loads(output[output.index("{"):])["error"]["message"] == "unknown backend 'cloud': local or temporal"


@pytest.mark.parametrize("command", [("worker", "--help"), ("run", "--help"), ("approve", "--help")])
def test_the_temporal_options_are_documented(command: tuple[str, ...]) -> None:
    code, output = invoke(*command)
    assert code == 0
    assert "--temporal-address" in output and "--task-queue" in output and "--namespace" in output


def test_a_paused_summary_says_how_to_go_on_with_its_backend() -> None:
    summary = RunSummary(run_id="r1", plan_name="p", plan_sha256="", status=RunStatus.PAUSED, created_at=0.0,
                         awaiting=("publish",))
    assert "skillweave approve r1 publish    (or --reject)" in render_summary(summary)
    on_temporal = render_summary(summary, "temporal")
    assert "skillweave approve r1 publish --backend temporal" in on_temporal
    assert "goes on by itself" in on_temporal
