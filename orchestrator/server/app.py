"""The skillweave MCP server: an mcp 2.x `MCPServer` with the tools, resources and prompt.

`build_server(config)` makes one server; the transports (`run_stdio` here,
`orchestrator.server.http.run_http`) serve it. The server's lifespan owns the
run registry's task group, so background runs live exactly as long as the
server and are cancelled, resumable, when it stops.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import Resource as MCPResource
from pydantic import Field, ValidationError

from orchestrator import __version__
from orchestrator.runner import StepRunner
from orchestrator.server.models import SkillInfo
from orchestrator.server.prompts import render_design_workflow, spec_template_text
from orchestrator.server.resources import ResourceSet
from orchestrator.server.runs import RunRegistry
from orchestrator.server.tools import ToolSet
from orchestrator.server.workspace import ServerConfig, Workspace

logger = logging.getLogger(__name__)

SERVER_NAME = "skillweave"
STOP_GRACE_S = 10.0  # how long runs get to record their cancellation on SIGTERM
INSTRUCTIONS = (
    "skillweave runs workflows of Agent Skills described by Markdown specs. Typical use: "
    "list_skills, write a spec (prompt design_workflow helps), validate_spec until it passes, "
    "plan_workflow to show the plan, run_workflow (wait=false for long runs, then poll get_run), "
    "approve_step at approval gates, and read run://<id>/report. Paths are relative to the "
    "server's working directory (its first root) and must stay inside its roots; roots the "
    "client declares only narrow them. The server starts no command from an mcp.json the "
    "person has not trusted (`skillweave trust PATH`, in their shell): show them the refusal."
)


class SkillweaveServer(MCPServer[RunRegistry]):
    """An MCPServer whose resource list is computed per request (skills, specs, runs)."""

    def __init__(self, resources: ResourceSet, registry: RunRegistry, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._resource_set = resources
        self.registry = registry

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Refuse arguments a tool does not take: the SDK drops them without a word, and a
        misspelled `reject` would approve the step it was meant to refuse."""
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = tool.parameters.get("properties", {})
            unknown = sorted(set(arguments) - set(known))
            if unknown:
                takes = ", ".join(sorted(known)) or "no arguments"
                raise ToolError(f"{name}: unknown argument {unknown[0]!r}; it takes: {takes}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            # pydantic's message spans lines and links its docs: one `where: message` line per field
            raise ToolError("; ".join(_argument_problem(name, e) for e in exc.__cause__.errors())) from exc

    async def list_resources(self) -> list[MCPResource]:
        static = await super().list_resources()
        try:
            listed = await self._resource_set.listed()
        except Exception:  # the server's edge: a broken skill folder must not break the listing
            logger.exception("listing resources failed")
            listed = []
        return [*static, *listed]


def _argument_problem(tool: str, error: Any) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "arguments"
    return f"{tool}.{where}: {error['msg'].lower()}"


def build_server(config: ServerConfig, *, runners: Mapping[str, StepRunner] | None = None) -> SkillweaveServer:
    """The server for `config`. `runners` replaces the built-in step runners (tests)."""
    workspace = Workspace(config)
    registry = RunRegistry(config.settings, runners)
    resources = ResourceSet(workspace, registry)

    @asynccontextmanager
    async def lifespan(_: MCPServer[RunRegistry]) -> AsyncIterator[RunRegistry]:
        async with registry.running():
            yield registry

    server = SkillweaveServer(
        resources,
        registry,
        name=SERVER_NAME,
        title="skillweave",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level="DEBUG" if config.settings.debug else "WARNING",
    )
    if config.settings.debug:
        # the SDK set DEBUG on the root logger: keep it for skillweave and the SDK, not for
        # every library below them (markdown-it logs each token of each spec it parses)
        logging.getLogger().setLevel(logging.WARNING)
        for name in ("orchestrator", "mcp_servers", "mcp"):
            logging.getLogger(name).setLevel(logging.DEBUG)
    ToolSet(workspace, registry).register(server)
    resources.register(server)
    _register_prompts(server, workspace)
    return server


def _register_prompts(server: MCPServer[Any], workspace: Workspace) -> None:
    @server.prompt(name="design_workflow", title="Design a workflow")
    async def design_workflow(
        goal: Annotated[str, Field(description="What the workflow should achieve, in a sentence or two")],
    ) -> str:
        """Turn a goal into a workflow spec that follows the skillweave template, using the
        skills in the catalog, then validate and plan it."""
        listed = await workspace.blocking(_catalog_for_prompt, workspace)
        return render_design_workflow(goal, listed, spec_template_text())


def _catalog_for_prompt(workspace: Workspace) -> list[SkillInfo]:
    from orchestrator.skills import load_catalog

    return [
        SkillInfo(
            name=s.name,
            kind=s.kind,
            origin=s.origin,
            description=s.description,
            path=str(s.path),
            uri=f"skill://{s.name}",
        )
        for s in load_catalog(workspace.settings)
        if s.kind != "instructions"
    ]


async def run_stdio(config: ServerConfig) -> None:
    """Serve over stdin/stdout until the client closes the stream (the lifespan then
    cancels background runs into the journal). On SIGTERM or SIGINT the runs are
    cancelled the same way, then the process ends as the signal asks: a blocked
    read of stdin cannot be interrupted otherwise."""
    server = build_server(config)
    async with anyio.create_task_group() as group:

        async def stop_on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for signum in signals:
                    with anyio.move_on_after(STOP_GRACE_S):
                        await server.registry.stop()
                    signal.signal(signum, signal.SIG_DFL)
                    os.kill(os.getpid(), signum)

        group.start_soon(stop_on_signal)
        await server.run_stdio_async()
        group.cancel_scope.cancel()
