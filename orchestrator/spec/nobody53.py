"""'When nobody is missing' opening a step: the other branch of the step that runs when some are (53rd round).

    Item 3, only if headcount says missing more than 0: missing-person-alert ...   runs when missing > 0
    Item 4, when nobody is missing: trip-closeout ...                             its other branch

A step's opening clause "nobody is X", "no one is X", "none are X", "nothing was X" (also "no-one",
"not one is X") says that none of something is X: it is the other branch of the latest conditional step
whose condition compares a field named X (a word of it) as some being there - `X > 0`, `X >= 1`,
`X != 0`, in words "X more than 0" / "over 0" / "at least 1" - and read only then (`spec.only_when` warns the reading). A condition that tests X otherwise
("missing == 0", "missing > 5") is no such partner: "nobody is missing" is then not read here, and the
step reader says so. Patterns anchored and bounded.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NOBODY = _rx(r"^(?:nobody|no[ \t-]?+one|not[ \t]++one|none|nothing|no[ \t]++body)[ \t]++(?:is|are|was|were|gets?+|got|"
              r"went|has[ \t]++been|have[ \t]++been)[ \t]++(?P<x>[a-z][\w-]{0,40}+)[ \t]*+(?:→|->|=>|:|,|\.|$)",
              re.IGNORECASE)
# a condition that some of the field are there: `f > 0`, `f >= 1`, `f != 0`
_SOME = _rx(r"(?P<f>[A-Za-z_][\w]{0,60}+)['\"\]]?+[ \t]*+(?:>[ \t]*+0(?![\d.])|>=[ \t]*+1(?![\d.])|!=[ \t]*+0(?![\d.])|"
            r"(?:is[ \t]++|are[ \t]++)?+(?:more[ \t]++than|over|above|greater[ \t]++than|bigger[ \t]++than)[ \t]++(?:0|zero|nil|none)"
            r"(?![\d.])|(?:is[ \t]++|are[ \t]++)?+at[ \t]++least[ \t]++(?:1|one)(?![\d.]))", re.IGNORECASE)


# the opening of a step's text: "when nobody is missing:", "if no one is hurt,", "only when none are late ->"
_OPENING = _rx(r"^(?:(?:and|but|so|or)[ \t]++)?+(?:only[ \t]++)?+(?:when|if|whenever|where|once)[ \t]++"
               r"(?P<c>[^,;:→\n]{1,80}+)(?:[,;:→]|->|[ \t]-[ \t])", re.IGNORECASE)


def nobody_opening(words: str) -> tuple[str, str] | None:
    """(the clause as said, X) when `words` open with "when nobody is X" and a clause mark, or None."""
    m = _OPENING.match(words.strip())
    if m is None or (field := nobody_field(m.group("c"))) is None:
        return None
    return m.group(0).strip(" \t,;:→->"), field


def nobody_field(value: str) -> str | None:
    """The X of a clause "nobody is X" (module docstring), or None."""
    m = _NOBODY.match(value.strip())
    return m.group("x").lower() if m is not None else None


def says_some(when: str, field: str) -> bool:
    """Whether the condition `when` holds when some of `field` are there (`missing > 0`): its "nobody" is the
    other side."""
    return any(m.group("f").lower().rsplit(".", 1)[-1] == field for m in _SOME.finditer(when))


_rx.save()
