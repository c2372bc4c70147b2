"""A value named by the lettered item that makes it, in a procedure whose steps are lettered items.

    b) fuel-burn-forecast -> on_board_t is the total_t from (a)      on_board_t = step-1.total_t
    c) ONLY IF margin_t from (b) is under 60 t: bunker-order          margin_t from step 2
    d) engine-log-line -> total_t (a), margin_t (b)                   total_t from step 1, margin_t from step 2

In a log's procedure entry, a shift note or a lab notebook whose items run a), b), c) ..., a
field followed by "(b)" or "from (b)" names the lettered step that outputs it: the letter is the
step's, not part of the name (read as a value named `margin_t from b`, a condition refused the
spec). "A is [the] B from (a)" hands step a's output B to the input A under another name. Only
code-shaped names are read so (`snake_case`, `camelCase` or a name in backticks), and only letters
of the document's own items: "the oven (a) is hot" or "from (z)" with no item z stay as written.
The rewrite gives the forms the step readers already read (`A = step-1.B`, "B from step 2").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a code-shaped name: snake_case, camelCase, or any word in backticks
_NAME = r"(?:`[A-Za-z_][\w.]{0,60}+`|[a-z][a-z0-9]*+(?:_[a-z0-9]++)++|[a-z]++[A-Z][A-Za-z0-9]*+)"
# "on_board_t is the total_t from (a)", "x = y from (b)", "x is (a)'s y"
_RENAMED = _rx(rf"(?<![\w`])(?P<a>{_NAME})[ \t]++(?:is|=|<-|comes[ \t]++from|takes)[ \t]++(?:the[ \t]++)?+"
               rf"(?P<b>{_NAME})[ \t]++(?:from|of|out[ \t]++of)[ \t]++\((?P<l>[a-z])\)")
# "margin_t from (b)", "total_t (a)", "total_t of (a)"
_FIELD = _rx(rf"(?<![\w`])(?P<b>{_NAME})[ \t]++(?:(?:from|of|out[ \t]++of)[ \t]++)?+\((?P<l>[a-z])\)(?![\w(])")


def _bare(name: str) -> str:
    return name.strip("`")


def rewrite_letters(text: str, letters: Mapping[str, int]) -> str:
    """`text` (one item's lines) with each field named by a lettered item's letter written as that
    step's (module docstring); `letters` maps an item's letter to its step's number."""
    if not letters or "(" not in text:
        return text

    def renamed(m: re.Match[str]) -> str:
        n = letters.get(m.group("l"))
        if n is None:
            return m.group(0)
        return f"{_bare(m.group('a'))} = step-{n}.{_bare(m.group('b'))}"

    def field(m: re.Match[str]) -> str:
        n = letters.get(m.group("l"))
        if n is None:
            return m.group(0)
        return f"{m.group('b')} from step {n}"

    return _FIELD.sub(field, _RENAMED.sub(renamed, text))


_rx.save()
