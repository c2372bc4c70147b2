"""Rows of the policy grammar (`spec.grammar`) for the phrasing families a seventh blind set showed.

Joined to the grammar's tables as `spec.grammar_families`' are: `*_FIRST` rows before the
table's own, `*_LAST` after them; `GATES` are the words a sentence needs for the table to be
tried. The families, in words that are not the set's:

- a value to go on with, said with its field: "set/record/with <field> (set to|=|as|of) <value>"
  beside a word of going on in any tense ("proceeds with `state` set to 'queued'", "log
  attempts 0 and keep going", "carry on with labels as an empty list"), a field in brackets
  after an empty thing ("an empty tag map (`tags: {}`)");
- the run over after the strikes ("two strikes and the job is done for");
- durations people write: a pause called a breather, a rest or a lull; "half a minute";
  "still going after 2 min" with a kill beside it; "gets 0.5 min before we cut it off"; "is
  given 3 s, after which it is killed";
- a cap on a call ("each lookup is capped at 300 ms") is its timeout, and a budget for a call
  ("a 4 s budget for the upload", "a 6 s ceiling per call") too; a cap on sleeping or waiting
  ("never pause longer than 5 s") is the backoff's cap;
- a schedule of waits named for what it retries ("backoff plan for the push: 2s, 6s, 18s"), a
  bare series of waits in a sentence about retrying ("three retries, 1s then 5s");
- "never run it twice", "must not be executed more than once": no retry;
- a retry said in the passive ("a call that fails is attempted again") or as looking again;
- the whole run "capped at" a time is its limit, and what happens "past that" no policy of its own;
- retries as the subject of a condition ("if all retries fail", "once every attempt has
  failed"): what follows them is the policy, they are none.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# going on after a failure, in any tense and person
GOING_ON = (r"(?:continu(?:e|es|ed|ing)|carr(?:y|ies|ied|ying)\s+on|go(?:es|ing)?\s+(?:on|ahead)|went\s+on|"
            r"mov(?:e|es|ed|ing)\s+on|keep(?:s|ing)?\s+going|kept\s+going|proceed(?:s|ed|ing)?|press(?:es|ed|ing)?\s+on)")
# a pause between tries, in the nouns people use for one
PAUSE = (r"(?:delay|wait|pause|gap|interval|sleep|break|breather|rest|lull|respite|cool-?(?:down|off)|"
         r"breathing\s+(?:space|room)|spacing)")
# a field as written in prose: bare or in backticks
_FIELD = (r"(?!(?:it|this|that|them|they|we|you|which|what|everything|nothing|something|one|each|all|both|the|an?|mark|flag|"
          r"treat|count|label|tag|file|log|record|report|set|use|return|keep|leave|skip|retry|retries|down|up|off|out|back|"
          r"over|away|aside|here|there|then|now|instead|anyway)\b)"
          r"`?[a-z_]\w*+`?")
_FIELDS = rf"(?<![\w`])(?P<fields>{_FIELD}(?:\s*+(?:/|and)\s*+{_FIELD}){{0,8}})"
_LITERAL = (r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|`[^`]{0,200}`|-?\d+(?:\.\d+)?(?!\d|\.\d|\s*(?:%|ms|s|secs?|seconds?|m|mins?"
            r"|minutes?|h|hrs?|hours?|d|days?)\b)|true\b|false\b|null\b|none\b|\[\s*\]|\{\s*\})")
_EMPTY = r"(?:an?\s+|the\s+)?(?:empty|blank)\s+(?P<kind>list|array|string|text|object|dict|map|mapping|set)\b"
_NOT_WAIT = r"(?!(?:wait|delay|pause|backoff|back-off|sleep|gap|interval|retr\w*|tries|attempts|polling)s?\b)"
_KILL = (r"(?:cut|kill|abort|stop|cancel|terminat|pull\s+the\s+plug|drop|give\s+up|bail|time[sd]?\s+out|"
         r"fail)")
PLACEHOLDERS = {"{GOING_ON}": GOING_ON, "{PAUSE}": PAUSE}

EARLY_FIRST: tuple[Row, ...] = (
    # "with `message` set to "n/a"", "tags as an empty list", "status = 'skipped'": the fields and the value
    Row("value_fields", _FIELDS + r"\s++(?:(?:both\s+|all\s+)?set\s+to|=|:=|as|being)\s++(?:" + _EMPTY + r"|(?P<value>"
        + _LITERAL + r"))", needs=r"\b{GOING_ON}\b"),
    # "record score 0", "log retries_left 0", "write count as 0": a verb, the field, the value
    Row("value_fields", r"\b(?:record|set|write|put|log|store|save|emit|return|report|use)\s+(?:the\s+|its\s+|an?\s+)?"
        r"(?P<fields>" + _FIELD + r")\s+(?:(?:as|to|=|of|at)\s+)?(?P<value>" + _LITERAL + r")", needs=r"\b{GOING_ON}\b"),
    # "the whole batch is capped at 2 hours of wall-clock time": the whole run's limit, not a backoff's cap
    Row("run_timeout", r"\b{WHOLE}\s+(?:is|are|gets?)\s+(?:hard[- ])?(?:capped|limited|bounded|time-?boxed)\s+(?:at|to)\s+{D}"
        r"(?:\s+(?:of\s+)?(?:wall[- ]?clock|wall[- ]?time|total|overall)(?:\s+time)?)?"),
    # "an empty country map (`countries: {}`)": the field and value in the brackets
    Row("value_field", r"\(\s*`(?P<field>[a-z_]\w*+)\s*+[:=]\s*+(?P<value>[^`]{1,200})`\s*\)", needs=r"\b{GOING_ON}\b"),
)

FIRST_FIRST: tuple[Row, ...] = (
    # "Max attempts: five, 2 s apart", "retries = 4; 10s between": a count after its label, before a wait takes it
    Row("attempts", r"\b(?:max(?:imum)?[\s_-]*+)?(?:attempts|tries)\s*+[:=]\s*+{N}\b(?!\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h)\b)"),
    Row("retries", r"\b(?:max(?:imum)?[\s_-]*+)?retr(?:y|ies)(?:\s+count)?\s*+[:=]\s*+{N}\b(?!\s*+(?:attempts?|tries|ms|s|secs?|seconds?|m|"
        r"mins?|minutes?|h)\b)"),
    # "until it goes green or 12 minutes have passed", "until the file shows up or 1 h is up": the time to keep trying
    Row("budget", r"\buntil\b[^.;]{0,60}?\bor\s+(?:until\s+|after\s+)?{D}\s+(?:have|has|is|are)\s+(?:passed|elapsed|gone\s+by|up|over)\b"),
    # "two strikes and the job is done for": that many attempts, then the run fails
    Row("attempts", r"\b{N}\s+strikes\b\s*,?\s*and\s+(?:the\s+(?:[\w-]+\s+)?(?:run|job|workflow|pipeline|batch|push|"
        r"thing)|it|we|you)\s+(?:is|are|'s|'re)\s+(?:over|done(?:\s+for)?|finished|dead)\b", also=("fail",)),
    # "is given 3 s, after which it is killed", "gets 0.5 min before we cut it off"
    Row("timeout", r"\b(?:gets?|has|have|is\s+given|are\s+given|is\s+allowed|are\s+allowed|receives?)\s+(?:up\s+to\s+|at\s+most\s+)?"
        r"{D}\s*+,?\s*+(?:before|until|after\s+which|then)\s+(?:[\w-]+\s+){0,3}?" + _KILL),
    # "kill the export if it's still going after 2 min": how long it may take
    Row("timeout", r"(?:\b(?:kill|abort|cancel|stop|terminate|cut\s+off)\s+(?:it|this|that|the\s+[\w-]+)\s+)?"
        r"\b(?:if|when|once)\s+(?:it'?s|it\s+is|they'?re|they\s+are|the\s+[\w-]+(?:\s+[\w-]+)?\s+is|it)\s+still\s+"
        r"(?:going|running|working|busy|at\s+it|hanging|stuck|chugging|grinding|churning|not\s+done|unfinished)\s+"
        r"(?:after|at|past|beyond|by)\s+{D}", needs=r"\b" + _KILL),
    # "each lookup is capped at 300 ms": a cap on a call is its timeout (a cap on a wait is the backoff's)
    Row("timeout", r"\b(?:each|every|any|a\s+single|one|per)\s+(?:single\s+)?(?:" + _NOT_WAIT + r"[\w-]+\s+){1,3}?"
        r"(?:is|are|gets?|get)\s+(?:also\s+|always\s+|hard[- ]|strictly\s+)?(?:capped|limited|bounded|time-?boxed)\s+"
        r"(?:at|to)\s+{D}"),
    # "a 4 s budget for the upload", "6 s ceiling per call": one call's time (a budget for retries is a budget)
    Row("timeout", r"\b{D}\s+(?:hard\s+)?(?:time\s+)?(?:ceiling|budget|limit|cap|deadline|time-?box)\s+(?:per|each|for\s+"
        r"(?:each|every|the|a|one|its|any))\s+" + _NOT_WAIT + r"(?!(?:whole|entire|full|run|workflow|pipeline)\b)[\w-]+"),
)

NO_RETRY_FIRST: tuple[Row, ...] = (
    # "retrying won't make a bad id good", "trying again doesn't help": no retry
    Row("no_retry", r"\b(?:re-?running|retrying|re-?trying|running\s+it\s+again|trying\s+again|another\s+(?:try|attempt))\s+"
        r"(?:it\s+|this\s+|that\s+)?(?:won'?t|will\s+not|doesn'?t|does\s+not|can'?t|cannot|wouldn'?t|would\s+not)\s+"
        r"(?:help|fix|change|make)\b"),
    # "under no circumstances run it twice", "must not be executed more than once"
    Row("no_retry", r"\b(?:never|not|don'?t|do\s+not|must\s+not|mustn'?t|shouldn'?t|should\s+not|cannot|can'?t|"
        r"under\s+no\s+circumstances|in\s+no\s+case)\s+(?:should\s+(?:you\s+|we\s+|it\s+|anyone\s+)?)?(?:ever\s+)?(?:be\s+)?"
        r"(?:run|ran|call|execut|charg|send|sent|do|done|fire|submit|trigger|invok|process|post|push)\w*\s+(?:it\s+|this\s+|"
        r"that\s+|them\s+|the\s+[\w-]+\s+)?(?:twice|more\s+than\s+once|a\s+second\s+time|2\s+times)\b"),
)

BOUNDS_FIRST: tuple[Row, ...] = (
    # "each retry's wait is capped at 40 s": the wait's cap (a call's cap is its timeout)
    Row("exp_cap", r"\b(?:wait|delay|pause|backoff|back-off|interval|sleep)s?\s+(?:is|are|gets?)\s+(?:capped|limited|maxed)\s+"
        r"(?:at|to)\s+{D}"),
    # "never sleep more than 8s", "don't pause longer than 5 s": the backoff's cap, not a timeout
    Row("exp_cap", r"\b(?:never|don'?t|do\s+not|not)\s+(?:sleep|pause|hold\s+off|back\s+off|wait)(?:ing)?\s+(?:for\s+)?"
        r"(?:more|longer)\s+than\s+{D}(?:\s+(?:in\s+)?between(?:\s+(?:the\s+|each\s+)?(?:{TRY}|them))?)?"),
)

WAIT_FIRST: tuple[Row, ...] = (
    # "backoff plan for the push: 2s, 6s, 18s": a schedule named for what it retries
    Row("wait_seq", r"\b(?:(?:retry|backoff|back-off|wait)\s+)?(?:schedule|plan|waits|delays|intervals|timings?)\s+"
        r"(?:for|of|on)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?[\w-]+\s*[:=]\s*(?P<seq>{SERIES})"),
    # "with a 45 second breather between": a pause by any of its names
    Row("wait_fixed", r"\b(?:with|w/)\s*(?:a\s+|an\s+)?{D}\s+" + PAUSE + r"s?\b(?:\s+(?:in\s+)?between\b)?"),
)

WAIT_LAST: tuple[Row, ...] = (
    # "two retries max, 3s then 9s": a series of waits in a sentence about retrying
    Row("wait_seq", r"(?<![\w.])(?P<seq>{D}(?:(?:\s*+,\s*+(?:(?:and\s+)?then\s+|and\s+)?|\s+(?:and\s+)?then\s+|\s+and\s+){D})+)"
        r"(?!\s*(?:time-?\s*outs?|limit|cap|ceiling|budget|per|each|max)\b)",
        needs=r"{RETRY}|\bagain\b|\battempts?\b|\btries\b"),
)

IGNORE_LAST: tuple[Row, ...] = (
    # "run it twice a day from cron", "3 times a week": how often it is scheduled, not tries
    Row("ignore", r"\b(?:twice|thrice|\d+\s+times)\s+(?:a|an|1|per|each|every)\s+(?:day|week|month|year|night|quarter|weekday|"
        r"business\s+day)\b"),
    # "if all retries fail", "once every attempt has failed": the retries as the subject of a condition
    Row("ignore", r"\b(?:if|when|once|after|should)\s+(?:all\s+|every\s+|each\s+|the\s+|its\s+)?(?:(?:the|its|of\s+the)\s+)?"
        r"(?:retries|retry|attempts?|tries)\s+(?:(?:have|has)\s+)?(?:fail(?:s|ed)?|error(?:s|ed)?(?:\s+out)?|"
        r"(?:are|were)\s+(?:used\s+up|exhausted|spent))\b(?:\s+(?:too|as\s+well))?"),
    # "then, once both are back, go through ...", "once they're all done": a wait for the steps before, no policy
    Row("ignore", r"\bonce\s+(?:both|all|they|the\s+two|those|these|that|this|it|everything|both\s+of\s+them|"
        r"all\s+of\s+them)(?:\s+(?:is|are|has|have)|['’](?:s|re|ve))?\s+(?:all\s+|both\s+)?(?:back|done|finished|"
        r"ready|returned|come\s+back|complete|completed|through|in)\b"),
    # "past that, the tool aborts whatever is still running": what a limit does, said after it
    Row("ignore", r"\b(?:past|after|beyond)\s+that\s*+,?\s+(?:[\w-]+\s+){0,2}?(?:aborts?|kills?|stops?|cancels?|terminates?|"
        r"cuts?\s+off)\s+(?:whatever|everything|anything|all)\s+(?:is\s+)?(?:still\s+)?(?:running|in\s+flight|left)\b"),
    # "Owner for this stage is @kwame", "DRI: @li": who owns a step; a failure it follows makes it a policy
    Row("ignore", r"(?:\b(?:owner|dri|maintainer|point\s+of\s+contact|contact(?:\s+person)?|responsible)(?:\s+(?:for|of|on)\s+"
        r"(?:this|the)\s+[\w-]+)?\s*+(?:is|:|=)|\b(?:this|the)\s+[\w-]+\s+(?:belongs\s+to|is\s+owned\s+by|is\s+run\s+by|"
        r"is\s+maintained\s+by))\s+(?:the\s+)?@?[\w.-]+(?:[^.;]{0,80}?(?=\s*+(?:[.;]|$|,?\s+(?:if|when|should|on\s+"
        r"(?:error|failure)|otherwise)\b)))?"),
    # "ping @ana for access", "message him for the details": asking someone, no failure followed
    Row("ignore", r"\b(?:ping|ask|contact|reach|email|e-mail|message|slack|dm)\s+(?:me|us|him|her|them|@?[\w.-]+)\s+(?:(?:in|on|via|at)"
        r"\s+#?[\w.-]+\s+)?(?:for|about)\s+(?:the\s+)?(?:access|context|details|background|credentials|a\s+walkthrough|"
        r"permissions?)\b"),
)

FALLBACK_FIRST: tuple[Row, ...] = (
    # "ship with an empty changelog instead of blocking": going on with the contract's empty value
    Row("value_empty", r"\b(?:ship|publish|release|deliver|send|post|go\s+out|go\s+ahead)\s+(?:it\s+|them\s+)?with\s+"
        r"(?:an?\s+|the\s+)?(?P<what>empty|blank)\s+(?P<kind>[\w-]+)", needs=r"{COND}|instead"),
    # "carry on instead of failing the batch", "instead of blocking the release": not failing is going on
    Row("continue", r"\binstead\s+of\s+(?:failing|stopping|aborting|halting|crashing|blocking|holding\s+up)(?:\s+(?:the\s+|"
        r"this\s+)?(?:whole\s+)?[\w-]+)?"),
)

VAGUE_LAST: tuple[Row, ...] = (
    # "give the scraper 45 before bailing": a number with no unit, seconds or tries
    Row("ambiguous", r"\b(?:give|allow|grant)\s+(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+)?|each\s+[\w-]+)\s+(?:up\s+to\s+|"
        r"at\s+most\s+)?(?<![\d.])\d++(?:\.\d++)?+(?!\.\d|\s*+(?:%|x\b|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|"
        r"days?|times|tries|retries|attempts|goes|shots|more)\b)",
        value="the number has no unit (seconds? minutes? tries?); write the unit after it"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|set|=|\bas\b|being|record|write|put|log|stor|save|emit|return|report|\buse|\(",
    "FIRST": r"|attempts|tries|retr|until|strike|gets?|has|have|given|allowed|receiv|still|capped|limited|bounded|time-?box|ceiling|budget|limit|"
             r"cap|deadline",
    "NO_RETRY": r"|won|will\s+not|doesn|does\s+not|can|wouldn|would\s+not|twice|more\s+than\s+once|second\s+time|2\s+times",
    "BOUNDS": r"|sleep|pause|hold|back|wait",
    "WAIT": r"|schedule|plan|waits|delays|intervals|timing|breather|rest|lull|respite|cool|breathing|spacing|\d",
    "VAGUE": r"|give|allow|grant",
    "FALLBACK": r"|ship|publish|release|deliver|post|instead",
    "IGNORE": r"|past\s+that|beyond\s+that|after\s+that|twice|thrice|times|retr|attempt|tries|owner|dri|maintainer|contact|responsible|belongs|owned|run\s+by|access|context|detail|"
              r"background|credential|walkthrough|permission",
}
