"""A heading that names its step's skill and then says more, the policy among it (twenty-fourth round).

    build/prices.json:   ## pull-prices: scrape the feed. flaky! retry 3x, backoff 5s doubling
    ### `sync-ledger` - nightly. Times out a lot, give it 2 min and retry twice
        -> the step is named by its skill; the words after the name are the step's text, so the
           retry, backoff or timeout said there is read as the step's policy (`spec.anchored`)

A Makefile's `##` help comment, a wiki's long heading or a runbook's title line puts the whole of what
a step does on one line, starting with the skill's name and a colon or a dash. Read as a name only,
its policy would be lost without a word; read as text, the policy reader reads it (or warns at the
line what it cannot). A short heading ("## `pull-prices`: nightly") stays the step's name.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the skill's name (in backticks or not) opening the heading, then a colon or a dash, then the rest
_OPENING = _rx(r"^\s*+[*_]*+`?(?P<name>[A-Za-z][\w.-]{0,79}+)`?[*_]*+\s*+(?::|[-\u2013\u2014]\s)\s*+(?P<rest>\S.*)$")
_WORD = _rx(r"[A-Za-z0-9']++")
MIN_WORDS = 6  # words after the name before they are text, not a title


def heading_text(heading: str, skill: str) -> tuple[str, str] | None:
    """(name, text) when `heading` opens with `skill`'s name and goes on with `MIN_WORDS` words or
    more after a colon or a dash; None when it is a title."""
    m = _OPENING.match(heading)
    if m is None or m.group("name") != skill:
        return None
    rest = m.group("rest").strip()
    if len(_WORD.findall(rest)) < MIN_WORDS:
        return None
    return skill, rest


_rx.save()
