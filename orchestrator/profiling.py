"""Where a command's time goes: named spans, printed as a breakdown when the process exits.

Off unless `skillweave run --profile` (or `resume --profile`) or SKILLWEAVE_PROFILE
is set (`1`: a table on stderr; `json`: one line `skillweave profile: {...}` on
stderr, for `bench/e2e_bench.py`). When off, `span()` and `add()` cost one check.

The spans overlap and nest (a step's span holds its MCP server's start); the
table lists them in the order they started, with their offset from the process's
start (read from /proc, so at 10 ms resolution; the first span shows how long the
interpreter took before skillweave's first module ran). Stdlib only: imported by
the CLI before anything else.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator

ENV = "SKILLWEAVE_PROFILE"
PREFIX = "skillweave profile: "

_spans: list[tuple[str, float, float]] = []
_mode = os.environ.get(ENV, "").strip().lower()
_on = _mode not in ("", "0", "false", "no")
_registered = False
_begun = time.perf_counter()  # when this module was first imported


def enabled() -> bool:
    return _on


def configure_from_env() -> None:
    """Start again from SKILLWEAVE_PROFILE and now (a process forked from a warm host has
    its launcher's environment, not the host's, and starts when it is forked)."""
    global _mode, _on, _begun
    _mode = os.environ.get(ENV, "").strip().lower()
    _on = _mode not in ("", "0", "false", "no")
    _begun = time.perf_counter()
    _spans.clear()
    if _on:
        _register()


def enable(mode: str = "1") -> None:
    """Turn profiling on for the rest of the process (the `--profile` flag)."""
    global _on, _mode
    if not _on:
        _on, _mode = True, mode
    _register()


def since_first_import(name: str) -> None:
    """Record `name` as the span from this module's first import until now."""
    add(name, _begun)


def add(name: str, start: float, end: float | None = None) -> None:
    """Record a span measured with `time.perf_counter()` (end: now)."""
    if _on:
        _spans.append((name, start, time.perf_counter() if end is None else end))
        _register()


@contextlib.contextmanager
def span(name: str) -> Iterator[None]:
    """Time the block as `name` (nothing when profiling is off)."""
    if not _on:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        add(name, start)


def process_start() -> float | None:
    """The process's start on the `perf_counter` clock, from /proc (None where there is none)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        ticks = int(stat[stat.rfind(b")") + 2 :].split()[19])
        hz = os.sysconf("SC_CLK_TCK")
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        now = time.perf_counter()
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return now - (since_boot - ticks / hz)


def breakdown() -> dict[str, object]:
    """The spans so far, offsets and durations in milliseconds from the process's start."""
    origin = process_start()
    if origin is None or origin > _begun:
        origin = _begun
    rows = [
        {"name": "interpreter start (before skillweave's first import)", "start_ms": 0.0,
         "ms": round((_begun - origin) * 1000, 1)},
    ]
    for name, start, end in sorted(_spans, key=lambda s: s[1]):
        rows.append({"name": name, "start_ms": round((start - origin) * 1000, 1),
                     "ms": round((end - start) * 1000, 1)})
    return {"total_ms": round((time.perf_counter() - origin) * 1000, 1), "spans": rows}


def render(data: dict[str, object]) -> str:
    spans = data["spans"]
    assert isinstance(spans, list)
    lines = [f"{'starts at':>10} {'takes':>9}  what"]
    for row in spans:
        lines.append(f"{row['start_ms']:>8.0f}ms {row['ms']:>7.1f}ms  {row['name']}")
    lines.append(f"{'':>10} {data['total_ms']:>7.0f}ms  until the profile was printed (then the interpreter exits)")
    return "\n".join(lines)


def _print() -> None:
    if not _on:
        return
    data = breakdown()
    with contextlib.suppress(OSError, ValueError):
        if _mode == "json":
            print(PREFIX + json.dumps(data), file=sys.stderr, flush=True)
        else:
            print("skillweave profile (milliseconds from the process's start):", file=sys.stderr)
            print(render(data), file=sys.stderr, flush=True)


def _register() -> None:
    global _registered
    if not _registered:
        _registered = True
        atexit.register(_print)


if _on:
    _register()
