"""Recovery phrasings of a handover note a thirty-fifth blind set misread (fifty-fourth round), in words that are not its own.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a fallback skill let do the work after a failure is said: "The map site falls over a lot - when it does, let
  `x` do the check instead", "if the scanner jams, let `y` handle it" - the skill is the step's fallback (on its
  own inputs). The sentence must say a failure ("falls over", "goes down", an if-clause: `_FAILED`): "let `x`
  do the check" alone is a step's own sentence, no recovery.
- the attempt's time said of what the step makes: "If the letter hasn't come out inside a minute, kill it",
  "if the label hasn't printed within 30 s, abort" - what the step hands back not there in time, then a kill
  word (`spec.phrasing38`'s "hasn't finished ... inside 45 s, write it off", for a thing made, not the step).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.phrasing38 import _KILL, _THE

# a failure said in the sentence: an if/when clause, or the service "falls over" / "goes down" / "keeps dying"
_FAILED = (r"(?:if|when|whenever|should|in\s+case)\b|\bfalls?\s+over\b|\bfell\s+over\b|\bgoes\s+down\b|\bwent\s+down\b|"
           r"\bkeeps?\s+(?:dying|crashing|failing)\b|\bfails?\b|\berrors?\b|\bdown\b|\bbroken\b")

EARLY: tuple[Row, ...] = (
    # "when it does, let `x` do the check instead": the fallback skill, on the step's own inputs
    Row("use_skill", r"(?<![\w-])let\s+{NAME}\s+(?:do|take|handle|run|have)\s+(?:it|this|that|the\s+[\w-]+(?:\s+[\w-]+)?)"
                     r"(?:\s+(?:instead|then))?", needs=_FAILED),
    # "if the letter hasn't come out inside a minute, kill it": the attempt's time
    Row("timeout", r"(?<![\w-])(?:if|when|once)\s+" + _THE + r"\s+(?:hasn'?t|has\s+not|haven'?t|have\s+not|didn'?t|did\s+not|"
        r"doesn'?t|does\s+not)\s+(?:come\s+(?:out|through|up)|turned\s+up|shown\s+up|appeared|arrived|printed|been\s+"
        r"(?:made|printed|written|produced|sent))\s+(?:inside|within|in|by)\s+(?:the\s+)?{D}\s*+,?\s*+(?:then\s+)?" + _KILL),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|let\s|come\s+out|come\s+through|turned\s+up|shown\s+up|appeared|arrived|printed|been\s"}
