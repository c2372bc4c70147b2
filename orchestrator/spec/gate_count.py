"""A count in a condition said with a number word, read as the number.

    "step 1 found at least two damaged items"     step 1's damaged count >= 2
    "only if more than three puddles were found"  puddle count > 3
    "two or more red flags"                       flag count >= 2
    "at least a dozen returns"                    return count >= 12
    "nothing damaged was found"                   nothing damaged: `damaged` is empty

`spec.condition` reads a count of things said with digits ("at least 1 affected order", "3 or more
errors") as the `<things>_count` of the step named, placed by the planner on the count field that
step outputs (`plan.count_field`). Said with a word ("more than three puddles") it was no count: the
condition was not read. `spelled_count(text)` gives the text with the number word of a
count put as digits (only where a count is said: after "at least", "more than", "over", ... or before
"or more"/"or fewer"), so the count reader reads it; None when no such word is there. "At least one X" / "one or more X" stay as
said: `spec.condition` reads them as "X is filled" (a list named in the plural), which a step that
outputs the list wants; placing them on a count field instead is the planner's to do (not done yet).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUMBERS = {"one": 1, "a single": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "dozen": 12, "twenty": 20,
            "a couple of": 2, "a couple": 2, "a handful of": 5}
_WORD = (r"(?:one|a\s++single|single|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s++dozen|dozen|"
         r"twenty|a\s++couple(?:\s++of)?+|a\s++handful\s++of)")
# "at least one", "more than three", "fewer than two" / "two or more", "three or fewer"
_BEFORE = _rx(rf"(?i)(?<![\w-])(?P<b>at\s++least|at\s++most|more\s++than|fewer\s++than|less\s++than|over|under)\s++"
              rf"(?P<w>{_WORD})(?=\s++[A-Za-z])")
_AFTER = _rx(rf"(?i)(?<![\w-])(?P<w>{_WORD})\s++(?P<a>or\s++(?:more|fewer|less))(?=\s++[A-Za-z])")


# "nothing damaged was found", "nothing late turned up": nothing of that kind, as "nothing damaged" is read
_NOTHING_FOUND = _rx(r"(?i)^(?P<head>\W*+nothing\s++[A-Za-z][\w-]*+)\s++(?:was|were|got|has\s++been)\s++(?:found|flagged|"
                     r"detected|seen|spotted|reported|returned|listed)\W*+$|^(?P<head2>\W*+nothing\s++[A-Za-z][\w-]*+)\s++"
                     r"(?:turned|showed)\s++up\W*+$")


def _digits(words: str) -> str:
    return str(_NUMBERS[" ".join(words.lower().split())])


def _one(m: re.Match[str]) -> bool:
    """ "at least one X", "one or more X": "X is filled" as `spec.condition` reads it (a list named in the
    plural, or its count), so left as said."""
    word = " ".join(m.group("w").lower().split())
    bound = " ".join((m.groupdict().get("b") or m.groupdict().get("a") or "").lower().split())
    return _NUMBERS[word] == 1 and bound in ("at least", "or more")


def spelled_count(text: str) -> str | None:
    """`text` with the number word of its count as digits ("at least one item": "at least 1 item"), or None
    when it says no count with a number word."""
    m = _BEFORE.search(text)
    if m is not None and not _one(m):
        return f"{text[: m.start('w')]}{_digits(m.group('w'))}{text[m.end('w'):]}"
    m = _AFTER.search(text)
    if m is not None and not _one(m):
        return f"{text[: m.start('w')]}{_digits(m.group('w'))}{text[m.end('w'):]}"
    return None


def said_count(text: str) -> str:
    """`text` as the count reader reads it: its number word as digits (`spelled_count`), and "nothing X was
    found" as "nothing X" (the list X empty; before, "`damaged` == 'found'", without a word)."""
    from orchestrator.spec.h3_left31 import one_or_more  # "one or more errors": any errors

    spelled = spelled_count(text) or one_or_more(text) or text
    m = _NOTHING_FOUND.match(spelled)
    return (m.group("head") or m.group("head2")).strip() if m is not None else spelled


_rx.save()
