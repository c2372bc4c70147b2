"""A number taken back in the same breath (fortieth round): "try it three times — no, twice".

People who speak or type fast correct themselves mid-sentence: a count or a time, then a word that
withdraws it ("no", "no wait", "sorry", "I mean", "make that", "actually", "scratch that") right
after a dash, a comma or dots, then the number they meant. `plain` writes the sentence with the
withdrawn number left out, so the policy grammar (`spec.phrase`) reads the one meant, not two values
of which it would keep the first:

    "retry three times — no, twice, thirty seconds apart"   -> "retry twice, thirty seconds apart"
    "give it 30 s, sorry, 45 s"                             -> "give it 45 s"
    "up to 5 tries... make that 4"                          -> "up to 4 tries"

The number taken back keeps its unit when the one meant says none ("5 tries... make that 4");
a count and a time are never one correction ("3 times, no, 30 seconds" is left as written, and the
grammar says both values). "no" that starts words of its own ("three times, no backoff", "2 tries,
no more") is no correction: a number must follow it.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUM = (r"(?:\d{1,4}+(?:\.\d{1,3}+)?+|once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
        r"twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety)")
_COUNT_UNIT = r"(?:times?|tries|try|attempts?|retries|retry|goes|shots?)"
_TIME_UNIT = r"(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)"
_UNIT = rf"(?:\s*+(?P<{{}}>{_COUNT_UNIT}|{_TIME_UNIT})\b)?+"
_TAKEN_BACK = (r"\s*+(?:—|–|--|-|,|;|\.\.\.|…)\s*+(?:no(?:\s++wait)?+|sorry|i\s++mean|make\s++(?:it|that)|"
               r"actually|scratch\s++that)\b[,\s]*+")
_CORRECTION = _rx(rf"(?i)(?<![\w.-])(?P<a>{_NUM}){_UNIT.format('ua')}{_TAKEN_BACK}(?P<b>{_NUM}){_UNIT.format('ub')}"
                  r"(?![\w-])")
_COUNT = _rx(rf"(?i){_COUNT_UNIT}|once|twice|thrice")
_TIME = _rx(rf"(?i){_TIME_UNIT}")


def _kind(number: str, unit: str | None) -> str:
    """'count', 'time' or '' (a bare number: either)."""
    if unit:
        return "count" if _COUNT.fullmatch(unit) else "time" if _TIME.fullmatch(unit) else ""
    return "count" if _COUNT.fullmatch(number) else ""


def plain(text: str) -> str:
    """`text` with each number taken back left out, the one meant in its place (module docstring)."""
    if not any(w in text.lower() for w in ("no", "sorry", "mean", "make", "actually", "scratch")):
        return text

    def meant(m: re.Match[str]) -> str:
        a, ua, b, ub = m.group("a"), m.group("ua"), m.group("b"), m.group("ub")
        first, second = _kind(a, ua), _kind(b, ub)
        if first and second and first != second:
            return m.group(0)
        unit = ub or (ua if ua and not _COUNT.fullmatch(b) else None)
        return f"{b} {unit}" if unit else str(b)

    return _CORRECTION.sub(meant, text)


_rx.save()
