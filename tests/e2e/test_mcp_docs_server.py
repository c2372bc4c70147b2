"""The mcp runner against the bundled docs server as a real stdio process: reuse, faults, SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.errors import McpError
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.mcp_client.config import load_mcp_config
from orchestrator.mcp_client.runner import McpRunner, create_runner
from orchestrator.mcp_client.schema import describe_tool_sync
from orchestrator.mcp_client.transport import process_gone
from orchestrator.plan.model import Plan, PlanStep, SpecRef
from orchestrator.policy import ErrorClass, Limits
from orchestrator.runner import RunnerContext, StepOutcome, StepRequest

pytestmark = pytest.mark.e2e

WAIT_S = 20.0  # bound on every wait for a process to appear or go


def context(
    tmp_path: Path, settings: Settings | None = None, *, concurrency: int = 4
) -> RunnerContext:
    plan = Plan(
        name="p",
        spec=SpecRef(path=str(tmp_path / "spec.md"), sha256="0", format="markdown"),
        steps=(PlanStep(id="fetch", name="Fetch", skill="fetch-docs"),),
        skills={},
        limits=Limits(per_server_concurrency=concurrency),
    )
    return RunnerContext(
        settings=settings or Settings(), plan=plan, run_id="r1", run_dir=tmp_path / "run"
    )


def docs_runner(tmp_path: Path, env: Mapping[str, str] | None = None, **kw: float) -> McpRunner:
    """A runner whose bundled docs server gets `env` (the SKILLWEAVE_DOCS_* knobs)."""
    return McpRunner(context(tmp_path), config=load_mcp_config(None, env=dict(env or {})), **kw)


def fetch(
    module: str,
    *,
    tool: str = "get_docs",
    timeout: float | None = 30,
    attempt: int = 1,
    server: str = "docs",
) -> StepRequest:
    skill = BoundSkill(
        name="fetch-docs",
        kind=BuiltinKind.MCP,
        path="/skills/fetch-docs",
        origin="bundled",
        sha256="0",
        server=server,
        tool=tool,
    )
    arguments = {"query": module} if tool == "search_docs" else {"module_name": module}
    return StepRequest(
        run_id="r1",
        step_id="fetch",
        attempt=attempt,
        idempotency_key=f"r1:fetch:{attempt}",
        skill=skill,
        input=arguments,
        timeout_s=timeout,
    )


async def wait_until(predicate: object, what: str) -> None:
    assert callable(predicate)
    async with asyncio.timeout(WAIT_S):
        while not predicate():
            await asyncio.sleep(0.02)


def server_children() -> list[int]:
    """Our child processes running the docs server."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if (
            int(fields[1]) == os.getpid()
            and b"mcp_servers.docs" in cmdline
            and fields[0] not in (b"Z", b"X")
        ):
            found.append(int(entry.name))
    return found


def ok(outcome: StepOutcome) -> object:
    assert outcome.failure is None, outcome.failure
    return outcome.output


async def test_get_docs_finds_docs_reports_missing_ones_and_search_docs_answers(
    tmp_path: Path,
) -> None:
    runner = docs_runner(tmp_path)
    try:
        found = ok(await runner.run(fetch("json")))
        missing = ok(await runner.run(fetch("no_such_module_xyz")))
        hits = ok(await runner.run(fetch("wrap text", tool="search_docs")))
        tools = await runner.pool.tools("docs")
    finally:
        await runner.aclose()
    assert isinstance(found, dict) and found["docs_found"] is True
    assert found["existing_docs"].startswith("# json")
    assert missing == {"existing_docs": "", "docs_found": False}
    assert isinstance(hits, dict) and [r["module"] for r in hits["results"]] == ["textwrap"]
    output_schema = tools["get_docs"].output_schema
    assert output_schema is not None and set(output_schema["required"]) == {
        "existing_docs",
        "docs_found",
    }
    assert runner.pool.starts == {"docs": 1}


def test_describe_tool_gives_the_plan_the_tools_schemas_and_annotations() -> None:
    config = load_mcp_config(None, env={})
    info = describe_tool_sync(config, "docs", "get_docs", timeout=60)
    with pytest.raises(McpError, match=r"no tool 'fetch' \(it offers: get_docs, search_docs\)"):
        describe_tool_sync(config, "docs", "fetch", timeout=60)
    assert info.input_schema["required"] == ["module_name"]
    assert info.output_schema is not None and "docs_found" in info.output_schema["properties"]
    assert info.annotations.read_only is True and info.annotations.retry_safe


async def test_a_hung_first_call_times_out_and_the_retry_succeeds_on_the_same_server(
    tmp_path: Path,
) -> None:
    runner = docs_runner(tmp_path, {"SKILLWEAVE_DOCS_FAULT": "hang-first:30"})
    try:
        first = await runner.run(fetch("json", timeout=0.5))
        second = await runner.run(fetch("json", timeout=5, attempt=2))
    finally:
        await runner.aclose()
    assert first.failure is not None
    assert (first.failure.error_class, first.failure.kind) == (ErrorClass.TIMEOUT, "timeout")
    assert first.failure.ambiguous
    assert "within 0.5s" in first.failure.message
    assert isinstance(ok(second), dict)
    assert second.meta["pid"] == first.meta["pid"]
    assert (second.meta["process"], runner.pool.starts) == ("1", {"docs": 1})


async def test_a_server_killed_between_calls_is_restarted(tmp_path: Path) -> None:
    runner = docs_runner(tmp_path)
    try:
        before = await runner.run(fetch("json"))
        pid = int(before.meta["pid"])
        os.kill(pid, signal.SIGKILL)
        await wait_until(lambda: process_gone(pid), "the killed server to die")
        after = await runner.run(fetch("json"))
    finally:
        await runner.aclose()
    assert ok(after) == ok(before)
    assert int(after.meta["pid"]) != pid
    assert (after.meta["process"], after.meta["restarts"]) == ("2", "1")


async def test_a_server_killed_mid_call_is_restarted_and_the_call_replayed(tmp_path: Path) -> None:
    state = tmp_path / "fault-state.json"  # so the restarted server does not hang again
    runner = docs_runner(
        tmp_path,
        {"SKILLWEAVE_DOCS_FAULT": "hang-first:60", "SKILLWEAVE_DOCS_FAULT_STATE": str(state)},
    )
    try:
        call = asyncio.create_task(runner.run(fetch("json")))
        await wait_until(state.exists, "the call to reach the server")  # the fault fired: in flight
        pid = runner.pool.pid("docs")
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(WAIT_S):
            outcome = await call
    finally:
        await runner.aclose()
    assert isinstance(ok(outcome), dict)
    assert (outcome.meta["restarts"], outcome.meta["process"]) == ("1", "2")
    assert int(outcome.meta["pid"]) != pid


async def test_a_server_that_stops_answering_is_killed_after_the_timeout(tmp_path: Path) -> None:
    state = tmp_path / "fault-state.json"
    env = {"SKILLWEAVE_DOCS_FAULT": "freeze-first:60", "SKILLWEAVE_DOCS_FAULT_STATE": str(state)}
    runner = docs_runner(tmp_path, env, probe_timeout_s=0.5)
    try:
        frozen = await runner.run(fetch("json", timeout=0.5))
        frozen_pid = int(frozen.meta["pid"])
        await wait_until(lambda: process_gone(frozen_pid), "the hung server to be killed")
        after = await runner.run(fetch("json", attempt=2))
    finally:
        await runner.aclose()
    assert frozen.failure is not None
    assert frozen.failure.error_class is ErrorClass.TIMEOUT
    assert "killed" in frozen.failure.message
    assert isinstance(ok(after), dict)
    assert after.meta["process"] == "2"


async def test_a_server_that_crashes_on_every_first_call_fails_as_transient(tmp_path: Path) -> None:
    runner = docs_runner(tmp_path, {"SKILLWEAVE_DOCS_FAULT": "crash-first"})
    try:
        outcome = await runner.run(fetch("json"))
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_connection_lost",
    )
    assert outcome.failure.ambiguous
    assert runner.pool.starts == {
        "docs": 2
    }  # the replay went to a second process, which crashed too


async def test_a_hundred_concurrent_calls_share_one_server_process(tmp_path: Path) -> None:
    runner = docs_runner(tmp_path)
    try:
        outcomes = await asyncio.gather(
            *(runner.run(fetch("textwrap", attempt=i + 1)) for i in range(100))
        )
        children = server_children()
    finally:
        await runner.aclose()
    assert all(o.ok for o in outcomes)
    assert {o.meta["pid"] for o in outcomes} == {str(children[0])}
    assert len(children) == 1
    assert runner.pool.starts == {"docs": 1}


async def test_aclose_reaps_every_server_process(tmp_path: Path) -> None:
    runner = docs_runner(tmp_path)
    outcome = await runner.run(fetch("json"))
    pid = int(outcome.meta["pid"])
    assert Path(f"/proc/{pid}").exists()
    await runner.aclose()
    assert not Path(f"/proc/{pid}").exists()  # gone and reaped: not even a zombie
    assert server_children() == []


async def test_a_server_that_fails_to_start_shows_its_stderr_from_the_run_directory(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    runner = docs_runner(tmp_path, {"SKILLWEAVE_DOCS_FAULT": "explode-first"})
    try:
        outcome = await runner.run(fetch("json"))
    finally:
        await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_start",
    )
    assert "bad fault 'explode-first'" in outcome.stderr_tail
    log = tmp_path / "run" / "mcp" / "docs.stderr.log"
    assert "bad fault 'explode-first'" in log.read_text()
    assert "bad fault" not in capfd.readouterr().err


async def test_the_runner_reads_the_mcp_json_named_in_the_settings(tmp_path: Path) -> None:
    docs = tmp_path / "mydocs"
    docs.mkdir()
    (docs / "widgets.md").write_text("# widgets\n\nMade here.\n")
    config = tmp_path / "conf.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "house-docs": {
                        "command": sys.executable,
                        "args": [
                            "-m",
                            "mcp_servers.docs",
                            "--docs-dir",
                            "${DOCS_DIR}",
                            "--sources",
                            "folder",
                        ],
                    }
                }
            }
        )
    )
    os.environ["DOCS_DIR"] = str(docs)
    try:
        runner = create_runner(context(tmp_path, Settings(mcp_config=config)))
        try:
            outcome = await runner.run(fetch("widgets", server="house-docs"))
        finally:
            await runner.aclose()
    finally:
        del os.environ["DOCS_DIR"]
    assert ok(outcome) == {"existing_docs": "# widgets\n\nMade here.\n", "docs_found": True}


async def test_a_streamable_http_server_from_mcp_json_answers(tmp_path: Path) -> None:
    import socket
    import subprocess

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = (tmp_path / "http-server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "mcp_servers.docs", "--transport", "http", "--port", str(port)],
        stdout=log,
        stderr=log,
    )
    try:

        def listening() -> bool:
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", port)) == 0

        await wait_until(listening, "the HTTP server to listen")
        config = tmp_path / "mcp.json"
        config.write_text(
            json.dumps(
                {
                    "mcpServers": {
                        "remote-docs": {
                            "type": "http",
                            "url": f"http://127.0.0.1:{port}/mcp",
                            "headers": {"Authorization": "Bearer ${DOCS_TOKEN:-anonymous}"},
                        }
                    }
                }
            )
        )
        runner = create_runner(context(tmp_path, Settings(mcp_config=config)))
        try:
            outcome = await runner.run(fetch("textwrap", server="remote-docs"))
        finally:
            await runner.aclose()
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
        log.close()
    output = ok(outcome)
    assert isinstance(output, dict) and output["docs_found"] is True
    assert outcome.meta["pid"] == ""  # no process of ours behind an HTTP server
