"""An attempt's limit said as a length and then what to do with it (round 54).

    preflight can spin forever on big PDFs - 90 seconds then fail it
    the export hangs sometimes; 3 min, then give up on it
    render: 45s then stop it and fail the step

A length at the head of a clause followed by "then fail it" / "then give up (on it)" / "then stop / cancel /
drop / abandon it" is the attempt's time limit: `plain` writes it "time out after 90 seconds then fail it"
before any row is tried (`spec.phrase`), so the length is the step's timeout and the "fail" its end, where the
grammar had read only the "fail" and said it did not understand the length. "kill / abort it" after a length
was read so already. "give up / stop / cancel / drop / abandon it" end the attempt only: what then is for the
step's other sentences ("and if it does give up, carry on with ...") or the default, never a rule to fail.

Not so: a length that is not at a clause's head ("wait 90 seconds then fail it", "retry for 2 minutes then give
up": a wait, a retry budget), the last of a series ("2s, 6s, 18s, then give up"), or in a sentence that says a
retry or a wait ("try twice, 30 seconds then fail", "back off ...").
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LENGTH_THEN = _rx(r"(?i)(?P<head>^|[-,;:(\u2013\u2014]\s*+)(?P<d>\d{1,6}+(?:\.\d{1,3}+)?\s*+(?:s|secs?|seconds?|m|mins?|"
                   r"minutes?|h|hrs?|hours?)\b),?\s++then\s++(?P<what>fail|give\s++up|stop|cancel|drop|abandon)\b"
                   r"(?P<it>\s++(?:on\s++)?+(?:it|that|this)\b)?+")
_RETRY = _rx(r"(?i)\b(?:retr\w*+|tries|try|attempts?|again|goes|go\s++again|back-?off|apart|between|pauses?|waits?|"
             r"delays?)\b")
# a length just before it: the end of a series ("2s, 6s, 18s, then give up"), no limit of its own
_SERIES = _rx(r"(?i)\d\s*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\s*+[,;]\s*+$")


def plain(text: str) -> str:
    """`text` with a length at a clause's head then "fail it" written as a time-out (module docstring)."""
    if "then" not in text.lower() or _RETRY.search(text) is not None:
        return text
    def limit(m: re.Match[str]) -> str:
        if _SERIES.search(text[max(0, m.start() - 12):m.start() + 1]) is not None:
            return m.group(0)
        if m.group("what").lower() != "fail":  # "then give up on it": the attempt's end; what then, said elsewhere
            return f"{m.group('head')}time out after {m.group('d')}"
        return f"{m.group('head')}time out after {m.group('d')} then fail{m.group('it') or ''}"

    return _LENGTH_THEN.sub(limit, text)


_rx.save()
