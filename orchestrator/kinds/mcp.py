"""The `mcp` kind: one tool of an MCP server (`orchestrator.mcp_client.runner`).

    skillweave.kind: mcp
    skillweave.server: docs       # a server of the run's mcp.json
    skillweave.tool: get_docs
"""

from __future__ import annotations

from orchestrator.kinds.model import PREFIX, KindFields, KindMetadata, KindTraits, SkillKind


class McpKind(SkillKind):
    name = "mcp"
    description = "one tool of an MCP server named in mcp.json"
    keys = ("server", "tool")
    # the MCP runner times each call out itself (from when it is sent, restarted by progress,
    # then a probe of the server); the engine allows room for a server to start (the pool
    # waits up to 60 s), the probe after a timeout (5 s) and slack before it cuts one off
    # and its servers start as the run starts, while the first steps go
    traits = KindTraits(enforces_timeout=True, timeout_margin_s=75.0, tool_schemas=True, prepared_at_start=True)
    runner = "orchestrator.mcp_client.runner:create_runner"

    def read(self, meta: KindMetadata) -> KindFields:
        found: dict[str, str | None] = {}
        for key in ("server", "tool"):
            value = (meta.text(key) or "").strip()
            if not value:
                meta.problem(key, f"an mcp skill needs '{PREFIX}{key}'", f"{key}-missing")
            found[key] = value or None
        return KindFields(server=found["server"], tool=found["tool"])


KIND = McpKind()
