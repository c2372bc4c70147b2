"""When the CLI colours what it prints, and in which colours.

Colour is on when the stream is a terminal (and `TERM` is not `dumb`); `NO_COLOR`
(any non-empty value, https://no-color.org) and the global `--no-color` option turn
it off, and win; `FORCE_COLOR` (non-empty, not `0`) turns it on for a pipe too. The
`--no-color` option sets `NO_COLOR=1` for the process, so rich (the live table) and
any child process agree. Machine output (`--json`, `--format json`) never has colour.
"""

from __future__ import annotations

import os
from typing import Any

import click

# status -> click colour (the report's palette, as terminals have it)
STATUS_COLOURS: dict[str, str] = {
    "succeeded": "green",
    "degraded": "yellow",
    "defaulted": "yellow",
    "continued": "yellow",
    "failed": "red",
    "escalated": "bright_red",
    "skipped": "bright_black",
    "not_run": "bright_black",
    "not run": "bright_black",
    "cancelled": "magenta",
    "running": "blue",
    "ready": "cyan",
    "pending": "bright_black",
    "paused": "cyan",
    "awaiting_approval": "cyan",
    "awaiting approval": "cyan",
}


def colour_wanted(stream: Any) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force != "0":
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


def paint(text: str, status: str, on: bool) -> str:
    """`text` in the colour of `status` when `on` (bold for a run's end)."""
    colour = STATUS_COLOURS.get(status.strip())
    if not on or colour is None:
        return text
    return click.style(text, fg=colour, bold=True if status.strip() in ("failed", "escalated") else None)


def rich_style(status: str) -> str:
    """The rich style of a status (for the live table)."""
    colour = STATUS_COLOURS.get(status, "")
    return f"bold {colour}" if status in ("failed", "escalated") else colour
