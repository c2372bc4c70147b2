"""The mcp client against a stdio server that misbehaves on purpose, as a real process.

The server (`ROGUE`, written to the test's directory) speaks raw JSON-RPC lines so
it can break the protocol in ways the SDK's servers never would: bytes that are
not JSON or not UTF-8 on stdout, a handshake that never ends, a process that
ignores the end of its stdin.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_kit import call, ok, runner_for

from orchestrator.mcp_client import pool as pool_module
from orchestrator.mcp_client.config import McpConfig, StdioServer
from orchestrator.mcp_client.pool import ServerPool
from orchestrator.mcp_client.transport import ServerStartError, kill_group, process_gone
from orchestrator.policy import ErrorClass

pytestmark = pytest.mark.e2e

WAIT_S = 20.0  # bound on every wait for a process to appear or go
SKILLWEAVE = Path(sys.executable).parent / "skillweave"

ROGUE = r"""
import json, os, sys, threading, time

START = os.environ.get("ROGUE_START", "")
CALLS = os.environ.get("ROGUE_CALLS")


def send(obj):
    sys.stdout.buffer.write(json.dumps(obj).encode() + b"\n")
    sys.stdout.buffer.flush()


def result(mid, value):
    send({"jsonrpc": "2.0", "id": mid,
          "result": {"content": [{"type": "text", "text": json.dumps(value)}]}})


TOOLS = [{"name": n, "inputSchema": {"type": "object"}}
         for n in ("noise", "not_utf8", "sleep", "die")]

MARKER = os.environ.get("ROGUE_MARKER")
if START == "once" and MARKER and os.path.exists(MARKER):  # the second process dies at once
    sys.stderr.write("rogue: refusing to start again\n")
    sys.exit(3)

if START == "stubborn":  # a thread that is not a daemon: stdin's end does not stop us
    threading.Thread(target=lambda: time.sleep(3600)).start()

for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:
        continue
    if method == "initialize":
        if START == "hang":
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"]["protocolVersion"],
            "capabilities": {"tools": {}}, "serverInfo": {"name": "rogue", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name = msg["params"]["name"]
        if CALLS:
            with open(CALLS, "a") as f:
                f.write(f"{os.getpid()} {name}\n")
        if name == "noise":
            sys.stdout.buffer.write(b"INFO: a log line on stdout\n")
            result(mid, {"said": "noise"})
        elif name == "not_utf8":
            sys.stdout.buffer.write(b"\xff\xfe latin-1 caf\xe9\n")
            result(mid, {"said": "not_utf8"})
        elif name == "die":
            open(MARKER, "w").close()
            os._exit(9)
        elif name == "sleep":
            pass  # never answers
    else:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no"}})
"""


def rogue(tmp_path: Path, *, start: str = "", cwd: str | None = None) -> StdioServer:
    script = tmp_path / "rogue.py"
    script.write_text(ROGUE)
    env = {
        "ROGUE_START": start,
        "ROGUE_CALLS": str(tmp_path / "calls.txt"),
        "ROGUE_MARKER": str(tmp_path / "died"),
    }
    return StdioServer(
        name="rogue",
        command=sys.executable,
        args=(str(script),),
        env=env,
        cwd=cwd,
        origin="test",
        where="test:rogue",
    )








async def test_a_log_line_on_stdout_goes_to_the_server_log_not_to_our_logging(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    runner = runner_for(tmp_path, rogue(tmp_path))
    caplog.set_level(logging.DEBUG)
    try:
        output = ok(await runner.run(call("rogue", "noise", timeout=10)))
    finally:
        await runner.aclose()
    assert output == {"said": "noise"}
    assert not [r for r in caplog.records if r.name.startswith("mcp")], caplog.text
    log = (tmp_path / "run" / "mcp" / "rogue.stderr.log").read_text()
    assert "mcp client error: Failed to parse JSONRPC message" in log
    assert "INFO: a log line on stdout" in log


async def test_bytes_that_are_not_utf8_on_stdout_are_skipped_and_the_call_answers(
    tmp_path: Path,
) -> None:
    runner = runner_for(tmp_path, rogue(tmp_path))
    try:
        first = await runner.run(call("rogue", "not_utf8", timeout=10))
        second = await runner.run(call("rogue", "noise", timeout=10))
    finally:
        await runner.aclose()
    assert ok(first) == {"said": "not_utf8"}
    assert ok(second) == {"said": "noise"}
    assert first.meta["pid"] == second.meta["pid"]  # the same process, still readable


async def test_a_server_hung_in_the_handshake_is_killed_when_its_start_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The session's close must not wait for a stop event the handshake never sees.
    monkeypatch.setattr(pool_module, "CLOSE_TIMEOUT_S", 600.0)
    server = rogue(tmp_path, start="hang")
    pool = ServerPool(
        McpConfig(servers={"rogue": server}), log_dir=tmp_path / "mcp", startup_timeout_s=1.0
    )
    try:
        async with asyncio.timeout(WAIT_S):
            with pytest.raises(ServerStartError, match="did not start within 1s"):
                await pool.ensure("rogue")
    finally:
        await pool.aclose()
    pid = int((tmp_path / "mcp" / "rogue.pid").read_text())
    assert process_gone(pid)


async def test_a_cwd_that_does_not_exist_is_a_setup_error_naming_the_key(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, rogue(tmp_path, cwd=str(tmp_path / "nowhere")))
    try:
        outcome = await runner.run(call("rogue", "noise", timeout=10))
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.UNRECOVERABLE,
        "setup",
    )
    assert "mcpServers.rogue.cwd: no such directory" in outcome.failure.message


async def test_a_call_lost_with_a_server_that_cannot_restart_stays_a_lost_call(
    tmp_path: Path,
) -> None:
    runner = runner_for(tmp_path, rogue(tmp_path, start="once"))
    try:
        outcome = await runner.run(call("rogue", "die", timeout=10))
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_connection_lost",
    )
    assert outcome.failure.ambiguous  # the call was sent: it may have had its effect
    assert "connection to 'rogue' lost" in outcome.failure.message
    assert "restarting the server failed" in outcome.failure.message
    assert "refusing to start again" in outcome.stderr_tail


def write_project(root: Path, *, start: str = "", tool: str = "noise") -> Path:
    skill = root / "skills" / "rogue-call"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: rogue-call\ndescription: Calls a tool of the rogue MCP server.\n"
        "metadata:\n  skillweave.kind: mcp\n  skillweave.server: rogue\n"
        f'  skillweave.tool: {tool}\n  skillweave.timeout: "30"\n---\n\n# Rogue\n\nCalls it.\n'
    )
    (root / "rogue.py").write_text(ROGUE)
    env = {"ROGUE_START": start, "ROGUE_CALLS": str(root / "calls.txt")}
    server = {"command": sys.executable, "args": [str(root / "rogue.py")], "env": env}
    (root / "mcp.json").write_text(json.dumps({"mcpServers": {"rogue": server}}))
    spec = root / "spec.md"
    spec.write_text(
        "# Rogue\n\n## Intent\nCall the rogue server.\n\n## Workflow Steps\n\n"
        "### Step 1: Call\n- Skill: `rogue-call`\n"
    )
    return spec


def test_skillweave_run_prints_no_traceback_for_noise_on_a_servers_stdout(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    done = subprocess.run(
        [str(SKILLWEAVE), "run", str(spec), "--json", "--state-dir", str(tmp_path / "state")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Failed to parse" not in done.stderr
    report = json.loads(done.stdout)
    assert report["outputs"]["step-1"] == {"said": "noise"}


def _pid_of_first_call(calls: Path) -> int:
    return int(calls.read_text().split()[0])


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
async def test_a_server_that_ignores_its_stdin_closing_dies_with_a_sigkilled_run(
    tmp_path: Path,
) -> None:
    spec = write_project(tmp_path, start="stubborn", tool="sleep")
    calls = tmp_path / "calls.txt"
    run = subprocess.Popen(
        [str(SKILLWEAVE), "run", str(spec), "--state-dir", str(tmp_path / "state")],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pid: int | None = None
    try:
        async with asyncio.timeout(WAIT_S * 3):  # plan, then run: the call is in flight
            while not calls.exists() or not calls.read_text().strip():
                assert run.poll() is None, "skillweave run ended before the call"
                await asyncio.sleep(0.05)
        pid = _pid_of_first_call(calls)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=WAIT_S)
        async with asyncio.timeout(WAIT_S):
            while not process_gone(pid):
                await asyncio.sleep(0.05)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=WAIT_S)
        if pid is not None and not process_gone(pid):
            kill_group(pid)
    assert process_gone(pid)
