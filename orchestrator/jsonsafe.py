"""Whether a value can be stored and handed on as JSON: the journal's and every reader's terms.

A script's stdout is checked as text by the sandbox (`sandbox.outcome`); outputs
that other runners build from a peer's answer (an MCP server, a model) are
checked here, before the engine stores them, so that a value the journal cannot
encode fails its step, naming where, instead of failing the run's next commit.
"""

from __future__ import annotations

import math
from typing import Any

MAX_DEPTH = 128  # containers within containers; as for a script's stdout


def storable_problem(value: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """Why `value` is not plain, storable JSON (with the JSON pointer), or None when it is."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, pointer, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _lone_surrogate(item):
                return f"{pointer or '/'}: a lone surrogate is not valid Unicode"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{pointer or '/'}: {item} is not a JSON number"
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                return f"{pointer or '/'}: nests deeper than {max_depth} levels"
            if isinstance(item, list):
                stack.extend((v, f"{pointer}/{i}", depth + 1) for i, v in enumerate(item))
                continue
            for key, v in item.items():
                if not isinstance(key, str):
                    return f"{pointer or '/'}: key {key!r} is not a string"
                if not key.isascii() and _lone_surrogate(key):
                    return f"{pointer or '/'}: a key holds a lone surrogate"
                stack.append((v, f"{pointer}/{_escape(key)}", depth + 1))
        elif item is not None and not isinstance(item, bool | int):
            return f"{pointer or '/'}: a {type(item).__name__} is not JSON"
    return None


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def deepest_line(text: str, first_line: int = 1) -> int:
    """The line (numbered from `first_line`) where `[`/`{` nesting in `text` first
    reaches its deepest level: where to point at a document too deep to parse."""
    depth = deepest = 0
    line = at = first_line
    for char in text:
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, line
        elif char in "]}":
            depth = max(depth - 1, 0)
    return at
