"""Comments right under a call, then a blank line, are that call's rules (54th round; used by `spec.wired52`).

    stock = Task.async(fn -> sw("check-stock", ..) end)
      # 25 s tops for the stock check                  under the call, no blank line between: check-stock's
      # and if it errors retry it twice, 5 s apart
                                                       the blank line closes them
    zone =
      Task.async(fn -> sw("delivery-zone", ..) end)    not delivery-zone's, though they are the nearest
                                                       comments above its call

A run of comment lines that starts on the line after the previous call's construct (no blank line between)
and is followed by a blank line before the next call's construct belongs to the previous call: it is not the
next call's lead (its heading). A run with no blank line after it (`# 2 zone it` right above `zone = ..`) stays
the next call's heading, as before.

A comment line that opens a condition of its own after a conjunction ("and if it errors retry it twice", "but
when it times out ...", "or if ...") is a rule of its own, not the wrapped end of the line above it: the two
are read apart ("25 s tops" a timeout, "if it errors retry it twice" a retry on errors, not a rule on timeouts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a comment that points at the line above it: "^ ...", "^^", "↑ ...", "(above) ...", "above: ...", "that call: ..."
_POINTS_UP = _rx(r"^[\s#/*;\-]{0,4}+(?:\^{1,3}+|↑|⬆|\(\s*+above\s*+\)|above\s*+[:,-]|that\s++(?:call|one|line)\s*+[:,-])", re.I)
_OWN_CLAUSE = _rx(r"^(?:and|but|or|also|plus)[ \t,]++(?:then[ \t]++)?(?:if|when|whenever|unless|once|should)\b", re.I)


class _Line(Protocol):
    code: str
    comment: str
    blank: bool


def under_previous(lines: Sequence[_Line], first: int, start: int, prev_end: int) -> bool:
    """Whether the comment run from index `first` (up to the blank line before index `start`, the next call's
    construct) hangs under the previous call, whose construct ends at index `prev_end`."""
    if first <= 0 or first > start or first - 1 > prev_end or not lines[first - 1].code.strip():
        return False
    if _POINTS_UP.match(lines[first].comment):
        return True  # "# ^ the portal times out a lot": the call above's, blank line or not
    j = first
    while j < start and not lines[j].code.strip() and lines[j].comment and not lines[j].blank:
        j += 1
    return j < start and lines[j].blank


def own_clause(text: str) -> bool:
    """Whether a comment line opens a condition of its own after a conjunction (module docstring)."""
    return _OWN_CLAUSE.match(text.strip()) is not None


_rx.save()
