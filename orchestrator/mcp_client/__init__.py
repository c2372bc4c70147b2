"""The MCP client: runs `mcp` skills' tools on MCP servers.

    config    mcp.json model and lookup (no `mcp` import: the planner reads it)
    schema    describe_tool(...) -> ToolInfo, for plan-time contract defaults
    pool      one session per server per run: lazy start, reuse, restart, kill
    classify  MCP errors and tool results -> StepFailure (ErrorClass + kind)
    runner    create_runner(ctx) -> the `mcp` StepRunner

Only `pool`, `runner` and `schema` import `mcp`, and only inside functions.
"""
