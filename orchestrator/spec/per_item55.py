"""An attempt's time limit said per item of what the step goes through (55th round; used by `spec.phrase`).

    20s per ticket max, then 2 more goes 5s apart        20 s a time limit on each attempt; 2 retries 5 s apart
    90 seconds a file tops                               90 s per attempt
    2 min for each order at most, then give up           2 min per attempt, then fail

A length followed by "per / a / each / for each" and a noun, then "max", "maximum", "tops", "at most" or
"limit", is the attempt's time limit: a step that goes through items runs once per item, so "per ticket" is
per attempt. The sentence is written without the "per <noun>" before any row is tried, where the grammar had
read the rest and said it did not understand the length.

Not so: a number without a time unit ("20 per ticket max" is a count), a noun that is itself an attempt's
word ("per attempt", "per go": read so already), and a length with no "max"-like word after it ("20s per
ticket" alone stays as it was).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PER_ITEM = _rx(r"(?i)(?<![\w.])(?P<d>\d{1,6}+(?:\.\d{1,3}+)?\s*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b)"
                r"\s++(?:per|a|each|for\s++each|for\s++every|every)\s++(?!(?:attempt|try|tries|go|goes|run|call|"
                r"shot|time)\b)[a-z][a-z'-]{1,20}+\s++(?=(?:max|maximum|tops|at\s++most|limit|cap)\b)")


def plain(text: str) -> str:
    """`text` with a length's "per <item>" before a "max"-like word taken off (module docstring)."""
    if not re.search(r"(?i)\b(?:per|a|each|every)\b", text):
        return text
    return _PER_ITEM.sub(lambda m: f"{m.group('d')} ", text)


_rx.save()
