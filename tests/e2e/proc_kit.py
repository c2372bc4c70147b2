"""Processes as /proc shows them, for the warm-host tests: a pid's live children, and a
bounded wait for a condition."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


def children_of(pid: int) -> list[int]:
    """The live (not zombie) children of `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def wait_until(predicate: Callable[[], bool], what: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)
