"""A bare limit said before the step is counted as failed is the attempt's time (fortieth round).

    Max 45 seconds, then treat it as failed.             -> a 45 s attempt timeout
    At most 90 s, then count it as a failure.            -> a 90 s attempt timeout
    No more than 2 minutes per attempt.                  -> a 120 s attempt timeout
    Must come back inside 30 s or we fail the run.       -> a 30 s attempt timeout (and failing)

"Max N" alone is read by the grammar as the cap of a backoff between retries ("max 30 s between
tries"); said with no word of trying again, waiting or backing off, and followed by what happens
when it is up ("then treat it as failed", "then give up", "then call it a failure"), it is how long
one attempt may take. A limit "per attempt" / "each try" / "a call" is the attempt's time whatever
else the sentence says. "Retry 3 times with backoff, max 45 s, then give up" keeps its cap, and
"max 45 s between tries" its wait. A time the step "must come back / be back / finish inside", said
with what happens if not ("or we fail the run", "else it's failed"), is its time too; a person who must
answer in a time is an approval's wait, never this.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_CAP = r"(?<![\w-])(?:max(?:imum)?|at\s+most|no\s+more\s+than|not\s+more\s+than)\s+(?:of\s+)?{D}"
# what happens when the time is up: the attempt is counted as failed
_THEN_FAILED = (r"(?=\s*+[,;]?\s*+(?:and\s+)?(?:then|after\s+that|past\s+that)\s*+[,:]?\s*+(?:treat|count|mark|call|consider|"
                r"deem|declare|give\s+up|fail|abort|kill|bail|drop|cut))")
# no word of trying again, of a wait or of a backoff anywhere in the sentence
_NO_RETRY = (r"^(?!.*(?:retr|re-?try|re-?run|again|poll|attempts|tries|keep\s+trying|back-?\s*off|expo|doubl|wait|"
             r"delay|between|apart|every|pause))")

_BACK = (r"(?<![\w-])(?:must|has\s+to|have\s+to|needs?\s+to|should|got\s+to|ought\s+to)\s+(?:come\s+back|be\s+back|get\s+back|"
         r"return|finish|be\s+(?:done|finished|complete)|complete)\s+(?:in|within|inside|in\s+under|inside\s+of)\s+"
         r"(?:the\s+|a\s+|an\s+)?{D}(?=\s*+,?\s*+(?:or|else|otherwise)\b[^.;]{0,40}?\b(?:fail|failed|failure|give\s+up))")

EARLY: tuple[Row, ...] = (
    # "Must come back inside 30 s or we fail the run": the attempt's time (the failing is read by its own row)
    Row("timeout", _BACK),
    # "No more than 2 minutes per attempt", "max 45 s each try", "at most 10 s a call": the attempt's time
    Row("timeout", _CAP + r"\s++(?:per|each|an?|for\s+(?:each|one|an?))\s++(?:attempt|try|call|request|run|go)\b"),
    # "Max 45 seconds, then treat it as failed" (no retry said): the attempt's time
    Row("timeout", _CAP + _THEN_FAILED, needs=_NO_RETRY),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|max|at\s+most|no\s+more|not\s+more|must|has\s+to|have\s+to|need|should|got\s+to|ought"}
