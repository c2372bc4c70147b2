"""Shorthand a thirty-seventh blind set misread or dropped (fifty-fifth round), in words that are not its own.

Written before the policy grammar reads a sentence (`spec.phrase`):

- "w/" is "with" and "w/o" is "without", a note's shorthand, never a name: "keep going w/ orders = []" goes on
  with {orders: []} (not {w: [], orders: []}), "carry on w/ total 0", "fail w/o a retry"; a slash inside a word or
  a path ("and/or", "km/h", "a/w/b") is not the shorthand;
- an attempt's limit said with "each" before "max" / "tops" / "at most": "15 sec each max", "2 min each tops",
  "30 s apiece at most" is "15 sec max each" (the time of each attempt; the "each" had hidden the limit word).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "w/" or "w/o" standing alone as a word (a space or the text's end after it, no word or slash before it)
_WITH = _rx(r"(?i)(?<![\w/])w/(o)?+(?=[ \t]|$)")
_UNIT = r"(?:s|secs?+|seconds?+|m|mins?+|minutes?+|h|hrs?+|hours?+)"
_EACH_MAX = _rx(rf"(?i)(?<![\w.])(\d{{1,6}}+(?:\.\d{{1,3}}+)?+[ \t]*+{_UNIT})[ \t]++(each|apiece)[ \t]++"
                r"(max|tops|at[ \t]++most)(?!\w)")


def plain(text: str) -> str:
    """`text` with "w/" / "w/o" written "with" / "without" and "15 sec each max" written "15 sec max each"."""
    if "/" in text:
        text = _WITH.sub(lambda m: "without" if m.group(1) else "with", text)
    if "each" in text.lower() or "apiece" in text.lower():
        text = _EACH_MAX.sub(lambda m: f"{m.group(1)} {m.group(3)} {m.group(2)}", text)
    return text


_rx.save()
