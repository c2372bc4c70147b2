"""Recovery phrasings a thirty-fourth blind set misread (fifty-third round), in words that are not its own.

`plain` writes, before any row is tried (`spec.phrase`): a series' wait said with "a" / "an" for one unit after a
"then" ("have another go after ten seconds, then after thirty, then after a minute") as that one unit ("then after 1
minute"), and a bare wait between two with units ("after 10 seconds, then after 30, then after 1 minute") in the
unit of the wait before it, so the series has every wait and as many retries as it has waits; "a minute" not in such a series ("wait a
minute between tries") is read as ever.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a fallback skill said with what it is run on, and no "instead": "if the gauge site is down use
  `gauge-from-ea-site` for the same station", "when the feed is dead, run `feed-mirror` on the same list" - the
  skill is the step's fallback (taking the step's own inputs), never a value `{same: ...}` to go on with, and
  never a step of its own. The sentence must name a failure (`{COND}`): "use `x` for the same station" alone is
  no recovery. Such a clause ("if X is down use `y` ...", no comma between) also makes `y` a fallback for the
  skill-anchored reading (`spec.skill_mentions`): a fallback skill named in a step's rule is never a step of its own.
"""

from __future__ import annotations

import re

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.spoken53 import spoken_number

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# ", then after a minute" / "then in an hour" / "then wait a second": one unit, a wait of the series before it
_ONE_UNIT = _rx(r"(?<![\w-])(then[ \t]++(?:(?:wait[ \t]++)?(?:for[ \t]++)?|after[ \t]++|in[ \t]++))(?:a|an|one)[ \t]++"
                r"(second|minute|hour)(?![\w-])", re.IGNORECASE)


# "then after 30" with no unit after it, and a wait with its unit before it
_BARE = _rx(r"(?<![\w-])(then[ \t]++(?:after|in)[ \t]++)(\d{1,6}+(?:\.\d{1,3}+)?+|[A-Za-z]{3,9}+)(?=[ \t]*+(?:[,;.]|and\b|then\b|$))",
            re.IGNORECASE)
_UNIT = _rx(r"(?<![\w-])(?:\d{1,6}+(?:\.\d{1,3}+)?+|[A-Za-z]{3,9}+)[ \t]++(seconds?|secs?|minutes?|mins?|hours?|hrs?)(?![\w-])",
            re.IGNORECASE)


def plain(text: str) -> str:
    """`text` with a series' "then after a minute" written "then after 1 minute", and a bare "then after 30" given the
    unit of the wait before it (module docstring)."""
    if "then" not in text.lower():
        return text
    text = _ONE_UNIT.sub(lambda m: f"{m.group(1)}1 {m.group(2)}", text)

    def unit(m: re.Match[str]) -> str:
        if not m.group(2)[:1].isdigit() and spoken_number(m.group(2)) is None:
            return m.group(0)
        if (later := _UNIT.search(text, m.end())) is None or later.start() > m.end() + 40:
            return m.group(0)  # the series goes on with a unit after it: else the wait is read as ever
        before = [u for u in _UNIT.finditer(text, 0, m.start())]
        return f"{m.group(0)} {before[-1].group(1)}" if before else m.group(0)

    return _BARE.sub(unit, text)


EARLY: tuple[Row, ...] = (
    # "if the site is down use `x` for the same station": the fallback skill, on the step's own inputs
    Row("use_skill", r"(?<![\w-])(?:use|run|call|try|switch\s+to|go\s+to)\s+(?:{NAME})\s+(?:for|on|with|against)\s+"
                     r"(?:the\s+)?same\s+[\w-]+(?:\s+[\w-]+)?", needs=r"{COND}"),
)

# for `spec.skill_mentions`: a clause that says the work failed and then what to use, with no comma between ("if
# the gauge site is down use `x` for the same station"): its names are the fallback, never a step's doer
FAILED_THEN_USE = (r"\b(?:if|when|should|in\s+case)\s+[^.;,]{0,80}?\b(?:fails?|errors?|is\s+down|goes\s+down|breaks|"
                   r"times\s+out|is\s+unavailable|is\s+offline|dies)\b[^.;,]{0,20}?\s(?:then\s+)?(?:use|switch\s+to|"
                   r"fall\s+back\s+to)\b")

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|same"}

_rx.save()
