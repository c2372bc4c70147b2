"""What keeps the MCP server from acting for anyone but the person who started it.

    trust   the per-user trust store: which mcp.json files the server may start
            commands from (`skillweave trust`), keyed by real path and content hash
    token   the HTTP server's bearer token, kept in a 0600 file in the state directory
    redact  values an mcp.json took from the environment (`${VAR}`), hidden wherever
            its servers' arguments, errors or stderr are recorded
    files   private files: written atomically with mode 0600, refused when others can write them

No module here imports `mcp`: `install` and `trust` use them without the MCP stack.
"""
