"""Start the MCP client process (`proxy_host`) as a command starts: stdlib only, so
that it starts before the command's own imports (`orchestrator.cli.main`).

`spawn()` starts it at most once per process, unless SKILLWEAVE_MCP_PROCESS=0 or
off Linux (its lifetime rests on PR_SET_PDEATHSIG); `proxy.current()` wraps it for
sessions; `discard()` ends it (a run with no stdio server to start, the command's
end), `kill_now()` without a wait (a command stopped at once: a second Ctrl-C). A process that cannot be started leaves sessions in-process, as before.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from typing import Any

ENV = "SKILLWEAVE_MCP_PROCESS"
_PACKAGES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # holds orchestrator/
PROFILE_ENV = "SKILLWEAVE_PROFILE"  # orchestrator.profiling.ENV: the child reports through us


class _State:
    process: subprocess.Popen[bytes] | None = None
    spawned_at: float = 0.0
    client: Any = None  # proxy.ClientProcess, once a session wants it


state = _State()


def wanted() -> bool:
    return sys.platform == "linux" and os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off", "")


def spawn() -> None:
    """Start the client process now (once; nothing when off or when it cannot start)."""
    if state.process is not None or not wanted():
        return
    env = {k: v for k, v in os.environ.items() if k != PROFILE_ENV}
    # our own `orchestrator` first, and not the working directory (`-P`): a project's
    # `mcp.py` or `anyio.py` shadows nothing there, as it does not here
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGES, os.environ.get("PYTHONPATH")) if p)
    spawned_at = time.perf_counter()
    try:
        state.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "orchestrator.mcp_client.proxy_host", str(os.getpid())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env,
        )
    except OSError:
        return
    state.spawned_at = spawned_at


def kill_now() -> None:
    """SIGKILL the client process without waiting for it (the command exits at once)."""
    process = state.process
    if process is not None:
        with contextlib.suppress(OSError):
            process.kill()


def discard() -> None:
    """End the client process now, if there is one (its sessions are closed or lost)."""
    client, process = state.client, state.process
    state.client, state.process = None, None
    if client is not None:
        client.discard()
    elif process is not None:
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
