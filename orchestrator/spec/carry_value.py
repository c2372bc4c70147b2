"""Rows of the policy grammar (`spec.grammar`) for the value a step goes on with after a failure, said in
words the earlier rows did not read (nineteenth round).

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does not
grow. The families, in words that are not the blind sets':

- a field and its value written `field: value` after a verb of writing it down, beside going on:
  "plug in water_temp: 12 and carry on", "enter `tray_count`: 0 then keep going": that object (one
  pair; several are read by the earlier rounds' rows or warned);
- a field said to be left empty, beside going on: "carry on with due_date left empty (null)",
  "leave the bin_label empty and move on": that field as null ("left blank": an empty text, as the
  visible set's author reads "leave the field blank");
- a field called or taken as a value, beside going on: "call the match_score 0.2 and proceed",
  "take the reading as -1 and keep going": that field and value (a number, true, false, null or a
  quoted text, never a time or a count);
- "the default" with nothing that says which value or skill it is ("fall back to the defaults",
  "if the lookup breaks, use the default"): warned, never read as an empty output.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a field's name: never one of the sentence's own words, nor a word of a policy (a count or a time is no field)
_FIELD = (r"(?!(?:the|a|an|it|its|them|this|that|these|those|step|stage|attempt|try|tries|retry|retries|as|to|and|or|"
          r"no|with|if|then|nothing|is|are|was|were|be|so|wait|delay|pause|timeout|limit|cap|backoff|run|job|value|"
          r"result|output|one|default|field|fields|of|for|in|at|on|by|from|up|down|off|out|back|over)\b)[a-z][a-z0-9_]{0,40}+")
# a literal value: a number with no unit after it, a truth word, null or a quoted text
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^']{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+(?:ms|s|secs?|seconds?|m|mins?|"
          r"minutes?|h|hrs?|hours?|d|days?|x|times|tries|retries|attempts|goes)\b)|true\b|false\b|null\b)")
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|go\s+ahead|push\s+on|crack\s+on|roll\s+on)\b")
# "left blank" is an empty text, "left empty" or "unset" null; "left empty (null)" says which
_EMPTY = (r"(?:(?:empty|blank|unset)\s*+\(\s*+(?=(?:null|none|nil)\s*+\)))?(?P<kind>empty|blank|unset|null|none|nil)\b"
          r"(?:\s*+\))?")

EARLY: tuple[Row, ...] = (
    # "plug in water_temp: 12 and carry on", "fill in a: 1, b: 2 then keep going": that object
    Row("value_field", r"(?<!\w)(?:fill(?:ing)?\s+in|plug(?:ging)?\s+in|enter(?:ing)?|writ(?:e|ing)(?:\s+in)?|put(?:ting)?(?:\s+in)?|"
        r"pop(?:ping)?\s+in|stick(?:ing)?\s+in|record(?:ing)?|log(?:ging)?|set(?:ting)?|us(?:e|ing))\s+`?(?P<field>" + _FIELD
        + r")`?\s*+[:=]\s*+(?P<value>" + _VALUE + r")(?!\s*+[,;&]\s*+(?:and\s+)?" + _FIELD + r"\s*+[:=])", needs=_GO_ON),
    # "carry on anyway, posted: false", "keep going - status: 'skipped'": the one pair said right after going on
    Row("value_field", r"(?<!\w)" + _GO_ON + r"(?:\s+(?:anyway|regardless|all\s+the\s+same))?+\s*+[,;:–—-]\s*+"
        r"`?(?P<field>" + _FIELD + r")`?\s*+[:=]\s*+(?P<value>" + _VALUE + r")(?!\s*+(?:[,;&]\s*+)?(?:and\s+)?"
        + _FIELD + r"\s*+[:=])"),
    # "carry on with due_date left blank (null)": that field as null
    Row("value_fields", r"(?<!\w)" + _GO_ON + r"\s+with\s+(?:the\s+|its\s+)?`?(?P<fields>" + _FIELD + r")`?\s+(?:left\s+|set\s+|"
        r"kept\s+|as\s+)?" + _EMPTY),
    # "leave the bin_label empty and move on", "leaving `notes` blank, proceed": that field as null
    Row("value_fields", r"(?<!\w)leav(?:e|ing)\s+(?:the\s+|its\s+)?`?(?P<fields>" + _FIELD + r")`?\s+" + _EMPTY, needs=_GO_ON),
    # "call the match_score 0.2 and proceed", "take the reading as -1 and keep going": that field and value
    Row("value_field", r"(?<!\w)(?:(?:call|peg|put)\s+(?:the\s+|its\s+)?`?(?P<field>" + _FIELD + r")`?\s+(?:at\s+|to\s+be\s+|=\s*+)?|"
        r"(?:take|count|score|book|log|rate)\s+(?:the\s+|its\s+)?`?(?P<f2>" + _FIELD + r")`?\s+as\s+)(?P<value>" + _VALUE + r")",
        needs=_GO_ON),
    # "use zero for on_hand and continue", "put 0 in the tray_count and carry on": that field and value, the field
    # written as a name
    Row("value_field", r"(?<!\w)(?:us(?:e|ing)|put(?:ting)?|pop(?:ping)?|stick(?:ing)?|plug(?:ging)?)\s+(?P<value>"
        + _VALUE + r"|(?:zero|nought|one|two|three|four|five|six|seven|eight|nine|ten)\b)\s+(?:for|as|in|into)\s+"
        r"(?:the\s+|its\s+)?(?:`(?P<field>" + _FIELD + r")`|(?P<f2>[a-z][a-z0-9]{0,30}+_[a-z0-9_]{1,30}+))(?![\w-])",
        needs=_GO_ON),  # a name written as one (`status`, on_hand): "use 189 as the median" is another row's
    # "use the default", "fall back to the defaults": which value or skill is not said
    Row("ambiguous", r"(?<!\w)(?:us(?:e|ing)|tak(?:e|ing)|apply|go\s+with|fall(?:ing)?\s+back\s+(?:on|to)|stick\s+(?:with|to)|"
        r"revert(?:ing)?\s+to|return(?:ing)?)\s+(?:the\s+|our\s+)?defaults?(?:\s+(?:one|value|values|setting|settings|answer|"
        r"result|output))?(?=\s*+(?:[.,;!)]|$|and\b|then\b|instead\b|for\s+now\b))",
        needs="{COND}", value="which value or skill 'the default' is, is not said, so it is not read: write 'continue "
        "with `{field: value}`' or 'use `skill-name` instead'"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|fill|plug|enter|writ|put|pop|stick|record|log|set|us|leav|call|take|peg|rate|count|score|book|default|"
             r"carry|keep|mov|go|continu|proceed|press|push|crack|roll",
}
