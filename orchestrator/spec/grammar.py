"""The grammar of recovery policy sentences, as tables: adding a phrasing is adding a row.

A `Row` says which slot of a policy a phrasing fills (`retries`, `wait_fixed`,
`timeout`, `escalate`, ...) and the regular expression that finds it. Patterns
are written with placeholders, expanded when the table is compiled:

    {N}     a count: 3, three, twice, a couple of
    {D}     a duration: 2s, 5 second, 1.5 secs, a minute, half an hour, 1m30s
    {NAME}  a backticked name: `backup-mirror`
    {STEP}  a step reference: step 3, step three

The reader (`orchestrator.spec.phrase`) tries the tables in the order of
`TABLES`, each table's rows in order, and a row only matches text no earlier row
has taken, so a more specific phrasing is written above a general one
("waiting 2s between tries" above "timeout 2s"). `needs`, when set, must match
somewhere before the row's match (a fallback skill is only a fallback after
"if", "otherwise", "fall back"...). Rows of the `CONTEXT` table do not take
text: they say which failures a sentence is about, and what a sentence may say
without stating a policy ("counts as a failure", "don't undo the earlier
steps").

`SIGNALS` are the words that show a sentence means to state a policy: a
sentence with one that no row has read is reported as not understood, never
dropped. `AMBIGUOUS` rows are phrasings that cannot be read into one policy
("retry a few times"); they are reported with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "no": 0, "one": 1, "a single": 1, "single": 1, "once": 1, "two": 2, "twice": 2,
    "a couple of": 2, "a couple": 2, "three": 3, "thrice": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
    "ninety": 90, "a hundred": 100, "hundred": 100,
}  # fmt: skip

UNIT_SECONDS: dict[str, float] = {
    "ms": 0.001, "msec": 0.001, "msecs": 0.001, "millisecond": 0.001, "milliseconds": 0.001,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "m": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "d": 86400.0, "day": 86400.0, "days": 86400.0,
}  # fmt: skip

_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if w != "no"), key=len, reverse=True))
_UNITS = "|".join(sorted(UNIT_SECONDS, key=len, reverse=True))
_LONG_UNITS = r"(?:millisecond|second|sec|minute|min|hour|day)s?"
COUNT = rf"(?:\d+|{_WORDS})"
_AMOUNT = rf"(?:\d+(?:\.\d+)?|{_WORDS})"
# one part of a duration: "2s", "5 second", "1.5 secs", "a minute", "half an hour"
DURATION_PART = (
    rf"(?:(?:{_AMOUNT})\s*-?\s*(?:{_UNITS})(?![a-z])"
    rf"|(?:half\s+an?|an?|another)\s+{_LONG_UNITS}\b"
    rf"|(?:\d+(?:\.\d+)?|{_WORDS})\s+and\s+a\s+half\s+{_LONG_UNITS}\b)"
)
DURATION = rf"(?:{DURATION_PART}(?:\s*(?:and\s+)?(?:\d+(?:\.\d+)?)\s*(?:{_UNITS})(?![a-z]))?)"
NAME = r"`(?!(?:true|false|null|none)`)(?P<name>[A-Za-z][\w.:/-]{0,79})`"
STEP_WORDS = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
STEP = rf"(?:step|stage)\s+(?P<step>{STEP_WORDS})\b"
# a series of waits: "5s, then 15s", "1s, 2s, 4s", "1, 2 and 4 seconds"
_THEN = r"\s*(?:,\s*(?:and\s+)?then|,?\s+then|,?\s+and\s+then|,\s*and|,|\s+and|\s*->|\s*→|\s*/)\s*(?:wait(?:ing)?\s+)?"
SERIES = rf"(?:{DURATION}(?:{_THEN}{DURATION})+|(?:\d+(?:\.\d+)?\s*(?:,\s*|\s+and\s+|,\s*and\s+))+\d+(?:\.\d+)?\s*(?:{_UNITS})(?![a-z]))"

TRY = r"(?:tries|try|attempts?|retries|retry|calls?|runs?)"
RETRY = r"(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies|ied|ying)|try\s+(?:it\s+|this\s+|that\s+|again\s+)?again|try\s+again|re-?run|rerun|re-?attempt|attempt\s+(?:it\s+)?again|repeat\s+(?:it|the\s+call|the\s+step))"
CONDITION = r"\b(?:if|when|whenever|once|should|otherwise|else|on\s+(?:error|failure)|in\s+case|unless|fails?\b|failing)"


@dataclass(frozen=True)
class Row:
    """One phrasing: the slot it fills, its pattern, an optional guard and constant."""

    slot: str
    pattern: str
    needs: str | None = None  # must match before the row's match
    value: Any = None  # a constant the slot takes ("doubling" → factor 2)


# -- the tables, in the order they are tried ------------------------------------------

# new code for a failing script: first, its count is not a number of attempts
REGENERATE = (
    Row("regenerate", r"\b(?:regenerat\w*|re-?generat\w*|re-?write|rewrite|repair|fix)\b(?:\s+(?:the\s+|its\s+|a\s+new\s+)?(?:script|code|program|skill|implementation|it)\b)?(?:\s+(?:with|using)\s+the\s+(?:model|llm|ai))?(?:\s*\(\s*(?:max\s+|up\s+to\s+)?{N}\s*(?:attempts?|times?|tries|x)?\s*(?:max)?\s*\)|\s+(?:up\s+to\s+|at\s+most\s+)?{N}\s*(?:x|times?|attempts?)\b|\s+once\b|\s+twice\b)?", needs=r"regenerat|re-?generat|re-?write|rewrite|repair|fix\s+(?:the\s+|its\s+)?(?:script|code)"),
    Row("regenerate", r"\bask\s+the\s+(?:model|llm|ai)\s+(?:to\s+)?(?:fix|repair|rewrite|regenerate)\s+(?:it|the\s+(?:script|code))(?:\s*\(\s*{N}\s*(?:attempts?|times?|tries)?\s*\))?"),
    Row("regenerate", r"\bnew\s+(?:code|script)\s+from\s+the\s+(?:model|llm)\b"),
)

# "never retried", "no retry", "retry: 0": before any count
NO_RETRY = (
    Row("no_retry", r"\b(?:never|not|don'?t|do\s+not|no|without|must\s+not|mustn'?t|shouldn'?t|should\s+not|won'?t|cannot|can'?t|isn'?t|is\s+not|aren'?t|are\s+not|never\s+be|not\s+be)\s+(?:be\s+|ever\s+|bother\s+(?:to\s+)?|try\s+to\s+|need\s+to\s+|automatically\s+)?(?:re-?tr(?:y|ies|ied|ying)|retr(?:y|ies|ied|ying)|re-?run|rerun|re-?attempt)\w*"),
    Row("no_retry", r"\bretr(?:y|ies)\s*(?:[:=]|count\s*[:=]?|of)?\s*(?:0|zero|none|no|never|off|false|disabled)\b(?!\s*\.\d)"),
    Row("no_retry", r"\b(?:0|zero|no)\s+(?:retries|re-?tries|retry\s+attempts)\b"),
    Row("no_retry", r"\bnot\s+retryable\b|\bnon-?retryable\b|\bno\s+second\s+(?:try|attempt|chance)s?\b"),
    Row("no_retry", r"\b(?:one|a\s+single|1)\s+(?:attempt|try|shot)\s+only\b|\bonly\s+(?:one|a\s+single|1|once)\s*(?:attempt|try|shot)?\b(?!\s*(?:more|again))|\bsingle[- ](?:attempt|shot|try)\b|\btry\s+(?:it\s+)?(?:just\s+)?once\b|\bone\s+and\s+done\b|\bone[- ]shot\b"),
    Row("no_retry", r"\b(?:do\s+not|don'?t|never)\s+try\s+(?:it\s+|this\s+|that\s+)?again\b|\bno\s+(?:more\s+)?(?:second\s+)?(?:tries|attempts)\b"),
    Row("no_retry", r"\bfail\s+fast\b|\bfail\s+immediately\b"),
)

# where a backoff starts and where it stops: before the waits, which would take their numbers
BOUNDS = (
    Row("exp_start", r"\b(?:start(?:ing|s)?|begin(?:ning|s)?|initial(?:ly)?|first\s+(?:wait|delay|retry)|from)\s+(?:at\s+|with\s+|of\s+|from\s+|delay\s+(?:of\s+)?|wait\s+(?:of\s+)?)?{D}"),
    Row("exp_start", r"\b(?:initial|base|starting|first)\s+(?:delay|wait|backoff|interval)\s*(?:of|:|=|is)?\s*{D}"),
    Row("exp_start", r"\b{D}\s+(?:initial|base|starting|first)\s+(?:delay|wait|backoff|interval)\b"),
    Row("exp_cap", rf"\b(?:max(?:imum)?|at\s+most|capped\s+at|cap(?:ped)?(?:\s+at|\s+of)?|no\s+more\s+than|never\s+more\s+than|not\s+more\s+than|limit(?:ed)?\s+(?:to|at)|topping\s+out\s+at|tops?\s+out\s+at|maxing\s+out\s+at|ceiling\s+(?:of\s+)?)\s+(?:wait|delay|backoff|back-off|interval|pause)?s?\s*(?:of\s+|:\s*|=\s*|is\s+)?{{D}}(?:\s+(?:between\s+(?:{TRY}|them)|per\s+wait|each))?"),
    Row("exp_cap", r"\b(?:wait|delay|backoff|back-off|interval)s?\s+(?:capped|limited|maxed)\s+(?:at|to)\s+{D}"),
    Row("exp_cap", r"\b(?:wait|delay|backoff|back-off)s?\s+(?:of\s+)?(?:up\s+to|at\s+most|no\s+more\s+than)\s+{D}"),
    Row("exp_cap", r"\bup\s+to\s+{D}\s+(?:between|per\s+wait|each\s+wait|apart)\b"),
    Row("exp_cap", rf"\b{{D}}\s+(?:max(?:imum)?|cap|ceiling|at\s+most)\s+(?:wait|delay|backoff|between\s+(?:{TRY}))\b"),
)

# waits between tries: before timeouts and counts, which would take their numbers
WAIT = (
    Row("wait_none", r"\b(?:no\s+need\s+to|don'?t|do\s+not|without|never)\s+(?:wait(?:ing)?|pause|pausing|sleep(?:ing)?|delay(?:ing)?)\b(?:\s+(?:in\s+)?between(?:\s+(?:the\s+)?(?:tries|attempts|retries|them))?)?"),
    Row("wait_none", r"\b(?:immediately|right\s+away|straight\s+away|at\s+once|back[- ]to[- ]back|without\s+(?:any\s+|a\s+)?(?:delay|wait|pause|backoff|back-off)|with\s+no\s+(?:delay|wait|pause|backoff))\b"),
    Row("wait_none", r"\bno\s+(?:delay|wait|pause|backoff|back-off|sleep)(?:\s+(?:in\s+)?between(?:\s+(?:the\s+)?(?:tries|attempts|retries))?)?\b"),
    Row("wait_none", r"\b(?:delay|wait|backoff|pause)\s*[:=]\s*(?:0|none|zero)\b(?:\s*s\b)?"),
    Row("wait_seq", rf"(?:\bwait(?:ing|s)?\s+(?:for\s+)?|\bdelays?\s*(?:of|:|=)?\s*|\bback-?\s*off\s*(?:of|:|=)?\s*|\bpauses?\s+(?:of\s+)?|\bintervals?\s*(?:of|:|=)?\s*|\bsleep\s+)(?P<seq>{SERIES})"),
    Row("wait_seq", rf"\((?:\s*(?:waits?|delays?|backoff|back-off)\s*[:=]?)?\s*(?P<seq>{SERIES})\s*\)"),
    Row("wait_seq", rf"(?P<seq>{SERIES})\s+(?:apart|between|in\s+between|of\s+(?:delay|wait|backoff))\b"),
    Row("wait_seq", rf"\b(?:after|at)\s+(?P<seq>{SERIES})\b", needs=RETRY),
    Row("wait_fixed", rf"\bwait(?:ing|s)?\s+(?:for\s+)?(?:about\s+|roughly\s+)?{{D}}\s+(?:in\s+)?(?:between|before|after)\b(?:\s+(?:each\s+|every\s+|the\s+next\s+|another\s+|any\s+)?(?:{TRY}|one|failure|failures|tries|attempts|them|retrying|trying\s+again|the\s+next(?:\s+one)?)\b)?"),
    Row("wait_fixed", rf"\b{{D}}\s+(?:apart|in\s+between|between\s+(?:each\s+|every\s+)?(?:{TRY}|them|each|one))\b"),
    Row("wait_fixed", rf"\bwith\s+(?:a\s+|an\s+)?(?:fixed\s+|constant\s+|flat\s+)?{{D}}\s+(?:delay|wait|pause|gap|interval|sleep|back-?off|break|cool-?down)s?\b(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?)?"),
    Row("wait_fixed", rf"\b(?:a\s+|an\s+)?{{D}}\s+(?:delay|wait|pause|gap|interval|sleep|break|cool-?down)s?\b(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?)?"),
    Row("wait_fixed", r"\b(?:fixed|constant|flat|linear)\s+(?:delay|wait|backoff|back-off|interval|pause)?\s*(?:of\s+|:\s*|=\s*)?{D}"),
    Row("wait_fixed", r"\b{D}\s+(?:fixed|constant|flat)\b"),
    Row("wait_fixed", rf"\b(?:delay|wait|pause|interval|sleep|cool-?down|gap)s?\s*(?:of|:|=|is|for)?\s*(?:about\s+)?{{D}}(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?)?"),
    Row("wait_fixed", r"\bpause\s+(?:for\s+)?{D}"),
    Row("wait_fixed", r"\bsleep\s+(?:for\s+)?{D}"),
    Row("wait_fixed", r"\b(?:at|in)\s+{D}\s+intervals\b|\b{D}\s+intervals\b"),
    Row("wait_fixed", r"\bevery\s+{D}"),
    Row("wait_fixed", r"\b(?:retry|try\s+again|re-?run|retrying)\s+(?:it\s+)?(?:after|in)\s+{D}"),
    Row("wait_fixed", r"\bafter\s+(?:waiting\s+)?{D}(?=[^.;]*\b(?:retr|try|again))"),
    Row("wait_fixed", r"\b(?:{D}\s+)?back-?\s*off\s+(?:of\s+)?{D}\s+(?:each|every)\s+time\b"),
)

# exponential backoff: its start, factor, cap and jitter
BACKOFF = (
    Row("jitter_off", r"\b(?:no|without|disable|disabled|turn\s+off|don'?t\s+(?:add|use))\s+(?:any\s+)?(?:jitter|randomi[sz]ation|random(?:ness)?)\b|\bjitter\s*[:=]\s*(?:off|false|no|none)\b|\bun-?jittered\b|\bdeterministic\s+(?:waits|delays|backoff)\b"),
    Row("jitter_on", r"\b(?:with|plus|add|and|some|full|random)?\s*jitter(?:ed)?\b|\brandomi[sz]ed\b|\brandom\s+(?:delay|wait|backoff)s?\b|\bjitter\s*[:=]\s*(?:on|true|yes)\b"),
    Row("exp_factor", r"\b(?:factor|multiplier|ratio)\s*(?:of|:|=|is)?\s*(?P<factor>\d+(?:\.\d+)?)\b"),
    Row("exp_factor", r"\b(?:x|×)\s*(?P<factor>\d+(?:\.\d+)?)\s+(?:each|every|per)\s+(?:time|step|retry|try|attempt)\b"),
    Row("exp_factor", r"\b(?:multiplied|multiply(?:ing)?|growing|grows)\s+by\s+(?P<factor>\d+(?:\.\d+)?)\b"),
    Row("exp_factor", r"\b(?:doubling|doubles?|double\s+(?:the|each|every)\s+(?:wait|delay|time)|twice\s+as\s+long\s+each\s+time)\b(?:\s+(?:the\s+)?(?:wait|delay)s?)?(?:\s+each\s+time)?", value=2.0),
    Row("exp_factor", r"\b(?:tripling|triples?)\b(?:\s+(?:the\s+)?(?:wait|delay)s?)?(?:\s+each\s+time)?", value=3.0),
    Row("exponential", r"\bexponential(?:ly)?(?:\s+(?:back-?\s*off|backing\s+off|delays?|waits?|retr(?:y|ies)|backoff))?\b|\bexpo\b|\bexp\.?\s+backoff\b"),
    Row("exponential", r"\b(?:with\s+|using\s+)?(?:a\s+|some\s+)?(?:back-?\s*off|backing\s+off|back\s+off)\b"),
    Row("exponential", r"\b(?:increasing|growing|longer\s+and\s+longer|progressively\s+longer)\s+(?:delays?|waits?|pauses?|intervals?)\b"),
)

# a time budget for retrying: "for up to a minute", "give up after 5 minutes"
BUDGET = (
    Row("budget", r"\bfor\s+(?:up\s+to|at\s+most|a\s+maximum\s+of|a\s+max(?:imum)?\s+of|no\s+more\s+than)\s+{D}(?:\s+(?:in\s+total|total|overall|altogether))?"),
    Row("budget", r"\b(?:keep|kept)\s+(?:on\s+)?(?:re)?tr(?:y|ying)\s+(?:it\s+)?(?:for|during)\s+(?:up\s+to\s+)?{D}"),
    Row("budget", r"\b(?:give\s+up|stop\s+(?:re)?trying|stop\s+retrying|quit)\s+(?:after|once|when)\s+(?:about\s+)?{D}(?:\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by))?"),
    Row("budget", r"\buntil\s+{D}\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by)\b"),
    Row("budget", r"\b(?:within|over|during)\s+(?:a\s+(?:total|window)\s+of\s+|a\s+|the\s+next\s+)?{D}(?:\s+(?:in\s+total|total|overall|window|altogether))"),
    Row("budget", r"\b(?:retry|retrying|retries)\s+(?:window|budget|deadline)\s*(?:of|:|=|is)?\s*{D}"),
    Row("budget", r"\b(?:total|overall)\s+(?:retry\s+)?(?:time|budget|window)\s*(?:of|:|=|is)?\s*{D}"),
    Row("budget", r"\bfor\s+{D}(?:\s+(?:in\s+total|total|overall|altogether|max))?", needs=rf"{RETRY}|\bevery\s+{DURATION}"),
)

# how long one attempt may take
TIMEOUT = (
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|total|full|complete)\s+(?:run|workflow|thing|job|pipeline|flow)\s*(?:[:=]|should\s+(?:take|finish\s+in)|must\s+(?:take|finish\s+in)|takes|under|in|within|is)?\s*(?:no\s+more\s+than\s+|less\s+than\s+|at\s+most\s+|under\s+|within\s+|max(?:imum)?\s+)?{D}(?:\s+(?:max(?:imum)?|tops|at\s+most))?"),
    Row("run_timeout", r"\b{D}\s+(?:max(?:imum)?\s+)?(?:for\s+)?(?:the\s+)?(?:whole|entire|total)\s+(?:run|workflow|thing|job)\b"),
    Row("run_timeout", r"\b(?:wall[- ]?(?:clock\s+)?time|run\s+time\s+limit|time\s+limit\s+for\s+the\s+(?:run|workflow))\s*(?:of|:|=|is)?\s*{D}"),
    Row("timeout", rf"\btime-?\s*outs?\s*(?:of|:|=|is|after|at|set\s+to|to)?\s*(?:after\s+|at\s+)?(?:about\s+)?{{D}}(?:\s+(?:per|each|an?|for\s+each)\s+(?:{TRY}|call|request))?"),
    Row("timeout", r"\btimes?\s+(?:it\s+)?out\s+(?:after|at|in)\s+{D}|\btimed\s+out\s+(?:after|at)\s+{D}"),
    Row("timeout", rf"\b(?:a\s+|an\s+)?{{D}}\s+(?:per[- ](?:attempt|try|call)\s+)?time-?\s*out\b|\b{{D}}\s+(?:hard\s+)?(?:limit|deadline|cap)\b(?:\s+(?:per|each|an?)\s+(?:{TRY}))?"),
    Row("timeout", r"\bgive\s+it\s+(?:up\s+to\s+|at\s+most\s+|no\s+more\s+than\s+|about\s+|a\s+max(?:imum)?\s+of\s+)?{D}"),
    Row("timeout", r"\b(?:allow|allowing|budget|grant)\s+(?:it\s+|each\s+(?:attempt|try|call)\s+)?(?:up\s+to\s+|at\s+most\s+)?{D}"),
    Row("timeout", r"\b(?:no|without\s+an?|if\s+there'?s\s+no|if\s+no)\s+(?:answer|response|reply|result|output)\s+(?:with)?in\s+{D}"),
    Row("timeout", r"\b(?:doesn'?t|does\s+not|don'?t|didn'?t|hasn'?t|has\s+not|fails\s+to)\s+(?:answer|respond|reply|return|finish|complete)\s+(?:with)?in\s+{D}"),
    Row("timeout", r"\b(?:takes?|taking|runs?|running|lasts?|lasting|goes|going|hangs?|hanging|is\s+(?:still\s+)?running)\s+(?:for\s+)?(?:longer|more|over|past)\s+(?:than\s+)?{D}"),
    Row("timeout", r"\b(?:should|must|may|can|shall)(?:n'?t|\s+not|\s+never)?\s+(?:take|run|last)\s+(?:no\s+)?(?:more|longer)\s+than\s+{D}"),
    Row("timeout", r"\b(?:should|must|may|can|shall)\s+(?:take|run|last|finish|complete|answer|respond)\s+(?:at\s+most|under|within|in\s+(?:under|less\s+than))\s+{D}"),
    Row("timeout", r"\b(?:kill|cut|cancel|abort|stop|terminate)\s+(?:it\s+|the\s+(?:call|attempt|step|request)\s+)?(?:off\s+)?(?:after|at|past)\s+{D}"),
    Row("timeout", rf"\b(?:at\s+most|max(?:imum)?|up\s+to|no\s+more\s+than|under)\s+{{D}}\s+(?:per|each|an?|for\s+(?:each|one|an?))\s+(?:{TRY}|call|request|run)\b"),
    Row("timeout", r"\b{D}\s+(?:per|each|an?|for\s+each|for\s+one)\s+(?:attempt|try|call|request)\b"),
    Row("timeout", r"\b(?:deadline|time\s+limit|time\s+budget|time\s+cap)\s*(?:of|:|=|is)?\s*{D}"),
    Row("timeout", r"\b(?:slower|longer)\s+than\s+{D}"),
    Row("timeout", r"(?:^|\s)(?:>|over|more\s+than)\s*{D}"),
    Row("timeout", r"\b{D}\s+(?:max(?:imum)?|tops|at\s+most)\b(?!\s+(?:wait|delay|backoff))"),
)

# how many tries: counts of retries, then of attempts
COUNT_ROWS = (
    Row("retries", r"\bretr(?:y|ies)\s*(?:count|limit)?\s*[:=]\s*(?:times\s*[:=]\s*)?{N}\b(?!\s*(?:attempts?|tries)\b)"),
    Row("retries", r"\b(?:max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than)\s+(?:of\s+)?{N}\s+(?:re-?tries|retr(?:y|ies)|retry\s+attempts|more\s+(?:tries|attempts|times))\b"),
    Row("retries", r"\b{N}\s+(?:re-?tries|retries|retry\s+attempts|more\s+(?:tries|attempts|times|goes|shots)|additional\s+(?:tries|attempts)|extra\s+(?:tries|attempts)|further\s+(?:tries|attempts))\b"),
    Row("retries", rf"{RETRY}\s+(?:it\s+|this\s+|that\s+|them\s+|the\s+(?:call|step|request|job|task|upload|fetch)\s+)?(?:again\s+)?(?:up\s+to\s+|at\s+most\s+|a\s+max(?:imum)?\s+of\s+|max(?:imum)?\s+|no\s+more\s+than\s+|another\s+)?{{N}}\s*(?:x\b|×|more\s+times?\b|times?\b|more\b|(?=\s*(?:[,.;:)(]|$|and\b|with\b|if\b|on\b|then\b|before\b|after\b|waiting\b|every\b|using\b|at\b|but\b|in\b)))"),
    Row("retries", rf"{RETRY}\s+(?:it\s+|this\s+)?(?:once|twice|thrice)\s+more\b"),
    Row("retries", r"\b{N}\s*(?:x|×)\s*(?:retr(?:y|ies)|re-?tr(?:y|ies))\b"),
    Row("retries", r"\b(?:retr(?:y|ies)|re-?tr(?:y|ies))\s*(?:\(\s*)?(?:x|×)\s*{N}\b"),
    Row("retries", r"\b(?P<n1>\d+)\s*(?:x|×)(?=\s|[,.;:)]|$)", needs=rf"{RETRY}|\bagain\b"),
    Row("retries", r"\b(?:up\s+to|at\s+most|max(?:imum)?|a\s+maximum\s+of)\s+{N}\s+times\b", needs=RETRY),
    Row("retries", r"\b(?:once|twice|thrice)\s+more\b|\b(?:one|1)\s+more\s+(?:time|try|attempt|go|shot)\b|\banother\s+(?:try|attempt|go|shot)\b"),
    Row("retries", r"\b{N}\s+times\b", needs=rf"{RETRY}|\bagain\b"),
    Row("attempts", r"\bmax(?:imum)?[ _-]?(?:attempts|tries)\s*(?:[:=]|of|is)?\s*{N}\b"),
    Row("attempts", r"\b(?:attempts|tries)\s*[:=]\s*{N}\b"),
    Row("attempts", r"\b(?:max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than|a\s+max(?:imum)?\s+of|a\s+total\s+of|total\s+of|limit(?:ed)?\s+to)\s+{N}\s+(?:attempts?|tries|goes|shots|runs|calls)\b(?:\s+(?:max|total|in\s+total|overall|altogether))?"),
    Row("attempts", r"\b{N}\s+(?:attempts?|tries|goes|shots)\b(?:\s+(?:max(?:imum)?|total|in\s+total|overall|altogether|at\s+most))?"),
    Row("attempts", r"\b(?:try|attempt|run|call)\s+(?:it\s+|this\s+|the\s+(?:call|step|request)\s+)?(?:up\s+to\s+|at\s+most\s+)?{N}\s*(?:x|times)\b"),
    Row("attempts", r"\b(?:try|attempt)\s+(?:it\s+)?(?:up\s+to\s+)?(?:once|twice|thrice)\b(?!\s+more)"),
    Row("retry_bare", r"\bretr(?:y|ies|ying)\b|\bre-?tr(?:y|ies|ying)\b|\btry\s+(?:it\s+|this\s+)?again\b"),
)

# what happens when recovery is exhausted
FALLBACK = (
    Row("use_step", rf"\b(?:fall\s*-?\s*back\s+(?:to|on)|fail\s*over\s+to|switch\s+to|use|run|try|hand\s+(?:it\s+)?(?:over\s+)?to|route\s+(?:it\s+)?to|go\s+to|jump\s+to|send\s+(?:it\s+)?to)\s+(?:the\s+output\s+of\s+|the\s+result\s+of\s+)?{STEP}(?:'s\s+(?:output|result|skill))?(?:\s+instead)?", needs=rf"{CONDITION}|fall\s*-?\s*back|fail\s*over|instead"),
    Row("use_skill", rf"\b(?:fall\s*-?\s*back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to|use|run|call|invoke|try)\s+(?:the\s+)?{NAME}(?:\s+(?:skill|instead|as\s+(?:a\s+)?(?:fallback|backup)))*", needs=rf"{CONDITION}|fall\s*-?\s*back|fail\s*over|instead|backup|switch"),
    Row("use_skill", rf"\b(?:fall\s*-?\s*back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to|use|run|call|try)\s+(?:the\s+|a\s+|our\s+)?(?:[\w-]+\s+){{0,4}}?\(\s*{NAME}", needs=rf"{CONDITION}|fall\s*-?\s*back|fail\s*over|instead|backup|switch"),
    Row("use_skill", rf"\b{NAME}\s+instead\b"),
    Row("use_skill", r"\b(?:fall\s*-?\s*back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b"),
    Row("use_skill", r"\b(?:use|run|call)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s+(?:skill\s+)?instead\b"),
    Row("escalate", r"(?:^|(?<=[,;:(.!])|\b(?:and|then|to|just|please|also|immediately|or|we'?ll|we\s+will|should|must|will|you|go|so)\s+)\s*(?P<msg>(?:page|paging|ping|pinging|alert|alerting|notify|notifying|wake\s+up|call\s+out|email|e-mail|message|slack|tell|inform)\s+(?!(?:it|them|the\s+(?:step|caller|run))\b)[^.;!?]*?)(?=\s+(?:so|but|and\s+(?:then\s+)?(?:stop|fail|continue|leave|don'?t|do\s+not|wait|let)|because|since|,\s*(?:so|but|then|somebody|someone|because|which|they|he|she|it))\b|[.;!?]|,\s*$|$)"),
    Row("escalate", r"\bescalat(?:e|es|ed|ing|ion)(?:\s+(?:it\s+)?(?P<msg>to\s+[^.;,!?]+))?"),
    Row("escalate", r"\b(?P<msg>(?:hand|pass|send|give|kick)\s+(?:it\s+|this\s+)?(?:over\s+|back\s+|up\s+)?to\s+(?:a\s+|the\s+)?(?:human|person|people|someone|somebody|operator|on-?call|support|ops|team|oncall)[^.;,!?]*)"),
    Row("escalate", r"\b(?P<msg>(?:needs?|requires?|wait\s+for|ask(?:s)?\s+for|get)\s+(?:a\s+)?(?:human|manual|person|operator)\s*(?:review|intervention|help|attention|decision|look)?)"),
    Row("escalate", r"\b(?P<msg>(?:mark|flag|queue|send)\s+(?:it\s+)?(?:for|to)\s+(?:manual|human)\s+(?:review|handling|intervention))"),
    Row("escalate", r"\b(?P<msg>manual\s+(?:intervention|review|fix|handling|follow-?up))\b"),
    Row("escalate", r"\b(?P<msg>(?:open|file|raise|create)\s+(?:a\s+|an\s+)?(?:ticket|incident|issue|jira|page))\b"),
    Row("escalate", r"\b(?P<msg>(?:a\s+)?(?:human|person|someone|somebody)\s+(?:has|needs|must|should)\s+to\s+(?:look|decide|step\s+in|check|fix)[^.;,]*)"),
    Row("value_nos", r"\b(?:record|return|store|output|emit|give\s+back|log|mark|save|leave)\s+(?:it|them|this|the\s+\w+)?\s*(?:as\s+\w+\s+)?with\s+(?P<nos>no\s+\w+(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+or\s+)no\s+\w+)*)"),
    Row("value_field", r"\b(?:mark|set|record|treat|label|tag|report|return)\s+(?:the\s+|its\s+|it\s+as\s+)?(?P<field>[a-z_][\w]*(?:\s+[a-z_]\w*)?)?\s*(?:as|to|=)\s+(?P<value>\"[^\"]*\"|'[^']*'|“[^”]*”|`[^`]*`|\d+(?:\.\d+)?|true|false|null|unknown|none|empty|n/a|zero)"),
    Row("value_literal", r"\b(?:use|return|default(?:s)?\s+to|fall\s*-?\s*back\s+to|assume|substitute|output|emit|give\s+back|treat\s+(?:it|this|the\s+(?:result|output))\s+as|continue\s+with|carry\s+on\s+with|go\s+on\s+with|pass\s+on)\s+(?:the\s+value\s+|a\s+value\s+of\s+)?(?P<value>`[^`]*`)"),
    Row("value_literal", r"\b(?:default(?:s)?\s+to|fall\s*-?\s*back\s+to|use|return)\s+(?P<value>\"[^\"]*\"|'[^']*'|“[^”]*”|\d+(?:\.\d+)?\b|true\b|false\b|null\b|\[\s*\]|\{\s*\})(?:\s+(?:as\s+(?:the\s+)?(?:value|result|output|default))|\s+instead)?"),
    Row("value_empty", r"\b(?:use|return|assume|substitute|output|emit|give\s+back|treat\s+(?:it|this|the\s+(?:result|output))\s+as|continue\s+with|carry\s+on\s+with|go\s+on\s+with|proceed\s+with|fall\s*-?\s*back\s+to|default\s+to|pass\s+(?:on|along))\s+(?:an?\s+|the\s+)?(?:empty|blank|no|default|placeholder|cached|stub|dummy|null|zero)\s*(?:[\w-]+)?(?:\s+(?:value|values|result|results|output|list|docs|data|answer|response))?"),
    Row("value_empty", r"\b(?:use|return|output)\s+(?:an?\s+)?(?:empty|default)\s+(?:value|result|output|list|string|object)\b|\btemplate\s+fallback\b|\bempty\s+(?:result|output|value)\s+and\s+(?:continue|carry\s+on|move\s+on)\b"),
    Row("fail", r"\b(?:fail|failing|abort|aborting|stop|stopping|halt|halting|kill|killing|end|ending|terminate|cancel|bring\s+down|crash)\s+(?:the\s+|this\s+|our\s+)?(?:whole\s+|entire\s+|full\s+|complete\s+)?(?:run|workflow|pipeline|job|flow|thing|everything|process|dag|build|deploy(?:ment)?)\b"),
    Row("fail", r"\b(?:just\s+|simply\s+)?fail\s+(?:hard|loudly|the\s+step|outright|right\s+there|it)\b|\bjust\s+fail\b|\blet\s+(?:it|the\s+(?:run|step|workflow))\s+fail\b|\b(?:the\s+)?(?:run|workflow|pipeline|job)\s+(?:fails|should\s+fail|must\s+fail|is\s+failed|stops|should\s+stop|aborts)\b|\bmark\s+(?:the\s+)?(?:run|workflow)\s+(?:as\s+)?failed\b|\bstop\s+(?:right\s+)?there\b|\bstop\s+everything\b|\bdon'?t\s+(?:continue|carry\s+on|go\s+on|proceed)\b|\bnothing\s+else\s+(?:should\s+)?runs?\b|\bblock\s+(?:the\s+)?(?:rest|run|workflow)\b"),
    Row("fail", r"^\s*(?:fail|abort|stop|halt)\s*(?:\.|!)?\s*$|\bon[ _-]?(?:error|failure)\s*[:=]\s*fail\b|\bfail\s+(?:the\s+)?(?:step\s+)?and\s+stop\b|\b(?:then\s+)?stop\b(?=\s*(?:[.;,]|$|and\s+(?:tell|page|alert|notify|ping)))"),
    Row("continue", r"\b(?:continue|continuing|carry\s+on|carrying\s+on|keep\s+going|move\s+on|moving\s+on|go\s+on|proceed|proceeding|skip(?:\s+(?:it|this|the\s+step|this\s+step|ahead))?|ignore\s+(?:it|the\s+(?:error|failure|problem)|errors|failures)|let\s+the\s+(?:rest|run|workflow)\s+(?:continue|go\s+on|carry\s+on)|the\s+(?:rest|run|workflow)\s+(?:continues|goes\s+on|carries\s+on))\b(?:\s+(?:anyway|regardless|without\s+it))?"),
    Row("continue", r"\b(?:best[- ]effort|non-?blocking|nice[- ]to[- ]have|optional|not\s+(?:critical|essential|important|required|blocking)|doesn'?t\s+(?:block|matter)|does\s+not\s+(?:block|matter)|don'?t\s+(?:block|fail\s+the\s+(?:run|workflow))|shouldn'?t\s+block|should\s+not\s+block|never\s+blocks?|(?:must|should)\s+not\s+fail\s+the\s+(?:run|workflow)|(?:won'?t|will\s+not)\s+fail\s+the\s+(?:run|workflow))\b"),
)

# which failures a sentence is about, and what may be said without stating a policy
CONTEXT = (
    Row("class", r"\b(?:any(?:thing)?\s+(?:else|other)|anything\s+not\s+(?:listed|covered|mentioned)|any\s+(?:other\s+)?(?:error|failure|problem|exception)s?|all\s+(?:other\s+)?(?:errors|failures|problems)|otherwise|catch-?all|everything\s+else|in\s+all\s+other\s+cases|whatever\s+(?:else\s+)?(?:fails|goes\s+wrong|the\s+error)|for\s+all\s+errors|on\s+any\s+(?:error|failure))\b", value="any"),
    Row("class", r"\b(?:unrecoverable|permanent(?:ly)?|fatal|non-?retryable|not\s+retryable|declared\s+non-?retryable)\b", value="unrecoverable"),
    Row("class", r"\b(?:invalid[\s_]+input|bad\s+input|wrong\s+input|missing\s+input|input\s+is\s+(?:wrong|invalid|bad)|the\s+input\s+(?:is|was)\s+(?:wrong|invalid|bad)|malformed\s+input|(?:the\s+)?file'?s\s+fault|(?:doesn'?t|does\s+not|won'?t|can'?t|cannot|didn'?t)\s+(?:parse|validate)|can'?t\s+be\s+(?:parsed|split|read)|cannot\s+be\s+(?:parsed|split|read)|not\s+found|(?:doesn'?t|does\s+not)\s+exist|no\s+such|4(?:0[0-9]|1[0-9]|2[0-8])|bad\s+request|missing\s+(?:field|data)|import\s*error|can'?t\s+import|cannot\s+import|invalid\s+module|unknown\s+module)\b", value="invalid_input"),
    Row("class", r"\b(?:(?<!server\s)crash(?:es|ed|ing)?|exception|traceback|syntax\s*error|script\s+(?:error|fail\w*|bug)|code[\s_]+error|bug|returns?\s+(?:garbage|junk|nonsense|bad\s+output)|bad\s+output|not\s+markdown|invalid\s+markdown|malformed|parse\s+(?:fail\w*|error)|validation\s+fail\w*|generation\s+fail\w*|can'?t\s+create\s+code|breaks?\s+(?:its|the)\s+(?:contract|schema)|contract|non-?zero\s+exit|bad\s+exit|blows?\s+up|throws|raises|errors?\s+out)\b", value="code_error"),
    Row("class", r"\b(?:times?\s+out|timed\s+out|timing\s+out|time-?outs?|too\s+slow|hangs?|hanging|no\s+(?:answer|response|reply)|deadline)\b", value="timeout"),
    Row("class", r"\b(?:network(?:\s+(?:error|failure|problem|issue|glitch|blip)s?)?|connection(?:\s+(?:error|reset|refused|drop(?:ped)?|lost|failure)s?)?|unreachable|is\s+down|goes\s+down|went\s+down|are\s+down|(?:is\s+|temporarily\s+)?unavailable|rate[- ]?limit(?:s|ed|ing)?|throttl\w*|429|5\d\d|5xx|flaky|flakes|transient|hiccups?|blips?|overloaded|busy|outage|dns|socket|server\s+crash\w*)\b", value="transient"),
)

# what a sentence may say without stating a policy: read first, so no row takes its words
IGNORE = (
    Row("ignore", r"\b(?:has|have|had|was|were|is|are)(?:n'?t|\s+not)?\s+(?:already\s+|not\s+|never\s+)?been\s+(?:re-?)?tried\b|\bif\s+not\s+(?:already\s+)?retried\b"),
    Row("ignore", r"\b(?:normally|usually|typically|often|generally|mostly|on\s+average|in\s+practice|sometimes|always)\s+(?:takes?|runs?|finishes|lasts?|is\s+(?:done|fast|slow|quick)|fast|slow|quick|answers|responds)\b[^.;]*"),
    Row("ignore", r"\b(?:counts?\s+as\s+(?:a\s+)?fail(?:ure|ed)|is\s+(?:treated\s+as\s+)?(?:a\s+)?fail(?:ure|ed)|as\s+a\s+failure|means\s+(?:it|the\s+step)\s+failed)\b"),
    Row("ignore", r"\b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:try\s+to\s+)?(?:undo|roll\s*back|revert|compensate|clean\s+up)\b[^.;]*|\bleave\s+(?:everything|it|things|the\s+rest)\s+(?:as\s+(?:it\s+is|they\s+are)|alone|be)\b"),
    Row("ignore", r"\b(?:if|when|once|should)\s+(?:it|that|this|the\s+(?:step|call|request|\w+))?\s*(?:still\s+)?(?:fails?|failed|errors?|errored|breaks?|doesn'?t\s+work|does\s+not\s+work|won'?t\s+work|goes\s+wrong)(?:\s+(?:again|too|as\s+well|after\s+(?:that|all\s+(?:the|its|those)\s+(?:retries|tries|attempts)|(?:its|the|those)\s+(?:retries|tries|attempts)))|\s+(?:for\s+good|anyway))?\b|\b(?:still|then)\s+(?:fails?|doesn'?t\s+work)\b|\bafter\s+(?:that|(?:its|the|all\s+(?:the|its))\s+(?:retries|tries|attempts))\b|\bif\s+(?:that|this)\s+(?:still\s+)?(?:doesn'?t|does\s+not|won'?t)\s+(?:work|help)\b|\bit\s+still\s+won'?t\s+(?:take\s+it|work)\b|\bif\s+all\s+else\s+fails\b"),
)

# phrasings that state a policy too vaguely to read into one
AMBIGUOUS = (
    Row("ambiguous", r"\b(?:a\s+few|several|some|many|a\s+bunch\s+of|a\s+handful\s+of|multiple|a\s+number\s+of|enough|a\s+reasonable\s+number\s+of|a\s+couple\s+more)\s+(?:times|retries|attempts|tries|more\s+times)\b", value="the count is not a number"),
    Row("ambiguous", r"\b(?:a\s+(?:few|couple\s+of)|several|some)\s+(?:seconds|minutes|hours)\b", value="the duration is not a number"),
    Row("ambiguous", r"\b(?:a\s+while|a\s+bit|a\s+moment|a\s+little|a\s+short\s+time|briefly|a\s+reasonable\s+time|too\s+long|forever|for\s+ever|indefinitely|until\s+it\s+works|until\s+(?:it\s+)?succeeds|as\s+(?:long|often|many\s+times)\s+as\s+(?:needed|necessary|it\s+takes))\b", value="the amount is not stated"),
    Row("ambiguous", r"\b(?:retry|retries|try\s+again)\b[^.;]*\b(?:or|maybe|perhaps|possibly)\b[^.;]*\b(?:\d+|once|twice|three)\b", value="it offers alternatives"),
    Row("ambiguous", r"\b(?:maybe|perhaps|possibly|probably|might|could|if\s+possible|ideally|\?$)", value="it is tentative"),
)

# in order: a row only reads text no earlier row took
TABLES: tuple[tuple[Row, ...], ...] = (REGENERATE, NO_RETRY, BOUNDS, WAIT, BACKOFF, BUDGET, TIMEOUT, COUNT_ROWS, FALLBACK)

# words that show a sentence means to state a policy
SIGNALS = re.compile(
    r"\b(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies|ied|ying)|try\s+(?:it\s+|this\s+)?again|attempts?|tries|back-?\s*off"
    r"|time-?\s*outs?|timed\s+out|times\s+out|wait(?:ing|s)?|delay(?:ed|s)?|jitter|fall\s*-?\s*back|escalat\w*"
    r"|on-?call|abort|give\s+up|regenerat\w*|exponential\w*|\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b"
    r"|once|twice|thrice|\d+\s*x\b)",
    re.I,
)


def expand(pattern: str) -> str:
    """Replace {N}, {D} (numbered n1, d1, ... in order), {NAME} and {STEP} in `pattern`."""
    out: list[str] = []
    counts = {"N": 0, "D": 0}
    i = 0
    while i < len(pattern):
        if pattern.startswith("{N}", i) or pattern.startswith("{D}", i):
            key = pattern[i + 1]
            counts[key] += 1
            body = COUNT if key == "N" else DURATION
            guard = r"(?<!step )(?<!steps )(?<!stage )" if key == "N" else ""
            out.append(f"{guard}(?P<{key.lower()}{counts[key]}>{body})")
            i += 3
        elif pattern.startswith("{{", i) or pattern.startswith("}}", i):
            out.append(pattern[i])  # an escaped brace: `{{0,4}}` in a row is `{0,4}`
            i += 2
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class Compiled:
    row: Row
    regex: re.Pattern[str]
    needs: re.Pattern[str] | None


def compile_table(rows: tuple[Row, ...]) -> tuple[Compiled, ...]:
    return tuple(
        Compiled(r, re.compile(expand(r.pattern), re.I), re.compile(r.needs, re.I) if r.needs else None)
        for r in rows
    )


COMPILED: tuple[tuple[Compiled, ...], ...] = tuple(compile_table(t) for t in TABLES)
COMPILED_CONTEXT = compile_table(CONTEXT)
COMPILED_IGNORE = compile_table(IGNORE)
COMPILED_AMBIGUOUS = compile_table(AMBIGUOUS)
