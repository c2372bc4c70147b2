"""The MCP server's `run_workflow` with `backend: "temporal"`: a run a host starts is executed by workers."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from temporal_kit import ROOT, Kit

from orchestrator.config import load_settings
from orchestrator.server import ServerConfig, build_server

pytestmark = pytest.mark.e2e

PROJECT = ROOT / "tests" / "e2e" / "data" / "server-project"


async def test_run_workflow_on_temporal_is_executed_by_a_worker_and_reported_back(
    kit: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = shutil.copytree(PROJECT, tmp_path / "project")
    kit.worker("w1")
    for name, value in kit.env().items():
        if name.startswith("SKILLWEAVE_"):
            monkeypatch.setenv(name, value)
    config = ServerConfig(settings=load_settings(env={}, state_dir=project / ".skillweave"), root=project,
                          wait_limit_s=60)
    async with Client(build_server(config)) as client:
        with anyio.fail_after(90):
            result = await client.call_tool(
                "run_workflow", {"spec": "specs/count.md", "inputs": {"text": "one two three"}, "backend": "temporal"}
            )
    assert not result.is_error, result.content
    run: dict[str, Any] = result.structured_content or {}
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-1"] == {"text": "one two three", "words": 3}
    assert "--backend temporal" in run["next"]
    assert not (project / ".skillweave" / "journal.db").exists()  # nothing of it in the server's journal
    code, shown = kit.run_json("runs")
    assert code == 0 and [r["run_id"] for r in shown["runs"]] == [run["run_id"]]
