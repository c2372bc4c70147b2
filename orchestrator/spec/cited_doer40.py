"""A skill named as where a value comes from, in a sentence about another step (fortieth round).

The anchored reading (`spec.anchored`) cuts a paragraph naming several skills at each sentence that
names one: that sentence starts the step of the skill it names. A sentence that names a skill an
earlier step already runs only to say where a value comes from ("the quote from `quote-bus`",
"`quote-bus`'s total", "the count returned by `tally`") is about the step being described, not a
new one: `cited` says so, and the sentence (with those after it) stays with that step, so its
inputs, policies and approval are read there instead of being set on the earlier step.

A sentence that says to run the skill again ("then run `quote-bus` again", "`quote-bus` once
more") is not a citation, nor one where the skill does something ("`quote-bus` prices it").
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "from `x`", "out of `x`", "that `x` gave", "returned by `x`", "`x`'s total", "of `x`"
_BEFORE = _rx(r"(?i)(?:\bfrom|\bout\s+of|\bof|\b(?:given|returned|produced|made|priced|quoted)\s+by)\s++(?:the\s+)?$")
_AFTER = _rx(r"(?i)^(?:'s?\b|’s?\b|\s++(?:gave|gives|returned|returns|came\s+back\s+with|sent\s+back|output|outputs|"
             r"result|results)\b)")
_AGAIN = _rx(r"(?i)\b(?:again|once\s+more|a\s+second\s+time|re-?run|rerun)\b")


def cited(sentence: str, skill: str) -> bool:
    """Whether every mention of `skill` in `sentence` names it as where a value comes from."""
    if _AGAIN.search(sentence):
        return False
    found = False
    for m in re.finditer(rf"`?{re.escape(skill)}`?", sentence):
        if not (_BEFORE.search(sentence[max(0, m.start() - 40):m.start()]) or _AFTER.match(sentence[m.end():])):
            return False
        found = True
    return found


_rx.save()
