"""An MCP call's span: under the current one, with the server's facts, and a tool error's text
redacted as the runner's own failure is."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from opentelemetry.trace import StatusCode
from telemetry_kit import Kept

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.mcp_client.config import HttpServer, McpConfig, StdioServer
from orchestrator.mcp_client.runner import McpRunner
from orchestrator.mcp_client.transport import OpenedSession, SessionFiles
from orchestrator.plan.model import Plan, PlanStep, SpecRef
from orchestrator.runner import RunnerContext, StepRequest
from orchestrator.security.redact import Redactor

TOKEN = "tok-3f9a77c2e1"


def server() -> MCPServer:
    made = MCPServer("t", log_level="WARNING")

    @made.tool(structured_output=True)
    def echo(word: str, ctx: Context) -> dict[str, Any]:
        return {"word": word, "meta": dict(ctx.request_context.meta or {})}

    @made.tool(structured_output=False)
    def leak(word: str) -> str:
        raise ToolError(f"the upstream refused key {TOKEN}")

    return made


def in_memory(made: MCPServer) -> Callable[..., AbstractAsyncContextManager[OpenedSession]]:
    @asynccontextmanager
    async def open_(cfg: StdioServer | HttpServer, files: SessionFiles) -> AsyncIterator[OpenedSession]:
        async with Client(made) as client:
            yield OpenedSession(client=client)

    return open_


def runner(tmp_path: Path) -> McpRunner:
    plan = Plan(name="p", spec=SpecRef(path=str(tmp_path / "s.md"), sha256="0", format="markdown"),
                steps=(PlanStep(id="s1", name="S1", skill="k"),), skills={})
    config = McpConfig(servers={"t": StdioServer(name="t", command="unused", origin="test", where="test:t",
                                                 redactor=Redactor(secrets={TOKEN: "UPSTREAM_KEY"}))})
    ctx = RunnerContext(settings=Settings(), plan=plan, run_id="r", run_dir=tmp_path)
    return McpRunner(ctx, config=config, opener=in_memory(server()))


def request(tool: str) -> StepRequest:
    skill = BoundSkill(name="k", kind=BuiltinKind.MCP, path="/k", origin="bundled", sha256="0", server="t", tool=tool)
    return StepRequest(run_id="r", step_id="s1", attempt=1, idempotency_key="r:s1:1", skill=skill,
                       input={"word": "hi"}, timeout_s=5)


async def test_a_tool_call_is_an_execute_tool_span_under_the_current_one(kept: Kept, tmp_path: Path) -> None:
    mcp = runner(tmp_path)
    with kept.telemetry.span("attempt s1", {}):
        outcome = await mcp.run(request("echo"))
    await mcp.aclose()

    assert outcome.failure is None, outcome.failure
    call = kept.one("execute_tool echo")
    assert call.parent is not None and call.parent.span_id == kept.one("attempt s1").context.span_id
    assert call.attributes is not None
    assert call.attributes["gen_ai.operation.name"] == "execute_tool"
    assert call.attributes["gen_ai.tool.name"] == "echo"
    assert call.attributes["skillweave.mcp.server"] == "t"
    assert call.attributes["skillweave.mcp.restarts"] == 0
    assert call.status.status_code is StatusCode.UNSET
    # `_meta` is the MCP SDK's over a real transport: tests/e2e/test_otel_cli.py reads it in a stdio server


async def test_a_tool_error_fails_its_span_with_the_secrets_redacted(kept: Kept, tmp_path: Path) -> None:
    mcp = runner(tmp_path)
    outcome = await mcp.run(request("leak"))
    await mcp.aclose()

    assert outcome.failure is not None
    call = kept.one("execute_tool leak")
    assert call.status.status_code is StatusCode.ERROR
    assert call.attributes is not None and call.attributes["error.type"] == "tool_error"
    assert call.status.description == "Error executing tool leak: the upstream refused key ${UPSTREAM_KEY}"
