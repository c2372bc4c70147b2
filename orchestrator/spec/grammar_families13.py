"""Rows of the policy grammar (`spec.grammar`) for the thirteenth round's step-policy families.

Joined to the grammar's tables through `spec.grammar_families8` (before the eleventh round's rows),
so the grammar's own module does not grow. The family, in words that are not the blind sets':

- one field and its value after a going-on ("carry on with grade "n/a"", "go on with mass_g 0"): an
  object of that field (two or more are `spec.grammar_families11`'s); a number only beside a field
  written as a name (with `_`), so "continue with batch 2" is no value;
- a fallback that names no skill ("try the backup", "use the old one"), a limit wished for with no
  time ("don't let the export take all day"): said at the line, never read as a guess;
- "wait 30 s then keep doubling it": a backoff that starts at the wait said;
- "the second and third tries after 20 and 40 s": the waits before those retries;
- a wait said as a range with no word of chance ("8-12 s apart", "2 to 5 minutes between goes",
  "waiting between 1 and 3 min each time"): the plan's waits are one time each, or a backoff with
  full jitter (anywhere from none to its wait), neither of which is "at least 8, at most 12". The
  range is read as its start, the least the author asks for, and `spec.phrase` says so at the line
  with what to write. A range said with chance ("a random 4-8 s") stays its middle, jittered.
"""

from __future__ import annotations

from orchestrator.spec.grammar_families11 import _GO
from orchestrator.spec.grammar_row import Row

# one field and its value with no `=` after a going-on: a quoted text, true, false or null beside any field
# ("carry on with grade "n/a""), a number only beside a field written as a name (`mass_g 0`), never prose
_WORD_FIELD = (r"(?!(?:and|or|the|a|an|step|stage|phase|part|item|row|page|line|attempt|try|retry|round|version|batch|"
               r"v|it|them|up|to|at|of|every|each|no|nothing|whatever)\b)[a-z][a-z0-9_]{0,40}+")
_ONE_PAIR = (r"(?:" + _WORD_FIELD + r"\s++(?:\"[^\"]{0,200}\"|'[^']{0,200}'|true\b|false\b|null\b)"
             r"|[a-z][a-z0-9]{0,20}+_\w{1,30}+\s++-?\d{1,12}+(?:\.\d{1,9}+)?(?![\w%]|\.\d))")

_BETWEEN_TRIES = (r"(?:apart|spacing|gaps?|(?:in\s+)?between\s+(?:the\s+|each\s+|two\s+)?(?:tries|attempts|retries|goes|"
                  r"shots|calls|runs|them|each(?:\s+(?:one|try|attempt|go))?)|(?:each|every)\s+time|before\s+(?:each|every)"
                  r"\s+(?:retry|try|attempt|go))\b")

EARLY: tuple[Row, ...] = (
    # "8-12 s apart", "2 to 5 minutes between goes", "waiting between 1 and 3 min each time": its start, said
    Row("wait_fixed", r"(?<![\w.])(?<!random\s)(?<!randomly\s)(?:(?:waiting|wait|pausing|pause|sleeping|sleep)\s+)?(?:between\s+)?(?P<start>\d{1,6}+(?:\.\d{1,3}+)?)\s*+(?:-|to|and)\s*+{D}\s+"
        + _BETWEEN_TRIES, also=("wait_range",)),
    # "if it fails, try the backup", "use the old one instead": a fallback that names no skill, said
    Row("ambiguous", r"(?<!\w)(?:use|try|run|call|switch\s+to|fall\s+back\s+to|go\s+(?:back\s+)?to)\s+(?:the|our|that)\s+"
        r"(?:old|older|other|backup|back-up|spare|fallback|alternative|alternate|previous|second|legacy)"
        r"(?:\s+(?:one|version|copy|skill|tool|service|thing))?(?=\s*+(?:[.;,!)]|instead\b|$))",
        value="names no skill to run instead; write the skill's name, e.g. 'if it fails, use `backup-skill` instead'",
        needs=r"{COND}|instead"),
    # "don't let the export take all day": a limit wished for, with no time
    Row("ambiguous", r"(?<!\w)(?:don'?t|do\s+not|never)\s+let\s+(?:it|this|that|the\s+[\w-]{1,40}+(?:\s+[\w-]{1,40}+)?)\s+"
        r"(?:take|run|go\s+on|last)\s+(?:all\s+(?:day|night|morning|afternoon|week)|forever|ages|too\s+long|for\s+ever)\b",
        value="no time limit is given (nor what to do past it); write the limit and the outcome, e.g. 'timeout 30 min, then fail'"),
    # "wait 30s then keep doubling it": a backoff from the wait said (`spec.phrase`)
    Row("exponential", r"(?<!\w)(?:then\s+|and\s+)?keep\s+(?:on\s+)?doubling(?:\s+(?:it|that|them|the\s+(?:wait|delay|pause)))?\b"),
    # "second and third tries after 20 and 40 s": a wait before each of the retries named by their order
    Row("wait_seq", r"(?<!\w)(?:the\s+)?(?:second|2nd)\s+(?:and|&)\s+(?:third|3rd)(?:\s+(?:and|&)\s+(?:fourth|4th))?\s+"
        r"(?:attempts?|tries|goes|runs|calls|shots)(?:\s++(?!after\b)[\w'&-]{1,40}+){0,6}?\s+after\s+(?P<seq>{SERIES})"),
    # "carry on with grade "n/a"", "go on with mass_g 0": one field and its value (two or more: `grammar_families11`)
    Row("value_pairs", r"(?<!\w)" + _GO + r"\s+(?:with\s+|on\s+with\s+)(?P<pairs>" + _ONE_PAIR
        + r")(?!\s*+(?:,|and\b|&|/|;|\+|=))", needs=r"{COND}|instead|unreachable|unavailable|anyway|regardless"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|third|3rd|old|other|backup|back-up|spare|fallback|alternative|alternate|previous|second|legacy|let|doubling|waiting|pausing|sleeping|apart|spacing|gaps?|between|each\s+time|every\s+time|before\s+each|before\s+every",
}
