"""A script's lines as the script reader reads them: (kind, line, text), kind "comment", "blank" or a
statement's kind, for the languages whose statements are put in Python's words line by line
(`spec.rscript47`, `spec.perl50`).

Shared by those readers: a `#!` first line and an empty line are blank, a comment line is a comment, a
statement not finished on its line goes on at the next (at most `MAX_JOINED` lines), and a comment after
the code on a line is a comment of that line. What each language finishes, cuts and says is its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_JOINED = 200  # the lines one statement may run on over (a bracket never closed does not join the file)

Line = tuple[str, int, str]


def joined_lines(lines: list[str], *, comment: re.Pattern[str], cut: Callable[[str], tuple[str, str]],
                 goes_on: Callable[[str], bool], statements: Callable[[str], list[tuple[str, str]]],
                 before: Callable[[int, str, str, list[Line]], str | None] | None = None) -> list[Line]:
    """(kind, line, text) of each line (module docstring): `comment` matches a comment line (its `text` group),
    `cut` splits a line's code from its trailing comment, `goes_on` says a joined statement is not finished,
    `statements` says one finished statement in Python's words; `before` sees a line between statements first
    and answers "taken" (it wrote the line), "stop" (no more code) or None."""
    out: list[Line] = []
    joined, start = "", 0
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not joined:
            taken = before(number, raw, stripped, out) if before is not None else None
            if taken == "stop":
                break
            if taken == "taken":
                continue
            if (number == 1 and stripped.startswith("#!")) or not stripped:
                out.append(("blank", number, ""))
                continue
            if (c := comment.match(stripped)) is not None:
                out.append(("comment", number, c.group("text").strip()))
                continue
        code, trailing = cut(stripped)
        start = start if joined else number
        joined = f"{joined} {code}".strip() if code else joined
        if goes_on(joined) and number < len(lines) and number - start < MAX_JOINED:
            if trailing:
                out.append(("comment", number, trailing))
            continue
        said = statements(joined)
        out.extend((kind, start, text) for kind, text in said)
        if not said:
            out.append(("blank", start, ""))
        if trailing:
            out.append(("comment", number, trailing))
        joined = ""
    return out
