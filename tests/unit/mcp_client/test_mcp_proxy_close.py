"""A session's close in the MCP client process is awaited in bounded time: a process
that never reports it is killed, and the session ends (`proxy.ClientProcess.open`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.mcp_client import proxy
from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.proxy import ClientProcess
from orchestrator.mcp_client.transport import SessionFiles

# A client process that opens sessions but never answers a close (a hung one).
DEAF = r"""
import pickle, sys
from orchestrator.mcp_client.proxy_host import HEADER, frame

orders, answers = sys.stdin.buffer, sys.stdout.buffer
while len(header := orders.read(HEADER.size)) == HEADER.size:
    order = pickle.loads(orders.read(HEADER.unpack(header)[0]))
    if order["op"] == "open":
        answers.write(frame({"op": "opened", "sid": order["sid"], "pid": 4242}))
        answers.flush()
"""


async def test_a_client_process_that_never_reports_a_close_is_killed_and_the_session_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proxy, "CLOSE_WAIT_S", 0.2)
    process = subprocess.Popen([sys.executable, "-c", DEAF], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client = ClientProcess(process, 0.0)
    server = StdioServer(name="deaf", command="true", origin="test", where="mcp.json:1")
    files = SessionFiles(stderr=tmp_path / "deaf.log", pidfile=tmp_path / "deaf.pid")
    try:
        async with asyncio.timeout(60):  # the bound under test is 2 x 0.2 s; this one only stops a hang
            async with client.open(server, files) as opened:
                assert opened.pid == 4242
        assert process.wait(timeout=60) == -9  # killed, not left behind
        assert not client.serves()
    finally:
        client.discard()
