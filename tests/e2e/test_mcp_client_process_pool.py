"""The pool's sessions through a real MCP client process (`orchestrator.mcp_client.proxy`):
progress, timeouts, JSON-RPC errors and results cross it as they do in-process."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.mcp_client import process, proxy
from orchestrator.mcp_client.classify import classify_exception
from orchestrator.mcp_client.config import McpConfig, StdioServer
from orchestrator.mcp_client.pool import ServerPool
from orchestrator.mcp_client.transport import CallTimeoutError, ProtocolError, ToolOutputError
from orchestrator.runner import StepFailure

pytestmark = pytest.mark.e2e

SERVER = r"""
import json, os, sys, time

LOG = os.environ["LOG"]


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def note(text):
    with open(LOG, "a") as f:
        f.write(text + "\n")


TOOLS = [{"name": n, "inputSchema": {"type": "object"}} for n in ("slow_with_progress", "silent", "refuse", "mixed")]
TOOLS.append({"name": "typed", "inputSchema": {"type": "object"},
              "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}})

for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "notifications/cancelled":
        note("cancelled " + str(msg["params"].get("requestId")))
    if mid is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"]["protocolVersion"],
            "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name = msg["params"]["name"]
        note("call " + name)
        if name == "slow_with_progress":
            token = msg["params"]["_meta"]["progressToken"]
            for i in range(3):
                time.sleep(0.6)
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": i + 1, "total": 3}})
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [], "structuredContent": {"done": 3}}})
        elif name == "refuse":
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": "bad n", "data": {"n": 1}}})
        elif name == "typed":
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [], "structuredContent": {"n": "x"}}})
        elif name == "mixed":
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [
                {"type": "text", "text": "see the picture"},
                {"type": "image", "data": "aGk=", "mimeType": "image/png"}]}})
        # silent: never answers
"""


@pytest.fixture
def client_process() -> Iterator[None]:
    process.spawn()
    try:
        yield
    finally:
        process.discard()


def server(tmp_path: Path) -> StdioServer:
    (tmp_path / "server.py").write_text(SERVER)
    return StdioServer(name="t", command=sys.executable, args=(str(tmp_path / "server.py"),),
                       env={"LOG": str(tmp_path / "log")}, origin="test", where="test:t")


def pool_for(tmp_path: Path) -> ServerPool:
    return ServerPool(McpConfig(servers={"t": server(tmp_path)}), log_dir=tmp_path / "mcp", probe_timeout_s=2)


def logged(tmp_path: Path) -> list[str]:
    return (tmp_path / "log").read_text().splitlines()


async def test_progress_crosses_the_client_process_and_restarts_the_timeout(
    tmp_path: Path, client_process: None
) -> None:
    pool = pool_for(tmp_path)
    try:
        call = await pool.call("t", "slow_with_progress", {}, timeout_s=1.2)  # 1.8 s in all
    finally:
        await pool.aclose()
    assert proxy.current() is not None  # the session was held there, and the process lives on
    assert isinstance(call.result, proxy.ProxiedResult)
    assert call.result.structured_content == {"done": 3}
    assert call.progress == 3


async def test_a_timed_out_call_is_cancelled_in_the_server_and_a_json_rpc_error_keeps_its_code(
    tmp_path: Path, client_process: None
) -> None:
    pool = pool_for(tmp_path)
    try:
        with pytest.raises(CallTimeoutError) as timed_out:
            await pool.call("t", "silent", {}, timeout_s=0.3)
        with pytest.raises(ProtocolError) as refused:
            await pool.call("t", "refuse", {})
        with pytest.raises(ToolOutputError, match="n"):
            await pool.call("t", "typed", {})
    finally:
        await pool.aclose()
    assert not timed_out.value.killed  # the server answered the probe
    assert any(line.startswith("cancelled ") for line in logged(tmp_path))
    assert (refused.value.rpc_code, refused.value.message, refused.value.data) == (-32602, "bad n", {"n": 1})
    failure = classify_exception(refused.value, where="t/refuse", retry_safe=True, retry_allowed=False)
    assert isinstance(failure, StepFailure) and failure.kind == "mcp_invalid_params"


async def test_a_result_of_several_blocks_reads_as_it_does_in_process(
    tmp_path: Path, client_process: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.mcp_client.runner import convert_result

    outputs = []
    for mode in ("1", "0"):
        if mode == "0":
            process.discard()
        assert (proxy.current() is not None) == (mode == "1")
        pool = pool_for(tmp_path)
        try:
            outputs.append(convert_result((await pool.call("t", "mixed", {})).result))
        finally:
            await pool.aclose()
    assert outputs[0] == outputs[1]
    assert json.dumps(outputs[0], sort_keys=True) == json.dumps({
        "text": "see the picture", "content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}],
    }, sort_keys=True)
