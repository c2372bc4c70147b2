"""The MCP client: runs `mcp` skills' tools on MCP servers.

    config     mcp.json model and lookup (no `mcp` import: the planner reads it)
    schema     describe_tool(...) -> ToolInfo, for plan-time contract defaults
    pool       one session per server per run: lazy start, reuse, restart, kill
    transport  how a session is opened (streamable HTTP here), its errors, process helpers
    stdio      a stdio session: spawn first, import the SDK while the server starts
    sdk        the SDK's client half for stdio, without its server half and HTTP stacks
    process    start the run's MCP client process as the command starts (stdlib only)
    proxy      stdio sessions held by that process, for a run that never imports the SDK
    proxy_host that process: the SDK imported on the other core, the sessions, their calls
    classify   MCP errors and tool results -> StepFailure (ErrorClass + kind)
    runner     create_runner(ctx) -> the `mcp` StepRunner

Only `pool`, `stdio`, `transport` and `proxy_host` import `mcp`, and only inside
functions: a stdio session its client half (`sdk`), an HTTP session `mcp.Client`.
`skillweave run` and `resume` hold their stdio sessions in the client process
(`proxy`) and do not import the SDK themselves.
"""
