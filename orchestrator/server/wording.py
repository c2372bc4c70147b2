"""Error text as an MCP client reads it: tool arguments, not the CLI's flags.

The engine phrases a few messages for the command line (`--input NAME=VALUE`,
`--force`); a host agent calling a tool has `inputs` and `force=true` instead.
`for_client` rewrites those phrases at the server's edge, so no shared module
needs to know which front end it serves.
"""

from __future__ import annotations

import re

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(give it with --input ([^\s=]+)=VALUE\)"), r"(give it in the `inputs` argument, key '\1')"),
    (re.compile(r"(?m)^--input ([^\s:]+):"), r"inputs.\1:"),
    (re.compile(r"\(--force resumes anyway\)"), "(resume_run with force=true resumes anyway)"),
    (re.compile(r"\buse --force if\b"), "call resume_run with force=true if"),
    (
        re.compile(r"pass --state-dir or set SKILLWEAVE_STATE_DIR"),
        "this server keeps its runs in that state directory, which is chosen when the server is started",
    ),
)


def for_client(text: str) -> str:
    """`text` with the CLI's flags replaced by the tools' arguments."""
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return text


_FORCE_HINT = re.compile(r" \(--force resumes anyway\)|; use --force if that process is gone")


def without_force_hint(text: str) -> str:
    """`text` without the engine's advice to resume with `--force` (the caller gives its own)."""
    return _FORCE_HINT.sub("", text)
