"""The MCP client: runs `mcp` skills' tools on MCP servers.

    config     mcp.json model and lookup (no `mcp` import: the planner reads it)
    schema     describe_tool(...) -> ToolInfo, for plan-time contract defaults
    pool       one session per server per run: lazy start, reuse, restart, kill
    transport  how a session is opened (streamable HTTP here), its errors, process helpers
    stdio      a stdio session: spawn first, import the SDK while the server starts
    sdk        the SDK's client half for stdio, without its server half and HTTP stacks
    classify   MCP errors and tool results -> StepFailure (ErrorClass + kind)
    runner     create_runner(ctx) -> the `mcp` StepRunner

Only `pool`, `stdio` and `transport` import `mcp`, and only inside functions: a
stdio session its client half (`sdk`), an HTTP session `mcp.Client`.
"""
