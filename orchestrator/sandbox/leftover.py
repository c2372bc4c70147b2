"""Reaping sandboxes that a killed orchestrator left behind.

bwrap's `--die-with-parent` arms itself while bwrap is still setting up. If the
orchestrator is SIGKILLed in that window, bwrap's init in the new PID namespace
can be left waiting forever for a parent that is gone. Such a process still
names its attempt's work directory on its command line (`--bind <dir> /work`)
or has it as its working directory. Only one process executes a run at a time
(the engine refuses a second), so when a run's runner starts, anything still
bound to that run's work directories is a leftover and is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path


def _bound_to(pid: int, prefix: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if any(arg.startswith(prefix) for arg in f.read().split(b"\0")):
                return True
        return os.fsencode(os.readlink(f"/proc/{pid}/cwd")).startswith(prefix)
    except OSError:
        return False


def reap_leftovers(workdir_parent: Path) -> list[int]:
    """Kill every process bound to a directory under `workdir_parent`; the pids killed."""
    prefix = os.fsencode(str(workdir_parent.absolute())) + b"/"
    me = os.getpid()
    killed: list[int] = []
    if not os.path.isdir("/proc"):
        return killed
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me and _bound_to(int(entry), prefix):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry), signal.SIGKILL)
                killed.append(int(entry))
    return killed
