"""Rows of the policy grammar (`spec.grammar`) for step-policy FAMILIES, keyed on what a word does
to a time or a count, not on one set's sentences.

Joined to the grammar's tables through `spec.grammar_families8` (its `*_FIRST` tuples start with
these, its `GATES` carry these words), so the grammar's own module does not grow. The families:

- a time is the role its cue word gives it, wherever the sentence puts it: a ceiling said of a
  backoff ("never above 30 s", "but never exceeds 20 s", "not beyond 8 s") is the backoff's cap,
  not one attempt's timeout; a cap or limit on "each run of the query" is that attempt's time
  ("cap each run of the export at 3 min"); "abort it if it takes longer than 10 minutes" is the
  attempt's time with its kill; giving up "after 5 minutes" in any tense ("giving up", "gives up")
  beside polling is the time to keep trying, and so is "but no longer than an hour" beside "every
  minute ... until"; a labelled pause ("Spacing: 45 s", "gap = 1 min", "breather of 20 s") is the
  wait between tries; "after a minute" / "in 30 seconds" beside one more go, shot or chance is the
  wait before it;
- a count is the role its label gives it: "Retry budget: 2", "retries allowed: 3", "attempt
  quota = 4" are counts (a budget with a unit is a time, read by `grammar.BUDGET`); "a final
  retry", "give it one more shot": one retry;
- a failure handed to a skill by any verb of handing ("hand the page to `x`", "pass it on to
  `x`", "route to `x`", "let `x` take over", "defer to `x`", "leave it to `x`") is the fallback
  skill, when the sentence is about failing or retrying.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# what a sentence must say for a handing-over to be a fallback: a failure, an alternative, or retrying
_ABOUT_FAILING = (r"{COND}|instead|{RETRY}|(?<!\w)(?:more|again|tries|attempts?|timeouts?|time[sd]?\s+out|unavailable|"
                  r"unreachable|broken|dies|died|crash\w*)\b")
# a backoff said in the sentence: what a ceiling is a ceiling of
_BACKOFF = r"back-?\s*off|expo|exp\.|doubl|tripl|(?<!\w)(?:grow|increas|factor|multipl|jitter)"
_UNIT = r"(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b"
_UNITLESS = r"(?!\s*+(?:\.\d|" + _UNIT + "))"
# a pause between tries, in the nouns people label one with
_PAUSE_LABEL = r"(?:spacing|gap|pause|delay|interval|wait|breather|rest|cool-?down|back-?off\s+delay|sleep)"
_BETWEEN = (r"(?:\s+(?:in\s+)?between\s+(?:(?:the|each|every|successive|consecutive)\s+)?(?:{TRY}|them|[\w-]+\s+(?:{TRY}|calls|"
            r"runs|requests)))?")
_ONE_MORE = (r"(?<!\w)(?:one|a|1|another|second|final|last)\s+(?:more\s+|further\s+|final\s+|last\s+)?(?:go|shot|chance|"
             r"attempt|try|retry|re-?run|round)\b|(?<!\w)(?:\d+|twice|thrice)\s+(?:more|further|extra)\s+(?:tries|goes|attempts|"
             r"times|shots|rounds)\b")

FIRST: tuple[Row, ...] = (
    # "Retry budget: 2", "retries allowed = 3", "retry quota of 1": a count, not a time
    Row("retries", r"(?<!\w)(?:max(?:imum)?\s+)?(?:retr(?:y|ies)|re-?tries)[\s_-]++(?:budget|allowance|allowed|permitted|quota|available)"
        r"\s*+(?:[:=-]|of|is)?\s*+{N}\b" + _UNITLESS),
    Row("attempts", r"(?<!\w)(?:max(?:imum)?\s+)?(?:attempts?|tries|goes)[\s_-]++(?:budget|allowance|allowed|permitted|quota|available)"
        r"\s*+(?:[:=-]|of|is)?\s*+{N}\b" + _UNITLESS),
    # "a final retry", "give it one more shot", "grant the job a last go": one retry
    Row("retries_soft", r"(?<!\w)(?:(?:give|grant|allow|offer)\s+(?:it|this|that|them|the\s+[\w-]+)\s+)?(?:one|a|1)\s+(?:final|last|"
        r"further)\s+(?:go|shot|chance|attempt|try|retry|re-?run|round)\b|(?<!\w)(?:give|grant|allow|offer)\s+(?:it|this|that|them|"
        r"the\s+[\w-]+)\s+(?:one|a|1)\s+second\s+(?:go|shot|chance|attempt|try|round)\b|(?<!\w)(?:give|grant|allow|offer)\s+(?:it|this|that|them|"
        r"the\s+[\w-]+)\s+(?:one|a|1)\s+more\s+(?:go|shot|chance|attempt|try|round)\b", value=1),
    # "if the geocoder coughs, poke it again": trying again in any verb, beside a failure (its count read apart)
    Row("retry_bare", r"(?<!\w)(?!(?:do|does|did|is|was|be|fails?|failed|breaks?|broke|crash\w*|errors?)\s)[a-z]{3,12}\s+(?:it|this|"
        r"that|them|the\s+[\w-]+)\s+again\b", needs=r"{COND}|(?<!\w)(?:every|until)\b"),
    # "retry only once, 2 h later", "re-run it just once": one retry ("only once" alone is no retry)
    Row("retries", r"(?<!\w)(?:retr(?:y|ied)|re-?try|re-?run|try\s+(?:it\s+)?again|run\s+it\s+again)\s+(?:it\s+)?(?:only|just)\s+once\b",
        value=1),
    # "hold it for 20 s max, then try again": the time one attempt may run, the retry said after it (a wait is no run)
    Row("timeout", r"(?<!wait\s)(?<!waiting\s)(?<!pause\s)(?<!sleep\s)(?<!off\s)(?<!on\s)(?<!delay\s)(?<!\w)for\s+(?:up\s+to\s+|at\s+most\s+|no\s+more\s+"
        r"than\s+)?{D}(?:\s+(?:max(?:imum)?|tops|at\s+most))?(?=\s*+,?\s*+(?:and\s+)?then\s+(?:retry|re-?try|try\s+(?:it\s+)?again|"
        r"re-?run|start\s+over|go\s+again))", needs=r"(?<!\w)(?:let|run|spin|grind|churn|work|hang|allow|give)\w*\s"),
    # "hold off for 30 s, then try again": the wait before the retry, not a time to keep trying in
    Row("wait_fixed", r"(?<!\w)(?:wait|hold\s+off|pause|sleep|back\s+off|cool\s+off|hang\s+on)(?:ing)?\s+(?:for\s+)?(?:about\s+)?{D}"
        r"(?=\s*+,?\s*+(?:and\s+)?then\s+(?:retry|re-?try|try|re-?run|go\s+again|have\s+another))"),
    # "another three goes", "another 2 tries": that many retries (the first try is behind)
    Row("retries", r"(?<!\w)another\s+{N}\s+(?:goes|tries|attempts|shots|times|rounds|chances|runs)\b"),
    # "Retries: nil", "retry = nope": no retry
    Row("no_retry", r"(?<!\w)(?:retr(?:y|ies)|re-?tries)\s*+[:=]\s*+(?:nil|nada|nope|nothing|never)\b"),
    # a contract's words: "shall not be repeated upon failure", "must never be re-attempted"
    Row("no_retry", r"(?<!\w)(?:shall|must|may|should|will|can|is\s+to|are\s+to)\s*+(?:not|never|n'?t)\s+(?:ever\s+)?be\s+(?:repeated|"
        r"re-?attempted|re-?executed|re-?submitted|re-?tried|retried|re-?run)\b"),
    # "shall be re-attempted no more than two (2) further times": that many retries
    Row("retries", r"(?<!\w)(?:re-?attempted|retried|re-?tried|re-?run|repeated|re-?executed|re-?submitted)\s+(?:up\s+to|at\s+most|"
        r"no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of)\s+{N}\s+(?:more\s+|further\s+|additional\s+|extra\s+)?(?:times|"
        r"tries|attempts|occasions)\b"),
    # "may be retried for a period not exceeding 10 minutes": the time to keep trying
    Row("budget", r"(?<!\w)(?:(?:be\s+)?(?:retried|re-?tried|re-?attempted|repeated|polled|re-?checked)\s+)?(?:for|over|during|within)\s+a\s+"
        r"(?:period|time|window|span)\s+(?:of\s+)?(?:not\s+exceeding|not\s+more\s+than|no\s+more\s+than|no\s+longer\s+than|of\s+at\s+"
        r"most|up\s+to|at\s+most)?\s*+{D}", needs=r"{RETRY}|(?<!\w)(?:every|intervals?|poll\w*|repeated)\b"),
    # "no single consultation of the register shall exceed 90 seconds": the attempt's time
    # "no single tray gets more than 3 minutes", "no one call is allowed over 2 min": the same (round 50)
    Row("timeout", r"(?<!\w)no\s+(?:single\s+|one\s+|individual\s+)?(?:[\w-]+\s+){0,6}?(?:(?:shall|may|should|must|can|will)\s+(?:exceed|"
        r"take\s+longer\s+than|last\s+longer\s+than|run\s+longer\s+than|run\s+past|go\s+beyond)|(?:gets|is\s+(?:given|allowed)|"
        r"has)\s+(?:more\s+than|longer\s+than|over|beyond))\s+{D}"),
    # "kill the OCR job if it's still chewing after 3 minutes": the attempt's time, with its kill
    Row("timeout", r"(?<!\w)(?:kill|abort|cancel|stop|terminate|abandon|drop|end)\s+(?:it|this|that|the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+"
        r"(?:if|when|once|should)\s+(?:it'?s|it\s+is|they'?re|they\s+are)\s+still\s+[a-z]+ing\s+(?:after|at|past|by)\s+{D}"),
    # "don't let it run forever": a limit with no time, reported
    Row("ambiguous", r"(?<!\w)(?:don'?t|do\s+not|never)\s+let\s+(?:it|this|that|them|the\s+[\w-]+)\s+(?:run|hang|spin|go\s+on|keep\s+going|"
        r"sit|wait)\s+(?:forever|indefinitely|endlessly|for\s+ever|too\s+long)\b", value="a limit is asked for but no time is given; "
        "write the time, e.g. 'timeout 10 min'"),
    # "time box: 1.5 h for the backfill, then abort", "must finish in 1500 ms or abort": the attempt's time and its kill
    Row("timeout", r"(?<!\w)(?:time-?\s*box(?:ed)?\s*+[:=]?|(?:must|should|has\s+to|needs?\s+to)\s+(?:finish|complete|be\s+done|return|"
        r"answer)\s+(?:in|within|under))\s*+{D}(?:\s+(?:for|on|of)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)?\s*+,?\s*+(?:and\s+)?"
        r"(?:then\s+|or\s+(?:else\s+)?|otherwise\s+)(?:abort|kill|cancel|stop|bail|cut\s+it\s+off|drop)(?:\s+(?:it|out))?\b"),
    # "abort the render if it takes longer than 10 minutes": the attempt's time, with its kill
    Row("timeout", r"(?<!\w)(?:kill|abort|cancel|stop|terminate|abandon|drop|end)\s+(?:it|this|that|the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+"
        r"(?:if|when|once|should)\s+(?:it|this|that|they)\s+(?:takes?|runs?|goes|lasts?|hangs?|keeps\s+going)\s+(?:for\s+)?"
        r"(?:longer|more|over|past|beyond)\s+(?:than\s+)?{D}"),
    # "cap each run of the query at 3 min", "limit every call to the API to 800 ms": one attempt's time
    Row("timeout", r"(?<!\w)(?:cap|limit|bound|time-?box)\s+(?:each|every|any|the|a\s+single|one)\s+(?:attempt|try|call|run|request|go|"
        r"execution|invocation|pass|lookup|query)s?(?:\s+(?:of|on|for|to|against)\s+(?:the\s+|this\s+|that\s+|our\s+)?[\w-]+"
        r"(?:\s+[\w-]+)?)?\s+(?:at|to)\s+{D}"),
    # "giving up after 5 minutes", "quit polling once 10 minutes have passed": the time to keep trying, and a failure
    Row("budget", r"(?<!\w)(?:giv(?:es|ing)\s+up|(?:stop|quit)(?:s|ping|ting)?\s+(?:re-?trying|polling|checking|asking|looking|"
        r"pinging|retrying))\s+(?:after|once|when)\s+(?:about\s+)?{D}(?:\s+(?:have|has)\s+"
        r"(?:passed|elapsed|gone\s+by))?", also=("fail",)),
    # "every minute until it's green, but no longer than an hour": the time to keep polling
    Row("budget", r"(?<!\w)(?:but\s+|and\s+)?(?:for\s+)?(?:no|not\s+for|not)\s+(?:longer|more)\s+than\s+{D}(?!\s*+(?:per|each|an?|for\s+"
        r"each|apiece)\b)", needs=r"(?<!\w)(?:every|until|poll\w*|keep\s+\w+ing|re-?check\w*)\b"),
)

BOUNDS: tuple[Row, ...] = (
    # "never above 30 s", "but never exceeds 20 s", "not beyond 8 s" beside a backoff: its cap
    Row("exp_cap", r"(?<!\w)(?:but\s+)?(?:never|not|no)\s+(?:go(?:es|ing)?\s+|(?:get|grow|climb|wait)(?:s|ing)?\s+|ris(?:e|es|ing)\s+)?(?:above|over|"
        r"beyond|past|higher\s+than|longer\s+than|more\s+than|exceed(?:s|ing)?)\s+{D}" + _BETWEEN, needs=_BACKOFF),
    Row("exp_cap", r"(?<!\w)(?:but\s+)?(?:never|not|don'?t|doesn'?t|does\s+not|do\s+not)\s+(?:ever\s+)?(?:exceed(?:s|ing)?|go\s+"
        r"(?:above|over|beyond|past)|rise\s+(?:above|past))\s+{D}" + _BETWEEN, needs=_BACKOFF),
    # "backoff: exponential 2s → 16s", "delay=2s..16s exponential": from the first to the second
    Row("exp_range", r"(?<!\w)(?<!\()(?:(?:delays?|waits?|back-?\s*+offs?|intervals?)\s*+[:=]\s*+)?{D}\s*+(?:\.\.\.?|–|→|->|-|\bto\b|\bup\s+to\b)\s*+{D}"
        r"(?!\s*+(?:\.\.|–|→|->|-|,|\bthen\b)\s*+\d+(?:\.\d+)?\s*+" + _UNIT + ")", needs=r"expo|(?<!\w)exp(?:\.|\b)",
        also=("exponential",)),
    # "backoff=exponential(min=2s, max=16s)": where it starts and where it stops
    Row("exp_start", r"(?<!\w)(?:min(?:imum)?|initial|start|base|first)(?:[\s_-]*+(?:delay|wait|backoff|interval))?\s*+[:=]\s*+{D}",
        needs=_BACKOFF),
    Row("exp_cap", r"(?<!\w)max(?:imum)?(?:[\s_-]*+(?:delay|wait|backoff|interval))?\s*+[:=]\s*+{D}", needs=_BACKOFF),
    # "1s, 2s, 4s… up to 8s": where the series that goes on stops
    Row("exp_cap", r"(?:(?<=\.\.\.)|(?<=…)|(?<=etc\.)|(?<=etc))\s*+,?\s*+(?:up\s+to|at\s+most|to\s+at\s+most|until|capped\s+at|"
        r"topping\s+out\s+at|max(?:imum)?)\s+{D}"),
    # "backoff 2s, x3 each time", "backoff of 1 s, doubling": where a backoff starts, its growth said after it
    Row("exp_start", r"(?<!\w)(?:exponential\w*\s+)?(?:back-?\s*+off|exponential\w*)\s*+(?:of\s+|:\s*+|=\s*+|from\s+|starting\s+at\s+)?{D}(?=\s*+,?\s*+(?:[x×]\s*+\d|"
        r"doubl|tripl|times\s+\d|(?:by\s+a\s+)?factor|multipl|growing|increasing))", also=("exponential",)),
    # "waits grow from 500 ms": the waits are a backoff (the verb is read by the factor's rows)
    Row("exponential", r"(?<!\w)(?:the\s+)?(?:waits?|delays?|pauses?|gaps?|intervals?)(?=\s+(?:grow|increase|double|triple|"
        r"lengthen|get\s+longer)s?\b(?!\s*+[:=]))"),
)

WAIT: tuple[Row, ...] = (
    # "Spacing: 45 s", "gap = 1 min", "a breather of 20 s", "wait between attempts: 10 s": the wait between tries
    Row("wait_fixed", r"(?<!\w)(?:at\s+)?" + _PAUSE_LABEL + r"s?(?:\s+(?:in\s+)?between\s+(?:{TRY}|them))?\s*+(?:[:=-]|of|is)\s*+(?:about\s+|"
        r"roughly\s+|not\s+less\s+than\s+|no\s+less\s+than\s+|at\s+least\s+|a\s+minimum\s+of\s+)?{D}(?!\s*+(?:,|and|then|/|->|→)\s*+\+?\d+(?:\.\d+)?\s*+" + _UNIT + ")" + _BETWEEN,
        needs=r"{RETRY}|(?<!\w)(?:tr(?:y|ies)|attempts?|again|budget|allowance|allowed|goes)\b"),
    # "re-check every minute until it's green": the wait between looks
    Row("wait_fixed", r"(?<!\w)every\s+(?P<d9>second|minute|hour|day)\b", needs=r"(?<!\w)(?:re-?check\w*|until|keep\s+\w+ing)\b"),
    # "retry once, 2 h later": the wait before the retry
    Row("wait_fixed", r"(?<!\w){D}\s+later\b", needs=r"{RETRY}|(?<!\w)(?:again|once\s+more)\b|" + _ONE_MORE),
    # "3s, 6s, 12s ... capped at 30s", "1 s, 2 s, 4 s, etc.": the series goes on (`spec.phrase_checks.geometric`)
    Row("series_open", r"(?<=\d|[a-z])\s*+,?\s*+(?:\.\.\.|…|\betc\b\.?|and\s+so\s+on\b)", value=True,
        needs=r"\d\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h)\s*+,\s*+\d"),
    # "one more go after a minute", "give it one more shot in 30 seconds": the wait before it
    Row("wait_fixed", r"(?<!\w)(?:after|in)\s+(?:waiting\s+)?(?:about\s+)?{D}(?:\s+each(?:\s+time)?)?", needs=_ONE_MORE),
)

FALLBACK: tuple[Row, ...] = (
    # "hand the page to `x`", "pass it on to `x`", "route to `x`", "send the rest over to `x`": the fallback skill
    Row("use_skill", r"(?<!\w)(?:hand|pass|give|send|route|re-?route|forward|redirect|divert|kick|punt|bounce|refer|delegate|"
        r"turn)\s+(?:(?:it|this|that|them|the\s+rest|(?:the|this|that|each)\s+[\w-]+(?:\s+[\w-]+)?)\s+)?(?:(?:off|over|on|back|across)\s+)?"
        r"(?:to|into)\s+(?:the\s+)?{NAME}(?:\s+instead)?", needs=_ABOUT_FAILING),
    # "use \\Call{x}{} instead", "fall back to [[x]]": a skill named inside markup
    Row("use_skill", r"(?<!\w)(?:use|run|call|try|fall\s*+-?\s*+back\s+(?:to|on)|switch\s+(?:over\s+)?to)\s+(?:the\s+)?(?:\\[a-z]{1,20}\{|"
        r"\[\[|\{\{)\s*+{NAME}\s*+(?:\}|\]\])+(?:\{[^{}]{0,80}\})?(?:\s+instead)?", needs=r"{COND}|instead|fall\s*+-?\s*+back|switch"),
    # "use the cheap dictionary-lookup skill instead", "try our slower `geo-lite` instead": the skill, past its adjectives
    Row("use_skill", r"(?<!\w)(?:use|run|call|try|switch\s+(?:over\s+)?to|fall\s*+-?\s*+back\s+(?:to|on))\s+(?:the\s+|a\s+|an\s+|our\s+)?"
        r"(?:(?!(?:tool|module|skill|script|function|command|step|job)\b)[a-z]+\s+){1,3}?{NAME}(?:\s+(?:skill|tool|one))?(?:\s+instead)?", needs=r"{COND}|instead|fall\s*+-?\s*+back|switch"),
    Row("use_skill", r"(?<!\w)(?:use|run|call|try|switch\s+(?:over\s+)?to|fall\s*+-?\s*+back\s+(?:to|on))\s+(?:the\s+|a\s+|an\s+|our\s+)?"
        r"(?:(?!(?:tool|module|skill|script|function|command|step|job)\b)[a-z]+\s+){1,3}?(?P<name>[a-z][a-z0-9]*+(?:-[a-z0-9]++)+)\s+(?:skill|tool)(?:\s+instead)?", needs=r"{COND}|instead|fall\s*+-?\s*+back|switch"),
    # "let `x` take over", "have `x` handle it", "defer to `x`", "leave it to `x`": the fallback skill
    Row("use_skill", r"(?<!\w)(?:let|have|get)\s+{NAME}\s+(?:take\s+over|handle\s+it|deal\s+with\s+it|do\s+it|pick\s+(?:it\s+)?up|"
        r"step\s+in|have\s+a\s+go)\b(?:\s+instead)?", needs=_ABOUT_FAILING),
    Row("use_skill", r"(?<!\w)(?:defer|leave\s+it|leave\s+that|leave\s+the\s+rest)\s+to\s+{NAME}(?:\s+instead)?", needs=_ABOUT_FAILING),
)

IGNORE: tuple[Row, ...] = (
    # a window the data covers ("failed logins over the last 24 hours"), a retry button for people: no policy
    Row("ignore", r"(?<!\w)(?:over|in|during|within|for|from)\s+the\s+(?:last|past|previous|prior|coming|next)\s+{D}"),
    Row("ignore", r"(?<!\w)(?:the\s+)?retry\s+(?:button|link|icon|menu|option)s?\b"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "FIRST": r"|box|finish|complete|done|another|nil|nada|nope|nothing|never|shall|must|may|should|will|can|is\s+to|are\s+to|attempted|retried|tried|repeated|re-?run|"
             r"period|window|span|exceed|still|forever|indefinitely|endlessly|too\s+long|again|once|\bfor\b|wait|hold|pause|sleep|back|cool|hang|budget|allowance|allowed|permitted|quota|available|final|last|further|more|kill|abort|cancel|stop|terminat|"
             r"abandon|drop|\bend\b|cap|limit|bound|box|giving|gives|stopping|quit|longer|more",
    "BOUNDS": r"|never|\bnot\b|\bno\b|exceed|grow|increase|double|triple|lengthen|\.\.|→|->|-|\bto\b|min|max|initial|start|base|first",
    "WAIT": r"|\.\.\.|…|etc|so\s+on|spacing|gap|breather|rest|cool|after|\bin\b|every|later",
    "IGNORE": r"|last|past|previous|prior|coming|next|button|link|icon|menu|option",
    "FALLBACK": r"|hand|pass|give|send|route|forward|redirect|divert|kick|punt|bounce|refer|delegate|turn|\blet\b|have|get|"
                r"defer|leave",
}
