"""An attempt's limit said as a length and then what to do with it (round 54).

    preflight can spin forever on big PDFs - 90 seconds then fail it
    the export hangs sometimes; 3 min, then give up on it
    render: 45s then stop it and fail the step

A length at the head of a clause followed by "then fail it" / "then give up (on it)" / "then stop / cancel /
drop / abandon it" is the attempt's time limit: `plain` writes it "time out after 90 seconds then fail it"
before any row is tried (`spec.phrase`), so the length is the step's timeout and the "fail" its end, where the
grammar had read only the "fail" and said it did not understand the length. "kill / abort it" after a length
was read so already.

Not so: a length that is not at a clause's head ("wait 90 seconds then fail it", "retry for 2 minutes then give
up": a wait, a retry budget) or in a sentence that says a retry ("try twice, 30 seconds then fail").
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LENGTH_THEN = _rx(r"(?i)(?P<head>^|[-,;:(\u2013\u2014]\s*+)(?P<d>\d{1,6}+(?:\.\d{1,3}+)?\s*+(?:s|secs?|seconds?|m|mins?|"
                   r"minutes?|h|hrs?|hours?)\b),?\s++then\s++(?P<what>fail|give\s++up|stop|cancel|drop|abandon)\b")
_RETRY = _rx(r"(?i)\b(?:retr\w*+|tries|try|attempts?|again|goes|go\s++again)\b")


def plain(text: str) -> str:
    """`text` with a length at a clause's head then "fail it" written as a time-out (module docstring)."""
    if "then" not in text.lower() or _RETRY.search(text) is not None:
        return text
    return _LENGTH_THEN.sub(lambda m: f"{m.group('head')}time out after {m.group('d')} then {m.group('what')}", text)


_rx.save()
