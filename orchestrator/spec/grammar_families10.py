"""Rows of the policy grammar (`spec.grammar`) for the tenth round's step-policy FAMILIES: the words
engines, config files and ops people use for a limit, and the values a step goes on with.

Joined to the grammar's tables through `spec.grammar_families8` (before the ninth round's rows), so
the grammar's own module does not grow. Engine notations (`PT2M`, `R3/PT10S`, `02:00:00`,
`retry_interval`) reach these rows already in words (`spec.engine_time`). The families:

- a knob's time: "task timeout (ext): 45s", "boundary timer (interrupting) time duration: 120 s" is
  one attempt's time; a step that "gets 3 min" in a sentence about timing out has that time; "abandon
  the extract after 30 s" with no retry is the attempt's time;
- a count in brackets after the retries: "the usual retries (4, one minute apart)" is 4 retries;
- retrying with no end but a cap: "retry indefinitely every 2 min, capped at 90 min" is the wait and
  the time to keep trying, not the whole run's limit;
- the value to go on with: several fields ("carry on with total = 0 and diff = 0", "continue with
  sent=false, channel="none""); a quoted value and the output it stands for ("go with "Spring" as
  the best subject"); a literal in brackets ("move on with an empty profile ({})"); "the default of
  1.0 for the rate"; "treat the order as total 0".
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_GOING_ON = (r"(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|go\s+ahead|press\s+on|soldier\s+on|"
             r"roll\s+on)")
_VALUE = r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}(?:\.\d{1,9})?+(?!\w|\.\d)|true\b|false\b|null\b|none\b|\[\s*+\]|\{\s*+\})"
_PAIR = r"[a-z_]\w*+\s*+(?:=|:=)\s*+" + _VALUE
_TIMING_OUT = (r"times?\s+out|timed\s+out|timing\s+out|time-?out|too\s+long|runs?\s+(?:over|past|long)|takes?\s+longer|"
               r"overrun|over\s+time|out\s+of\s+time")

EARLY: tuple[Row, ...] = (
    # "retry attempts = 5" (SQL Agent's `retry_attempts`), "retry count: 3": the retries after the first try
    Row("retries", r"(?<!\w)retry\s+(?:attempts|count|tries|times)\s*+[:=]\s*+{N}\b(?!\s*+(?:ms|s|sec|min|h)\b)"),
    # "up to 4 more attempts", "at most 2 further tries": retries (the first try is behind)
    Row("retries", r"(?<!\w)(?:up\s+to|at\s+most|no\s+more\s+than|a\s+maximum\s+of)\s+{N}\s+(?:more|further|extra|additional)\s+"
        r"(?:attempts|tries|goes|shots|runs|rounds)\b"),
    # "retry indefinitely every 2 min but it is capped at 90 min": the wait, and the cap is the time to keep trying
    Row("wait_fixed", r"(?<!\w)(?:retr(?:y|ying|ies)|re-?try(?:ing)?|poll(?:ing|s)?|keep\s+trying)\s+(?:it\s+)?"
        r"(?:indefinitely|forever|endlessly|without\s+end|non-?stop)\s+every\s+{D}",
        needs=r"(?<!\w)(?:capped|limited|bounded|cut\s+off)\s+at\s+\d|(?<!\w)(?:no\s+(?:more|longer)\s+than|at\s+most)\s+\d"),
    Row("budget", r"(?<!\w)(?:(?:but\s+)?(?:the\s+)?(?:whole\s+thing|whole\s+lot|entire\s+thing|all\s+of\s+it|it)\s+"
        r"(?:is\s+|gets\s+)?)?(?:capped|limited|bounded|cut\s+off)\s+at\s+{D}",
        needs=r"(?<!\w)(?:indefinitely|forever|endlessly|without\s+end|non-?stop)\b"),
    # "carry on with total = 0 and diff = 0", "continue with sent=false, channel="none"": an object of those fields
    Row("value_pairs", r"(?<!\w)" + _GOING_ON + r"\s+with\s+(?P<pairs>" + _PAIR + r"(?:\s*+(?:,\s*+(?:and\s+)?|and\s+|&\s*+)"
        + _PAIR + r"){1,8})"),
    # "go with "Spring is here" as the best subject", "use 'n/a' as the region": the value of that output
    Row("value_field", r"(?<!\w)(?:just\s+)?(?:go|run|roll|carry\s+on|continue|proceed|move\s+on|settle|use|take|pick)\s+"
        r"(?:with\s+|for\s+)?(?P<value>\"[^\"]{1,200}\"|'[^']{1,200}')\s+as\s+(?:the\s+|its\s+|our\s+|a\s+|an\s+)?"
        r"(?P<field>[a-z_]\w*(?:\s+[a-z_]\w*)?)", needs=r"{COND}|instead|block|" + _GOING_ON),
    # "move on with an empty company profile ({})": the literal in brackets is the value
    Row("value_literal", r"(?<!\w)" + _GOING_ON + r"\s+with\s+[^.;()`{}\[\]]{0,80}?\(\s*+(?P<value>\{\s*+\}|\[\s*+\]|"
        r"\{[^{}()]{1,300}\}|\[[^\[\]()]{1,300}\])\s*+\)"),
    # "continue with yesterday's default of 1.0 for the rate": the value of that output
    Row("value_field", r"(?<!\w)(?:" + _GOING_ON + r"\s+with|use|fall\s+back\s+to|default\s+to)\s+(?:[\w-]+'s\s+|the\s+|a\s+|an\s+)?"
        r"(?:usual\s+|last\s+|old\s+|safe\s+)?(?:default|fallback|value|placeholder|stand-?in)\s+(?:of\s+)?(?P<value>"
        + _VALUE + r")\s+(?:for|as)\s+(?:the\s+|its\s+)?(?P<field>[a-z_]\w*)"),
    # "treat the lead as score 0": the field and its value
    Row("value_field", r"(?<!\w)(?:treat|count|record|mark)\s+(?:it|this|that|them|the\s+[\w-]+)\s+as\s+(?:a\s+|an\s+)?"
        r"(?P<field>[a-z_]\w*)\s+(?:of\s+)?(?P<value>-?\d{1,12}(?:\.\d{1,9})?+(?![\w.])|true\b|false\b|null\b)",
        needs=r"{COND}|instead|" + _GOING_ON),
)

FIRST: tuple[Row, ...] = (
    # "task timeout (ext): 45s", "lock timeout = 30 s": a knob's time, a note in brackets between
    Row("timeout", r"(?<!\w)(?:time\s?+out|time\s+limit|deadline)\s*+(?:\([^()]{0,30}\)\s*+)?[:=]\s*+{D}"),
    # "boundary timer po (interrupting) time duration: 120 s": a timer on the task is its time
    Row("timeout", r"(?<!\w)boundary\s+timer\b[^.;:]{0,60}?(?:time\s+)?(?:duration|after)\s*+[:=]?\s*+{D}"),
    # "the usual retries (4, one minute apart)": the count in brackets (the wait is read apart)
    Row("retries", r"(?<!\w)(?:retries|re-?tries|retry\s+count)\s*+\(\s*+{N}(?=\s*+[,;]\s*+(?:each\s+)?\d[^()]{0,20}?"
        r"(?:apart|between|in\s+between|gap|wait)\b)"),
    # "the OCR step gets 3 min; if it times out, ...": the time one attempt has
    Row("timeout", r"(?<!\w)(?:gets?|is\s+given|has|is\s+allowed|allowed)\s+(?:up\s+to\s+|at\s+most\s+)?{D}(?!\s*+(?:apart|between|"
        r"later|before|after|of\s+(?:wait|pause|delay|rest|sleep|grace)))", needs=_TIMING_OUT),
    # "abandon the extract after 30 s" (no retry said): the attempt's time
    Row("timeout", r"(?<!\w)(?:abandon|kill|cancel|abort|terminate)\s+(?:it|this|that|the\s+[\w-]+(?:\s+[\w-]+)?)\s+after\s+{D}",
        needs=r"^(?!.*(?:retr|re-?try|re-?run|again|poll|attempts|tries|keep\s+trying))"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|retry|more|further|extra|additional|indefinitely|forever|endlessly|non-?stop|capped|=|\"|'|\(|default|treat|count|record|mark",
    "FIRST": r"|time\s?out|time\s+limit|deadline|timer|retries|retry\s+count|gets?|given|has|allowed|abandon|kill|cancel|abort|"
             r"terminat",
}
