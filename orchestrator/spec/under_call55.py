"""An indented comment right under a call is that call's rule, the next call right after it or not (55th round;
used by `spec.wired52`).

    t1 = @async sw("refractometer-read", ..)
    #   drops the bluetooth - retry it 3 times        its text pushed right of the marker (two or more spaces):
    t2 = @async sw("weigh-supers", ..)                refractometer-read's rule, not weigh-supers' heading

    x = call("a", ..)
        // 30 s tops                                   the comment line indented deeper than the call below:
    y = call("b", ..)                                  a's rule

    # 2 zone it                                       one space after the marker, at the next call's depth:
    zone = call("delivery-zone", ..)                  still the next call's heading (as `spec.under_call54`)

`spec.under_call54` reads a comment run followed by a blank line as the call above's; this reads the run
with no blank line after it by its indentation: every line of the run indented (the line itself deeper than
the next call's construct, or its text two or more spaces past its marker at no less depth), and the run
starts right under the previous call's construct. A run that says a step heading (`# 3. yield`) is not this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MARKED = _rx(r"^(?P<ind>[ \t]*+)(?P<mark>#++|//++|;++|--++|%++|!++|'|\*)(?P<gap>[ \t]*+)(?P<text>\S)")
_HEADING = _rx(r"^[\s#/;%!*'-]{0,8}+(?:step\s++)?\d{1,2}+\s*+[.):]\s", re.I)


def _depth(raw: str) -> int:
    return len(raw) - len(raw.lstrip())


def hangs_indented(raw: Sequence[str], first: int, start: int, prev_end: int) -> bool:
    """Whether the comment lines `raw[first:start]` (0-based; `start` the next call's construct) hang under the
    previous call, whose construct ends at `prev_end` (module docstring)."""
    if first <= 0 or first > start or start >= len(raw) or first - 1 > prev_end or not raw[first - 1].strip():
        return False
    below = _depth(raw[start])
    for j in range(first, start):
        m = _MARKED.match(raw[j])
        if m is None or _HEADING.match(raw[j]):
            return False
        deeper = len(m.group("ind").expandtabs(4)) > below
        pushed = len(m.group("gap").expandtabs(4)) >= 2 and len(m.group("ind").expandtabs(4)) >= below
        if not (deeper or pushed):
            return False
    return True


_rx.save()
