"""Import modules in the background while the process waits for something else.

A run often waits: for an MCP server to start, for a sandboxed script. Modules it
will need next (`jsonschema`, which the MCP SDK checks tool results with; the
report's) can be imported in that time by a daemon thread instead of later on
the way. Python runs one thread at a time, so this pays only where the caller
is about to wait; elsewhere it costs what the import costs, no more.

An import that fails here is forgotten: the code that needs the module imports
it again and meets the error where it belongs. Stdlib only.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading

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
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
