"""Run a command under resource limits, so a test that reproduces a memory or time
blow-up cannot hurt the machine: address space (RLIMIT_AS), CPU seconds
(RLIMIT_CPU) and a wall-clock bound, with the child's own peak RSS measured."""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
MEMORY = 1 << 30  # address space: the CLI needs about 0.5 GiB of it to start
CPU_S = 60


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None: still running at the wall-clock bound (then killed)
    stdout: str
    stderr: str
    peak_rss_mb: float  # the child's own peak resident set

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    def __str__(self) -> str:
        return (f"exit {self.returncode}, peak {self.peak_rss_mb:.0f} MB\n"
                f"stdout: {self.stdout[-1500:]}\nstderr: {self.stderr[-1500:]}")


def run_bounded(args: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
                memory: int = MEMORY, cpu_s: int = CPU_S, wall_s: float = 90.0) -> Outcome:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    full_env.update(env or {})
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, cwd=cwd, env=full_env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, preexec_fn=limit, start_new_session=True)
        pidfd = os.pidfd_open(proc.pid)
        try:
            ready, _, _ = select.select([pidfd], [], [], wall_s)
            if not ready:
                os.killpg(proc.pid, signal.SIGKILL)
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            os.close(pidfd)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        code = proc.returncode if ready else None
        out.seek(0)
        err.seek(0)
        return Outcome(code, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                       usage.ru_maxrss / 1024)


def skillweave(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
               memory: int = MEMORY, wall_s: float = 90.0) -> Outcome:
    return run_bounded([SKILLWEAVE, *args], cwd=cwd, env=env, memory=memory, wall_s=wall_s)
