"""`skillweave serve` over stdio from a warm host per user: a start forks it instead of importing.

`skillweave serve` (stdio, the default) first hands its stdio to a child of a
warm host that has imported the server, the engine and the MCP SDK
(`orchestrator.warmhost`: lifetime, isolation, replacement of crashed, stale or
hung hosts, signals passed on); the child runs the command as a cold start
would, with the launcher's environment, working directory (the server's default
root) and arguments. The host and its children are this user's only.

`SKILLWEAVE_SERVE_WARM=0` turns it off, and so do `--transport http`, `--help`
and a platform without fork or unix sockets. SKILLWEAVE_SERVE_WARM_IDLE,
_ACK and _DIR as for the docs server (`mcp_servers.docs.warm`).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from orchestrator import warmhost
from orchestrator.warmhost import HOST_FLAG, Unavailable, WarmSpec

ENV_WARM = "SKILLWEAVE_SERVE_WARM"
_PACKAGE = Path(__file__).resolve().parent.parent  # orchestrator/


def _sources() -> Iterable[Path]:
    return _PACKAGE.rglob("*.py")


def _preload() -> None:
    """What `serve` and its first tool calls import, so that a child only builds and serves."""
    import ctypes  # noqa: F401 - the child's prctl

    import anyio._backends._asyncio  # noqa: F401
    import jsonschema.validators  # noqa: F401
    import mcp.server.stdio  # noqa: F401
    import rich.console
    import rich.logging  # noqa: F401

    import orchestrator.cli.serve_cmd
    import orchestrator.engine
    import orchestrator.mcp_client.runner
    import orchestrator.plan
    import orchestrator.report
    import orchestrator.runners.script
    import orchestrator.server
    import orchestrator.spec.markdown  # noqa: F401


def _serve(argv: list[str]) -> None:
    from orchestrator import profiling
    from orchestrator.cli import cli

    profiling.configure_from_env()
    try:
        cli.main(args=argv, prog_name="skillweave")
    finally:
        gc.freeze()  # as `skillweave`'s own exit: the GC's walk over every import is left out


SERVE = WarmSpec(
    name="serve",
    label="skillweave serve",
    env=ENV_WARM,
    host_command=(sys.executable, "-m", "orchestrator.cli.serve_warm"),
    sources=_sources,
    preload=_preload,
    entry=_serve,
)


def wanted(argv: Sequence[str]) -> bool:
    """`serve` over stdio, not asking for help, with warm hosts on."""
    if argv[:1] != ["serve"] or any(a in ("-h", "--help") for a in argv[1:]):
        return False
    transport = "stdio"
    for i, arg in enumerate(argv):
        if arg == "--transport" and i + 1 < len(argv):
            transport = argv[i + 1]
        elif arg.startswith("--transport="):
            transport = arg.partition("=")[2]
    return transport == "stdio" and warmhost.wanted(SERVE)


def launch_if_wanted(argv: Sequence[str]) -> None:
    """Serve through a warm host and exit as the server did; return when it is not wanted
    or no host can serve (the command then runs here, cold)."""
    if not wanted(argv):
        return
    try:
        code = warmhost.launch(SERVE, list(argv))
    except Unavailable as exc:
        warmhost.note(SERVE, f"warm server unavailable ({exc}); starting cold")
        return
    warmhost.exit_as(code)


if __name__ == "__main__":  # a host: python -m orchestrator.cli.serve_warm --warm-host SOCKET FD
    args = sys.argv[1:]
    if args[:1] == [HOST_FLAG] and len(args) == 3:
        warmhost.host_main(SERVE, args[1], int(args[2]))
