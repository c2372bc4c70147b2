"""The server starts no command from an mcp.json the person has not trusted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp_types import CallToolResult

from orchestrator.compile import compile_spec
from orchestrator.config import load_settings
from orchestrator.engine import create_run
from orchestrator.security.trust import TrustStore

ClientFactory = Any  # the `connect` fixture (conftest.py)

SKILL = (
    "---\nname: mark-call\ndescription: Calls a tool of the marking server.\n"
    "metadata:\n  skillweave.kind: mcp\n  skillweave.server: mark\n  skillweave.tool: anything\n"
    '  skillweave.timeout: "5"\n---\n\n# Mark\n\nCalls it.\n'
)
SPEC = "# Mark\n\n## Intent\nStart the server.\n\n## Workflow Steps\n\n### Step 1: Call\n- Skill: `mark-call`\n- Retries: 0\n"


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "started"


@pytest.fixture
def config(project: Path, marker: Path) -> Path:
    """specs/mark.md, its skill, and an mcp.json whose server touches `marker`."""
    folder = project / "specs"
    (folder / "skills" / "mark-call").mkdir(parents=True)
    (folder / "skills" / "mark-call" / "SKILL.md").write_text(SKILL)
    (folder / "mark.md").write_text(SPEC)
    path = folder / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"mark": {"command": "/bin/sh", "args": ["-c", f"touch {marker}"]}}}))
    return path


async def test_a_run_that_would_start_an_untrusted_server_is_refused_before_it_is_recorded(
    connect: ClientFactory, config: Path, marker: Path
) -> None:
    async with connect() as client:
        refused = await client.call_tool("run_workflow", {"spec": "specs/mark.md"})
        runs = await client.call_tool("list_runs", {})
    assert refused.is_error
    said = text(refused)
    assert f"{config}:1: mcpServers.mark: this mcp.json is not trusted" in said
    assert f"`mark`: /bin/sh -c 'touch {marker}'" in said
    assert f"skillweave trust {config}" in said
    assert runs.structured_content == {"runs": []}
    assert not marker.exists()


async def test_a_run_on_temporal_that_would_start_an_untrusted_server_is_refused_before_temporal_is_asked(
    connect: ClientFactory, config: Path, marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLWEAVE_TEMPORAL_ADDRESS", "127.0.0.1:1")  # nothing answers there
    async with connect() as client:
        refused = await client.call_tool("run_workflow", {"spec": "specs/mark.md", "backend": "temporal"})
    assert refused.is_error
    said = text(refused)
    assert f"{config}:1: mcpServers.mark: this mcp.json is not trusted" in said
    assert "Temporal" not in said  # refused here, before any worker could start it
    assert not marker.exists()


async def test_validating_such_a_spec_warns_and_starts_nothing(connect: ClientFactory, config: Path, marker: Path) -> None:
    async with connect() as client:
        report = await client.call_tool("validate_spec", {"spec": "specs/mark.md"})
    assert not report.is_error, text(report)
    assert report.structured_content is not None
    warnings = [w["message"] for w in report.structured_content["warnings"]]
    assert any("this mcp.json is not trusted" in w for w in warnings), warnings
    assert not marker.exists()


async def test_once_trusted_the_server_starts_it_and_once_changed_no_longer(
    connect: ClientFactory, config: Path, marker: Path
) -> None:
    TrustStore().add(config)
    async with connect() as client:
        started = await client.call_tool("run_workflow", {"spec": "specs/mark.md"})
        assert not started.is_error, text(started)
        assert marker.exists()
        marker.unlink()
        config.write_text(config.read_text().replace("touch", "touch -c"))
        again = await client.call_tool("run_workflow", {"spec": "specs/mark.md"})
    assert again.is_error and "changed since you trusted it" in text(again)
    assert not marker.exists()


async def test_a_run_started_from_a_shell_is_not_resumed_through_the_server_untrusted(
    connect: ClientFactory, project: Path, config: Path, marker: Path
) -> None:
    shell = load_settings(env={}, state_dir=project / ".skillweave")  # `skillweave run` needs no trust
    run_id = create_run(compile_spec(project / "specs" / "mark.md", shell), {}, shell)
    marker.unlink(missing_ok=True)  # compiling asked the server for its tool's schemas
    async with connect() as client:
        resumed = await client.call_tool("resume_run", {"run_id": str(run_id)})
    assert resumed.is_error and "this mcp.json is not trusted" in text(resumed)
    assert not marker.exists()
