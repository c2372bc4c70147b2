"""The MCP client process from a warm host per user: a run's client forks it instead of importing the SDK.

`python -P -m orchestrator.mcp_client.warm RUN_PID` is what a run starts
(`process.spawn`): a launcher that dies with the run (PR_SET_PDEATHSIG) and hands
its order pipes to a child of a warm host (`orchestrator.warmhost`: private 0700
folder, 0600 socket, SO_PEERCRED uid checks on both ends, lifetime, replacement
of crashed, stale or hung hosts) that has imported the SDK's client half; the
child serves the run as `proxy_host` does (`proxy_host.forked`). A client then
costs a bare Python start and a fork instead of the SDK's import (0.3 s of CPU
quiet, several times that on a loaded host, on the core the run is not using).

Lifetime: the child's parent is the host, not the run, so PR_SET_PDEATHSIG does
not tie it to the run; its lease is a pidfd on the run's pid (it exits as soon as
the run has ended, its servers with it), and the host also SIGKILLs it when the
launcher's connection closes (the launcher dies with the run). It still runs in a
session of its own, so the terminal's Ctrl-C and Ctrl-Z reach the run only.

`SKILLWEAVE_MCP_WARM=0` turns it off (each run's client imports the SDK itself,
as `proxy_host`); _IDLE, _ACK and _DIR as for the other warm hosts. Stdlib only
until the host or a cold start imports the rest.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
from collections.abc import Iterable
from pathlib import Path

from orchestrator import warmhost
from orchestrator.warmhost import HOST_FLAG, WarmSpec

ENV = "SKILLWEAVE_MCP_WARM"
_PR_SET_PDEATHSIG = 1
_PACKAGE = Path(__file__).resolve().parent.parent  # orchestrator/


def _sources() -> Iterable[Path]:
    return _PACKAGE.rglob("*.py")


def _preload() -> None:
    """What a child uses: the SDK's client half, jsonschema (tool results), setpriv's check."""
    import ctypes  # noqa: F401

    import anyio._backends._asyncio  # noqa: F401
    import jsonschema.exceptions
    import jsonschema.validators  # noqa: F401

    import orchestrator.mcp_client.proxy_host
    import orchestrator.mcp_client.schema  # noqa: F401
    from orchestrator.mcp_client.stdio import _import_sdk
    from orchestrator.mcp_client.transport import pdeathsig_prefix

    _import_sdk()
    pdeathsig_prefix()


def _entry(argv: list[str]) -> None:
    from orchestrator.mcp_client.proxy_host import forked

    gc.freeze()
    forked(argv)


CLIENT = WarmSpec(
    name="mcp-client",
    label="skillweave mcp client",
    env=ENV,
    host_command=(sys.executable, "-P", "-m", "orchestrator.mcp_client.warm"),
    sources=_sources,
    preload=_preload,
    entry=_entry,
)


def _die_with(parent: int) -> None:
    """SIGKILL when the run dies; exit now if it is gone already (as `proxy_host`'s, without
    importing it: it imports pydantic)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def main(argv: list[str]) -> None:
    """The launcher: die with the run, be served by a warm host's child, else serve cold."""
    _die_with(int(argv[0]))
    if warmhost.wanted(CLIENT):
        warmhost.serve_warm(CLIENT, argv, "warm client")
    from orchestrator.mcp_client.proxy_host import main as cold

    cold(argv)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == [HOST_FLAG] and len(args) == 3:
        warmhost.host_main(CLIENT, args[1], int(args[2]))
    elif len(args) == 1 and args[0].isdigit():
        main(args)
    else:
        sys.exit("usage: python -m orchestrator.mcp_client.warm RUN_PID (started by skillweave)")
