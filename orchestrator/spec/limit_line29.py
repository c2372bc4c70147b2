"""The line a whole-run limit is said at, when the sentence that says it spans several lines
(twenty-ninth round).

A document's readers join lines into one sentence when nothing ends them: the title rows of a
spreadsheet pasted as text ("PRODUCTION PLAN ... v3\\nneeds from the book: ORDERS\\nwhole plan must
be done in 20 mins tops"), a wrapped paragraph, the header lines of a ticket or a recipe card. The
limit is then cited at the sentence's first line, which may say nothing of time. `limit_line` gives
the one line of the sentence that holds its duration; a sentence whose duration is on its first
line, on no line or on several, or which starts after a full stop on its first line ("... in order. The
entire sweep MUST NOT exceed\n15 minutes"), a sentence the author started there, is left at its first line.
"""

from __future__ import annotations

from orchestrator.spec.grammar import DURATION
from orchestrator.spec.normalize import normalize
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DURATION = _rx(rf"(?i){DURATION}")
_STOP_INSIDE = _rx(r"[.!?][\"')\]]?[ \t]++\S")  # a sentence ends inside the line and another starts
_MOST_LINES = 40  # a sentence longer than this many lines is no sentence a person wrote


def limit_line(sentence: str, line: int, src: Source) -> int:
    """The line of `sentence` (which starts at `line` of `src`) that says its duration (module docstring)."""
    if _STOP_INSIDE.search(src.line_text(line)):
        return line  # the sentence starts after a stop on its first line: the author's sentence starts there too
    words = len(sentence.split())
    held: list[int] = []
    seen = 0
    at = line
    while seen < words and at - line < _MOST_LINES and at <= len(src.lines):
        raw = src.line_text(at)
        if not raw.strip():
            break  # a blank line ends every sentence
        seen += len(raw.split())
        if _DURATION.search(normalize(raw)[0]):
            held.append(at)
        at += 1
    return held[0] if len(held) == 1 else line


_rx.save()
