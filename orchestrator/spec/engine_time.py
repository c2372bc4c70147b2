"""Times and retry schedules as workflow engines and ops tools write them, put in the words the
policy grammar reads (`spec.normalize` runs these rewrites first; `spec.phrase` reads the result).

    timeDuration: PT2M                    → time duration: 120 s
    failedJobRetryTimeCycle: R3/PT10S     → failed job retry time cycle: 3 retries, 10 s apart
    retryTimeCycle: PT1M,PT2M,PT10M       → retry time cycle: 60 s, 120 s and 600 s
    Max runtime 02:00:00                  → Max runtime 7200 s       (hh:mm:ss, not a time of day)
    retry_attempts = 5, LOCK_TIMEOUT      → retry attempts = 5, lock timeout
    `R/PT5M` (no count)                   → retry every 300 s indefinitely (said: no count)

ISO 8601 durations (`P1DT2H`, `PT1H30M`, `PT0.5S`) are seconds; a repeat `Rn/<duration>` is n
retries that far apart; a comma list of durations under a retry word is one wait per retry. An
identifier an engine or a config file uses for a policy knob (`retry_interval`, `taskTimeout`,
`BoundaryTimer_PO`, `max_retries`) is written as its words, so the grammar's rows read it as a
person's words. A duration below zero ("-5 min") is never a time: `negative_times` finds them, and
`spec.phrase` reports each at its line instead of reading the number without its sign.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# one ISO 8601 duration: P[nD][T[nH][nM][nS]], at least one part, each entered at its first digit
_ISO = (r"P(?=\d|T\d)(?:(?<![\d.])\d{1,6}D)?+(?:T(?=\d)(?:(?<![\d.])\d{1,6}H)?+(?:(?<![\d.])\d{1,6}M)?+"
        r"(?:(?<![\d.])\d{1,6}(?:\.\d{1,6})?+S)?+)?+")
_ISO_PARTS = _rx(r"(?<![\d.])(\d+(?:\.\d+)?)([DHMS])")
# `R3/PT10S`, `R/PT5M`: a repeat of a duration (in backticks or not)
_REPEAT = _rx(rf"(?<![\w/`])`?+R(\d{{1,4}})?+/({_ISO})`?+(?![\w/])")
# `PT1M,PT2M,PT10M`: a list of them
_ISO_LIST = _rx(rf"(?<![\w/`])`?+({_ISO}(?:\s*+,\s*+{_ISO})++)`?+(?![\w/])")
_ISO_ONE = _rx(rf"(?<![\w/`])`?+({_ISO})`?+(?![\w/])")
# hh:mm:ss (a run time, not a time of day: "at 02:00:00" is left alone)
_HMS = _rx(r"(?<![\w:.])(?<!\bat\s)(?<!@)(?<!@\s)(?<!from\s)(?<!until\s)(?<!till\s)(?<!by\s)(?<!since\s)"
           r"(\d{1,3}):([0-5]\d):([0-5]\d)(?![\d:])")
# an identifier: snake_case, SCREAMING_SNAKE, camelCase or PascalCase, entered at its first letter
_IDENT = _rx(r"(?<![\w.$@{`/-])[A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)*+(?![\w`])")
_CAMEL = _rx(r"[A-Z]?[a-z0-9]++|[A-Z]++(?![a-z])")
# the knobs worth reading: the words of a retry, a wait or a time limit
_KNOB = _rx(r"(?i)retr(?:y|ies)|timeout|attempt|interval|backoff|delay|timer|duration|deadline|sleep|cycle")
# a knob set to a value: `retry_interval = 1 min`, `max_retries: 3`
_SETTING = _rx(r"\s*+[:=]\s*+[\d\-\"'`PR]")
# the words before a value to go on with
_VALUE_VERB = _rx(r"(?i)(?<!\w)(?:with|set|record|mark|treat|return|emit|output|default)\s++(?:the\s++)?\Z")
_RETRY_WORD = _rx(r"(?i)retr(?:y|ies)|re-?run|re-?attempt|again|backoff|attempt")
# a time below zero: a minus before a number with a unit, not a range ("10-20 s") nor a word ("T-5 min")
_NEGATIVE = _rx(r"(?<![\w.-])[-−]\d{1,9}(?:\.\d{1,6})?+\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|"
                r"hours?|d|days?)(?![a-z])", re.I)


def iso_seconds(text: str) -> float:
    """`PT1H30M` → 5400, `P1D` → 86400 (the duration's parts; `M` after `T` is minutes)."""
    date, _, time = text[1:].partition("T")
    total = sum(float(n) * 86400 for n, u in _ISO_PARTS.findall(date) if u == "D")
    sizes = {"H": 3600.0, "M": 60.0, "S": 1.0}
    return total + sum(float(n) * sizes[u] for n, u in _ISO_PARTS.findall(time) if u in sizes)


def _repeat(m: re.Match[str]) -> str:
    seconds = iso_seconds(m.group(2))
    if m.group(1) is None:  # `R/PT5M`: repeated with no count
        return f"retry every {seconds:g} s indefinitely"
    return f"{int(m.group(1))} retries, {seconds:g} s apart"


def _listed(m: re.Match[str]) -> str:
    waits = [f"{iso_seconds(p.strip()):g} s" for p in m.group(1).split(",")]
    said = ", ".join(waits[:-1]) + f" and {waits[-1]}"
    before = m.string[:m.start()]
    return said if _RETRY_WORD.search(before) else f"retries after {said}"


def _words(m: re.Match[str]) -> str:
    word = m.group(0)
    camel = any(a.islower() and b.isupper() for a, b in pairwise(word))
    if ("_" not in word and not camel) or not _KNOB.search(word):
        return word
    if not camel and not word.isupper() and not _SETTING.match(m.string, m.end()):
        return word  # "record attempts_left 0": a field the step outputs, not a knob
    if _VALUE_VERB.search(m.string[max(0, m.start() - 24):m.start()]):
        return word  # "continue with retry_count = 0": the value to go on with
    return " ".join(p.lower() for part in word.split("_") for p in (_CAMEL.findall(part) or [part]))


def _hms(m: re.Match[str]) -> str:
    return f"{int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))} s"


# (pattern, replacement, inside quotes too), in order
REWRITES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str], bool], ...] = (
    (_REPEAT, _repeat, True),
    (_ISO_LIST, _listed, True),
    (_ISO_ONE, lambda m: f"{iso_seconds(m.group(1)):g} s", True),
    (_HMS, _hms, False),
    (_IDENT, _words, False),
)


def negative_times(text: str) -> list[tuple[int, int]]:
    """Where `text` writes a time below zero ("Wall time: -5 min"), as (start, end) spans."""
    return [m.span() for m in _NEGATIVE.finditer(text)]


_rx.save()
