"""A step's condition said as a state of the thing the run is about, at the opening of its text (round 54).

    When both of those are back: if the tree IS protected it goes to `consent-application` ...
        -> when: protected == true
    If it's not protected it goes to `book-crew` instead, ...
        -> the other branch of the step before whose condition is `protected == true`
    and if the order is paid, `ship-it` ...          -> when: paid == true
    if the booking isn't confirmed -> `chase-it`      -> when: confirmed == false

The opening (after a lead that ends in a colon, "When both of those are back:") is "if" then "it" /
"that" / "this" / "they" or "the" and one word, then "is", "are", "'s", "'re" (any case), an optional
"not" (or "isn't", "aren't"), and one word of three letters or more, which a clause mark, "it", "then",
"they", "we" or "go"/"goes" follows: that word is a yes/no value the steps before give (`protected`),
the condition `word == true`, or `== false` when negated. A negated one right after a step whose
condition is that word being true is that step's other branch. A word that compares ("over", "more"),
says a failure ("down", "broken", "slow") or is no state ("there", "here", "the", "a") is not read
here. The planner checks the name against the outputs of the steps before (a name no step gives is
said there).
"""

from __future__ import annotations

from typing import NamedTuple

from orchestrator.spec.regex_cache import Patterns

__all__ = ["State", "state_condition"]

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPENING = _rx(
    r"(?i)^(?:(?:when|once|after)\s[^:\n]{1,60}+:\s*+)?+(?:(?:and|but|so|then)\s++)?+(?:only\s++)?+if\s++"
    r"(?:it|that|this|they|the\s++[a-z]{2,30}+)"
    r"(?:['’]s\s++|['’]re\s++|\s++(?:is|are)\s++)(?P<not>not\s++)?+"
    r"(?P<word>[a-z]{3,30}+)(?=\s*+(?:[,:;—–]|-\s)|\s++(?:it|then|they|we|goes|go)\b)"
)
_OPENING_NT = _rx(
    r"(?i)^(?:(?:when|once|after)\s[^:\n]{1,60}+:\s*+)?+(?:(?:and|but|so|then)\s++)?+(?:only\s++)?+if\s++"
    r"(?:it|that|this|they|the\s++[a-z]{2,30}+)\s++(?:isn['’]t|aren['’]t)\s++"
    r"(?P<word>[a-z]{3,30}+)(?=\s*+(?:[,:;—–]|-\s)|\s++(?:it|then|they|we|goes|go)\b)"
)
_NOT_STATES = frozenset({
    "over", "under", "above", "below", "more", "less", "fewer", "higher", "lower", "bigger", "smaller", "greater",
    "down", "broken", "slow", "stuck", "dead", "offline", "unavailable", "unreachable", "failing", "erroring",
    "there", "here", "the", "any", "all", "too", "very", "still", "also", "just", "only", "now", "then", "that",
    "this", "what", "one", "not", "case", "true", "false", "yes", "none", "empty", "late", "early", "done",
})


class State(NamedTuple):
    """A state said at a step's opening: the words saying it, the value's name, and whether negated."""

    said: str
    field: str
    negated: bool


def state_condition(words: str) -> State | None:
    """The state the opening `words` make the step's condition (module docstring), or None."""
    text = words[:300]
    m = _OPENING.match(text)
    negated = bool(m and m.group("not"))
    if m is None:
        m = _OPENING_NT.match(text)
        negated = True
    if m is None:
        return None
    field = m.group("word").lower()
    if field in _NOT_STATES:
        return None
    return State(text[:m.end()].strip(), field, negated)


_rx.save()
