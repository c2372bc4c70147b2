"""`skillweave serve --transport http` as a real subprocess: tools, runs, security."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from serverkit import HttpServer, http_server, make_project, ok, roots_callback, text

pytestmark = pytest.mark.e2e

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def server(project: Path) -> HttpServer:
    with http_server(project) as running:
        yield running  # type: ignore[misc]


async def test_the_http_server_validates_runs_and_approves(project: Path, seed_spec: Path) -> None:
    messages: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    roots = ("--root", str(project), "--root", str(seed_spec.parent))  # the seed lies outside the project
    with anyio.fail_after(90), http_server(project, *roots) as server:
        async with server.client(list_roots_callback=roots_callback(project, seed_spec.parent)) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            seed = ok(await client.call_tool("validate_spec", {"spec": str(seed_spec)}))
            refused = await client.call_tool("validate_spec", {"spec": "/etc/hostname"})
            run = ok(
                await client.call_tool(
                    "run_workflow",
                    {"spec": "specs/count.md", "inputs": {"text": "over http"}},
                    progress_callback=progress,
                )
            )
            paused = ok(
                await client.call_tool("run_workflow", {"spec": "specs/shout-approved.md", "inputs": {"text": "go"}})
            )
            approved = ok(await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"}))
    assert "run_workflow" in tools and len(tools) == 8
    assert seed["ok"] is True and len(seed["steps"]) == 4
    assert refused.is_error and "outside the server's roots" in text(refused)
    assert run["status"] == "succeeded" and run["outputs"]["step-1"]["words"] == 2
    assert any("step finished" in m for m in messages), messages
    assert paused["status"] == "paused"
    assert approved["status"] == "succeeded"


def test_requests_with_a_foreign_host_or_origin_are_rejected(server: HttpServer) -> None:
    port = int(server.url.split(":")[2].split("/")[0])
    body = json.dumps(INITIALIZE)
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {server.token}"}
    with httpx2.Client(timeout=10) as http:
        rebound = http.post(server.url, content=body, headers={**headers, "Host": f"evil.example:{port}"})
        foreign = http.post(server.url, content=body, headers={**headers, "Origin": "http://evil.example"})
        other_port = http.post(server.url, content=body, headers={**headers, "Origin": f"http://127.0.0.1:{port + 1}"})
        local = http.post(server.url, content=body, headers={**headers, "Origin": f"http://localhost:{port}"})
    assert rebound.status_code == 421
    assert foreign.status_code == 403
    assert other_port.status_code == 403  # a page served on another local port is not this server
    assert local.status_code == 200


async def test_a_given_token_is_required_and_nothing_else_gets_in(project: Path) -> None:
    with http_server(project, env={"SKILLWEAVE_SERVE_TOKEN": "t0ken-for-tests"}) as server:
        with httpx2.Client(timeout=10) as http:
            anonymous = http.post(server.url, content=json.dumps(INITIALIZE), headers=MCP_HEADERS)
            wrong = http.post(
                server.url, content=json.dumps(INITIALIZE), headers={**MCP_HEADERS, "Authorization": "Bearer t0ken"}
            )
        with anyio.fail_after(30):
            async with server.client(token="t0ken-for-tests") as client:
                tools = (await client.list_tools()).tools
    assert anonymous.status_code == 401
    assert wrong.status_code == 401
    assert len(tools) == 8


def test_without_a_token_given_one_is_made_kept_0600_and_printed(project: Path) -> None:
    token_file = project / ".skillweave" / "serve-token"
    with http_server(project) as server:
        with httpx2.Client(timeout=10) as http:
            anonymous = http.post(server.url, content=json.dumps(INITIALIZE), headers=MCP_HEADERS)
            let_in = http.post(
                server.url,
                content=json.dumps(INITIALIZE),
                headers={**MCP_HEADERS, "Authorization": f"Bearer {server.token}"},
            )
        printed = _eventually_in(server, "Bearer <token>")
    assert anonymous.status_code == 401 and let_in.status_code == 200
    assert token_file.stat().st_mode & 0o777 == 0o600
    assert server.token in printed and str(token_file) in printed
    with http_server(project) as again:  # a restart keeps it: a host configured with it still gets in
        assert again.token == server.token


def _eventually_in(server: HttpServer, wanted: str) -> str:
    """The server's stderr once it holds `wanted` (it prints after it starts listening)."""
    deadline = time.monotonic() + 30
    while wanted not in server.stderr() and time.monotonic() < deadline:
        time.sleep(0.05)
    return server.stderr()


async def test_a_server_bound_beyond_loopback_requires_the_token_too(project: Path) -> None:
    with http_server(project, "--host", "0.0.0.0") as server:
        with httpx2.Client(timeout=10) as http:
            anonymous = http.post(server.url, content=json.dumps(INITIALIZE), headers=MCP_HEADERS)
        with anyio.fail_after(30):
            async with server.client() as client:
                tools = (await client.list_tools()).tools
    assert anonymous.status_code == 401
    assert len(tools) == 8


@pytest.mark.slow
async def test_a_run_cut_off_by_stopping_the_server_is_resumed_by_the_next(project: Path) -> None:
    gate = project.parent / "gate"  # the step waits until the test opens it: still in flight at the stop
    gate.mkdir()
    with http_server(project) as server:
        async with server.client() as client:
            started = ok(
                await client.call_tool(
                    "run_workflow",
                    {"spec": "specs/gated-count.md", "inputs": {"text": "a b c", "gate": str(gate)}, "wait": False},
                )
            )
            with anyio.fail_after(30):
                view = started
                while not any(s["attempts"] for s in view["steps"]):  # until the attempt is in flight
                    view = ok(await client.call_tool("get_run", {"run_id": started["run_id"]}))
                    await anyio.sleep(0.1)
    # SIGTERM went to the server with the attempt in flight (the block above exited).
    assert server.process.returncode is not None
    (gate / "open").touch()
    with http_server(project) as server:
        async with server.client() as client:
            interrupted = ok(await client.call_tool("get_run", {"run_id": started["run_id"]}))
            assert interrupted["status"] == "running" and interrupted["executing"] is False
            with anyio.fail_after(60):
                # the step runs again from the start; poll in the background instead of
                # holding one call open
                ok(await client.call_tool("resume_run", {"run_id": started["run_id"], "wait": False}))
                done = ok(await client.call_tool("get_run", {"run_id": started["run_id"], "wait_s": 45}))
    assert done["status"] == "succeeded", done
    assert done["steps"][0]["attempts"] == 2
