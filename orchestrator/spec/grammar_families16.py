"""Rows of the policy grammar (`spec.grammar`) for the sixteenth round's misread families, and the
failure said as a REASON that names no failure class.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- words about ORDER are no retry and no wait between tries: "doesn't have to wait for 1", "can
  start without waiting for #2", "no need to wait until the first one is done", "needn't hold off
  for the intake step" (`IGNORE`; when a step starts is `spec.branch_parallel`'s). A wait FOR a
  time ("don't wait for 5 min") is left to the wait rows;
- a count said after "another go" ("have another go twice", "one more try 3 times"): that many
  retries (`EARLY`), never one retry and the count unread;
- a single retry with its wait after it: "do it once more after 5 sec", "ring once more in 2 min"
  (`WAIT`): the wait before that retry;
- a failure said as the reason for the policy ("the upload times out a lot on Fridays, so if it
  fails retry 3 times", "it hangs sometimes, so retry twice", "because the scanner freezes now and
  then"): why the author wants the policy, not which failures it is for (`failure_reason_spans`,
  read beside `spec.grammar_families11.reason_spans`). The failure class is kept when the retry's own
  condition names it ("if it times out, retry twice").
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NOT = (r"(?:no\s+need\s+to|there'?s\s+no\s+need\s+to|(?:don'?t|do\s+not|doesn'?t|does\s+not|needn'?t|need\s+not|won'?t|"
        r"will\s+not|shouldn'?t|should\s+not|mustn'?t)(?:\s+(?:have|need)\s+to)?|(?:can|may|should|will)\s+(?:start|begin|go|run|"
        r"kick\s+off)\s+without|without|never|not)")
# what is waited for: a step by number or name, "it", "the first one"; never a time
_UNIT = r"(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)(?![a-z])"
_TARGET = (r"(?:(?:step|stage|phase|task|item|part|no\.?|number|#)\s*+#?\s*+\w{1,12}+|\d{1,3}+(?!\s*+(?:\.\d|%|-\s*+\d|" + _UNIT + r"))"
           r"|(?:the|that|this|those|these|its|any|my|our)\s++(?!(?:\d|few|couple|next\s+\d))[\w-]{1,40}+(?:\s++(?!(?:to|is|are|and|"
           r"or|but|so|it)\b)[\w-]{1,40}+){0,2}|it|them|that|this|anything|everything|each\s+other|one\s+another"
           r"|one(?=\s++to\s++(?:start|begin|finish|end|complete)\b))")
_DONE = r"(?:\s+to\s+(?:finish|complete|end|be\s+done|come\s+back|return)|\s+(?:is|are)\s+(?:done|finished|complete|over|back))?"

IGNORE: tuple[Row, ...] = (
    # "doesn't have to wait for 1", "can start without waiting for #2", "no need to wait until the first one is done"
    Row("ignore", r"(?<!\w)" + _NOT + r"\s+(?:wait(?:ing)?|hold(?:ing)?\s+(?:off|back))\s+(?:for|on|until|till|behind)\s+"
        + _TARGET + r"\b(?!\s+(?:more|longer|over|past|beyond)\b)" + _DONE),
)

# "have another go twice", "give it one more try three times": the count said after the retry's noun
EARLY: tuple[Row, ...] = (
    Row("retries", r"(?<!\w)(?:another|(?:one|1)\s+more)\s+(?:go|shot|try|attempt|crack|run)\s+(?:at\s+it\s+)?{N}"
        r"(?:\s+times)?\b(?!\s+(?:more|over|again|the|it|we|you|they|that|this|all|everything)\b)"),
)

# "once more after 5 sec", "one more time in 2 min": the wait of that single retry
WAIT: tuple[Row, ...] = (
    Row("wait_fixed", r"(?<!\w)(?:after|in)\s+(?:waiting\s+)?(?:about\s+)?{D}",
        needs=r"(?<!\w)(?:once\s+more|(?:one|1)\s+more\s+time|(?:one|1)\s+last\s+time)\s*+,?\s*+(?:after|in)\s"),
)

# a failure verb said of the thing, as what it does now and then
_FAILS = (r"(?:times?\s+out|timing\s+out|hangs|hanging|freezes|freezing|stalls|stalling|drops\s+out|drops|falls\s+over|"
          r"goes\s+down|flakes(?:\s+out)?|glitches|errors\s+out|chokes|crashes|dies|gets\s+stuck|locks\s+up|"
          r"(?:is|are|gets|can\s+be)\s+(?:a\s+bit\s+|quite\s+|really\s+|very\s+|pretty\s+|super\s+|so\s+)?"
          r"(?:flaky|unreliable|unstable|down|overloaded|patchy))")
_SLOW = r"(?:is|are|gets|can\s+be)\s+(?:a\s+bit\s+|quite\s+|really\s+|very\s+|pretty\s+|super\s+|so\s+)?(?:slow|sluggish|laggy)"
_REASON = _rx(r"(?i)(?<!\w)" + _FAILS + r"\b(?P<rest>[^.;,!?]{0,80}?)(?:,\s*+|\s++)(?:so|which\s+is\s+why|that'?s\s+why|hence)"
              r"\b(?!\s+(?:long|much|many|far|often|badly|bad|slow|that)\b)"
              # "the till is slow to wake up: if it fails, ...": the reason, then the retry's own condition
              r"|(?<!\w)(?:" + _FAILS + r"|" + _SLOW + r")\b(?P<rest3>[^.;,!?:]{0,80}?)\s*+[:\u2014\u2013]\s*+"
              r"(?=(?:if|when|whenever|should)\s)"
              r"|(?<!\w)(?:because|'cause|cos|since)\s++[^.;,!?]{0,60}?(?<!\w)" + _FAILS + r"\b(?P<rest2>[^.;,!?]{0,60}+)")
# how often: the words that make the failure a habit, said as the reason
_HABIT = _rx(r"(?i)(?<!\w)(?:a\s+lot|lots|sometimes|often|occasionally|at\s+times|now\s+and\s+(?:then|again)|every\s+so\s+often|"
             r"from\s+time\s+to\s+time|regularly|frequently|usually|always|constantly|all\s+the\s+time|on\s+\w{1,12}+days?|"
             r"in\s+the\s+(?:morning|afternoon|evening)s?|at\s+(?:night|peak|month-?end|\d))\b")
_HABIT_BEFORE = _rx(r"(?i)(?<!\w)(?:often|sometimes|always|usually|regularly|frequently|occasionally|tends\s+to|likes\s+to|can|"
                    r"keeps?)\s++$")
# after the reason, a condition with no failure class: "so if it fails", "so when that goes wrong"
_GENERAL = _rx(r"(?i)\A\s*+,?\s*+(?:just\s+)?(?:if|when|whenever|should)\s+(?:it|that|this|one|anything|something|the\s+[\w-]{1,30}+)"
               r"\s+(?:still\s+)?(?:fails?|errors?|breaks|doesn'?t\s+work|does\s+not\s+work|goes\s+wrong|falls\s+(?:through|over)|"
               r"packs\s+up|conks\s+out|plays\s+up|acts\s+up)\b")


def failure_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` gives a failure as the reason for its policy: the failure said as a habit ("times
    out a lot on Mondays, so", "hangs sometimes, so", "because the scanner freezes now and then"),
    or before "so" and a condition that names no failure ("..., so if it fails retry 3 times")."""
    spans: list[tuple[int, int]] = []
    for m in _REASON.finditer(text):
        rest = next((g for g in (m.group("rest"), m.group("rest3"), m.group("rest2")) if g is not None), "")
        habit = _HABIT.search(rest) is not None or _HABIT_BEFORE.search(text[max(0, m.start() - 20):m.start()]) is not None
        general = m.group("rest2") is None and _GENERAL.search(text[m.end():m.end() + 80]) is not None
        if habit or general:
            spans.append(m.span())
    return spans


# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|another",
    "WAIT": r"|once\s+more|(?:one|1)\s+(?:more|last)\s+time",
    "IGNORE": r"|wait|hold",
}

_rx.save()
