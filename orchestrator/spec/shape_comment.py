"""Where a step's text ends in a document of plain lines, and the gutter of a comment box.

A header comment (a stored procedure's, a script's) writes its lines behind a gutter:

    /*******************************
    ** Step 10  Load rates  -> skill fx-load
    **          retry twice.
    ** Step 20  Extract     -> skill gl-extract
    *******************************/

The gutter (`**`, ` *`, `--`, `//` before every line of the run) is no markup: `unboxed`
takes it off (the text keeps its indentation inside the box and its line numbers), so the
lines are not read as headings of an org outline.

A paragraph of such lines holds several steps one under the other. A line that opens with
a step marker of any numbering ("Step 40", "Stage 2b", "Phase III") at the
paragraph's indentation or left of it starts a new paragraph (`starts_unit`), and so does a
line that opens a section of its own: a label ("Success:", "Done when", "Notes:") or a
title of record-keeping ("Change History", "Revision log"), which is also read as a
heading of remarks (`aside_title`), so what it holds is no step's text and names no step's
skill.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FENCE = _rx(r"^\s{0,3}+(?:```|~~~)")
_BOX_OPEN = _rx(r"^\s*+/\*++[^/]*+$")  # "/*****", "/* header"
_BOX_CLOSE = _rx(r"^\s*+\*++/\s*+$")  # "*****/", "*/"
_STAR_GUTTER = _rx(r"^\s*+\*++(?: |$)")  # "** ", " * ", "**"
_LINE_GUTTER = _rx(r"^\s*+(?:--(?!-)|//(?!/)|;;)(?: |$)")  # "-- ", "// ", ";; "

# a step marker opening a line: "Step 40", "Stage 2b:", "Phase III -", "Task 3."
_STEP_MARK = _rx(r"(?i)^(?:step|stage|phase|task)\s++(?:\d++[a-z]?+|[ivxlc]++|[a-z])(?:\s*+[.):—–-]|\s{2}|$)")
# a label that opens a section of its own: the run's check, its notes, its record
_SECTION_LABEL = _rx(r"(?i)^(?:success(?:\s++criteri(?:a|on))?+|done\s++when|acceptance(?:\s++criteri(?:a|on))?+|"
                     r"notes?|remarks|caveats|see\s++also|references?)\s*+[:—–-]")
# a title of record-keeping, on a line of its own
_ASIDE_TITLE = _rx(r"(?i)^(?:change\s*+(?:history|log)|revision(?:\s++history|\s++log)?+|revisions|version\s++history|"
                   r"modification\s++history|history|changelog|amendments|release\s++notes|notes|see\s++also|"
                   r"references)\s*+:?+\s*+$")


def unboxed(lines: list[str]) -> list[str]:
    """The lines with a comment box's gutter taken off (module docstring); the rest as written."""
    out = list(lines)
    fenced, outside = False, []
    for line in lines:  # a box inside a fenced code block is code, kept as written
        if _FENCE.match(line):
            fenced = not fenced
        outside.append(not fenced)
    i = 0
    while i < len(lines):
        if outside[i] and _BOX_OPEN.match(lines[i]):
            end = next((j for j in range(i + 1, len(lines)) if "*/" in lines[j]), None)
            if end is not None and end - i >= 3 and all(_STAR_GUTTER.match(ln) or not ln.strip()
                                                         for ln in lines[i + 1:end]):
                out[i] = ""
                for j in range(i + 1, end):
                    out[j] = _STAR_GUTTER.sub("", lines[j], count=1)
                out[end] = "" if _BOX_CLOSE.match(lines[end]) else lines[end]
                i = end + 1
                continue
        i += 1
    return _line_gutters(out, outside)


def _line_gutters(lines: list[str], outside: list[bool]) -> list[str]:
    """A run of three lines or more behind `--`, `//` or `;;`: the gutter taken off."""
    out = list(lines)
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and outside[j] and _LINE_GUTTER.match(lines[j]):
            j += 1
        if j - i >= 3:
            for k in range(i, j):
                out[k] = _LINE_GUTTER.sub("", lines[k], count=1)
        i = max(j, i + 1)
    return out


def starts_unit(text: str) -> bool:
    """The line (its indentation taken off) opens a step or a section of its own, so it does
    not go on with the paragraph before it."""
    return bool(_STEP_MARK.match(text) or _SECTION_LABEL.match(text) or _ASIDE_TITLE.match(text))


def ends_span(text: str, indent: int) -> bool:
    """A line, behind any comment gutter, that opens a step or a section of its own at the
    indentation `indent` of a step's first line or left of it: the step's text ends before it."""
    bare = _STAR_GUTTER.sub("", text, count=1) if _STAR_GUTTER.match(text) else _LINE_GUTTER.sub("", text, count=1)
    return len(bare) - len(bare.lstrip()) <= indent and starts_unit(bare.lstrip())


def gutter_indent(text: str) -> int:
    """The indentation of a line behind any comment gutter."""
    bare = _STAR_GUTTER.sub("", text, count=1) if _STAR_GUTTER.match(text) else _LINE_GUTTER.sub("", text, count=1)
    return len(bare) - len(bare.lstrip())


def aside_title(text: str) -> bool:
    """A line of its own that titles a record of changes or notes ("Change History")."""
    return _ASIDE_TITLE.match(text.strip()) is not None


_rx.save()
