"""Reaping sandboxes that a killed orchestrator left behind.

bwrap's `--die-with-parent` arms itself while bwrap is still setting up. If the
orchestrator is SIGKILLed in that window, bwrap's init in the new PID namespace
can be left waiting forever for a parent that is gone. Such a process still
names its attempt's work directory on its command line (`--bind <dir> /work`)
or has it as its working directory. Only one process executes a run at a time
(the engine refuses a second), so when a run's runner starts, anything still
bound to that run's work directories is a leftover and is killed.

Without a PID namespace (isolation none) nothing kills a script's daemonised
child when the orchestrator dies, and such a child may leave the work
directory. It still carries `SKILLWEAVE_RUN_ID=<run>` in its environment (the
script runner sets it), so given the run id, a process whose environment names
that run is a leftover too (where this process may read it: its own uid, or
root).
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

RUN_VARIABLE = "SKILLWEAVE_RUN_ID"


def _bound_to(pid: int, prefix: bytes, key: bytes | None) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if any(arg.startswith(prefix) for arg in f.read().split(b"\0")):
                return True
        if os.fsencode(os.readlink(f"/proc/{pid}/cwd")).startswith(prefix):
            return True
        if key is None:
            return False
        with open(f"/proc/{pid}/environ", "rb") as f:
            return key in f.read().split(b"\0")
    except OSError:
        return False


def reap_leftovers(workdir_parent: Path, run_id: str | None = None) -> list[int]:
    """Kill every process bound to a directory under `workdir_parent`, or (given
    `run_id`) whose environment names that run; the pids killed."""
    prefix = os.fsencode(str(workdir_parent.absolute())) + b"/"
    key = f"{RUN_VARIABLE}={run_id}".encode() if run_id else None
    killed: list[int] = []
    if not os.path.isdir("/proc"):
        return killed
    spared = _ancestry()  # this process and those above it, whatever their environment
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in spared and _bound_to(int(entry), prefix, key):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry), signal.SIGKILL)
                killed.append(int(entry))
    return killed


def _ancestry() -> set[int]:
    """This process's pid and its ancestors' (a parent may carry the variables too)."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])  # the field after the state
        except (OSError, ValueError, IndexError):
            break
    return pids
