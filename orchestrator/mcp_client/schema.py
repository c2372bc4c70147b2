"""What a server says about its tools: schemas and annotations, for plan-time contract defaults.

`describe_tool(config, server, tool, timeout)` starts the server (or connects to
it), lists its tools and closes it again. The planner calls `describe_tool_sync`
when the server can be reached; the runner checks the same schemas at run time
through the pool, which lists the tools once per session.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.contracts import JsonSchema
from orchestrator.errors import McpError, SkillweaveError
from orchestrator.security.redact import redact_error

if TYPE_CHECKING:
    from orchestrator.mcp_client.config import McpConfig

DESCRIBE_TIMEOUT_S = 30.0


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolAnnotationsInfo(_Frozen):
    """The tool's behaviour hints, as the server declared them (None: not declared)."""

    title: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None

    @property
    def retry_safe(self) -> bool:
        """False only for a tool declared destructive and not idempotent (nor read-only).

        MCP's own defaults would call an unannotated tool destructive; we follow
        the declaration only, because most servers annotate nothing and a retry
        happens only where the spec's recovery policy asks for one.
        """
        return not (
            self.destructive is True and self.idempotent is not True and self.read_only is not True
        )


class ToolInfo(_Frozen):
    server: str
    name: str
    title: str | None = None
    description: str = ""
    input_schema: JsonSchema = Field(default_factory=dict)
    output_schema: JsonSchema | None = None
    annotations: ToolAnnotationsInfo = ToolAnnotationsInfo()


def tool_info(server: str, tool: Any) -> ToolInfo:
    """Convert an `mcp_types.Tool` (kept as Any so this module never imports mcp)."""
    ann = getattr(tool, "annotations", None)
    return ToolInfo(
        server=server,
        name=tool.name,
        title=getattr(tool, "title", None),
        description=getattr(tool, "description", None) or "",
        input_schema=dict(tool.input_schema or {}),
        output_schema=dict(tool.output_schema) if getattr(tool, "output_schema", None) else None,
        annotations=ToolAnnotationsInfo(
            title=getattr(ann, "title", None),
            read_only=getattr(ann, "read_only_hint", None),
            destructive=getattr(ann, "destructive_hint", None),
            idempotent=getattr(ann, "idempotent_hint", None),
            open_world=getattr(ann, "open_world_hint", None),
        )
        if ann is not None
        else ToolAnnotationsInfo(),
    )


async def list_tools(
    config: McpConfig, server: str, timeout: float = DESCRIBE_TIMEOUT_S
) -> tuple[ToolInfo, ...]:
    """Every tool `server` offers. Raises ConfigError (unknown server) or McpError (unreachable)."""
    from orchestrator.mcp_client.pool import ServerPool

    pool = ServerPool(config, startup_timeout_s=timeout)
    try:
        tools = await pool.tools(server)
    except SkillweaveError as exc:  # its message may hold what the mcp.json took from the environment
        redact_error(exc, config.redactor)
        raise
    finally:
        await pool.aclose()
    return tuple(tools[name] for name in sorted(tools))


async def describe_tool(
    config: McpConfig, server: str, tool: str, timeout: float = DESCRIBE_TIMEOUT_S
) -> ToolInfo:
    """The tool's schemas and annotations. Raises McpError naming the server's tools when absent."""
    tools = {t.name: t for t in await list_tools(config, server, timeout)}
    if tool not in tools:
        known = ", ".join(sorted(tools)) or "none"
        raise McpError(f"server {server!r} has no tool {tool!r} (it offers: {known})", where=server)
    return tools[tool]


def list_tools_sync(
    config: McpConfig, server: str, timeout: float = DESCRIBE_TIMEOUT_S
) -> tuple[ToolInfo, ...]:
    """`list_tools` for synchronous callers: one server start for all of its tools."""
    _refuse_running_loop("list_tools_sync", "list_tools")
    return asyncio.run(list_tools(config, server, timeout))


def describe_tool_sync(
    config: McpConfig, server: str, tool: str, timeout: float = DESCRIBE_TIMEOUT_S
) -> ToolInfo:
    """`describe_tool` for synchronous callers (the planner); not from inside a running loop."""
    _refuse_running_loop("describe_tool_sync", "describe_tool")
    return asyncio.run(describe_tool(config, server, tool, timeout))


def _refuse_running_loop(name: str, instead: str) -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError(f"{name} called from a running event loop; await {instead} instead")
