"""Rows of the policy grammar (`spec.grammar`) for the values a failed step goes on with, said as a
list of `name value` pairs (twenty-third round).

Joined to the grammar's tables through `spec.grammar_families8`. The ways of writing, in words that
are not the blind sets':

- after "assume", "with", "use"/"using", "take", "pretend", "default to", a list of two or more
  `name value` pairs, beside going on: "if the scale dies, carry on and assume weight 0, unit "kg",
  tare false", "keep going with status "pending", attempts 0": every pair (the value a number, true,
  false, null or a quoted text, which may hold commas). One pair is the earlier rounds' rows';
- the thing that failed written down "as" a field and its value, beside going on: "log that sample
  as ct 40 and continue", "mark the reading as temp_c -1, flag true, then carry on", "don't stop, jot
  it down as qty 0, late true": those pairs (the thing is "that lot", "the item", "it": never the field).

A list of retry words ("use retries 3, wait 10") is no value: a field is never a word of a policy.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a field's name: never a sentence word, nor a word of a policy (a count or a time is no field)
_FIELD = (r"(?!(?:the|a|an|it|its|them|this|that|these|those|step|stage|attempt|attempts|try|tries|retry|retries|as|to|"
          r"and|or|no|with|if|then|is|are|was|be|wait|waits|delay|pause|gap|timeout|limit|cap|backoff|max|run|value|"
          r"values|of|for|in|at|on|by|from|up|down|every|each|after|before|until)\b)[a-z][a-z0-9_]{0,40}+")
# a literal: a number with no unit after it, a truth word, null or a quoted text
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+(?:ms|s|secs?|seconds?|m|"
          r"mins?|minutes?|h|hrs?|hours?|d|days?|x|times|tries|retries|attempts|goes|%)\b)|true\b|false\b|null\b)")
_PAIR = _FIELD + r"\s++(?:=\s*+|:\s*+)?" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s*+;\s*+|\s++and\s+|\s*+&\s*+)"
_LIST = _PAIR + r"(?:" + _LINK + _PAIR + r"){1,12}+"  # two or more pairs
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|go\s+ahead|push\s+on|keep\s+rolling|don'?t\s+(?:stop|block|hold)|anyway)\b")
_THING = r"(?:(?:that|this|the|each|every|its|such\s+an?|an?)\s+)?(?:[a-z][\w-]{0,30}+\s+)?"

EARLY: tuple[Row, ...] = (
    # "assume weight 0, unit "kg", tare false", "keep going with status "pending", attempts 0"
    Row("value_pairs", r"(?<![\w-])(?:assum(?:e|ing)|with|us(?:e|ing)|tak(?:e|ing)|pretend(?:ing)?|default(?:ing)?\s+to|"
        r"treat\s+it\s+as|fill\s+in|plug\s+in)\s+(?:that\s+|the\s+values?\s+|values?\s+)?(?P<pairs>" + _LIST + r")",
        needs=_GO_ON),
    # "log that sample as ct 40 and continue", "mark the reading as temp_c -1, flag true"
    Row("value_pairs", r"(?<![\w-])(?:record|log|mark|enter|book|score|count|note|write\s+down|set\s+down|file|"
        r"(?:put|write|set|jot)\s+(?:it|that|this|them|each\s+one|the\s+\w{1,30}+)\s+down(?:\s+in\s+the\s+\w{1,30}+)?)\s+"
        + _THING + r"as\s+(?:having\s+)?(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)", needs=_GO_ON),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {
    "EARLY": r"|assum|with|us|tak|pretend|default|treat|fill|plug|record|log|mark|enter|book|score|count|note|write|"
             r"set|file|put|jot",
}
