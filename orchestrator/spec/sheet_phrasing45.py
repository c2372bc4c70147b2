"""Rows of the policy grammar (`spec.grammar`) for the forty-fifth round's no retry said as "never twice" in a pasted
sheet's failure cell, joined to the grammar's tables through `spec.grammar_families8`. In words that are not the sheet's:

- "NEVER twice", "not twice!", "never more than once", "don't send it twice", "must not post it a second time",
  "do not charge them twice - it bills the card": the step runs once, no retry;
- not: "never twice the size", "not twice as long", "never twice in a row", "not twice a day" (a size, a rate or a
  run of them: the words after "twice" say what is counted).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NOT = r"(?:never|not|don'?t|do\s+not|must\s+not|mustn'?t|shouldn'?t|should\s+not)"
_VERB = (r"(?:send|run|do|charge|bill|post|e-?mail|fire|text|issue|submit|call|ring|book|print|pay|make|"
         r"push|publish|deliver|trigger)")
# what follows "twice" when it counts something else: a size, a rate, a run
_OTHER = r"(?!\s*+(?:the|as|that|this|an?|in|per|each|every|daily|weekly|over|more|less|bigger|longer|faster)\b)"

EARLY: tuple[Row, ...] = (
    # "NEVER twice", "don't send it twice", "must not post them a second time": no retry
    Row("no_retry", r"(?<![\w-])" + _NOT + r"\s++(?:" + _VERB + r"\s++(?:it|this|that|them|the\s+[\w-]{1,30}+)\s++)?"
        r"(?:twice|more\s+than\s+once|a\s+second\s+time)\b" + _OTHER),
)
GATES = {"EARLY": r"|twice|more\s+than\s+once|second\s+time"}

_rx.save()
