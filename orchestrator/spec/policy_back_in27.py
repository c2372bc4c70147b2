"""A step's time limit said as the time it has to be back in, the way call sheets and rotas say it.

    If crew-check isn't back in 45 seconds treat it as failed.        -> the attempt's time: 45 s
    If the courier hasn't come back within 10 min, call it failed.    -> 600 s
    When `label-print` is not done in 2 minutes, give up on it.       -> 120 s

A condition ("if", "when", "should") whose subject (the step, its skill, a thing it names; not "it",
which is as often the whole run) is not back, not
returned, not done or not finished "in", "within" or "inside" a time: that time is the step's time
limit. A person who has not answered in a time is an approval's wait, never this. Rows of the policy grammar (`spec.grammar`), joined through
`spec.grammar_families8`. Not read: a time that says when a thing is due back ("it is back in 45
minutes" says no limit), and a time of the whole run (read by the whole-run readers first).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_NOT = (r"(?:is|are|has|have|does|do)(?:n['’]t|\s+not)")
_BACK = r"(?:(?:come|came|got|get|gotten)\s+back|back|returned|return|finished|finish|done|completed|complete)"

EARLY: tuple[Row, ...] = (
    Row("timeout", r"(?<!\w)(?:if|when|should)\s+(?!(?:it|this|that|they|everything|all)\s)(?:`[\w.-]{1,60}+`|[\w-]{1,40}+(?:\s+[\w-]{1,40}+){0,2}?)\s+"
        + _NOT + r"\s+" + _BACK + r"\s+(?:in|within|inside|in\s+under)\s+(?:the\s+|a\s+|an\s+)?{D}"),
)

GATES = {"EARLY": r"|n't|n’t|back|done|finish|return|complet"}
