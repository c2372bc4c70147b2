"""The docs MCP server: `build_server(...)` for tests in process, `main()` for stdio."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from mcp_servers.docs.fault import FaultError, FaultPlan, parse_faults
from mcp_servers.docs.library import (
    MODULE_NAME_PATTERN,
    SOURCES,
    DocsLibrary,
    DocsResult,
    SearchResult,
    default_docs_dir,
    parse_sources,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

SERVER_NAME = "docs"
ENV_DOCS_DIR = "SKILLWEAVE_DOCS_DIR"
ENV_SOURCES = "SKILLWEAVE_DOCS_SOURCES"
ENV_FAULT = "SKILLWEAVE_DOCS_FAULT"
ENV_FAULT_STATE = "SKILLWEAVE_DOCS_FAULT_STATE"
# What the client forwards to a bundled docs server from its own environment.
FORWARDED_ENV = (ENV_DOCS_DIR, ENV_SOURCES, ENV_FAULT, ENV_FAULT_STATE)

INSTRUCTIONS = (
    "Documentation for Python modules. get_docs returns the existing markdown docs of a "
    "module (docs_found=false and empty docs when there are none); search_docs finds docs "
    "pages by words."
)


def build_server(library: DocsLibrary, faults: FaultPlan | None = None) -> MCPServer:
    """The MCPServer with `get_docs` and `search_docs`; `faults` fire on `get_docs` calls."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations

    read_only = ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )
    server: MCPServer = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=read_only, structured_output=True)
    async def get_docs(
        module_name: Annotated[
            str,
            Field(
                description="Dotted Python module name, e.g. json or os.path",
                pattern=MODULE_NAME_PATTERN,
            ),
        ],
    ) -> DocsResult:
        """Existing markdown documentation of a Python module.

        docs_found is false and existing_docs empty when the module has none.
        """
        if faults is not None:
            try:
                await faults.inject()
            except FaultError as exc:
                raise ToolError(str(exc)) from None
        try:
            return library.get_docs(module_name)
        except ValueError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(annotations=read_only, structured_output=True)
    def search_docs(
        query: Annotated[
            str, Field(description="Words that must all appear in the page", min_length=1)
        ],
    ) -> SearchResult:
        """Docs pages that contain every word of the query: module, title and a snippet."""
        return library.search(query)

    return server


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mcp_servers.docs", description=INSTRUCTIONS)
    parser.add_argument(
        "--docs-dir",
        action="append",
        type=Path,
        help=f"a folder of <module>.md files (repeatable; default: ${ENV_DOCS_DIR}, else the bundled samples)",
    )
    parser.add_argument(
        "--sources",
        help=f"comma-separated, from {', '.join(SOURCES)} (default: ${ENV_SOURCES}, else all)",
    )
    parser.add_argument(
        "--fault", help=f"fault injection for tests (default: ${ENV_FAULT}); see fault.py"
    )
    parser.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default) or streamable HTTP",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP: the address to listen on")
    parser.add_argument(
        "--port", type=int, default=8000, help="HTTP: the port (the endpoint is /mcp)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    env = os.environ
    if args.docs_dir:
        docs_dirs = tuple(args.docs_dir)
    elif env.get(ENV_DOCS_DIR):
        docs_dirs = tuple(Path(p) for p in env[ENV_DOCS_DIR].split(os.pathsep) if p)
    else:
        docs_dirs = (default_docs_dir(),)
    try:
        sources = parse_sources(args.sources or env.get(ENV_SOURCES) or ",".join(SOURCES))
        faults = parse_faults(args.fault or env.get(ENV_FAULT) or "")
    except ValueError as exc:
        print(f"mcp_servers.docs: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    state = env.get(ENV_FAULT_STATE)
    plan = FaultPlan(faults, state_file=Path(state) if state else None) if faults else None
    server = build_server(DocsLibrary(docs_dirs, sources=sources), plan)
    try:
        if args.transport == "http":
            server.run("streamable-http", host=args.host, port=args.port)
        else:
            server.run("stdio")
    finally:
        # the client waits for this process to exit after closing its stdin; the cyclic
        # GC's walk over every object `mcp` made would add 0.3-1 s to that wait
        gc.freeze()
