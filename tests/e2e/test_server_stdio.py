"""`skillweave serve` as a real subprocess over stdio, through mcp's `Client`."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from serverkit import REPO, SKILLWEAVE, make_project, ok, roots_callback, stdio_client, text

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


async def test_the_seed_fixture_validates_through_a_server_root_not_a_client_root(
    project: Path, seed_spec: Path
) -> None:
    with anyio.fail_after(60):
        async with stdio_client(project, list_roots_callback=roots_callback(seed_spec.parent)) as client:
            widened = await client.call_tool("validate_spec", {"spec": str(seed_spec)})
        roots = ("--root", str(project), "--root", str(seed_spec.parent))
        async with stdio_client(project, *roots, list_roots_callback=roots_callback(seed_spec.parent)) as client:
            report = ok(await client.call_tool("validate_spec", {"spec": str(seed_spec)}))
    assert widened.is_error and "outside the server's roots" in text(widened)
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
                    {"spec": "specs/fetch-analyze-document.md", "inputs": {"module_name": "json"}, "wait": True},
                    progress_callback=progress,  # watched from its start: a run done before a get_run sends none
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


class RawSession:
    """JSON-RPC over the server's pipes, for what the SDK client hides: the process itself."""

    def __init__(self, project: Path) -> None:
        self.process = subprocess.Popen(
            [str(SKILLWEAVE), "serve", "--state-dir", str(project / ".skillweave")],
            cwd=project,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._next = 0

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self._next += 1
        message = {"jsonrpc": "2.0", "id": self._next, "method": method, "params": params}
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()
        while True:
            answer: dict[str, Any] = json.loads(self.process.stdout.readline())
            if answer.get("id") == self._next:
                return answer

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def notify(self, method: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.process.stdin.flush()

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})["result"]
        assert not result.get("isError"), result
        structured: dict[str, Any] = result["structuredContent"]
        return structured


def test_sigterm_mid_run_leaves_a_run_the_cli_resumes(project: Path) -> None:
    session = RawSession(project)
    try:
        session.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        session.notify("notifications/initialized")
        gate = project.parent / "gate"  # the step waits until the test opens it: still in flight at SIGTERM
        gate.mkdir()
        started = session.call(
            "run_workflow", {"spec": "specs/gated-count.md", "inputs": {"text": "one two", "gate": str(gate)}, "wait": False}
        )
        deadline = time.monotonic() + 30
        while not session.call("get_run", {"run_id": started["run_id"]})["steps"][0]["attempts"]:
            assert time.monotonic() < deadline, "the step never started"
            time.sleep(0.05)
        session.process.send_signal(signal.SIGTERM)
        assert session.process.wait(timeout=20) == -signal.SIGTERM
    finally:
        session.close()
    (gate / "open").touch()
    resumed = subprocess.run(
        [str(SKILLWEAVE), "resume", started["run_id"], "--state-dir", str(project / ".skillweave"), "--json"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert '"succeeded"' in resumed.stdout
