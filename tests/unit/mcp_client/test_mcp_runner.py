"""The mcp runner against in-process servers (`Client(server)`) and a fake client at the spawn seam."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind, kind_registry
from orchestrator.mcp_client.config import HttpServer, McpConfig, StdioServer
from orchestrator.mcp_client.runner import McpRunner, convert_result, create_runner
from orchestrator.mcp_client.transport import OpenedSession, SessionFiles
from orchestrator.plan.model import Plan, PlanStep, SpecRef, StepPolicy
from orchestrator.policy import ErrorClass, RecoveryRule, RetryPolicy
from orchestrator.runner import RunnerContext, StepRequest, load_factory


class Weather(BaseModel):
    city: str
    celsius: int


def build_server() -> MCPServer:
    server = MCPServer("t", log_level="WARNING")
    read_only = types.ToolAnnotations(read_only_hint=True, idempotent_hint=True)

    @server.tool(annotations=read_only)
    def weather(city: str) -> Weather:
        """Structured output."""
        return Weather(city=city, celsius=21)

    @server.tool(structured_output=False)
    def json_text() -> str:
        return '{"a": [1, 2]}'

    @server.tool(structured_output=False)
    def plain(word: str) -> str:
        return f"hello {word}"

    @server.tool(structured_output=False)
    def refuse(reason: str) -> str:
        raise ToolError(f"refused: {reason}")

    return server


def config_for(*names: str) -> McpConfig:
    return McpConfig(
        servers={
            n: StdioServer(name=n, command="unused", origin="test", where=f"test:{n}")
            for n in names
        }
    )


def memory_opener(server: MCPServer) -> Callable[..., AbstractAsyncContextManager[OpenedSession]]:
    @asynccontextmanager
    async def open_(
        cfg: StdioServer | HttpServer, files: SessionFiles
    ) -> AsyncIterator[OpenedSession]:
        async with Client(server) as client:
            yield OpenedSession(client=client)

    return open_


def context(tmp_path: Path, *, rules: tuple[RecoveryRule, ...] = ()) -> RunnerContext:
    plan = Plan(
        name="p",
        spec=SpecRef(path=str(tmp_path / "s.md"), sha256="0", format="markdown"),
        steps=(PlanStep(id="s1", name="S1", skill="k", policy=StepPolicy(rules=rules)),),
        skills={},
    )
    return RunnerContext(settings=Settings(), plan=plan, run_id="r", run_dir=tmp_path)


def request(
    tool: str | None, arguments: Any, *, server: str | None = "t", timeout: float | None = 5
) -> StepRequest:
    skill = BoundSkill(
        name="k",
        kind=BuiltinKind.MCP,
        path="/k",
        origin="bundled",
        sha256="0",
        server=server,
        tool=tool,
    )
    return StepRequest(
        run_id="r",
        step_id="s1",
        attempt=1,
        idempotency_key="r:s1:1",
        skill=skill,
        input=arguments,
        timeout_s=timeout,
    )


@pytest.fixture
async def runner(tmp_path: Path) -> AsyncIterator[McpRunner]:
    r = McpRunner(context(tmp_path), config=config_for("t"), opener=memory_opener(build_server()))
    yield r
    await r.aclose()


def test_the_engine_finds_the_runner_through_the_mcp_kind(tmp_path: Path) -> None:
    kind = kind_registry().get("mcp")
    assert kind is not None and kind.traits.enforces_timeout
    factory = load_factory(kind.runner)
    assert factory is create_runner
    assert factory(context(tmp_path)).kind == "mcp"


async def test_structured_content_is_the_output(runner: McpRunner) -> None:
    outcome = await runner.run(request("weather", {"city": "Oslo"}))
    assert outcome.ok, outcome.failure
    assert outcome.output == {"city": "Oslo", "celsius": 21}
    assert (outcome.meta["server"], outcome.meta["tool"], outcome.meta["process"]) == (
        "t",
        "weather",
        "1",
    )


async def test_text_that_is_json_is_parsed_and_other_text_is_wrapped(runner: McpRunner) -> None:
    assert (await runner.run(request("json_text", {}))).output == {"a": [1, 2]}
    assert (await runner.run(request("plain", {"word": "you"}))).output == {"text": "hello you"}


async def test_every_step_reuses_one_session(runner: McpRunner) -> None:
    for city in ("A", "B", "C"):
        assert (await runner.run(request("weather", {"city": city}))).ok
    assert runner.pool.starts == {"t": 1}


async def test_an_is_error_result_is_a_classified_failure_with_the_servers_text(
    runner: McpRunner,
) -> None:
    outcome = await runner.run(request("refuse", {"reason": "closed on Sundays"}))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_tool_error",
    )
    assert "refused: closed on Sundays" in outcome.failure.message
    assert outcome.output is None


async def test_an_unknown_tool_fails_without_retry_and_lists_the_tools(runner: McpRunner) -> None:
    outcome = await runner.run(request("nope", {}))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.UNRECOVERABLE,
        "mcp_unknown_tool",
    )
    assert "weather" in outcome.failure.message


async def test_arguments_breaking_the_tools_input_schema_fail_fast_with_a_pointer(
    runner: McpRunner,
) -> None:
    outcome = await runner.run(request("weather", {"city": 7}))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.INVALID_INPUT,
        "mcp_invalid_params",
    )
    assert outcome.failure.pointer == "/city"
    missing = await runner.run(request("weather", {}))
    assert missing.failure is not None and missing.failure.kind == "mcp_invalid_params"
    assert "city" in missing.failure.message


async def test_input_that_is_not_an_object_is_invalid(runner: McpRunner) -> None:
    outcome = await runner.run(request("weather", ["Oslo"]))
    assert outcome.failure is not None and outcome.failure.error_class is ErrorClass.INVALID_INPUT


async def test_a_skill_without_server_or_tool_is_a_setup_failure(runner: McpRunner) -> None:
    outcome = await runner.run(request(None, {}))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.UNRECOVERABLE,
        "setup",
    )


async def test_an_unknown_server_names_the_mcp_json_key(runner: McpRunner) -> None:
    outcome = await runner.run(request("weather", {"city": "x"}, server="elsewhere"))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.UNRECOVERABLE,
        "setup",
    )
    assert "mcpServers.elsewhere" in outcome.failure.message


def test_non_text_blocks_are_kept_beside_the_text() -> None:
    result = types.CallToolResult(
        content=[
            types.TextContent(type="text", text="a picture"),
            types.ImageContent(type="image", data="AAAA", mime_type="image/png"),
        ]
    )
    output = convert_result(result)
    assert output["text"] == "a picture"
    assert output["content"] == [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]


class FakeClient:
    """Lists one tool; each call takes the next scripted outcome (an exception or a result)."""

    def __init__(self, tool: types.Tool, script: list[Any], calls: list[str]) -> None:
        self.tool, self.script, self.calls = tool, script, calls

    async def list_tools(
        self, *, cursor: str | None = None, cache_mode: str = "use"
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[self.tool])

    async def call_tool(
        self, name: str, arguments: dict[str, Any], **_: Any
    ) -> types.CallToolResult:
        self.calls.append(name)
        outcome = self.script.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, types.CallToolResult)
        return outcome


def fake_runner(
    tmp_path: Path, annotations: types.ToolAnnotations, script: list[Any], **kw: Any
) -> tuple[McpRunner, list[str], list[int]]:
    tool = types.Tool(name="op", input_schema={"type": "object"}, annotations=annotations)
    calls: list[str] = []
    opens: list[int] = []

    @asynccontextmanager
    async def open_(
        cfg: StdioServer | HttpServer, files: SessionFiles
    ) -> AsyncIterator[OpenedSession]:
        opens.append(1)
        yield OpenedSession(client=FakeClient(tool, script, calls))

    return McpRunner(context(tmp_path, **kw), config=config_for("t"), opener=open_), calls, opens


LOST = MCPError(code=types.CONNECTION_CLOSED, message="Connection closed")
OK = types.CallToolResult(content=[types.TextContent(type="text", text='{"done": true}')])
DESTRUCTIVE = types.ToolAnnotations(destructive_hint=True, idempotent_hint=False)


async def test_a_lost_connection_is_replayed_on_a_restarted_server_for_a_safe_tool(
    tmp_path: Path,
) -> None:
    runner, calls, opens = fake_runner(
        tmp_path, types.ToolAnnotations(idempotent_hint=True), [LOST, OK]
    )
    outcome = await runner.run(request("op", {}))
    await runner.aclose()
    assert outcome.ok, outcome.failure
    assert outcome.output == {"done": True}
    assert (len(calls), len(opens)) == (2, 2)
    assert (outcome.meta["restarts"], outcome.meta["process"]) == ("1", "2")


async def test_a_lost_connection_to_a_destructive_tool_is_not_replayed(tmp_path: Path) -> None:
    runner, calls, opens = fake_runner(tmp_path, DESTRUCTIVE, [LOST, OK])
    outcome = await runner.run(request("op", {}))
    await runner.aclose()
    assert outcome.failure is not None
    assert outcome.failure.error_class is ErrorClass.UNRECOVERABLE
    assert outcome.failure.ambiguous
    assert (calls, len(opens)) == (["op"], 1)


async def test_a_recovery_rule_retrying_transient_failures_lets_a_destructive_call_replay(
    tmp_path: Path,
) -> None:
    rule = RecoveryRule(on=ErrorClass.TRANSIENT, retry=RetryPolicy(max_retries=2))
    runner, calls, _ = fake_runner(tmp_path, DESTRUCTIVE, [LOST, OK], rules=(rule,))
    outcome = await runner.run(request("op", {}))
    await runner.aclose()
    assert outcome.ok
    assert calls == ["op", "op"]


async def test_a_connection_lost_twice_is_a_transient_failure(tmp_path: Path) -> None:
    runner, calls, _ = fake_runner(tmp_path, types.ToolAnnotations(), [LOST, LOST])
    outcome = await runner.run(request("op", {}))
    await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.TRANSIENT,
        "mcp_connection_lost",
    )
    assert outcome.failure.ambiguous
    assert "also after a restart" in outcome.failure.message
    assert calls == ["op", "op"]


async def test_a_protocol_error_is_classified_by_code(tmp_path: Path) -> None:
    bad = MCPError(code=types.INVALID_PARAMS, message="Invalid params: a must be positive")
    runner, _, _ = fake_runner(tmp_path, types.ToolAnnotations(), [bad])
    outcome = await runner.run(request("op", {}))
    await runner.aclose()
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (
        ErrorClass.INVALID_INPUT,
        "mcp_invalid_params",
    )
    assert "-32602" in outcome.failure.message
