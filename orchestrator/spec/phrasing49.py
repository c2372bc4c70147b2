"""Recovery phrasings a thirty-second blind set misread or dropped (forty-ninth round), in words that are not its own.

`plain` writes two notations in the words the grammar reads, before any row is tried (`spec.phrase`):

- a series of waits that keeps growing by one factor and is left open ("wait 1 s, then 2, 4, 8 and so on", "3, 9, 27
  s etc.") is a backoff from its first wait by that factor ("backoff from 1 s, growing x2"); a series that is not
  one factor throughout, or is not left open, stays the list it is;
- a series' last wait said as its last go ("try again after 5 s, then after 40 s, then one last go after 3 minutes")
  is one more wait of the series, not one retry in all.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- no retry said as never having another go ("never have another go at it", "don't ever give it a second try");
- no retry said as a single shot ("is single-shot", "a one-shot call") or "no repeats", "no re-runs";
- a fail said as the run stopped where it stands ("stops the run dead", "everything halts right there", "the batch
  stops in its tracks"), when the sentence names a failure;
- one retry said as one more chance ("gets 1 more chance");
- a wait said as time left between goes ("leaving 45 seconds each time"), a list of waits "before each re-send: 1 min,
  10 min, an hour", a backoff's start "from an opening 10 seconds";
- the attempt's time said "give the probe 20 s; if it stays silent, ...", "stop it if it runs beyond 3 minutes",
  "don't let it go on for more than an hour";
- the whole run's time said "all the steps together have a budget of 2 h", "the run as a whole is still going after
  90 s", "hard stop for the whole run at the 12-hour mark";
- a fallback skill said "take prices from `x`" (when a failure is named) or "the backup is `x`".
"""

from __future__ import annotations

import re
from itertools import pairwise

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.phrasing46 import _FAILED, _THE
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNIT = r"(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)"
_NUM = r"\d{1,6}+(?:\.\d{1,3}+)?+"
# "1 s, then 2, 4, 8 and so on" / "3, 9, 27 s etc.": the numbers, the unit after the first or the last, left open
_OPEN_SERIES = _rx(r"(?i)(?<![\w.])(?P<first>" + _NUM + r")(?:\s*+(?P<u1>" + _UNIT + r"))?(?!\w)\s*+,\s*+(?:then\s++)?"
                   r"(?P<rest>" + _NUM + r"(?:\s*+,\s*+(?:then\s++)?" + _NUM + r"){1,8}+)(?:\s*+(?P<u2>" + _UNIT + r"))?"
                   r"(?!\w)\s*+,?\s*+(?:and\s++so\s++(?:on|forth)|etc\b\.?|\.\.\.|…)")
# "..., then after 40 s, then one last go after 3 minutes": the last go's wait is the series' next
_LAST_GO = _rx(r"(?i)(\bthen\s++after\s++[^,;]{1,30}?,?\s*+then\s++)(?:one|a)\s++(?:last|final|more)\s++(?:go|try|attempt|shot)"
               r"\s++(after\s)")


def _backoff(m: re.Match[str]) -> str:
    unit = m.group("u1") or m.group("u2")
    numbers = [float(m.group("first")), *(float(n) for n in re.findall(_NUM, m.group("rest")))]
    if unit is None or numbers[0] <= 0:
        return m.group(0)
    factor = numbers[1] / numbers[0]
    if factor <= 1 or any(abs(b - a * factor) > 1e-6 * b for a, b in pairwise(numbers)):
        return m.group(0)
    return f"backoff from {numbers[0]:g} {unit}, growing x{factor:g}"


def plain(text: str) -> str:
    """`text` with an open geometric series of waits written as its backoff, and a series' last go as its next wait
    (module docstring)."""
    lowered = text.lower()
    if "," in text and ("so on" in lowered or "so forth" in lowered or "etc" in lowered or "..." in text or "…" in text):
        text = _OPEN_SERIES.sub(_backoff, text)
    if "then after" in lowered:
        text = _LAST_GO.sub(lambda m: m.group(1) + m.group(2), text)
    return text


EARLY: tuple[Row, ...] = (
    # "never have another go at the announcement", "don't ever give it a second try": no retry
    Row("no_retry", r"(?<![\w-])(?:never|don'?t\s+ever|do\s+not\s+ever|not\s+ever)\s+(?:have|take|give\s+(?:it|this|that|them)|"
        r"get)\s+(?:another|a\s+second|(?:one|1)\s+more|a\s+further)\s+(?:go|try|shot|crack|attempt|chance)\b"),
    # "the release call is single-shot", "a one-shot command": no retry
    Row("no_retry", r"(?<![\w-])(?:is|are|it'?s|as|a)\s+(?:a\s+)?(?:single|one|1)\s*+-?\s*+shot\b(?!\s+(?:of|glass|espresso))"),
    # "no repeats, not even on error", "no re-runs": no retry (not "no repeats of the header")
    Row("no_retry", r"(?<![\w-])no\s+(?:repeats|re\s*+-?\s*+runs|replays|second\s+(?:goes|tries|attempts))\b(?!\s+(?:of|in)\b)"),
    # "a failed check stops the run dead", "everything halts right there": the run fails
    Row("fail", r"(?<![\w-])(?:stops?|halts?|kills?|ends?|freezes)\s+(?:the\s+)?(?:whole\s+|entire\s+)?(?:run|job|batch|"
        r"workflow|pipeline|line|show)\s+(?:dead|cold|outright|in\s+its\s+tracks|right\s+there|there\s+and\s+then)\b",
        needs=_FAILED),
    Row("fail", r"(?<![\w-])(?:everything|it\s+all|the\s+(?:whole\s+|entire\s+)?(?:run|job|batch|workflow|pipeline))\s+"
        r"(?:halts|stops|ends|grinds\s+to\s+a\s+halt)\s+(?:dead|cold|in\s+its\s+tracks|right\s+(?:there|then)|there\s+and\s+"
        r"then)\b", needs=_FAILED),
    # "the reader gets 1 more chance": one retry
    Row("retries_soft", r"(?<![\w-])(?:1|one|a)\s+more\s+chance\b", value=1),
    # "call it back twice more, leaving 45 seconds each time": the wait
    Row("wait_fixed", r"(?<![\w-])leaving\s+(?:a\s+gap\s+of\s+)?{D}\s+(?:each\s+time|between(?:\s+(?:each|them|tries|goes|calls|"
        r"attempts))?|in\s+between|before\s+(?:each|every)\b)"),
    # "waits before each re-send to the bank: 1 min, 5 min, an hour": a retry each, with its wait
    Row("wait_seq", r"(?<![\w-])(?:pauses|waits|gaps|delays|breathers|intervals)\s+(?:between|before)\s+(?:each|every)\s+"
        r"(?:re-?[a-z]{2,20}|retry|try|attempt|go)(?:\s+(?:of|to)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2}?)?\s*+[:=-]\s*+"
        r"(?P<seq>{SERIES})"),
    # "tripling the wait each time from an opening 10 seconds": the backoff's first wait
    Row("exp_start", r"(?<![\w-])(?:from|starting\s+(?:at|from|with))\s+an?\s+(?:opening|initial|first|starting)\s+{D}"),
    # "give the probe 20 seconds; if it stays silent, ...": the time ("...; past that, kill it" is `spec.phrasing45`'s)
    Row("timeout", r"(?<![\w-])(?:give|allow|grant)\s+" + _THE + r"\s+{D}(?=\s*+[;:,-]\s*+(?:if|once|when)\s+(?:it|they)\s+"
        r"(?:stays?|remains?|is\s+still|are\s+still|goes?)\s+(?:silent|quiet|mute|unanswered|dark)\b)"),
    # "pull the plug on the render if it runs beyond 3 minutes": the time
    Row("timeout", r"(?<![\w-])(?:pull\s+the\s+plug\s+on|kill|stop|abort|cancel|scrap|ditch)\s+" + _THE + r"\s+(?:if|when|once)\s+"
        r"(?:it|they)\s+(?:runs?|goes|takes?|lasts?|drags?\s+on)\s+(?:beyond|past|over|longer\s+than|more\s+than)\s+{D}"),
    # "don't let the plate read go on for more than an hour": the time
    Row("timeout", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+let\s+" + _THE + r"\s+(?:go\s+on|run(?:\s+on)?|drag\s+on|last|take)\s+"
        r"(?:for\s+)?(?:more|longer)\s+than\s+{D}"),
    # "all of today's steps together have a budget of 2 h": the whole run's time
    Row("run_timeout", r"(?<![\w-])all\s+(?:of\s+)?(?:the\s+|today'?s\s+|tonight'?s\s+|our\s+|these\s+)?(?:steps|jobs|tasks|stages)\s+"
        r"together\s+(?:have|get|share)\s+(?:a\s+(?:combined\s+|total\s+|shared\s+)?budget\s+of\s+)?{D}"),
    # "if the batch as a whole is still running after 2 h, cancel the lot": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the|this|our)\s+(?:run|job|batch|workflow|pipeline)\s+as\s+a\s+whole\s+(?:is|are)\s+still\s+"
        r"(?:going|running|at\s+it|working)\s+(?:after|at|past|beyond)\s+{D}"),
    # "hard stop for the whole run at the 6-hour mark": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:hard\s+)?(?:stop|cut-?off|deadline)\s+(?:for|on)\s+(?:the\s+)?(?:entire|whole|full)\s+(?:job|run|"
        r"batch|workflow|pipeline|sequence)\s+(?:is\s+)?at\s+the\s+{D}\s*+-?\s*+mark\b"),
    # "take prices from `hop-cache` and carry on": the fallback skill
    # (the failure said first: "take the service from `parse-alert` ... if it's still failing" names no fallback)
    Row("use_skill", r"(?:" + _FAILED + r")[^.;]{0,100}?(?<![\w-])(?:take|get|pull|read)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
                     r"from\s+(?:{NAME})"),
    # "the backup is `rota-lite`": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:the\s+)?(?:backup|fallback|fall-back|plan\s+b|stand-?in|spare)\s+(?:is|will\s+be|=|:)\s*+(?:{NAME})"),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|never|ever|shot|repeat|run|replay|second|stop|halt|kill|end|freez|chance|leaving|pause|wait|gap|delay|"
                  r"breather|interval|opening|initial|give|plug|abort|cancel|scrap|ditch|let|together|take|get|pull|read|"
                  r"backup|fallback|fall-back|plan|stand|spare|whole|mark"}

_rx.save()
