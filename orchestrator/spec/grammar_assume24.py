"""Rows of the policy grammar (`spec.grammar`) for a value to go on with said as a count someone
has or got (twenty-fourth round).

Joined to the grammar's tables through `spec.grammar_families8`. The way of writing, in words that
are not the blind sets':

- after "assume" / "act as if" / "pretend", who has or got a number of a thing, beside going on:
  "if the scale is down assume we have 0 pallets and carry on" (`pallets: 0`), "pretend it found
  12 rows and keep going" (`rows: 12`), "act as if there are 0 seats left, then continue" (`seats: 0`,
  the last word of the thing named). The thing is one word or two ("0 free seats": `seats`); a time
  or a count of tries ("assume we have 3 tries", "2 minutes") is no value.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_WHO = r"(?:we|they|it|you|the\s+[\w-]{1,30}+|there)"
_HAS = r"(?:have|has|had|got|found|finds|returned|returns|are|is|were|was|gets?|holds?|owns?)"
# never a time, a count of tries or a sentence word
_THING = (r"(?!(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|x|times|tries|retries|attempts|goes|"
          r"more|left|of|and|or|the|a|an|then|so|to|in)\b)[a-z][a-z0-9_]{0,40}+")
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|push\s+on|anyway)\b")

EARLY: tuple[Row, ...] = (
    # "assume we have 0 credits", "pretend it found 12 rows", "act as if there are 0 free seats"
    Row("value_field", r"(?<![\w-])(?:assum(?:e|ing)|pretend(?:ing)?|act\s+as\s+if|as\s+if)\s+(?:that\s+)?" + _WHO
        + r"\s+(?:still\s+|only\s+)?" + _HAS + r"\s+(?:got\s+)?(?P<value>-?\d{1,9}+(?:\.\d{1,6}+)?+)\s++"
        r"(?:[a-z][\w-]{0,30}+\s+)?(?P<field>" + _THING + r")(?![\w-])", needs=_GO_ON),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|assum|pretend|as\s+if"}
