"""`skillweave serve` (stdio) and, opted in, `skillweave run` from a warm host per user.

The command hands its stdio to a child of a warm host that has imported the
CLI, the server, the engine, the plan and spec readers and the MCP SDK's
client half (`orchestrator.warmhost`: lifetime, isolation, replacement of
crashed, stale or hung hosts, signals passed on); the child runs the command as
a cold start would, with the launcher's arguments, environment and working
directory (the server's default root), and the launcher ends as it did. The
host and its children are this user's only; one host serves both commands.

- `serve` over stdio: on unless SKILLWEAVE_SERVE_WARM=0 (never over HTTP).
- `run`: off unless SKILLWEAVE_RUN_WARM=1 (its first run in a session starts
  the host; later ones skip the imports: most of a short run's time).
- `--help` and other commands: never. SKILLWEAVE_WARM=0 turns both off;
  SKILLWEAVE_WARM_IDLE, _ACK and _DIR as for the docs server (`mcp_servers.docs.warm`).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from orchestrator import warmhost
from orchestrator.warmhost import HOST_FLAG, WarmSpec

ENV_SERVE = "SKILLWEAVE_SERVE_WARM"
ENV_RUN = "SKILLWEAVE_RUN_WARM"
_PACKAGE = Path(__file__).resolve().parent.parent  # orchestrator/


def _sources() -> Iterable[Path]:
    return _PACKAGE.rglob("*.py")


def _preload() -> None:
    """What `serve` and `run` import, so that a child only works."""
    import ctypes  # noqa: F401 - the child's prctl

    import anyio._backends._asyncio  # noqa: F401
    import jsonschema.validators  # noqa: F401
    import mcp.server.stdio  # noqa: F401
    import rich.console
    import rich.live
    import rich.logging  # noqa: F401

    import orchestrator.cli.run_cmd
    import orchestrator.cli.serve_cmd
    import orchestrator.compile
    import orchestrator.engine
    import orchestrator.kinds.mcp
    import orchestrator.kinds.script
    import orchestrator.mcp_client.runner
    import orchestrator.mcp_client.stdio
    import orchestrator.plan
    import orchestrator.report
    import orchestrator.report.render_md
    import orchestrator.runners.script
    import orchestrator.server
    import orchestrator.skills
    import orchestrator.spec.markdown
    import orchestrator.templating  # Jinja2, which the engine imports on a run's first condition
    import orchestrator.temporal.config  # noqa: F401 - the backend's name only, not its SDK
    from orchestrator.mcp_client.sdk import import_lean

    import_lean("mcp.client.session", "mcp.client.stdio", "mcp.client._probe")


def _command(argv: list[str]) -> None:
    from orchestrator import profiling
    from orchestrator.cli import cli

    profiling.configure_from_env()
    try:
        cli.main(args=argv, prog_name="skillweave")
    finally:
        gc.freeze()  # as `skillweave`'s own exit: the GC's walk over every import is left out


CLI = WarmSpec(
    name="cli",
    label="skillweave",
    env="SKILLWEAVE_WARM",
    host_command=(sys.executable, "-m", "orchestrator.cli.warm"),
    sources=_sources,
    preload=_preload,
    entry=_command,
)


def _on(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def wanted(argv: Sequence[str]) -> bool:
    """`serve` over stdio, or `run` opted in; not asking for help; warm hosts on."""
    if not argv or any(a in ("-h", "--help") for a in argv[1:]):
        return False
    if argv[0] == "serve":
        transport = "stdio"
        for i, arg in enumerate(argv):
            if arg == "--transport" and i + 1 < len(argv):
                transport = argv[i + 1]
            elif arg.startswith("--transport="):
                transport = arg.partition("=")[2]
        chosen = transport == "stdio" and _on(ENV_SERVE, True)
    elif argv[0] == "run":
        chosen = _on(ENV_RUN, False)
    else:
        chosen = False
    return chosen and warmhost.wanted(CLI)


def launch_if_wanted(argv: Sequence[str]) -> None:
    """Run the command through a warm host and exit as it did; return when that is not
    wanted or no host can do it (the command then runs here, cold)."""
    if not wanted(argv):
        return
    warmhost.serve_warm(CLI, list(argv), "warm start")


if __name__ == "__main__":  # a host: python -m orchestrator.cli.warm --warm-host SOCKET FD
    args = sys.argv[1:]
    if args[:1] == [HOST_FLAG] and len(args) == 3:
        warmhost.host_main(CLI, args[1], int(args[2]))
