"""From what the process did to what it means: output, or a classified failure.

Each failure gets a `FailureKind` and one line for people:

setup            the sandbox itself did not start (no status byte from the bootstrap)
timeout          the wall-clock limit was hit; the whole tree was killed
resource_limit   CPU (SIGXCPU), memory (MemoryError), file size, the work
                 directory's total size, processes, open files, or an output cap
code_error       the script raised, exited non-zero or died on a signal
output_contract  exit 0 but stdout is not exactly one JSON document
"""

from __future__ import annotations

import json
import re
import signal
from itertools import accumulate
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


# How deep a script's output may nest (arrays and objects). The layers after
# the sandbox (the journal's serializer, the next step's input, schema checks)
# recurse over documents, and Python's recursion limit (about 1000 frames, a
# few per level) is reached long before any real output nests this deep.
MAX_OUTPUT_DEPTH = 128

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class _OutOfRange(ValueError):
    pass


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise _OutOfRange(literal)
    return value


def _shape_problem(body: str, max_containers: int) -> str | None:
    """Why `body` is too deep or holds too many objects and arrays, if it does.

    Counts brackets outside strings. Most outputs have fewer brackets than
    either limit in all, and are not scanned at all.
    """
    upper = body.count("[") + body.count("{")  # brackets inside strings too: an upper bound
    if upper <= MAX_OUTPUT_DEPTH and upper <= max_containers:
        return None
    # the brackets alone, in C (re.sub, accumulate); positions only for a document too deep
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", body))
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > MAX_OUTPUT_DEPTH:
        return f"stdout nests deeper than {MAX_OUTPUT_DEPTH} levels (at char {_too_deep_at(body)})"
    containers = brackets.count("[") + brackets.count("{")
    if containers > max_containers:
        return (
            f"stdout holds {containers:,} objects and arrays, over the limit of {max_containers:,} "
            "(max_output_containers); write bulk data to a file in the work directory instead"
        )
    return None


def _too_deep_at(body: str) -> int:
    """The char offset where `body` first nests deeper than `MAX_OUTPUT_DEPTH`."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(body):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_OUTPUT_DEPTH:
                return match.start()
        elif token in ("]", "}"):
            depth -= 1
    return len(body)


def _lone_surrogate(value: Any) -> tuple[str, str] | None:
    """The JSON pointer and character of the first lone surrogate in `value`, if any."""
    todo: list[tuple[str, Any]] = [("", value)]
    while todo:
        path, item = todo.pop()
        if isinstance(item, dict):
            for key, child in reversed(item.items()):
                found = _SURROGATE.search(key)
                if found is not None:
                    return f"{path or '/'} (a key)", found.group()
                todo.append((f"{path}/{key}", child))
        elif isinstance(item, list):
            todo.extend((f"{path}/{i}", child) for i, child in reversed(list(enumerate(item))))
        elif isinstance(item, str):
            found = _SURROGATE.search(item)
            if found is not None:
                return path or "/", found.group()
    return None


def parse_output(
    stdout: bytes, max_containers: int = ResourceLimits().max_output_containers
) -> tuple[Any, str | None]:
    """The one JSON document on stdout, or why stdout breaks the contract.

    Beyond strict JSON (no NaN or Infinity), the document must nest at most
    `MAX_OUTPUT_DEPTH` levels, have no number out of a float's range (1e400
    would be inf) and no lone surrogate (a `\\ud800` escape, not Unicode): the
    layers after the sandbox could not store or pass it on. Nor may it hold more
    than `max_containers` objects and arrays: each costs this process 60-250
    bytes once parsed, so a document of 16 MB of `{}` alone would take ~1 GB.
    """
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
    shape = _shape_problem(body, max_containers)
    if shape is not None:
        return None, shape
    decoder = json.JSONDecoder(parse_constant=_no_constants, parse_float=_finite)
    try:
        value, end = decoder.raw_decode(body)
    except json.JSONDecodeError as exc:
        return None, f"stdout is not JSON ({exc.msg} at char {exc.pos}): {_snippet(body)}"
    except _OutOfRange as exc:
        return None, f"stdout has a number out of range: {exc}"
    except ValueError as exc:
        return None, f"stdout is not strict JSON: {exc}"
    except RecursionError:  # the depth check above should have caught it first
        return None, f"stdout nests deeper than {MAX_OUTPUT_DEPTH} levels"
    if body[end:].strip():
        extra = body[end:]
        return None, (
            f"stdout has text after the JSON document (at char {end}): {_snippet(extra)}; "
            "print logs to stderr"
        )
    if _SURROGATE_ESCAPE.search(body):  # only an escape can make one: the text is UTF-8
        lone = _lone_surrogate(value)
        if lone is not None:
            path, char = lone
            return None, (
                f"stdout at {path}: a lone surrogate \\u{ord(char):04x} is not valid Unicode"
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
    (re.compile(r"^MemoryError\b"),
     "ran out of memory under its limit of {memory_mb} MB a process"),
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
    if spawn.over_quota:
        return _fail(
            FailureKind.RESOURCE_LIMIT,
            f"script wrote more than {limits.work_dir_mb} MB to its work directory",
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
    value, problem = parse_output(spawn.stdout, limits.max_output_containers)
    if problem is not None:
        failure = _fail(FailureKind.OUTPUT_CONTRACT, problem)
        return Outcome(failure=failure, exit_code=exit_code, signal=sig)
    return Outcome(output=value, exit_code=exit_code, signal=sig)
