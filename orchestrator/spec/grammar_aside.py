"""Rows of the policy grammar (`spec.grammar`) that are no policy of their own: which failures a
sentence is about (`CONTEXT`), what a sentence may say without stating a policy (`IGNORE`, read
first so no row takes its words), phrasings too vague to read into one (`DOUBT`, after the tables)
and a limit said through what it is not (`IMPLIED`). `spec.grammar` adds the later families' rows
to them and compiles them with the rest; the patterns use its placeholders ({D}, {TRY}, ...).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.success37 import DATED_THING  # "last night's copy" is no past practice

# which failures a sentence is about, in the words no policy row took; the first class found wins
CONTEXT: tuple[Row, ...] = (
    # "if it times out or errors", "if it fails or hangs": a timeout and any other failure, so every failure
    Row("class", r"\b(?:times?\s+out|timed\s+out|hangs?|stalls?)\s+or\s+(?:errors?(?:\s+out)?|errored|fails?|failed|crash(?:es|ed)?|"
                 r"breaks?|dies|goes\s+wrong|(?:throws|raises)\s+(?:an?\s+)?(?:error|exception)|anything\s+else)\b|"
                 r"\b(?:errors?(?:\s+out)?|errored|fails?|failed|crash(?:es|ed)?|breaks?|dies)\s+or\s+(?:times?\s+out|timed\s+out|"
                 r"hangs?)\b", value="any"),
    # "if it's dead or slow", "when the feed is down or too slow", "slow or broken": the service unusable either way
    # (no class beside a fallback: every failure; transient, timeouts with it, beside a retry: `spec.phrase`; round
    # 52); "slow" alone stays a timeout
    Row("class", r"\b(?:dead|down|broken|offline|unreachable|erroring|failing|crashed|borked)\s+or\s+(?:too\s+|very\s+|really\s+)?"
                 r"(?:slow|stuck|hanging|hung|unresponsive)\b|\b(?:slow|stuck|hanging|hung|unresponsive)\s+or\s+(?:just\s+)?"
                 r"(?:dead|down|broken|offline|unreachable|erroring|failing|crashed|borked)\b", value="unusable"),
    # "never retry it, under any circumstances": said beside a no-retry, no class but emphasis (`spec.phrase`)
    Row("class", r"\b(?:under\s+any\s+circumstances|no\s+matter\s+what)\b", value="emphasis"),
    Row("class", r"\b(?:any(?:thing)?\s+(?:else|other)\b(?!\s+exception)|anything\s+not\s+(?:listed|covered|mentioned)|any\s+(?:other\s+)?(?:error|failure|problem)s?\b|all\s+(?:other\s+)?(?:errors|failures|problems)|catch-?all|everything\s+else|in\s+all\s+other\s+cases|whatever\s+(?:else\s+)?(?:fails|goes\s+wrong|the\s+error)|for\s+all\s+errors|on\s+any\s+(?:error|failure)|(?:any|all)\s+failures?)\b", value="any"),
    Row("class", r"\b(?:unrecoverable|permanent(?:ly)?|(?<!non-)(?<!non)fatal|non-?retryable|not\s+retryable|declared\s+non-?retryable)\b", value="unrecoverable"),
    Row("class", r"\b(?:invalid[\s_]+(?:input|payloads?|requests?|records?|data|rows?|files?|arguments?|params?|parameters?|json)|bad\s+(?:input|payloads?|data|records?|requests?)|wrong\s+input|missing\s+input|(?:card|payment|charge|transaction)s?\s+(?:(?:is|was|gets?|got)\s+)?(?:declined|rejected|refused)|user\s+errors?|(?:the\s+)?(?:user|caller|client)'?s\s+(?:fault|mistake)|input\s+is\s+(?:wrong|invalid|bad)|the\s+input\s+(?:is|was)\s+(?:wrong|invalid|bad)|malformed\s+(?:input|payloads?|requests?)|(?:the\s+)?file'?s\s+fault|(?:doesn'?t|does\s+not|won'?t|can'?t|cannot|didn'?t)\s+(?:parse|validate)|(?:can'?t|cannot|couldn'?t)\s+be\s+(?:parsed|split|validated)|not\s+found|(?:doesn'?t|does\s+not)\s+exist|no\s+such|4(?:0[0-9]|1[0-9]|2[0-8])|4xx|bad\s+request|missing\s+(?:field|data)|import\s*error|can'?t\s+import|cannot\s+import|invalid\s+module|unknown\s+module|validation\s+errors?|(?:if|when)\s+validation\s+fails|schema\s+(?:errors?|violations?)|fails?\s+validation)\b", value="invalid_input"),
    Row("class", r"\b(?:(?<!server\s)crash(?:es|ed|ing)?|exceptions?|traceback|(?!(?:on|upon|if|when)_error\b)\w+error\b|syntax\s*error|script\s+(?:error|fail\w*|bug|is\s+broken|breaks)|code\s+(?:error|is\s+broken|breaks)|code_error|bug|returns?\s+(?:garbage|junk|nonsense|bad\s+output)|bad\s+output|not\s+markdown|invalid\s+markdown|malformed|parse\s+(?:fail\w*|error)|validation\s+fail\w*|generation\s+fail\w*|can'?t\s+create\s+code|breaks?\s+(?:its|the)\s+(?:contract|schema)|contract|non-?zero\s+exit|bad\s+exit|(?:throws|raises)(?!\s+(?:an?\s+|the\s+(?:occasional\s+)?|occasional\s+|some\s+)?(?:http\s+)?(?:5\d\d|5xx|429|4\d\d|4xx|timeouts?|time-?outs?|connection|network|rate)))\b", value="code_error"),
    Row("class", r"\b(?:times?\s+out|timed\s+out|timing\s+out|time-?outs?|too\s+slow|slow|(?:hangs?|hanging)(?!\s+up\b)|no\s+(?:answer|response|reply)|deadline)\b", value="timeout"),
    Row("class", r"\b(?:network(?:\s+(?:error|failure|problem|issue|glitch|blip)s?)?|connection(?:\s+(?:error|reset|refused|drop(?:ped)?|lost|failure)s?)?|unreachable|(?:is|goes|went|are|server|service|api|host|mirror|site|backend|completely|totally|entirely|still)\s+down|rate[- ]?limit(?:s|ed|ing)?|throttl\w*|429s?|5\d\ds?|5xxs?|transient|hiccups?|blips?|overloaded|busy|outage|dns|socket|server\s+crash\w*)\b", value="transient"),
)

# what a sentence may say without stating a policy: read first, so no row takes its words
IGNORE: tuple[Row, ...] = (
    Row("ignore", r"\b(?:has|have|had|was|were|is|are)(?:n'?t|\s+not)?\s+(?:already\s+|not\s+|never\s+)?been\s+(?:re-?)?tried\b|\bif\s+not\s+(?:already\s+)?retried\b"),
    Row("ignore", r"\b(?:normally|usually|typically|often|generally|mostly|on\s+average|in\s+practice|sometimes|always)\s+(?:takes?|runs?|finishes|lasts?|is\s+(?:done|fast|slow|quick)|fast|slow|quick|answers|responds)\b[^.;]*"),
    Row("ignore", r"\b(?:average|typical|median|usual|normal|expected|mean)\s+(?:runtime|run\s*time|duration|latency|response\s+time|time)\b[^.;]*"),
    Row("ignore", r"\b(?:counts?\s+as\s+(?:a\s+)?fail(?:ure|ed)|is\s+(?:treated\s+as\s+)?(?:a\s+)?fail(?:ure|ed)|as\s+a\s+failure|means\s+(?:it|the\s+step)\s+failed|(?:otherwise\s+)?treat\s+it\s+as\s+(?:a\s+)?fail(?:ed|ure))\b"),
    Row("ignore", r"\b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:try\s+to\s+)?(?:undo|roll\s*back|revert|compensate|clean\s+up)\b[^.;]*|\bleave\s+(?:everything|it|things|the\s+rest)\s+(?:as\s+(?:it\s+is|they\s+are)|alone|be)\b"),
    Row("ignore", r"\b(?:if|when|once|should)\s++(?:it|that|this|the\s+(?:step|call|request|\w+))?\s*+(?:still\s+)?(?:fails?|failed|errors?|errored|breaks?|doesn'?t\s+work|does\s+not\s+work|won'?t\s+work|goes\s+wrong|gives\s+up)(?:\s+out)?(?:\s+(?:again|too|as\s+well|after\s+(?:that|all\s+(?:the|its|those)\s+(?:retries|tries|attempts)|(?:its|the|those)\s+(?:retries|tries|attempts)))|\s+(?:for\s+good|anyway))?\b|\bstill\s+(?:fails?|doesn'?t\s+work)\b|\bthen\s+(?:fails|doesn'?t\s+work)\b|\bafter\s+(?:that|(?:its|the|all\s+(?:the|its))\s+(?:retries|tries|attempts))\b|\bif\s+(?:that|this)\s+(?:still\s+)?(?:doesn'?t|does\s+not|won'?t)\s+(?:work|help)\b|\bit\s+still\s+won'?t\s+(?:take\s+it|work)\b|\bif\s+all\s+else\s+fails\b|\bwhen\s+this\s+one\s+gives\s+up\b"),
    Row("ignore", r"\bno\s+more\b(?!\s+than)"),
    Row("ignore", r"\b(?:approval|sign-?off|review)\s+wait(?:s|ing)?(?:\s+(?:excluded|not\s+included|aside))?\b|\bexcluding\s+(?:the\s+)?(?:approval|sign-?off)\s+wait\b"),
    # a person's wait left out of a limit, as the engine counts it: "the manager's wait excluded", "not counting her
    # wait" (one counted in is DOUBT's)
    Row("ignore", r"\b(?:\w+['’]s|her|his|their)\s+wait(?:ing)?(?:\s+time)?\s+(?:excluded|not\s+included|not\s+counted|aside)\b|"
                  r"\b(?:excluding|not\s+counting)\s+(?:\w+['’]s|her|his|their)\s+wait(?:ing)?(?:\s+time)?\b"),
    Row("ignore", r"\b(?:all\s+|the\s+|its\s+)?(?:retries|attempts|tries)\s+(?:are|were|get|is|was)\s+(?:logged|recorded|counted|reported|shown|listed|kept|used\s+up|exhausted|spent|over)\b|\b(?:all\s+|the\s+|its\s+)?(?:retries|attempts)\s+(?:have\s+been|are)\s+(?:used\s+up|exhausted|spent)\b"),
)

IGNORE += (
    # the retries as a thing talked about: "after the last retry", "when retries run out", "the retry counter resets"
    Row("ignore", r"\bafter\s+(?:the\s+|its\s+)?(?:last|final|third|second|2nd|3rd|\d+(?:st|nd|rd|th))\s+(?:retry|attempt|try)\b|\bafter\s+(?:the\s+)?(?:retries|attempts)\b|\b(?:when|once|if)\s+(?:the\s+|its\s+)?(?:retries|attempts|tries)\s+(?:run\s+out|are\s+(?:all\s+)?(?:gone|spent|exhausted|used\s+up))\b|\b(?:out\s+of|no\s+(?:more\s+)?)(?:retries|attempts|tries)\s+left\b|\bretries\s+exhausted\b"),
    Row("ignore", r"\b(?:the\s+)?retr(?:y|ies)\s+(?:counter|count(?:er)?s?|stats|statistics|metrics|logs?|history)\s+(?:(?:is|are|gets?)\s+(?:shown|displayed|logged|recorded|tracked|visible|reported)|resets?|is\s+reset|are\s+reset|rolls?\s+over|is\s+cleared|are\s+cleared|is\s+kept|are\s+kept|is\s+stored|are\s+stored|is\s+shown|are\s+shown)\b[^.;]*"),
    # a fan-out set aside in brackets, no attempt count: "(once per target)", "(once for each invoice)" (the For each
    # reader's, and the plan's guard warns a step without a For each); "post it once per batch" stays a no-retry and
    # "(once per hour)" a policy's words
    Row("ignore", r"\(\s*+once\s+(?:per|for\s+(?:each|every))\s+(?!(?:secs?|seconds?|mins?|minutes?|hours?|hrs?|days?|weeks?|"
                  r"months?|years?|nights?|runs?|times?|attempts?|tries|try|calls?|requests?)\b)[a-z_]\w*+\s*+\)"),
    # how often a thing happened, not how often to try: "accounts got it 3 times last month", "the customer received
    # it twice", "it ran 4 times yesterday" (the past marker itself stays for DOUBT's warning)
    Row("ignore", r"\b(?:got|received|saw|had|was\s+sent|were\s+sent)\s+(?:it|them|this|that|the\s+\w+)\s+(?:\d+\s+times|twice|thrice)\b|"
                  r"\b(?:\d+\s+times|twice|thrice)(?=\s+(?:last\s+(?:week|month|year|night|quarter|sprint)|yesterday|in\s+the\s+past|"
                  r"\d+\s+(?:days|weeks|months|years)\s+ago)\b)"),
    Row("ignore", r"\b(?:ping|tell|ask|email|e-mail|message|slack|notify|warn|let)\s+(?:me|us|\w+)\s+(?:know\s+)?(?:if|when|before|after)\s+(?:you|anyone|someone|somebody)\s+(?:change|edit|update|modify|touch|rename|remove|delete|move)\w*\b[^.;]*|\b(?:todo|fixme|xxx)\b\s*:?[^.;]*|\bnote\s+to\s+self\b[^.;]*"),
)

# a retry said without its count: the planner assumes one and warns with the figures (`spec.effect`)
NO_COUNT = "it says to retry but not how many times"

# phrasings that state a policy too vaguely to read into one: after the tables
DOUBT = (
    Row("ambiguous", r"\b(?:a\s+while|a\s+bit|a\s+moment|a\s+little|a\s+short\s+time|briefly|a\s+reasonable\s+time|some\s+time|more\s+time|enough\s+time|plenty\s+of\s+time|too\s+long|forever|for\s+ever|indefinitely|until\s+it\s+works|until\s+(?:it\s+)?succeeds|until\s+success(?:ful)?|as\s+(?:long|often|many\s+times)\s+as\s+(?:needed|necessary|it\s+takes))\b", value="the amount is not stated", unless=("retries", "retries_soft", "attempts", "budget", "timeout", "no_retry")),
    Row("ambiguous", r"\b(?:gracefully|appropriately|properly|as\s+needed|(?<!more\s)(?<!times\s)if\s+needed|when\s+needed|(?<!more\s)(?<!times\s)if\s+necessary|somehow|sensibly|as\s+usual|the\s+usual\s+way)\b", value="the action is not stated"),
    Row("ambiguous", r"\b(?:used\s+to|no\s+longer(?!\s+than)(?!\s*+(?:[.;!)]|$))|anymore|any\s+more|previously|in\s+the\s+past|we\s+once|(?:last|this\s+past)\s+(?:week|month|year|night|quarter|sprint)" + DATED_THING + r"|yesterday" + DATED_THING + r"|\d+\s+(?:days|weeks|months|years)\s+ago)\b", value="it is about the past, not a rule"),
    # a person's wait counted into a limit: "(Margaret's wait included)", "including her wait": a limit counts no time
    # spent waiting at an approval (`engine.state`), so that part is not in the plan
    Row("ambiguous", r"\b(?:\w+['’]s|her|his|their)\s+wait(?:ing)?(?:\s+time)?\s+(?:included|counted)\b|"
                     r"\b(?:including|counting)\s+(?:\w+['’]s|her|his|their)\s+wait(?:ing)?(?:\s+time)?\b",
        value="a run's limit does not count time spent waiting at an approval, so the wait is not in it"),
    Row("ambiguous", r"\b(?:maybe|perhaps|possibly|probably|might|(?<!repeat\s)(?<!retry\s)(?<!re-run\s)(?<!rerun\s)(?<!resend\s)(?<!re-send\s)(?<!second\s)(?<!double\s)could|if\s+possible|ideally|\?$)", value="it is tentative"),
    Row("no_count", r"\bretr(?:y|ies)\b", value=NO_COUNT, unless=("retries", "retries_soft", "attempts", "no_retry", "budget", "wait_seq", "exp_cap", "exp_start", "exp_factor", "exp_range", "wait_fixed", "wait_none")),
)


# a limit said through what it is not ("answers in under 10 s, so an attempt that takes longer is treated
# as failed"): read over the words IGNORE took (a typical time, "treated as failed"), when the slot is unread
IMPLIED = (
    Row("timeout", r"\b(?:in|within)\s+(?:well\s+)?(?:under\s+|less\s+than\s+|below\s+)?{D}\b[^.]{0,40}?\b(?:an?|any|each|every|the)\s+(?:{TRY}|call|request|response)\s+(?:that|which)\s+(?:takes|runs|lasts|goes\s+on)\s+(?:any\s+)?longer\b[^.;]{0,40}?\b(?:treated\s+as|counts?\s+as|considered|is|as)\s+(?:a\s+)?(?:fail(?:ed|ure)|timed?\s+out|time-?out)\b"),
)
