"""Rows of the policy grammar (`spec.grammar`) for the values a failed step goes on with, said right
after the going on as two or more `name value` pairs, one of them a yes/no (twenty-ninth round).

Joined to the grammar's tables through `spec.grammar_families8`. The way of writing, in words that
are not the blind sets':

- going on, then "as", "as if", "as though" or "with", then a list of `name value` pairs, the value a
  number, a quoted text, true, false, null, yes or no: "if the printer jams, carry on as pages 0 and
  duplex no", "keep going as though status "queued" and urgent yes", "proceed with ticket_id null,
  escalated no": every pair (yes is true, no is false);
- the pairs joined by commas, "and", ";" or "&": "move on as region "eu", verified no".

One pair, or a list whose values are no literal ("carry on as usual and hope"), is the earlier
rounds' reading or their warning: a list needs two pairs here, so "carry on as normal" is no value.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a field's name: never a sentence word, nor a word of a policy (a count or a time is no field)
_FIELD = (r"(?!(?:the|a|an|it|its|if|though|usual|normal|before|always|planned|then|and|or|no|yes|with|is|are|was|be|"
          r"step|stage|attempt|attempts|try|tries|retry|retries|wait|waits|timeout|limit|run|value|values|of|for|in|"
          r"at|on|by|from|to)\b)[a-z][a-z0-9_]{0,40}+")
# a literal: a number with no unit after it, a truth word, yes/no, null or a quoted text
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+(?:ms|s|secs?|seconds?|m|"
          r"mins?|minutes?|h|hrs?|hours?|d|days?|x|times|tries|retries|attempts|goes|%)\b)|(?:true|false|null|yes|no)\b)")
_PAIR = _FIELD + r"\s++" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s*+;\s*+|\s++and\s+|\s*+&\s*+)"
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|push\s+on|crack\s+on|roll\s+on)")

EARLY: tuple[Row, ...] = (
    # "carry on as licence "open" and public no", "keep going as though a 1, b yes", "proceed with x 0, y no"
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"\s+(?:as(?:\s+(?:if|though))?|with)\s+(?P<pairs>" + _PAIR
        + r"(?:" + _LINK + _PAIR + r"){1,12}+)"),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|carry|carrying|keep|keeping|move|moving|go|going|continu|proceed|press|push|crack|roll"}
