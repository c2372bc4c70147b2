"""Rows of the policy grammar (`spec.grammar`) for the thirteenth round's step-policy families.

Joined to the grammar's tables through `spec.grammar_families8` (before the eleventh round's rows),
so the grammar's own module does not grow. The family, in words that are not the blind sets':

- a wait said as a range with no word of chance ("8-12 s apart", "2 to 5 minutes between goes",
  "waiting between 1 and 3 min each time"): the plan's waits are one time each, or a backoff with
  full jitter (anywhere from none to its wait), neither of which is "at least 8, at most 12". The
  range is read as its start, the least the author asks for, and `spec.phrase` says so at the line
  with what to write. A range said with chance ("a random 4-8 s") stays its middle, jittered.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_BETWEEN_TRIES = (r"(?:apart|spacing|gaps?|(?:in\s+)?between\s+(?:the\s+|each\s+|two\s+)?(?:tries|attempts|retries|goes|"
                  r"shots|calls|runs|them|each(?:\s+(?:one|try|attempt|go))?)|(?:each|every)\s+time|before\s+(?:each|every)"
                  r"\s+(?:retry|try|attempt|go))\b")

EARLY: tuple[Row, ...] = (
    # "8-12 s apart", "2 to 5 minutes between goes", "waiting between 1 and 3 min each time": its start, said
    Row("wait_fixed", r"(?<![\w.])(?<!random\s)(?<!randomly\s)(?:(?:waiting|wait|pausing|pause|sleeping|sleep)\s+)?(?:between\s+)?(?P<start>\d{1,6}+(?:\.\d{1,3}+)?)\s*+(?:-|to|and)\s*+{D}\s+"
        + _BETWEEN_TRIES, also=("wait_range",)),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|waiting|pausing|sleeping|apart|spacing|gaps?|between|each\s+time|every\s+time|before\s+each|before\s+every",
}
