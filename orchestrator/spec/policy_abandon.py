"""Rows of the policy grammar (`spec.grammar`) for a time after which a step is abandoned (twenty-third
round): how long one attempt may take, and then the step fails. Never a wait before a retry.

Joined to the grammar's tables through `spec.grammar_families8`. The ways of writing, in words that
are not the blind sets':

- "if no answer in 90 s, give up", "no reading within 3 MIN -> abandon", "if there's no reply after
  an hour, drop it": no result within a time, then the step is given up: the attempt's timeout,
  and the step fails;
- "abandon it after 2 minutes without a result", "give up on the scan after 40 s with no reply": the
  same, the giving up said first.

"abandon ... and do it by hand" says what a person does after; the run only fails the step.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_NOTHING = (r"(?:no|nothing|zero)\s+(?:usable\s+|valid\s+)?(?:results?|answers?|responses?|reply|replies|output|word|"
            r"data|readings?|response|value|number|figure|signal|feedback|ack(?:nowledg(?:e?ment))?)")
_DROP = (r"(?:abandon|give\s+up|bail(?:\s+out)?|drop\s+it|drop\s+the\s+[\w-]+|scrap\s+it|walk\s+away|kill\s+it|"
         r"abort|cancel\s+it|stop\s+(?:it|the\s+[\w-]+|waiting)|call\s+it\s+(?:dead|failed|a\s+fail(?:ure)?))")
_WITHIN = r"(?:in|within|after|by|inside(?:\s+of)?|past)\s+(?:the\s+first\s+)?"

EARLY: tuple[Row, ...] = (
    # "if no answer in 90 s, give up", "no reading within 3 MIN -> abandon"
    Row("timeout", r"(?<!\w)(?:(?:if|when|once)\s+(?:there'?s\s+|there\s+is\s+|we\s+get\s+|you\s+get\s+|it\s+gives\s+)?)?"
        + _NOTHING + r"\s+(?:back\s+|comes\s+back\s+|yet\s+)?" + _WITHIN + r"{D}\s*+(?:[,:;]|->|=>|→|-)?\s*+(?:then\s+)?(?:just\s+)?"
        + _DROP + r"\b", also=("fail",)),
    # "abandon it after 2 minutes without a result", "give up on the scan after 40 s with no reply"
    Row("timeout", r"(?<!\w)(?:abandon|give\s+up|bail)\s+(?:on\s+)?(?:it\s+|this\s+|the\s+[\w-]+\s+)?(?:after|past)\s+{D}\s+"
        r"(?:without\s+(?:a|an|any)\s+|with\s+no\s+)(?:usable\s+)?(?:result|answer|response|reply|output|word|reading)s?\b",
        also=("fail",)),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {
    "EARLY": r"|abandon|give\s+up|bail|drop|scrap|walk|kill|abort|cancel|stop|call\s+it",
}
