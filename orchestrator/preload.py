"""Import modules in the background while the process waits for something else.

A run often waits: for an MCP server to start, for a sandboxed script. Modules it
will need next (`jsonschema`, which the MCP SDK checks tool results with; the
report's) can be imported in that time by a daemon thread instead of later on
the way. Python runs one thread at a time, so this pays only where the caller
is about to wait; elsewhere it costs what the import costs, no more.

An import that fails here is forgotten: the code that needs the module imports
it again and meets the error where it belongs. Stdlib only.

Imports make many objects and few cycles, and the cyclic GC walks them over and
over as they pile up (about a tenth of a run's import time). `pause_gc()` stops it
while a command starts; `resume_gc()` moves what the imports made out of its
reach (`gc.freeze()`) and turns it on again before the work that makes garbage;
`gc_paused()` does the same around one import (the MCP SDK's, in a thread).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import sys
import threading
from collections.abc import Iterator

_started: set[str] = set()
_lock = threading.Lock()


def preload(*names: str) -> None:
    """Import `names` (those not imported or being imported yet) in a daemon thread."""
    with _lock:
        wanted = [n for n in names if n not in sys.modules and n not in _started]
        _started.update(wanted)
    if wanted:
        threading.Thread(target=_load, args=(wanted,), name="skillweave-preload", daemon=True).start()


def _load(names: list[str]) -> None:
    with gc_paused():
        for name in names:
            with contextlib.suppress(Exception):
                importlib.import_module(name)


_paused = False


def pause_gc() -> None:
    """No cyclic GC until `resume_gc()` (a command's start: its imports and its plan)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_gc() -> None:
    """Undo `pause_gc()`: what exists now is left out of later collections, and the GC runs again."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic GC inside (unless it was off already, it is on again after)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
