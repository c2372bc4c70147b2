"""The docs server from a warm host per user: a start forks it instead of importing `mcp`.

`python -m mcp_servers.docs` over stdio (the default) does not import the server
itself: it hands its stdio to a child of a warm host that has imported it
(`orchestrator.warmhost`: lifetime, isolation, replacement of crashed, stale or
hung hosts), and the child runs `server.main(argv)` as a cold start would. A
start then costs a bare Python start and a fork instead of importing `mcp`
(0.7-1.3 s on a 2-core VM). Each session is its own child, with the launcher's
environment (so the SKILLWEAVE_DOCS_* knobs), working directory and stdio.

`SKILLWEAVE_DOCS_WARM=0` turns it off (every start imports `mcp` itself), and so
do `--transport http` and a platform without fork or unix sockets. The other
variables: SKILLWEAVE_DOCS_WARM_IDLE (seconds a host waits without sessions,
default 600), SKILLWEAVE_DOCS_WARM_ACK (seconds to fork a session before the
host counts as hung, default 10), SKILLWEAVE_DOCS_WARM_DIR (where hosts keep
their socket, lock and log). The launcher imports nothing heavy.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from orchestrator import warmhost
from orchestrator.warmhost import HOST_FLAG, WarmSpec

ENV_WARM = "SKILLWEAVE_DOCS_WARM"
ENV_DIR = ENV_WARM + "_DIR"


def _sources() -> Iterable[Path]:
    here = Path(__file__).resolve().parent
    return [*here.glob("*.py"), Path(warmhost.__file__)]


def _preload() -> None:
    """What a session uses, so that a child only builds and serves: the child's prctl,
    anyio's backend (loaded on its first run), the stdio transport and the log handler
    the SDK sets up."""
    import ctypes  # noqa: F401

    import anyio._backends._asyncio  # noqa: F401
    import mcp.server.stdio  # noqa: F401
    import rich.console
    import rich.logging  # noqa: F401

    import mcp_servers.docs.server  # noqa: F401


def _serve(argv: list[str]) -> None:
    gc.disable()  # while the server's modules are imported (a cold start): no garbage worth a walk
    from mcp_servers.docs.server import main as serve

    gc.freeze()
    gc.enable()
    serve(argv)


DOCS = WarmSpec(
    name="docs",
    label="mcp_servers.docs",
    env=ENV_WARM,
    host_command=(sys.executable, "-m", "mcp_servers.docs"),
    sources=_sources,
    preload=_preload,
    entry=_serve,
)


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m mcp_servers.docs`: be served by a warm host, else serve cold."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == [HOST_FLAG] and len(args) == 3:
        warmhost.host_main(DOCS, args[1], int(args[2]))
        return
    if wanted(args):
        warmhost.serve_warm(DOCS, args, "warm server")
    _serve(args)


def wanted(args: Sequence[str]) -> bool:
    """Warm hosts are on, and the server is to speak stdio."""
    transport = "stdio"
    for i, arg in enumerate(args):
        if arg == "--transport" and i + 1 < len(args):
            transport = args[i + 1]
        elif arg.startswith("--transport="):
            transport = arg.partition("=")[2]
    return transport == "stdio" and warmhost.wanted(DOCS)


def code_key() -> str:
    return warmhost.code_key(DOCS)


def runtime_dir() -> Path:
    return warmhost.runtime_dir(DOCS)
