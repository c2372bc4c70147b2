"""From what the process did to what it means: output, or a classified failure.

Each failure gets a `FailureKind` and one line for people:

setup            the sandbox itself did not start (no status byte from the bootstrap)
timeout          the wall-clock limit was hit; the whole tree was killed
resource_limit   CPU (SIGXCPU), memory (MemoryError), file size, processes,
                 open files, or an output cap
code_error       the script raised, exited non-zero or died on a signal
output_contract  exit 0 but stdout is not exactly one JSON document
"""

from __future__ import annotations

import json
import re
import signal
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.sandbox.model import FailureKind, Isolation, ResourceLimits, SandboxFailure
from orchestrator.sandbox.process import SpawnResult

_SNIPPET = 60
_MESSAGE = 300


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Outcome(_Frozen):
    output: Any = None
    failure: SandboxFailure | None = None
    exit_code: int | None = None
    signal: int | None = None


def _fail(kind: FailureKind, message: str) -> SandboxFailure:
    line = " ".join(message.split())
    if len(line) > _MESSAGE:
        line = line[: _MESSAGE - 1] + "…"
    return SandboxFailure(kind=kind, message=line)


def _snippet(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= _SNIPPET else text[:_SNIPPET] + "…")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_output(stdout: bytes) -> tuple[Any, str | None]:
    """The one JSON document on stdout, or why stdout breaks the contract."""
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        return (
            None,
            f"stdout is not UTF-8 (byte {exc.start}); a script must print one JSON document",
        )
    body = text.strip()
    if not body:
        return None, "stdout is empty; a script must print one JSON document"
    decoder = json.JSONDecoder(parse_constant=_no_constants)
    try:
        value, end = decoder.raw_decode(body)
    except json.JSONDecodeError as exc:
        return None, f"stdout is not JSON ({exc.msg} at char {exc.pos}): {_snippet(body)}"
    except ValueError as exc:
        return None, f"stdout is not strict JSON: {exc}"
    if body[end:].strip():
        extra = body[end:]
        return None, (
            f"stdout has text after the JSON document (at char {end}): {_snippet(extra)}; "
            "print logs to stderr"
        )
    return value, None


def decode_tail(data: bytes) -> str:
    """stderr tail as text; a character cut in half at the start is dropped."""
    text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufffd") else text


def _last_line(stderr: str) -> str:
    for line in reversed(stderr.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


# The last stderr line of a script that died on a limit, as Python reports it.
_LIMIT_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^MemoryError\b"), "ran out of memory under its {memory_mb} MB limit"),
    (re.compile(r"\[Errno 11\] Resource temporarily unavailable"),
     "hit its limit of {max_procs} processes"),
    (re.compile(r"\[Errno 24\] Too many open files"), "hit its limit of {max_open_files} open files"),
    (re.compile(r"\[Errno 27\] File too large"), "hit its file size limit of {file_size_mb} MB"),
)  # fmt: skip


def _split_status(spawn: SpawnResult, isolation: Isolation) -> tuple[int | None, int | None]:
    """(exit code, signal).

    bwrap's init, and our bootstrap when it is PID 1 under unshare, report a
    script killed by signal N as exit status 128+N.
    """
    code = spawn.returncode
    if code is None:
        return None, None
    if code < 0:
        return None, -code
    namespaced = isolation in (Isolation.BWRAP, Isolation.UNSHARE)
    if namespaced and spawn.started and 128 < code < 128 + signal.NSIG:
        return None, code - 128
    return code, None


def _failure(
    spawn: SpawnResult,
    *,
    isolation: Isolation,
    limits: ResourceLimits,
    exit_code: int | None,
    sig: int | None,
    last: str,
) -> SandboxFailure | None:
    """The failure, if the run failed before its output even matters."""
    if spawn.error is not None:
        return _fail(FailureKind.SETUP, f"sandbox ({isolation}) could not start: {spawn.error}")
    if not spawn.started:
        why = "did not start within the time limit" if spawn.timed_out else "could not start"
        detail = f": {last}" if last else ""
        return _fail(FailureKind.SETUP, f"sandbox ({isolation}) {why}{detail}")
    if spawn.timed_out:
        return _fail(
            FailureKind.TIMEOUT,
            f"script ran past its wall-clock limit of {limits.wall_s:g} s and was killed",
        )
    if spawn.overflow is not None:
        cap = limits.max_stdout_bytes if spawn.overflow == "stdout" else limits.max_stderr_bytes
        return _fail(
            FailureKind.RESOURCE_LIMIT,
            f"script wrote more than {cap} bytes on {spawn.overflow}; "
            "reading stopped and the script was killed",
        )
    if sig is not None:
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and spawn.usage.cpu_s >= limits.cpu_s):
            return _fail(
                FailureKind.RESOURCE_LIMIT, f"script used up its CPU limit of {limits.cpu_s} s"
            )
        if sig == signal.SIGXFSZ:
            return _fail(
                FailureKind.RESOURCE_LIMIT,
                f"script hit its file size limit of {limits.file_size_mb} MB",
            )
        detail = f" (last stderr line: {last})" if last else ""
        return _fail(FailureKind.CODE_ERROR, f"script was killed by {_signal_name(sig)}{detail}")
    if exit_code:
        for pattern, template in _LIMIT_LINES:
            if pattern.search(last):
                message = "script " + template.format(**limits.model_dump())
                return _fail(FailureKind.RESOURCE_LIMIT, f"{message}: {last}")
        detail = f": {last}" if last else " (nothing on stderr)"
        return _fail(FailureKind.CODE_ERROR, f"script exited with status {exit_code}{detail}")
    return None


def classify(spawn: SpawnResult, *, isolation: Isolation, limits: ResourceLimits) -> Outcome:
    exit_code, sig = _split_status(spawn, isolation)
    last = _last_line(decode_tail(spawn.stderr_tail))
    failure = _failure(
        spawn, isolation=isolation, limits=limits, exit_code=exit_code, sig=sig, last=last
    )
    if failure is not None:
        return Outcome(failure=failure, exit_code=exit_code, signal=sig)
    value, problem = parse_output(spawn.stdout)
    if problem is not None:
        failure = _fail(FailureKind.OUTPUT_CONTRACT, problem)
        return Outcome(failure=failure, exit_code=exit_code, signal=sig)
    return Outcome(output=value, exit_code=exit_code, signal=sig)
