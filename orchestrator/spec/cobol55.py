"""COBOL's comment lines are comments (55th round; used by `spec.wired52` when it splits a file into code and comments).

          * WHOLE JOB MUST FINISH INSIDE 15 MINUTES.        fixed format: `*` in column 7 (the six columns before it
    000190* RUN IS GOOD WHEN X COMES BACK OK = TRUE.          blank or a sequence number): a full-line comment
           *> give it two minutes then give up              free format: `*>` anywhere a line starts: a comment
           CALL 'SW' USING 'x' A  *> a note                 `*>` after code, a space before it: a trailing comment
          *ptr = 3;                                         a near miss: C code indented six columns stays code

A line read as a comment calls nothing (a skill it names in a sentence is no step), and its text reaches the
readers of prose as the other comments do: a run's check, its limits, the rules under a call. The fixed form
needs the `*` to be followed by a space, another `*`, `-`, `=`, `>` or the end of the line, so a pointer
dereference at that column stays code. Scanning is linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# fixed format: columns 1-6 blank or a sequence number, `*` in column 7, then a space, `*`, `-`, `=`, `>` or the end
_FIXED = _rx(r"^[ 0-9]{6}\*(?=[ \t*\-=>]|$)")
# a label on a line of its own: `0200-FINES.`, `MAIN-LOGIC SECTION.`, `step_2:`, `:fines` (batch)
_LABEL = _rx(r"^(?::[A-Za-z_][\w-]{0,60}+|[A-Za-z0-9][\w-]{0,60}+(?:[ \t]++SECTION)?+[ \t]*+[.:])$", re.I)
# free format: `*>` opening the line
_FREE = _rx(r"^[ \t]*+\*>")


def cobol_comment(raw: str) -> tuple[str, int] | None:
    """(text, column of the text) of a COBOL full-line comment (module docstring), or None when the line is not
    one. The column is where the words start, not the `*`: the marker's column is fixed, the words' is the
    comment's indent."""
    text = raw.rstrip()
    m = _FREE.match(text) or _FIXED.match(text)
    if m is None:
        return None
    rest = text[m.end():].lstrip(">*")
    said = rest.strip().strip("*").strip()
    return said, len(text) - len(rest) + (len(rest) - len(rest.lstrip()))


class _Line(Protocol):
    code: str
    comment: str
    indent: int
    blank: bool


def rules_above_label(lines: Sequence[_Line], end: int, start: int, last: bool) -> list[int]:
    """The indexes of the comment lines right under a call whose construct ends at index `end` that are its rules,
    the next call's construct starting at index `start` (`last`: no call follows). They run on from the line
    after the construct (no blank line between), each indented at least as deep as the call's first code line...

        0200-FINES.                       (a paragraph label: `NAME.`, `NAME:`, `NAME SECTION.`, `:name`)
            CALL 'SW' USING 'calc-fines' A B
        *       IF CALC ABENDS RERUN ONCE AFTER 30 SECS.      the call's: as deep as its code
        0300-LETTERS.                                         the next label, shallower than the comment
            CALL 'SW' USING 'fine-letters' ...

    ...and are followed by a label shallower than them (the next step's heading, so they cannot be its heading),
    or, after the last call, by anything. A comment at the label's depth right above it stays the label's heading."""
    if end + 1 >= len(lines) or end < 0:
        return []
    depth = next((ln.indent for ln in lines[:end + 1][::-1] if ln.code.strip() and not ln.comment), None)
    call_indent = min((ln.indent for ln in lines[max(0, end - 3):end + 1] if ln.code.strip()), default=0)
    if depth is None:
        return []
    run: list[int] = []
    j = end + 1
    while j < len(lines) and not lines[j].blank and not lines[j].code.strip() and lines[j].comment:
        if lines[j].indent < call_indent:
            return []
        run.append(j)
        j += 1
    if not run:
        return []
    if last:
        return run
    if j >= start or lines[j].blank or not _LABEL.match(lines[j].code.strip()):
        return []
    if lines[j].indent >= min(lines[i].indent for i in run):
        return []
    between = range(j + 1, start)
    return run if all(not lines[i].code.strip() or _LABEL.match(lines[i].code.strip()) for i in between) else []


def cobol_trailing(code: str) -> tuple[str, str]:
    """(code, comment) of a line with a free-format `*>` comment after its code, outside quotes."""
    i, quote = 0, ""
    while i < len(code):
        ch = code[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif code.startswith("*>", i) and i > 0 and code[i - 1] in " \t":
            return code[:i].rstrip(), code[i + 2:].strip()
        i += 1
    return code, ""


_rx.save()
