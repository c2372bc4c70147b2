"""Policy phrasings of a deck or shift log (fifty-fourth round), in words that are not the blind set's own.

Rows of the policy grammar (`EARLY`, `IGNORE`; joined through `spec.grammar_families8`):

- the whole run's time said as the whole of some job "to be finished" by then, with the job's own words between:
  "whole landing job to be finished inside the hour", "the entire stock count to be done within 45 minutes",
  "whole unloading, start to end, is to be wrapped up in 2 hours" (the run's limit; "each job to be done within
  the hour" is no whole);
- a short sentence without a verb that says something is somewhere again, "Gulls on the fish room again.",
  "Seals round the nets again", "Rain in the hold again!": a note of what happened, no policy (not "try the
  feed again", "run it on the backup again": a verb of doing comes first there).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# the whole of a job, the job said in up to three words of its own ("whole landing job", "entire stock count")
_WORD = r"(?!(?:has|have|is|are|was|were|must|should|needs?|be|to|will|shall)\b)[\w-]+"  # a word of the job, no verb
_WHOLE = r"(?<![\w-])(?:the\s+)?(?:whole|entire|full)\s+" + _WORD + r"(?:\s+" + _WORD + r"){0,2}?\s*+(?:,[^,.;]{1,30}+,\s*+)?"
# "to be finished", "is to be done", "must be wrapped up": the job's end as a thing required
_TO_BE_DONE = (r"(?:(?:must|has\s+to|needs\s+to|should|is\s+to|are\s+to|ought\s+to)\s+|to\s+)be\s+"
               r"(?:finished|done|over|complete|completed|wrapped\s+up|through)\s+(?:in|within|inside|under)\s+")
# a word that opens a sentence of doing ("try the feed again"), never a note of what happened
_VERB = (r"(?:try|retry|run|rerun|go|call|do|hit|poll|check|ask|look|put|send|start|give|have|get|make|keep|ring|phone|"
         r"read|fetch|load|post|push|pull|set|use|let|if|when|then|and|or|but|please|don'?t|never|always|no)")

EARLY: tuple[Row, ...] = (
    # "whole landing job to be finished inside the hour": the whole run's limit
    Row("run_timeout", _WHOLE + _TO_BE_DONE + r"(?:the|an|one)\s+hour\b", value=3600.0),
    Row("run_timeout", _WHOLE + _TO_BE_DONE + r"{D}"),
)

IGNORE: tuple[Row, ...] = (
    # "Gulls on the fish room again.": something somewhere again, a note with no verb of doing
    Row("ignore", r"^\s*+(?!" + _VERB + r"\b)[A-Za-z][\w'-]*+(?:\s+[a-z][\w'-]*+)?\s+(?:on|at|in|round|around|about|near|by|"
        r"over|under|all\s+over)\s+(?:the\s+|our\s+|my\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?\s+again\s*+[.!]*+\s*+$"),
)

# the words its rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|whole|entire|full", "IGNORE": r"|again"}
