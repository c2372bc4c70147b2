"""The fuzzed process: a worker that imports skillweave once, then forks one child per input,
so each input runs the real command (`skillweave validate`, `skills validate`) in milliseconds
under its own limits.

Protocol: one JSON request per line on stdin, `{"args": [...], "cwd": "...", "memory": bytes,
"cpu_s": seconds, "wall_s": seconds}`; one JSON answer per line on stdout, `{"code", "signal",
"timed_out", "grew_mb", "cpu_s", "stdout", "stderr"}`. The child's address space may grow by
`memory` bytes over the worker's (RLIMIT_AS), it may use `cpu_s` seconds of CPU (RLIMIT_CPU,
then SIGXCPU), and it is killed after `wall_s` seconds. A MemoryError raised anywhere in
the child, even one the code catches, is written to its stderr (`FUZZ-MEMORY-ERROR`).
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from types import FrameType


def _vsize() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _watch(frame: FrameType, event: str, arg: object) -> Callable[..., object] | None:
    """A trace function that reports every MemoryError where it is raised, even one the code
    catches: an input that needed more than its address space is a finding, not a pass."""
    frame.f_trace_lines = False
    if event == "exception" and isinstance(arg, tuple) and arg and arg[0] is MemoryError:
        code = frame.f_code
        os.write(2, f"\nFUZZ-MEMORY-ERROR in {code.co_name} ({code.co_filename}:{frame.f_lineno})\n".encode())
    return _watch


def _child(args: list[str], cwd: str, memory: int, cpu_s: int, out: int, err: int) -> None:
    code = 70
    try:
        os.chdir(cwd)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        limit = _vsize() + memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        sys.settrace(_watch)
        from orchestrator.cli import cli

        try:
            cli.main(args=args, prog_name="skillweave", standalone_mode=True)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 70
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run(request: dict[str, object]) -> dict[str, object]:
    args = [str(a) for a in request["args"]]  # type: ignore[attr-defined]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        pid = os.fork()
        if pid == 0:
            _child(args, str(request["cwd"]), int(request["memory"]), int(request["cpu_s"]),  # type: ignore[call-overload]
                   out.fileno(), err.fileno())
        pidfd = os.pidfd_open(pid)
        try:
            ready, _, _ = select.select([pidfd], [], [], float(request["wall_s"]))  # type: ignore[arg-type]
            if not ready:
                os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
        finally:
            os.close(pidfd)
        out.seek(0)
        err.seek(0)
        return {
            "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "timed_out": not ready,
            "grew_mb": max(usage.ru_maxrss - before, 0) / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "stdout": out.read().decode("utf-8", "replace")[-20_000:],
            "stderr": err.read().decode("utf-8", "replace")[-20_000:],
        }


def main() -> None:
    import importlib

    for name in ("orchestrator.cli.skills_cmd", "orchestrator.cli.validate_cmd", "orchestrator.plan.build",
                 "orchestrator.plan.checks", "orchestrator.spec.markdown", "orchestrator.spec.yaml_form",
                 "orchestrator.skills", "orchestrator.templating", "orchestrator.contracts", "jsonschema",
                 "markdown_it", "orchestrator.mcp_client.config"):
        importlib.import_module(name)  # once, before the first fork: each child starts warm

    for line in sys.stdin:
        answer = run(json.loads(line))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
