"""Rows of the policy grammar (`spec.grammar`) for a value to go on with written as a field and its value (seventeenth round).

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The family, in words that are not the blind sets':

- a value to go on with, written as a field and its value with no `=`, "as" or "to" between them,
  right before going on: "mark done false and keep going", "set weighed 0 and carry on", "flag
  printed false, then continue": that object is the step's output when it fails (the value a
  number, true, false, null or a quoted text; `spec.grammar_families15` reads `field=value` and
  "go ahead using field value"). Without the going on after it ("set the oven 180") it is no policy.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a `field value` pair: the field a name (never a word such as "it" or "the"), the value a number, a truth word,
# null or a quoted text
_PAIR = (r"(?!(?:the|a|an|it|them|this|that|step|stage|attempt|try|retry|as|to)\b)[a-z][a-z0-9_]{0,40}+\s++"
         r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d)|true\b|false\b|null\b)")
_GO_ON = r"(?:keep\s+going|carry\s+on|continue|go\s+on|move\s+on|proceed|press\s+on|keep\s+rolling)\b"

EARLY: tuple[Row, ...] = (
    # "mark sent false and keep going", "set weighed 0, then carry on": the value to go on with
    Row("value_pairs", r"(?<!\w)(?:mark(?:ing)?|set(?:ting)?|flag(?:ging)?|record(?:ing)?)\s++(?P<pairs>" + _PAIR
        + r")(?=\s*+,?\s*+(?:and\s+|then\s+|and\s+then\s+)?(?:just\s+)?" + _GO_ON + r")",
        needs=r"{COND}|unreachable|unavailable|anyway|regardless|flak|down|dies|broke"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|mark|set|flag|record",
}
