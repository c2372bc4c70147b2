"""Rows of the policy grammar (`spec.grammar`) for the phrasing families a sixth blind set showed.

Each tuple joins the grammar table of the same name: `*_FIRST` rows are tried before that
table's own rows, the others after them. `GATES` are the words a sentence needs for the
table to be tried at all (`grammar.GATES`), so a row here that is never reached is a row
whose words are missing there. The families, in words that are not the set's:

- a wait list followed by its noun ("1s, 10s, 1m gaps"), waits after a word of doing again
  that is not "retry" ("resend after 2 s, 8 s and 30 s"), waits "spaced out by" a time;
- a count of re-doings ("at most 3 re-uploads", "max. 2 re-sends"), "a total of N times";
- "no automatic retry", "don't repeat it": no retry;
- a limit in brackets after a timeout ("if the upload times out (> 40 s)"), a budget given
  to something ("give the hook a 2.5 s budget"), the whole run capped ("cap the whole job
  at 3 hours"), a total time that must stay under a bound ("total time ... must stay ≤ 2 h");
- a backoff said as "each wait twice as long as the one before";
- a value to go on with said with its field ("use a count of 0 and carry on"), its type
  ("continue with the text 'n/a'"), an empty list under a name ("an empty label list");
- a failure that is the run's ("a failed upload = failed run");
- a fallback skill after a word for what it is ("use module `x` on the same data instead",
  "hand the job to `x`");
- a speed wish without a time ("should be fast; if not, don't wait around"): reported;
- retry logic that belongs to someone else ("the client library has its own retry logic"): no policy.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# doing a step again, in words other than "retry": "repeat it", "re-export", "resend", and any verb written with
# "re-" and a hyphen ("re-fire the cue", "re-ping it"): done again
_STEMS = (r"(?:run|send|fetch|submit|upload|download|export|import|pull|push|poll|query|request|read|issue|sync|scan|"
          r"measure|post|publish|deploy|build|load|transmit|process|fit|calculate|compute|generate|render|print|fire|"
          r"dial|ping|call|trigger|play)")
REDO = rf"(?:repeat|redo|re-do|re-?{_STEMS}|re-[a-z]{{3,15}}+(?![\w-]))"
REDO_NOUN = rf"(?:repeats|redos|re-?{_STEMS}(?:e?s))"
# a skill named in backticks, or bare with a hyphen or underscore, or in single quotes
SKILL = r"(?:`(?P<name>[A-Za-z][\w.:/-]{0,79})`|'?(?P<bare>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)'?)"
PLACEHOLDERS = {"{REDO}": REDO, "{REDO_NOUN}": REDO_NOUN, "{SKILL}": SKILL}

_GOING_ON = r"(?:continue|carry\s+on|go\s+on|go\s+ahead|move\s+on|keep\s+going|proceed)"
_LITERAL = r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|`[^`]{0,200}`|-?\d+(?:\.\d+)?(?!\d|\.\d|\s*(?:%|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b)|true\b|false\b|null\b|none\b)"

FIRST_FIRST: tuple[Row, ...] = (
    # "the model gets ninety seconds, no more": how long one attempt may take
    Row("timeout", r"\b(?:gets?|has|is\s+given|is\s+allowed)\s+(?:a\s+max(?:imum)?\s+of\s+)?{D}(?=\s*,?\s*(?:no\s+more|no\s+longer|max(?:imum)?|tops|at\s+most)\b)"),
    # "the engine's SLA is 15 s": how long one call may take
    Row("timeout", r"\bsla\s*+(?:(?:is|of|:|=)\s*+)?{D}"),
    # "if the upload times out (> 40 s)", "when the nightly export times out (after 2 min)"
    Row("timeout", r"\b(?:if|when|should)\s+(?:it|the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+times?\s+out\s*\(\s*(?:>=?|≥|over|more\s+than|longer\s+than|after|past)?\s*{D}\s*\)", also=("class:timeout",)),
    # "give the hook a 2.5 s budget", "allow each lookup a 10 s window"
    Row("timeout", r"\b(?:give|grant|allow|allot)\s+(?!(?:the\s+|each\s+|every\s+)?(?:retries|retrying|tries|attempts|reviewers?|approvers?|lead|manager|owner|team|customers?|users?|humans?|people|person|on-?call|signer)\b)(?:it|this|that|(?:each|every)\s+[\w-]+|the\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:a\s+|an\s+)?{D}\s+(?:time\s+)?(?:budget|limit|cap|allowance|time-?box|time-?out|window|deadline)\b"),
)

_PAIR = r"[a-z_]\w*\s*=\s*(?:\"[^\"]{0,100}\"|'[^']{0,100}'|[\w.-]+)"
EARLY_FIRST: tuple[Row, ...] = (
    # "(doc = "STANDARD v2", audience = staff)" beside going on: an object with those fields
    Row("value_pairs", r"(?:\binstead\s*)?\(\s*(?P<pairs>" + _PAIR + r"(?:\s*,\s*" + _PAIR + r"){1,8})\s*\)(?:\s+instead\b)?",
        needs=r"{COND}|instead|" + _GOING_ON),
    # "carry on as if nothing came back (no rows, `[]`)": a literal in brackets after going on
    Row("value_literal", r"\b" + _GOING_ON + r"\b[^.;`]{0,80}?\(\s*(?:[^()`]{0,40},\s*)?(?P<value>`[\[{][^`]{0,400}[\]}]`)\s*\)"),
    # "cap the whole job at 3 hours (wall clock)"
    Row("run_timeout", r"\b(?:cap|limit|bound|restrict|time-?box)\s+(?:the\s+)?{WHOLE}\s+(?:at|to)\s+(?:at\s+most\s+|no\s+more\s+than\s+)?{D}(?:\s+(?:of\s+)?(?:wall[- ]?clock|wall[- ]?time|total|overall|end[- ]to[- ]end)(?:\s+time)?)?"),
    # "total time from intake to report must stay ≤ 2 h", "overall duration should remain under 40 min"
    Row("run_timeout", r"\b(?:total|overall|end[- ]to[- ]end)\s+(?:time|duration|run-?\s*time|wall[- ]?(?:clock\s+)?time|elapsed\s+time)\b[^.;]{0,60}?\b(?:must|should|has\s+to|needs?\s+to|shall|is\s+to)\s+(?:stay|be|remain|keep|finish|complete|end)\s+(?:at\s+or\s+)?(?:≤|<=|<|under|below|within|in(?:\s+under)?|no\s+more\s+than|at\s+most|less\s+than|max(?:imum)?)\s*{D}"),
)

NO_RETRY_FIRST: tuple[Row, ...] = (
    # "re-running it on error is pointless", "retrying would be a waste"
    Row("no_retry", r"\b(?:re-?running|retrying|re-?trying|running\s+it\s+again|repeating)\s+(?:it\s+|this\s+|that\s+)?(?:on\s+(?:an?\s+)?(?:error|failure)\s+)?(?:is|would\s+be|'s)\s+(?:pointless|useless|no\s+use|not\s+worth\s+it|a\s+waste(?:\s+of\s+time)?|futile|unsafe|dangerous)\b(?:\s*[-—–,;:]+\s*(?:so\s+)?(?:don'?t|do\s+not)\b)?"),
    # "no automatic retry", "without any further re-sends"
    Row("no_retry", r"\b(?:no|without(?:\s+any)?)\s+(?:automated|automatic|auto-?|further|additional|extra|scheduled)\s*(?:retr(?:y|ies)|re-?tr(?:y|ies)|re-?runs?|reruns?|re-?attempts?|{REDO_NOUN})\b"),
    # "do NOT repeat it", "never re-send the batch": not the step done again
    Row("no_retry", r"\b(?:never|not|don'?t|do\s+not|must\s+not|mustn'?t|shouldn'?t|should\s+not|won'?t|cannot|can'?t)\s+(?:be\s+|ever\s+|automatically\s+)?{REDO}\b(?:\s+(?:it|this|that|them|this\s+step|the\s+(?:[\w-]+\s+)?(?:step|call|request|job|run|fit|export|upload|send|batch)))?(?=\s*(?:[,;.:!)—–-]|$)|\s+(?:and|but|or|if|on|after|even|under|unless|again)\b)"),
)

WAIT_FIRST: tuple[Row, ...] = (
    # "pausing 1, 2, then 4 minutes" (number words are digits by then: `spec.normalize`)
    Row("wait_seq", r"\b(?:pausing|sleeping|holding\s+off|backing\s+off)\s+(?:for\s+)?(?P<seq>{SERIES})"),
    # "with 1s, 10s, 1m gaps": a list of waits followed by its noun
    Row("wait_seq", r"(?:(?<!\s)|(?!\s))(?P<seq>{SERIES})\s+(?:pauses|waits|delays|gaps|intervals|sleeps|backoffs|breaks|cool-?downs)\b(?:\s+(?:in\s+)?between(?:\s+(?:the\s+|each\s+)?(?:{TRY}|them))?)?"),
    # "resend after 2 s, 8 s and 30 s", "repeat in 1 min": waits after a word of doing again
    Row("wait_seq", r"\b(?:after|at|in)\s++(?P<seq>{SERIES})", needs=r"\b{REDO}\b"),
    Row("wait_fixed", r"\b(?:after|in)\s+(?:waiting\s+)?{D}", needs=r"\b{REDO}\b"),
    # "space them out by 2 minutes", "leave 30 s between tries"
    Row("wait_fixed", r"\b(?:spac(?:e|es|ing)|spread(?:ing)?)\s++(?:(?:them|it|the\s+(?:tries|attempts|retries|calls|runs|re-?tries))\s*+)?(?:out\s++)?(?:by\s++)?{D}(?:\s+apart)?"),
    Row("wait_fixed", r"\bleave\s+{D}\s+(?:in\s+)?between\b(?:\s+(?:them|each|the\s+)?(?:{TRY}|them|one)?)?"),
)

BACKOFF_FIRST: tuple[Row, ...] = (
    # "each wait twice as long as the one before", "3 times as long as the previous pause"
    Row("exp_factor", r"(?:\b(?:each|every|the\s+next)\s+(?:wait|pause|delay|gap|sleep|backoff|retry)\s+)?\b(?:(?P<factor>\d+(?:\.\d+)?)\s+times|twice)\s+as\s+long(?:\s+as\s+(?:the\s+)?(?:one\s+before(?:\s+it)?|last(?:\s+one)?|previous(?:\s+(?:one|wait|pause|delay))?|prior\s+one|preceding\s+one|before))?"),
)

COUNT_FIRST: tuple[Row, ...] = (
    # "at most 3 re-uploads", "max. 2 re-sends", "2 reruns max"
    Row("retries", r"\b(?:max(?:imum)?\.?|at\s+most|up\s+to|no\s+more\s+than|a\s+max(?:imum)?\s+of)\s+(?:of\s+)?{N}\s+{REDO_NOUN}\b"),
    Row("retries", r"\b{N}\s+{REDO_NOUN}\b(?:\s+(?:at\s+most|max(?:imum)?|tops))?"),
    # "re-send it 3 times", "resend it twice", "re-fire it once after 5 s", "redo it 2 more times": a count of tries
    # after the first, said with a word of doing again (`REDO`)
    Row("retries", r"\b{REDO}\s+(?:it\s+|this\s+|that\s+|them\s+|the\s+[\w-]+\s+)?(?:again\s+)?(?:up\s+to\s+|at\s+most\s+|"
        r"max(?:imum)?\s+)?{N}(?:\s*(?:more\s+)?(?:x\b|×|times?\b)|\s+more\b|(?=\s*(?:[,.;:)(]|$|and\b|if\b|then\b|"
        r"after\b|before\b|in\b|with\b|but\b)))"),
    # "try it a total of 4 times", "run it 3 times altogether"
    Row("attempts", r"\b(?:try|attempt|run|call|do)\s+(?:it\s+|this\s+|that\s+|the\s+[\w-]+\s+)?(?:a\s+total\s+of|in\s+total|in\s+all|altogether)\s+{N}\s+times\b"),
)

FALLBACK_FIRST: tuple[Row, ...] = (
    # "use a count of 0 and carry on", "assume a score of 0.5 and keep going"
    Row("value_field", r"\b(?:use|take|assume|put\s+in|plug\s+in|enter|report|record)\s+(?:an?\s+|the\s+)(?P<field>[a-z_]\w*(?:\s+[a-z_]\w*)?)\s+(?:value\s+)?of\s+(?P<value>" + _LITERAL + r"|zero\b)",
        needs=r"{COND}|instead|" + _GOING_ON),
    # "continue with the text 'n/a'", "move on with the value 0": the value, of the type named
    Row("value_literal", r"\b(?:" + _GOING_ON + r"|use|return|output|emit|default\s+to|fall\s*+-?\s*+back\s+to)\s+(?:with\s+)?(?:the|a|an)\s+(?:(?:literal|fixed|placeholder|default|constant)\s+)?(?P<kind>string|text|word|label|value|number|figure|constant|placeholder)\s+(?P<value>" + _LITERAL + r")"),
    # 'carry on with "unknown"', "keep going with 0"
    Row("value_literal", r"\b" + _GOING_ON + r"\s+with\s+(?P<value>\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d+(?:\.\d+)?(?!\d|\.\d|\s*(?:%|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b)|true\b|false\b|null\b)"),
    # "move on with an empty label list", "return a blank name string"
    Row("value_empty", r"\b(?:" + _GOING_ON + r"\s+with|use|return|output|emit|assume|substitute|give\s+back|default\s+to|fall\s*+-?\s*+back\s+to)\s+(?:an?\s+|the\s+)?(?:empty|blank)\s+(?:[\w-]+\s+){0,2}?(?P<kind>list|array|string|text|object|dict|map|mapping|set)\b"),
    # "stop the whole exercise", "abort the entire thing": the run fails
    Row("fail", r"(?<!n't\s)(?<!not\s)(?<!never\s)(?<!dont\s)\b(?:stop|abort|halt|kill|cancel)\s+the\s+(?:whole|entire)\s+[a-z-]+\b"),
    # "a failed upload = failed run", "a failure here means a failed run"
    Row("fail", r"(?:=|→|->|\bmeans|\bequals|\bis)\s*(?:a\s+|the\s+)?failed\s+(?:run|workflow|pipeline|job|batch|procedure|process)\b"),
    # "use module `x` on the same data instead", "run the tool `x` for them instead"
    Row("use_skill", r"\b(?:use|run|call|invoke|try|switch\s+to)\s+(?:the\s+|our\s+|an?\s+)?(?:(?:[\w-]++\s+){0,3}?(?:module|skill|tool|script|program|routine|service|fallback|backup|alternative|alternate)\s+)?{SKILL}(?:\s+(?:on|for|with|against|over)\b[^.;,]{0,60}?)?\s+instead\b"),
    Row("use_skill", r"\b(?:fall\s*+-?\s*+back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to|use|run|call|invoke|try)\s+(?:the\s+)?(?:module|skill|tool|script|program|routine)\s+{SKILL}", needs=r"{COND}|fall\s*+-?\s*+back|fail\s*over|instead|backup|switch"),
    # "hand the job to `x` instead", "pass the work over to 'x'"
    Row("use_skill", r"\b(?:hand|pass|give|send|delegate|route|re-?route|redirect|divert)\s+(?:it|this|that|them|the\s+(?:[\w-]+\s+){0,2}?(?:job|work|task|request|call|step|item|message|query|lookup|traffic|file|batch|document|page|image|scan))\s+(?:over\s+)?to\s+(?:the\s+)?(?:(?:module|skill|tool|script)\s+)?{SKILL}(?!\s+(?:team|channel|on-?call|queue|group|rota)\b)(?:\s+instead\b)?", needs=r"{COND}|instead|unavailable|\bdown\b|can'?t\s+be\s+reached"),
)

VAGUE_LAST: tuple[Row, ...] = (
    # a speed wished for, with no time, and something to do when it is not met: "should be fast; if it
    # isn't, don't wait around" (a speed wished for alone, "should be quick, it's a lookup", is a description)
    Row("ambiguous", r"\b(?:should|must|ought\s+to|needs?\s+to|has\s+to)\s+be\s+(?:quick|fast|snappy|speedy|rapid|instant)\b[^.;]{0,40}?\b(?:if\s+(?:it\s+|that\s+)?(?:isn'?t|is\s+not|not|it'?s\s+not|doesn'?t)|otherwise|or\s+else)\b[^.;]*|\b(?:don'?t|do\s+not|never)\s+(?:hang|wait|sit|stick)\s+around\b[^.;]*|\b(?:don'?t|do\s+not)\s+let\s+it\s+(?:drag(?:\s+on)?|hang)\b[^.;]*", value="no time limit is given (nor what to do past it); write the limit and the outcome, e.g. 'timeout 30s, then fail'"),
)

IGNORE_LAST: tuple[Row, ...] = (
    # "the client library has its own retry logic", "the SDK retries internally": not this step's policy
    Row("ignore", r"\b(?:has|have|with|uses?|does|do|handles?|manages?|performs?|comes?\s+with|ships?\s+with|brings?)\s+(?:its|their|his|her|an?)\s+(?:own\s+)?(?:built-?in\s+|internal\s+)?(?:retry|retries|re-?try|backoff|back-off|timeout|time-?out)\s+(?:logic|mechanism|policy|policies|handling|loop|behaviou?r|settings?|config(?:uration)?|strategy)\b[^.;]*"),
    Row("ignore", r"\b(?:retries|re-?tries|backs?\s+off|times?\s+out)\s+(?:internally|on\s+its\s+own|by\s+itself|itself|under\s+the\s+hood)\b[^.;]*"),
)

# which failures a sentence is about: words that say only that a service may not answer
# ("unavailable", "flaky") name no class beside a fallback (`spec.phrase`): the fallback is for every failure
CONTEXT_LAST: tuple[Row, ...] = (
    Row("class", r"\b(?:(?:is|are|be|becomes?|goes|went|temporarily|currently)\s+)?(?:unavailable|not\s+available)\b|\bflak(?:y|es|ing|iness)\b", value="availability"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|cap|limit|bound|restrict|time-?box|stay|remain|ahead|continu|carry|go\s+on|move\s+on|proceed",
    "FIRST": r"|times?\s+out|give|grant|allow|allot|gets?|has|sla",
    "NO_RETRY": r"|repeat|redo|re-|automat|further|additional|extra|scheduled|running",
    "WAIT": r"|pause|wait|delay|gap|interval|sleep|backoff|break|cool|repeat|redo|re-|spac|spread|leave",
    "BACKOFF": r"|as\s+long",
    "COUNT_ROWS": r"|repeat|redo|re-|total|in\s+all|altogether",
    "FALLBACK": r"|take|assume|plug|enter|report|record|with|=|→|->|means|equals|failed|module|skill|tool|delegate",
    "VAGUE": r"|quick|fast|snappy|speedy|rapid|instant|around|drag|hang|long",
    "IGNORE": r"|own|built|internal|itself|under\s+the\s+hood|comes|ships|brings|handle|manage|perform",
}
