"""`skillweave serve` as a real subprocess over stdio, through mcp's `Client`."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from serverkit import REPO, make_project, ok, roots_callback, stdio_client, text

pytestmark = pytest.mark.e2e

EXPECTED_TOOLS = {
    "list_skills",
    "validate_spec",
    "plan_workflow",
    "run_workflow",
    "get_run",
    "list_runs",
    "resume_run",
    "approve_step",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


async def test_the_server_lists_its_tools_and_refuses_paths_outside_its_roots(project: Path) -> None:
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            refused = await client.call_tool("validate_spec", {"spec": "/etc/hostname"})
            climbing = await client.call_tool("validate_spec", {"spec": "../outside.md"})
    assert tools == EXPECTED_TOOLS
    assert refused.is_error and "outside the server's roots" in text(refused)
    assert climbing.is_error and "outside the server's roots" in text(climbing)


async def test_the_seed_fixture_validates_through_a_client_root(project: Path, seed_spec: Path) -> None:
    with anyio.fail_after(60):
        async with stdio_client(project, list_roots_callback=roots_callback(seed_spec.parent)) as client:
            report = ok(await client.call_tool("validate_spec", {"spec": str(seed_spec)}))
    assert report["ok"] is True
    assert len(report["steps"]) == 4
    assert report["inputs"] == ["module_name"]


async def test_a_workflow_runs_with_progress_notifications(project: Path) -> None:
    messages: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    with anyio.fail_after(90):
        async with stdio_client(project) as client:
            run = ok(
                await client.call_tool(
                    "run_workflow",
                    {"spec": "specs/count.md", "inputs": {"text": "the quick brown fox"}},
                    progress_callback=progress,
                )
            )
    assert run["status"] == "succeeded", run
    assert run["outputs"]["step-1"]["words"] == 4
    assert any("attempt started" in m for m in messages), messages
    assert any("step finished" in m for m in messages), messages


async def test_a_paused_run_is_approved_and_finishes(project: Path) -> None:
    with anyio.fail_after(90):
        async with stdio_client(project) as client:
            paused = ok(
                await client.call_tool(
                    "run_workflow", {"spec": "specs/shout-approved.md", "inputs": {"text": "ship it"}}
                )
            )
            assert paused["status"] == "paused"
            assert paused["awaiting_approval"] == ["step-2"]
            done = ok(await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"}))
    assert done["status"] == "succeeded", done
    assert done["outputs"]["step-2"] == {"shouted": "SHIP IT (2 words)"}


async def test_the_example_workflow_runs_with_progress(project: Path) -> None:
    """The bundled Fetch-Analyze-Document spec, with the bundled skills and docs server."""
    shutil.copy(REPO / "specs" / "fetch-analyze-document.md", project / "specs" / "fetch-analyze-document.md")
    messages: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    with anyio.fail_after(180):
        async with stdio_client(project) as client:
            started = ok(
                await client.call_tool(
                    "run_workflow",
                    {"spec": "specs/fetch-analyze-document.md", "inputs": {"module_name": "json"}, "wait": False},
                )
            )
            run = started
            while run["status"] in ("pending", "running"):
                run = ok(
                    await client.call_tool(
                        "get_run", {"run_id": started["run_id"], "wait_s": 30}, progress_callback=progress
                    )
                )
    assert run["status"] == "succeeded", run
    assert {s["id"] for s in run["steps"]} == {"step-1", "step-2", "step-3", "step-4"}
    assert messages
