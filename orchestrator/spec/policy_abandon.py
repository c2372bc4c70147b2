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

- "do not proceed", "don't carry on", "must not continue" after a failure: the step fails (never read
  as going on, which the words for going on alone would say);
- "wait max 30 min for the inspector", "wait up to 2 h for the manager's sign-off": a time given to a
  person, which is the wait of an approval (`spec.grammar_person_wait` reads it when silence is said):
  reported as not the step's policy, never read as a backoff's cap or a retry;
- "the tech log goes once only", "it is sent once.", "posting runs exactly once": no second go, no retry
  ("runs once the upload is in", "once a day" are no such thing).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_NOTHING = (r"(?:no|nothing|zero)\s+(?:usable\s+|valid\s+)?(?:results?|answers?|responses?|reply|replies|output|word|"
            r"data|readings?|response|value|number|figure|signal|feedback|ack(?:nowledg(?:e?ment))?)")
_DROP = (r"(?:abandon|give\s+up|bail(?:\s+out)?|drop\s+it|drop\s+the\s+[\w-]+|scrap\s+it|walk\s+away|kill\s+it|"
         r"abort|cancel\s+it|stop\s+(?:it|the\s+[\w-]+|waiting)|call\s+it\s+(?:dead|failed|a\s+fail(?:ure)?))")
_WITHIN = r"(?:in|within|after|by|inside(?:\s+of)?|past)\s+(?:the\s+first\s+)?"

_PERSON = (r"(?:inspector|manager|approver|supervisor|reviewer|lead|owner|chef|doctor|pharmacist|on-?call|engineer|"
           r"officer|captain|foreman|sergeant|editor|teacher|nurse|vet|someone|somebody|customer|client|person|"
           r"sign-?off|signature|approval|go-?ahead)")

EARLY: tuple[Row, ...] = (
    # "wait max 30 min for the inspector": a person's time, the wait of an approval
    Row("ambiguous", r"(?<!\w)wait(?:ing)?\s+(?:max(?:imum)?\s+|up\s+to\s+|at\s+most\s+|no\s+more\s+than\s+)?{D}\s+"
        r"(?:max(?:imum)?\s+|tops\s+)?for\s+(?:the\s+|a\s+|an\s+|their\s+|his\s+|her\s+)?(?:[\w-]+(?:'s)?\s+){0,2}?"
        + _PERSON + r"\b[^.]*+",
        value="a time given to a person is the wait of an approval, not a retry or a timeout of the step; write it "
              "on the step's approval (`Approval: required, timeout {time} -> reject`)"),
    # "goes once only", "is sent once.": no retry
    Row("no_retry", r"(?<![\w-])(?:goes|go|runs?|is\s+run|gets\s+run|is\s+done|happens|fires|is\s+sent|gets\s+sent|is\s+posted|"
        r"is\s+entered|is\s+submitted|is\s+made)\s+(?:exactly\s+|strictly\s+|just\s+)?once(?:\s+only\b|\s*+(?=[.!;)]|$|\s+-|,\s+"
        r"(?:never|not|no)\b))"),
    # "do not proceed", "don't carry on": the step fails
    Row("fail", r"(?<![\w-])(?:do\s+not|don'?t|must\s+not|mustn'?t|may\s+not|cannot|can'?t|never)\s+"
        r"(?:ever\s+)?(?:proceed|continue|carry\s+on|go\s+on|move\s+on|keep\s+going|push\s+on|press\s+on)\b(?!\s+(?:until|unless|before|without|till|with\s+the\s+next)\b)"),
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
    "EARLY": r"|abandon|give\s+up|bail|drop|scrap|walk|kill|abort|cancel|stop|call\s+it|wait|not|don|mustn|may|can|never|once",
}
