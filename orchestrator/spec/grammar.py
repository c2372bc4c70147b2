"""The grammar of recovery policy sentences, as tables: adding a phrasing is adding a row.

A `Row` says which slot of a policy a phrasing fills (`retries`, `wait_fixed`,
`timeout`, `escalate`, ...) and the regular expression that finds it. Patterns
are written with placeholders, expanded when the tables are compiled:

    {N}       a count: 3, three, twice, a couple of
    {D}       a duration: 2s, 5 second, 1.5 secs, a minute, half an hour, 1m30s
    {SERIES}  waits in a row: 5s, then 15s / 1s, 2s, 4s / 1/5/25 s / +1m, +5m and +15m
    {NAME}    a backticked skill name: `backup-mirror`
    {STEP}    a step reference: step 3, step three
    {TRY} {RETRY} {COND}   the words for a try, for trying again, for a condition

The reader (`orchestrator.spec.phrase`) first lets `IGNORE` rows take the words
a sentence may say without stating a policy ("counts as a failure", "if it
still fails", "don't undo the earlier steps"), then tries `TABLES` in order,
each table's rows in order. A row only reads text no earlier row took, so a
more specific phrasing is written above a general one ("waiting 2s between
tries" above "timeout 2s"). `needs`, when set, must match somewhere in the
sentence (a fallback skill is only a fallback after "if", "otherwise", "fall
back"...). The rows read the sentence as `spec.normalize` leaves it: typos
mended, number words as digits ("three times" → "3 times", "a minute" → "1
minute"). A table is only tried on a sentence with one of its `GATES` words,
and compiled when first tried. `also` names more slots the row fills ("give up after 2 min" is a
time budget and a failure). `CONTEXT` rows then say which failures the
sentence is about, in the words no policy row took. `VAGUE` rows (tried before
the policy tables) and `DOUBT` rows (after them, unless one of their `unless`
slots was read) are phrasings that cannot be read into one policy; they are
reported with the reason. Every pattern is compiled on the first sentence read,
or loaded compiled by an earlier process (`spec.regex_cache`).

The rows for the phrasing families of the sixth blind set live in `spec.grammar_families`,
each tuple joined to its table here (before or after the table's own rows), with its gate words.

`signals()` are the words that show a sentence means to state a policy: a
sentence with one that no row has read is reported as not understood, never
dropped. `TYPOS` are misspellings read as the word meant ("retyr", "timout").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from orchestrator.spec import grammar_families as more
from orchestrator.spec import grammar_families7 as more7
from orchestrator.spec import grammar_families8 as more8
from orchestrator.spec.grammar_aside import CONTEXT, DOUBT, IGNORE, IMPLIED
from orchestrator.spec.grammar_aside import (
    NO_COUNT as NO_COUNT,  # read as grammar.NO_COUNT (`spec.prose`)
)
from orchestrator.spec.grammar_row import Row as Row  # the rows' type, read here as grammar.Row
from orchestrator.spec.regex_cache import compile_all
from orchestrator.spec.time_words29 import EXPO_WORD  # "expo" as a whole word, never "export"

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "a single": 1, "single": 1, "once": 1, "two": 2, "twice": 2,
    "a couple of": 2, "a couple": 2, "three": 3, "thrice": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "dozen": 12, "fifteen": 15,
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

# misspellings read as the word meant (whole words, any case)
TYPOS: dict[str, str] = {
    "retyr": "retry", "rety": "retry", "retrie": "retry", "rettry": "retry", "retrys": "retries",
    "retires": "retries", "retried": "retried", "reties": "retries", "retris": "retries",
    "waitng": "waiting", "wiating": "waiting", "wiat": "wait", "givve": "give", "giv": "give",
    "timout": "timeout", "timeotu": "timeout", "tiemout": "timeout", "time-out": "timeout",
    "exponentialy": "exponentially", "exponental": "exponential", "expontential": "exponential",
    "exponetial": "exponential", "backof": "backoff", "bakoff": "backoff", "secods": "seconds",
    "secnds": "seconds", "seconsd": "seconds", "minuts": "minutes", "mintues": "minutes",
    "attemps": "attempts", "attemtps": "attempts", "escalte": "escalate", "escallate": "escalate",
    "contine": "continue", "continiue": "continue", "twise": "twice", "trys": "tries",
}  # fmt: skip

WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
# every key of UNIT_SECONDS, factored (a smaller pattern compiles and matches faster)
UNITS = r"(?:m(?:s(?:ecs?)?|illiseconds?|ins?|inutes?)?|s(?:ecs?|econds?)?|h(?:rs?|ours?)?|d(?:ays?)?)"
LONG_UNITS = r"(?:millisecond|second|sec|minute|min|hour|day)s?"
# Number words are written as digits before the rows are tried (`spec.normalize`): a count is digits or once/twice/thrice never followed by a unit ("retries: 30 s" is a time: `_TIMED`), a duration digits and a unit.
COUNT = r"(?:\d+|once|twice|thrice)"
_TIMED = rf"(?!\s*+(?:\.\d|(?:{UNITS})(?![a-z])))"
# each part unambiguous (`\s*(?:-\s*)?`, not `\s*-?\s*`): a series of them cannot backtrack 2^n ways
# and started at a number's first digit (`(?<!\d)`): a long run of digits is tried once, not from each digit
DURATION_PART = rf"(?:(?<![\dA-Za-z])\d+(?:\.\d+)?\s*(?:-\s*)?(?:{UNITS})(?![a-z]))"
DURATION = DURATION_PART  # "1m30s" is written "90 s" before the rows are tried (`spec.normalize`)
_THEN = (r"\s*(?:,\s*(?:and\s+)?then|,?\s+then|,?\s+and\s+then|,\s*and|,|\s+and|\s*->|\s*→|\s*/|\s*\.\.)\s*"
         r"(?:wait(?:ing)?\s+|after\s+|\+\s*)?")
SERIES = (  # a series of durations may end in bare numbers that take the last unit ("30 s, then 1 min, then 2")
    rf"(?:\+?\s*+{DURATION}(?:(?>{_THEN}){DURATION})+(?:(?>{_THEN})\d+(?:\.\d+)?+(?!\d|\.\d|\s*+(?:{UNITS}|%|x|times|tries|try|retries|retry|attempts?|goes|go)\b))*+"
    rf"|(?<!\d)(?>\d+(?:\.\d+)?(?:\s*,\s*(?:(?:and\s+then|and|then)\s+)?|\s+(?:and\s+then|and|then)\s+|\s*/\s*))+\d+(?:\.\d+)?\s*(?:{UNITS})(?![a-z])"
    rf"|{DURATION}(?:(?>{_THEN})\d+(?:\.\d+)?(?!\d|\.\d|\s*(?:{UNITS}|%|x|times|tries|try|retries|retry|attempts?|goes|go)\b))+)"
)
NAME = r"`(?!(?:true|false|null|none)`)(?P<name>[A-Za-z][\w.:/-]{0,79})`"
STEP_WORDS = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
STEP = rf"(?:step|stage)\s+(?P<step>{STEP_WORDS})\b"
TRY = r"(?:tries|try|attempts?|retries|retry|calls?|runs?|reruns?|re-runs?|goes|shots?)"
RETRY = (r"(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies|ied|ying)|(?:try|go|run|do|call|hit)(?:ing)?\s+(?:it\s+|this\s+|that\s+|them\s+|the\s+[\w-]+\s+)?again|re-?run"
         r"|rerun|re-?attempt|attempt\s+(?:it\s+)?again|(?:attempted|tried|called|tries|goes|calls|hits)\s+again|(?:look|check|poll|ask)(?:ing)?\s+again|repeat\s+(?:it|the\s+call|the\s+step)|keep\s+trying|poll)")
COND = (r"\b(?:if|when|whenever|once|should|otherwise|else|on\s+(?:error|failure)|in\s+case|unless|fails?\b|failing"
        r"|gives?\s+up|down\b|errors?\b"
        # a failure asked as a short question, answered after it ("Scanner broken? Use `x`."; `spec.failure_question43`)
        r"|(?:broken|dead|offline|unreachable|unavailable|unresponsive|stuck|jammed|hung|hangs|crash(?:es|ed|ing)?"
        r"|misbehav(?:es|ed|ing)|tim(?:es|ed|ing)\s+out|not\s+(?:working|responding|answering)"
        r"|no\s+(?:answer|response|reply))(?![\w-])[^.?!;]{0,40}\?)")
_PLACEHOLDERS = {"{SERIES}": SERIES, "{NAME}": NAME, "{STEP}": STEP, "{TRY}": TRY, "{RETRY}": RETRY, "{COND}": COND}


# -- the tables, in the order they are tried ------------------------------------------

# phrasings whose words the later tables would read apart: first
FIRST: tuple[Row, ...] = (
    Row("timeout", r"\b(?:may|should|must|can|shall)\s+(?:take|run|last)\s+(?:at\s+most|no\s+more\s+than|up\s+to)\s+{D}(?:\s+(?:per|each|an?)\s+(?:{TRY}|call|request))?"),
    Row("wait_fixed", r"\bonce\s+every\s+{D}"),
    Row("timeout", r"\b(?:don'?t|do\s+not|never)\s+wait\s+(?:more|longer)\s+than\s+{D}\s+for\s+(?:a\s+|an\s+|the\s+|its\s+)?(?:response|answer|reply|result)\b"),
    Row("timeout", r"\b(?:if|when)\s+(?:it|the\s+[\w-]+)\s+times?\s+out\s*(?:\(\s*{D}\s*\)|after\s+{D})", also=("class:timeout",)),
    Row("wait_seq", r"\bfirst\s+(?:retry\s+|one\s+)?(?:after|in|waits?)\s+(?P<seq>{D}\s*,?\s*(?:then|second(?:\s+(?:retry|one))?)\s+(?:after|in)?\s*(?:\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?|{D}))"),
    Row("retries", r"\bretry\s+policy\s*[:=]\s*{N}(?=\s*(?:/|,)\s*\d)"),
    Row("wait_fixed", r"/\s*{D}", needs=r"\bretry\s+policy\s*[:=]"),
    Row("attempts", r"\b{N}\s+(?:times\s+)?in\s+a\s+row\b", needs=r"fail|crash|error|time"),
    Row("attempts", r"\bafter\s+{N}\s+(?:failed\s+|unsuccessful\s+|bad\s+)?(?:tries|attempts|goes|runs)\b"),
    # "give up on it after 20 s", "give up on one after 15 s" (an item of a loop), "bail out after 45 seconds":
    # how long one attempt may take
    Row("timeout", r"\b(?:give\s+up\s+on\s+(?:it|this|that|one|each(?:\s+one)?|an?\s+[\w-]+|the\s+(?:[\w-]+\s+){0,2}?[\w-]+)|bail(?:\s+out)?|pull\s+the\s+plug)\s+(?:after|at|past)\s+{D}"),
    Row("budget", r"\b(?:give\s+up|stop\s+(?:re)?trying|quit)\s+(?:after|once|when)\s+(?:about\s+)?{D}(?:\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by))?", also=("fail",)),
    Row("attempts", r"\b(?:give\s+up|stop(?:\s+trying)?|quit)\s+after\s+{N}\s+(?:failed\s+|unsuccessful\s+)?(?:tries|attempts|goes|runs)\b", also=("fail",)),
    # "another go": one retry, unless a count is said too ("another go at it, up to 3 more times")
    Row("retries_soft", r"\b(?:a|one)\s+(?:second|another|more)\s+(?:chance|go|shot|try)\b|\banother\s+(?:chance|go|shot|try|attempt)\b(?!\s+(?:at\s+it\s+)?(?:\d+|once|twice|thrice)\s+(?:more\s+)?(?:times|tries|goes)\b)", value=1),
    Row("no_retry", r"\bfail\s+(?:fast|immediately|straight\s+away|right\s+away|at\s+once)\b", also=("fail",)),
    Row("wait_fixed", r"\bonce\s+(?:a|an|per|every|1)\s+(?P<d9>second|minute|hour|day)\b"),
    Row("retries", r"\b(?:one|1|a\s+single)\s+retry\b", value=1),
    # "five tries beyond the first": retries, not attempts
    Row("retries", r"\b{N}\s+(?:more\s+|further\s+|extra\s+)?(?:tries|attempts|goes|shots|times|retries|reruns|runs)\s+(?:(?:at\s+most|max(?:imum)?|tops)\s+)?(?:beyond|after|besides|on\s+top\s+of|past|in\s+addition\s+to|over\s+and\s+above)\s+the\s+(?:first|initial|original)(?:\s+(?:one|try|attempt|run|go|call))?(?:\s+(?:at\s+most|max(?:imum)?|tops))?"),
    # "three strikes and it's out": that many attempts
    Row("attempts", r"\b{N}\s+strikes\b(?:\s+and\s+(?:it'?s|it\s+is|you'?re|you\s+are|that'?s|it\s+goes)\s+out\b)?"),
    # "exceptions in the parser are fatal": that failure stops the run (its class is read apart)
    Row("fail", r"\b(?:is|are|be|as|count\s+as)\s+(?:always\s+|considered\s+|treated\s+as\s+)?(?:fatal|unrecoverable|terminal|a\s+hard\s+(?:failure|stop))\b|\btreat\s+(?:it|them|this|these|those)\s+as\s+(?:fatal|unrecoverable)\b"),
)

# holdout3 families: a limit on one try said as a cap, a limit or a kill; chances after the first;
# a budget across all tries; waits said per retry; a bare time or an unparameterised backoff, reported
FIRST += (
    Row("timeout", r"\b(?:hard\s+|strict\s+)?(?:cap|limit|ceiling)\s+(?:of\s+)?{D}\s+(?:per|each|for\s+each|on\s+each|an?)\s+(?:{TRY}|call|request)\b"),
    Row("timeout", r"\b(?:time\s+)?limit\s+(?:per|for\s+each|on\s+each|each)\s+(?:{TRY}|call|request)\s*(?:[:=]|is|of)?\s*{D}"),
    Row("timeout", r"\b(?:kill|abort|cancel|stop|terminate|cut\s+off)\s+(?:an?|any|each|every|the)\s+(?:single\s+)?(?:{TRY}|call|request)\s+(?:(?:that|which|once\s+it|if\s+it|when\s+it)\s+(?:runs?|takes?|goes|lasts?|hangs?)\s+)?(?:after|past|at|longer\s+than|over|beyond)\s+{D}"),
    Row("retries", r"\b{N}\s+(?:more\s+|further\s+|extra\s+)?(?:chances|opportunities)\s+(?:after|beyond|following|besides)\s+the\s+(?:first|initial)(?:\s+(?:failure|error|one|try|attempt|fail))?"),
    Row("budget", r"\b(?:no\s+more\s+than|at\s+most|up\s+to|under|a\s+max(?:imum)?\s+of)\s+{D}\b[^.;]{0,40}?\b(?:across|over|for|in)\s+all\s+(?:the\s+|its\s+|of\s+its\s+)?(?:{TRY}|tries)(?:\s+(?:together|combined))?"),
    Row("wait_seq", r"\bwait(?:ing|s)?\s+(?P<seq>{D}\s+(?:the\s+|on\s+the\s+|before\s+the\s+)?first\s+(?:time|retry|one|try)?\s*,?\s*(?:and|then)\s+(?:(?:wait(?:ing)?\s+)?){D}\s+(?:the\s+|on\s+the\s+|before\s+the\s+)?second(?:\s+(?:time|one|retry|try))?)"),
    Row("timeout", r"\b(?:allow|give\s+it)\s+{D}\s*,?\s*(?:and\s+)?then\s+(?:give\s+up\s+on|abandon|kill|abort|drop|cancel)\s+(?:the|that|this)\s+(?:attempt|try|call|request)\b"),
    Row("budget", r"\buntil\s+it\s+(?:works|succeeds|passes|answers)\s+or\s+{D}\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by)\b"),
    Row("retry_bare", r"\bpoll(?:ing)?\s+again\b"),
    Row("ambiguous", r"(?<!exponential\s)\b(?:jitter(?:ed|y)?|random(?:ized|ised)?)\s+back-?\s*offs?\b(?![^.;]{0,40}?\b(?:start|from|begin|initial|base|doubl|tripl|factor|x\s*\d))", value="the backoff's waits are not given (where it starts, how it grows); write e.g. 'exponential backoff from 1s, doubling, with jitter'"),
)

# new code for a failing script: before counts, its count is not a number of attempts
REGENERATE = (
    # another step's script: "regenerate the step 2 script (1 attempt) and check again" (a feedback, not this step's)
    Row("feedback", r"\b(?:regenerat\w*|re-?generat\w*|re-?write|rewrite|repair|re-?do)\s+(?:the\s+)?(?:(?:script|code|program)\s+(?:of|for)\s+)?{STEP}(?:'s)?(?:\s+(?:script|code|program|skill))?(?:\s*\(\s*(?:max\s+|up\s+to\s+|at\s+most\s+)?{N}\s*(?:attempts?|times?|tries|try|x|regenerations?|rounds?)?\s*\)|,?\s+(?:up\s+to\s+|at\s+most\s+)?{N}\s*(?:x|times?|attempts?|regenerations?|rounds?)\b|\s+(?P<n9>once|twice))?(?:\s+and\s+(?:check|try|validate|run|test|qa|re-?check)\w*\s+(?:it\s+|them\s+)?again)?"),
    Row("regenerate", r"\b(?:regenerat\w*|re-?generat\w*|re-?write|rewrite|repair|fix)\b(?:\s+(?:the\s+|its\s+|a\s+new\s+)?(?:script|code|program|skill|implementation|it)\b)?(?:\s+(?:with|using)\s+the\s+(?:model|llm|ai))?(?:\s*\(\s*(?:max\s+|up\s+to\s+|at\s+most\s+)?{N}\s*(?:attempts?|times?|tries|try|x|go|regenerations?|rewrites?|repairs?|fix(?:es)?|rounds?)?\s*(?:max)?\s*\)|,?\s+(?:up\s+to\s+|at\s+most\s+|max\s+)?{N}\s*(?:x|times?|attempts?|go(?:es)?|tries|try|regenerations?|rewrites?|repairs?|fix(?:es)?|rounds?)\b|\s+(?:up\s+to\s+|at\s+most\s+)?(?P<n9>once|twice)\b)?", needs=r"regenerat|re-?generat|re-?write|rewrite|repair|fix\s+(?:the\s+|its\s+)?(?:script|code)"),
    Row("regenerate", r"\b(?:ask|have|let|get)\s+the\s+(?:model|llm|ai)\s+(?:to\s+)?(?:fix|repair|rewrite|regenerate|re-?write)\s+(?:it|the\s+(?:script|code))(?:\s*\(\s*(?:max\s+|up\s+to\s+)?{N}\s*(?:attempts?|times?|tries|try|go|regenerations?|rounds?)?\s*\)|,?\s+(?:(?:max\s+|up\s+to\s+)?{N}\s+(?:go|goes|times?|attempts?|tries|try|regenerations?|rounds?)|(?P<n9>once|twice)))?"),
    Row("regenerate", r"\bnew\s+(?:code|script)\s+from\s+the\s+(?:model|llm)\b"),
)

# counts and amounts too vague to read: before the counts that would read them
VAGUE: tuple[Row, ...] = (
    Row("ambiguous", r"\b\d+\s*(?:-|–|to|or)\s*\d+\s*(?:x\b|times|retries|attempts|tries|more\s+times)", value="the count is a range, not a number"),
    Row("ambiguous", r"\b(?:a\s+few|several|some|many|a\s+bunch\s+of|a\s+handful\s+of|multiple|a\s+number\s+of|enough|a\s+reasonable\s+number\s+of|a\s+couple\s+more|couple\s+more)\s+(?:times|retries|attempts|tries|more\s+times)\b", value="the count is not a number"),
    # "for that many minutes", "as many hours as it takes": an amount given elsewhere, not a vague duration
    Row("ambiguous", r"\b(?:a\s+(?:few|couple\s+of)|several|some|(?<!\bthat\s)(?<!\bthis\s)(?<!\bas\s)(?<!\bhow\s)many)\s+(?:seconds|minutes|hours)\b", value="the duration is not a number"),
    Row("ambiguous", r"\b{N}\s+times\s+or\s+(?:for\s+)?{D}|\b{D}\s+or\s+{N}\s+(?:times|tries|retries)", value="it offers alternatives"),
    Row("ambiguous", r"(?<!\bto\s)(?<!up\sto\s)(?<!at\smost\s)(?<![-\w])try\s+(?:it\s+|this\s+)?(?:twice|thrice|\d+\s+times)\b(?!\s+(?:total|in\s+total|in\s+all|all\s+told|overall|altogether|more|max|at\s+most|tops)\b)", value="it may or may not count the first try; write 'retry N times' or 'N attempts in total'"),
    # a retry time budget shared by the whole run: no plan holds one
    Row("ambiguous", r"\bretr(?:y|ies)\s+(?:time\s+)?(?:budget|window|allowance)\s+(?:for|of|across|over)\s+(?:the\s+)?(?:whole|entire|full)\s+(?:run|workflow|pipeline|job)\s*(?:[:=]|is|of)?\s*{D}", value="a retry time budget shared by the whole run is not a policy the plan can hold (per step: 'retry for up to {time}'); not read"),
    # stopping on what the step returned ("If it says high, stop the whole workflow") is a condition on its output
    Row("ambiguous", r"\b(?:if|when)\s+(?:it|the\s+(?:result|answer|score|check|screen|service|skill))\s+(?:says|returns|reports|comes\s+back(?:\s+with|\s+as)?|flags|gives|rates|scores|answers)\s+(?!(?:an?\s+)?(?:error|failure|nothing|no\s+answer)\b)[^,;.]{1,40},\s*(?:then\s+)?(?:stop|fail|abort|halt|end|cancel)\b[^.;]*", value="stopping on what the step returned is a condition on its output, not a recovery policy; write it as a condition or a success check"),
    # a person's answer time is an approval's wait, which no policy of a step holds: reported, never the step's timeout
    Row("ambiguous", r"\b(?:if|when|unless|once)\s+(?:they|nobody|no\s+one|no-one|none\s+of\s+them|the\s+(?:approver|approvers|lead|manager|reviewer|owner|head\s+of\s+[\w-]+|controller|treasurer|captain|editor|director|supervisor|signatory|signer|requester|customer|client|human|person|maintainer|boss)|(?:the\s+)?[\w-]+\s+(?:lead|manager|owner|reviewer|captain|desk|team|director|editor))\s+(?:has\s+|have\s+|not\s+|hasn'?t\s+|haven'?t\s+|doesn'?t\s+|don'?t\s+|does\s+not\s+|do\s+not\s+|did\s+not\s+|didn'?t\s+|still\s+)*(?:answer\w*|respond\w*|repl(?:y|ies|ied)|sign\w*\s+off|said\s+yes|say\s+yes|approv\w*|decid\w*|looked\s+at\s+it|(?:checked|reviewed|tasted|seen|read|ok'?d|okayed)\s+(?:it|them|this)?)\s*(?:(?:with)?in|after)\s+{D}[^.]*", value="a person's answer time is the wait of an approval, not a policy of the step; write it on the step's approval (`Approval: required, timeout {time} -> reject`)"),
    Row("ambiguous", r"\bno\s+(?:answer|reply|response|sign-?off|decision)\s+(?:with)?in\s+{D}\s*(?:=|→|->|means|:|,)?\s*(?:it'?s\s+|it\s+is\s+)?(?:(?:we\s+)?(?:treat(?:ed)?|count(?:ed|s)?|take|read)\s+(?:it\s+)?as\s+|(?:is\s+)?considered\s+)?(?:rejected|approved|a\s+no|a\s+yes|no|yes|cancell?ed|declined|refused|denied)\b", value="an answer time with its outcome is the wait of an approval, not a policy of the step; write it on the step's approval"),
    Row("ambiguous", r"\btime-?\s*out\s*[:=]?\s*\d+(?:\.\d+)?(?!\s*(?:\.\d|ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?|d|days?)\b)(?=\s*(?:[,.;)]|$))", value="the number has no unit"),
)

# "never retried", "no retry", "retry: 0": before any count
NO_RETRY: tuple[Row, ...] = (
    Row("no_retry", r"\b(?:never|not|don'?t|do\s+not|no|without|must\s+not|mustn'?t|shouldn'?t|should\s+not|won'?t|cannot|can'?t|isn'?t|is\s+not|aren'?t|are\s+not|never\s+be|not\s+be)\s+(?:be\s+|ever\s+|bother\s+(?:to\s+)?|try\s+to\s+|need\s+to\s+|automatically\s+)?(?:re-?tr(?:y|ies|ied|ying)|retr(?:y|ies|ied|ying)|re-?run|rerun|re-?attempt)\w*(?!\s+(?:more|longer)\s+than)"),
    Row("no_retry", r"\bretr(?:y|ies)\s*+(?:[:=-]|count\s*+[:=]?|of)?\s*+(?:0|zero|none|no|never|off|false|disabled)\b(?!\s*+\.\d)(?!\s+(?:more|longer)\s+than)"),
    Row("no_retry", r"\b(?:0|zero|no)\s+(?:retries|re-?tries|retry\s+attempts)\b"),
    # "never restart this one", "*** DO NOT RESTART STEP04 ***": restarting the step itself is running it again
    # (round 52); a thing of its own restarted ("don't restart the router") is not the step
    Row("no_retry", r"\b(?:never|don'?t|do\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|not\s+to)\s+(?:ever\s+)?"
        r"re-?start(?=\s*+(?:$|[.,;:!*)—–-])|\s++(?:it|this|that|them|the\s++(?:step|job|task|run)|step[ -]?\d{1,3}+|"
        r"[a-z]{1,12}+\d{1,4}+)\b)"),
    Row("no_retry", r"\b(?:(?:there'?s|there\s+is)\s+)?(?:no\s+point|no\s+use|no\s+sense|pointless|useless|not\s+worth(?:\s+it)?)\s+(?:in\s+)?(?:re-?tr(?:y|ying)|retr(?:y|ying)|re-?run(?:ning)?|trying\s+(?:it\s+|this\s+|that\s+)?again)\b(?:\s+(?:it|this|that|them))?"),
    Row("no_retry", r"\bnot\s+retryable\b|\bnon-?retryable\b|\bno\s+second\s+(?:try|attempt|chance)s?\b"),
    Row("no_retry", r"\b(?:one|a\s+single|1)\s+(?:attempt|try|shot)\s+only\b|\bonly\s+(?:one|a\s+single|1|once)\s*(?:attempt|try|shot)?\b(?!\s*(?:more|again|retry))|\bsingle[- ](?:attempt|shot|try)\b|(?<![\w-])try\s+(?:it\s+)?(?:just\s+)?once\b(?!\s+more)|\bone\s+and\s+done\b|\bone[- ]shot\b"),
    Row("no_retry", r"\b(?:do\s+not|don'?t|never)\s+try\s+(?:it\s+|this\s+|that\s+)?again\b|\bno\s+(?:more\s+)?(?:second\s+)?(?:tries|attempts)\b"),
)

# a time budget for retrying: "for up to a minute"; before waits, whose "for" it is not
BUDGET: tuple[Row, ...] = (
    Row("budget", r"\bfor\s+(?:up\s+to|at\s+most|a\s+maximum\s+of|a\s+max(?:imum)?\s+of|no\s+more\s+than)\s+{D}(?:\s+(?:in\s+total|total|overall|altogether|max))?"),
    Row("budget", r"\b(?:keep|kept)\s+(?:on\s+)?(?:re)?tr(?:y|ying)\s+(?:it\s+)?(?:for|during)\s+(?:up\s+to\s+)?{D}"),
    Row("budget", r"\buntil\s+{D}\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by)\b"),
    Row("budget", r"\b(?:within|over|during)\s+(?:a\s+(?:total|window)\s+of\s+|a\s+|the\s+next\s+)?{D}(?:\s+(?:in\s+total|total|overall|window|altogether))"),
    Row("budget", r"\b(?:gets?|has|have|is\s+given|is\s+allowed)\s+{D}\s+(?:in\s+total|total|overall|altogether|in\s+all)(?:\s+for\s+(?:all\s+)?(?:of\s+)?(?:its\s+|the\s+)?(?:{TRY}|tries)(?:\s+and\s+(?:the\s+|its\s+)?(?:pauses|waits|delays|retries|backoffs?))?(?:\s+together)?)?"),
    Row("budget", r"\b(?:no\s+longer\s+than|at\s+most|up\s+to)\s+{D}\s+(?:in\s+)?(?:total|overall|altogether|in\s+all)\b"),
    Row("budget", r"\b(?:retry|retrying|retries)\s+(?:window|budget|deadline)\s*(?:of|:|=|is)?\s*{D}"),
    Row("budget", r"\b(?:total|overall)\s+(?:retry\s+)?(?:time|budget|window)\s*(?:of|:|=|is)?\s*{D}"),
    Row("budget", r"(?<!wait\s)(?<!waiting\s)(?<!pause\s)(?<!sleep\s)(?<!delay\s)(?<!off\s)\bfor\s+{D}(?:\s+(?:in\s+total|total|overall|altogether|max))?", needs=r"{RETRY}|\bevery\s+|\bonce\s+(?:a|an|per)\b"),
    Row("budget", r"\bup\s+to\s+{D}\b(?!\s*(?:between|apart|per|each|wait|delay|ceiling|cap|max))", needs=r"\bevery\s+|\bkeep\s+trying|\bpoll"),
)

# where a backoff starts and where it stops: before the waits, which would take their numbers
BOUNDS: tuple[Row, ...] = (
    Row("exp_range", r"\b(?:exponential\w*\s+)?(?:back-?\s*off|exponential\w*|delays?|waits?)\s+(?:of\s+|from\s+)?{D}\s*(?:\.\.|–|-|to)\s*{D}"),
    Row("exp_start", r"\b(?:start(?:ing|s)?|begin(?:ning|s)?|initial(?:ly)?|first\s+(?:wait|delay|retry)|from|base)\s+(?:at\s+|with\s+|of\s+|from\s+|delay\s+(?:of\s+)?|wait\s+(?:of\s+)?)?{D}"),
    Row("exp_start", r"\b(?:initial|base|starting|first)\s+(?:delay|wait|backoff|interval)\s*(?:of|:|=|is)?\s*{D}"),
    Row("exp_start", r"\b{D}\s+(?:initial\s+)?(?:back-?\s*off|delay|wait)s?\b", needs=r"doubl|tripl|" + EXPO_WORD + r"|factor|multipl|grow|increas"),
    Row("exp_start", r"\b{D}(?=\s*,?\s*(?:then\s+)?(?:doubling|tripling|growing|increasing)\b)"),
    Row("exp_start", r"\b{D}\s+(?:initial|base|start(?:ing)?|first)\b(?:\s+(?:delay|wait|backoff|interval))?"),
    Row("exp_cap", r"\b(?:exponential\w*\s+)?(?:back-?\s*off|backing\s+off|back\s+off)\s+(?:exponentially\s+)?(?:up\s+to|to\s+at\s+most|at\s+most|max(?:imum)?)\s+{D}", also=("exponential",)),
    Row("exp_cap", r"\bexponential\w*\s+(?:back-?\s*off\s+|backing\s+off\s+)?(?:up\s+to|to\s+at\s+most)\s+{D}", also=("exponential",)),
    Row("exp_cap", r"\bup\s+to\s+(?:a\s+|an\s+)?{D}\s+(?:ceiling|cap|max(?:imum)?)\b"),
    Row("exp_cap", r"\b(?:max(?:imum)?|at\s+most|capped\s+at|cap(?:ped)?(?:\s+at|\s+of)?|no\s+more\s+than|never\s+(?:wait(?:ing)?\s+)?(?:more|longer)\s+than|not\s+more\s+than|limit(?:ed)?\s+(?:to|at)|topping\s+out\s+at|tops?\s+out\s+at|maxing\s+out\s+at|ceiling(?:\s+of)?)\s+(?:wait|delay|backoff|back-off|interval|pause)?s?\s*(?:of\s+|:\s*|=\s*|is\s+)?{D}(?:\s+(?:between\s+(?:{TRY}|them)|per\s+wait|each))?"),
    Row("exp_cap", r"\b{D}\s+(?:max(?:imum)?|cap|ceiling|tops|at\s+most)\b(?!\s+(?:per|each|for)\b)", needs=r"back-?\s*off|" + EXPO_WORD + r"|exp\.|doubl|increasing\s+(?:delay|wait)"),
    Row("exp_cap", r"\b(?:wait|delay|backoff|back-off|interval)s?\s+(?:capped|limited|maxed)\s+(?:at|to)\s+{D}"),
    Row("exp_cap", r"\b(?:wait|delay|backoff|back-off)s?\s+(?:of\s+)?(?:up\s+to|at\s+most|no\s+more\s+than)\s+{D}"),
    Row("exp_cap", r"\bup\s+to\s+{D}\s+(?:between|per\s+wait|each\s+wait|apart)\b"),
    Row("exp_cap", r"\b{D}\s+(?:max(?:imum)?|cap|ceiling|at\s+most)\s+(?:wait|delay|backoff|between\s+(?:{TRY}))\b"),
)

# waits between tries: before timeouts and counts, which would take their numbers
WAIT: tuple[Row, ...] = (
    Row("wait_none", r"\b(?:no\s+need\s+to|don'?t|do\s+not|without|never)\s+(?:wait(?:ing)?|pause|pausing|sleep(?:ing)?|delay(?:ing)?)\b(?:\s+(?:in\s+)?between(?:\s+(?:the\s+)?(?:tries|attempts|retries|them))?)?"),
    # "at once", "right away" are a wait only beside a retry ("takes the results at once", "can start right away")
    Row("wait_none", r"\b(?:immediately|instantly|right\s+away|straight\s+away|at\s+once|back[- ]to[- ]back)\b",
        needs=r"{RETRY}|\btr(?:y|ies|ying)\b|\battempts?\b|\bagain\b"),
    Row("wait_none", r"\b(?:without\s+(?:any\s+|a\s+)?(?:delay|wait|pause|backoff|back-off)|with\s+no\s+(?:delay|wait|pause|backoff))\b"),
    Row("wait_none", r"\bno\s+(?:delay|wait|pause|backoff|back-off|sleep)(?:\s+(?:in\s+)?between(?:\s+(?:the\s+)?(?:tries|attempts|retries))?)?\b"),
    Row("wait_none", r"\b(?:delay|wait|backoff|pause)\s*[:=]\s*(?:0|none|zero)\b(?:\s*s\b)?"),
    Row("wait_seq", r"(?:\bwait(?:ing|s)?(?:\s+grow)?\s*+[:=-]?\s*+(?:for\s+|of\s+)?|\bdelays?\s*+(?:of|:|=|-)?\s*+|\bback-?\s*+offs?\s*+(?:of|:|=|-)?\s*+|\bpauses?\s*+(?:of\s+|:\s*+)?|\bintervals?\s*+(?:of|:|=)?\s*+|\bsleep\s+|\bschedule\s*+[:=]?\s*+)(?P<seq>{SERIES})(?:\s+(?:in\s+)?(?:between|before)\s+(?:the\s+|each\s+|every\s+|any\s+)?(?:new\s+|successive\s+|consecutive\s+)?(?:(?:re)?trying(?:\s+(?:it\s+)?again)?|going\s+again|{TRY}|them)\b)?"),
    Row("wait_seq", r"\((?:\s*+(?:waits?|delays?|backoff|back-off)\s*+[:=]?)?\s*+(?P<seq>{SERIES})\s*+\)"),
    Row("wait_seq", r"(?:(?<!\s)|(?!\s))(?P<seq>{SERIES})\s+(?:apart|between|in\s+between|of\s+(?:delay|wait|backoff))\b"),
    Row("wait_seq", r"\b(?:after|at|in)\s++(?P<seq>{SERIES})", needs=r"{RETRY}|\btry\b"),
    Row("wait_fixed", r"\b(?:wait(?:ing|s)?|hold(?:ing)?\s+off|pause|pausing|sleep|sleeping|back(?:ing)?\s+off|cool\s+off)\s+(?:for\s+)?(?:about\s+|roughly\s+)?{D}\s+(?:in\s+)?(?:between|before|after)\b(?:\s+(?:each\s+|every\s+|the\s+next\s+|another\s+|any\s+)?(?:new\s+|further\s+|successive\s+|consecutive\s+)?(?:{TRY}|going\s+again|retrying\s+again|one|failure|failures|tries|attempts|them|retrying|trying\s+again|the\s+next(?:\s+one)?)\b)?"),
    Row("wait_fixed", r"\b{D}\s+(?:apart|in\s+between|between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them|each|one))?)\b"),
    Row("wait_fixed", r"\b(?:with|w/)\s*(?:a\s+|an\s+)?(?:fixed\s+|constant\s+|flat\s+)?{D}\s+(?:delay|wait|pause|gap|interval|sleep|back-?off|break|cool-?down)s?\b(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?)?"),
    # "(30 min gap)" alone describes the data, not a wait: a wait needs a word of trying again beside it
    Row("wait_fixed", r"\b(?:a\s+|an\s+)?{D}\s+(?:delay|wait|pause|gap|interval|sleep|break|cool-?down)s?\b(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?)?",
        needs=r"{TRY}|retr|again|attempt|poll|between|\bthen\b|back|repeat|loop|re-?run|recheck|check|until|wait|pause|sleep|delay"),
    Row("wait_fixed", r"\b(?:fixed|constant|flat|linear)\s++(?:delay|wait|backoff|back-off|interval|pause)?\s*+(?:of\s+|:\s*|=\s*)?{D}"),
    Row("wait_fixed", r"\b{D}\s+(?:fixed|constant|flat)\b"),
    Row("wait_fixed", r"\bretr(?:y|ies)[\s_-]*(?:delay|wait|interval|pause|backoff|back-off|gap)s?\s*(?:of|:|=|is|-)?\s*{D}"),
    Row("wait_fixed", r"\b(?:delay|wait|waiting|pause|pausing|interval|sleep|sleeping|cool-?down|gap)s?\s*+(?:of|:|=|is|for|-)?\s*+(?:about\s+)?{D}(?:\s+(?:in\s+)?between(?:\s+(?:each\s+|every\s+)?(?:{TRY}|them))?|\s+each\s+time)?"),
    Row("wait_fixed", r"\b(?:at|in)\s+{D}\s+intervals\b|\b{D}\s+intervals\b"),
    Row("wait_fixed", r"\bevery\s+{D}"),
    # "every minute" is a wait only beside a retry ("That is always, every day" is not one)
    Row("wait_fixed", r"\bevery\s+(?P<d9>second|minute|hour|day)\b", needs=r"{RETRY}|\btry\b|\bagain\b|\bpoll"),
    Row("wait_fixed", r"\b(?:retry|try\s+again|re-?run|retrying)\s+(?:it\s+)?(?:after|in)\s+{D}"),
    Row("wait_fixed", r"\b(?:after|in)\s+(?:waiting\s+)?{D}", needs=r"{RETRY}|\btry\b|\bagain\b"),
    Row("wait_fixed", r"\b(?:{D}\s+)?back-?\s*off\s+(?:of\s+)?{D}\s+(?:each|every)\s+time\b"),
)

# exponential backoff: its factor and jitter
BACKOFF: tuple[Row, ...] = (
    Row("jitter_off", r"\b(?:no|without|disable|disabled|turn\s+off|don'?t\s+(?:add|use))\s+(?:any\s+)?(?:jitter|randomi[sz]ation|random(?:ness)?)\b|\bjitter\s*[:=]?\s*(?:off|false|no|none)\b|\bun-?jittered\b|\bdeterministic\s+(?:waits|delays|backoff)\b"),
    Row("jitter_on", r"\b(?:with|plus|add|and|some|full|random)?\s*jitter(?:ed)?(?:\s*[:=]?\s*(?:on|true|yes))?\b(?:\s+(?:to|on|in|for)\s+(?:the\s+|its\s+|all\s+)?(?:waits|delays|pauses|backoffs?|retries|sleeps)\b)?|\brandomi[sz]ed\b|\brandom\s+(?:delay|wait|backoff)s?\b"),
    Row("exp_factor", r"\b(?:factor|multiplier|ratio)\s*+(?:of|:|=|is)?\s*+(?P<factor>\d+(?:\.\d+)?)\b"),
    Row("exp_factor", r"\(\s*[x×]\s*(?P<factor>\d+(?:\.\d+)?)\s*\)|(?<![\w.])[x×]\s*(?P<f2>\d+(?:\.\d+)?)\b(?!\s*(?:times|retries|attempts))", needs=r"back-?\s*off|exponential|" + EXPO_WORD + r"|exp\.|doubl|factor"),
    Row("exp_factor", r"\b(?:multiplied|multiply(?:ing)?|growing|grows)\s+by\s+(?P<factor>\d+(?:\.\d+)?)\b"),
    Row("exp_factor", r"\b(?:doubling|doubles?(?!-)|double\s+(?:the|each|every)\s+(?:wait|delay|time)|twice\s+as\s+long\s+each\s+time)\b(?:\s+(?:the\s+)?(?:wait|delay)s?)?(?:\s+each\s+time)?", value=2.0),
    Row("exp_factor", r"\b(?:tripling|triples?)\b(?:\s+(?:the\s+)?(?:wait|delay)s?)?(?:\s+each\s+time)?", value=3.0),
    Row("exponential", r"\bexponential(?:ly)?(?:\s+(?:back-?\s*off|backing\s+off|delays?|waits?|retr(?:y|ies)|backoff))?\b|\bexpo\b|\bexp\.?\s+back-?\s*off\b"),
    Row("exponential", r"\b(?:with\s+|using\s+)?(?:a\s+|some\s+)?(?:back-?\s*off|backing\s+off|back\s+off)\b"),
    Row("exponential", r"\b(?:increasing|growing|longer\s+and\s+longer|progressively\s+longer)\s+(?:delays?|waits?|pauses?|intervals?)\b"),
)

# how long one attempt may take, and the whole run
TIMEOUT: tuple[Row, ...] = (
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|total|full|complete)\s+(?:run|workflow|thing|job|pipeline|flow)\s*(?:[:=]|(?:should|must|has\s+to|needs?\s+to)\s+(?:take|finish\s+(?:in|within)|complete\s+(?:in|within)|be\s+done\s+(?:in|within))|takes|(?:finish(?:es)?|completes?|runs?|is\s+done|gets\s+done)\s+(?:in|within)|under|in|within|is)?\s*(?:no\s+more\s+than\s+|less\s+than\s+|at\s+most\s+|under\s+|within\s+|max(?:imum)?\s+)?{D}(?:\s+(?:max(?:imum)?|tops|at\s+most))?"),
    Row("run_timeout", r"\b(?:whole|entire|full)\s+[\w-]+\s*[:=]\s*{D}(?:\s+end[- ]to[- ]end)?|\b{D}\s+end[- ]to[- ]end\b"),
    Row("run_timeout", r"\b{D}\s+(?:max(?:imum)?\s+)?(?:for\s+)?(?:the\s+)?(?:whole|entire|total)\s+(?:run|workflow|thing|job)\b"),
    # "The whole audit should be done in under 5 minutes", "The whole thing, approval wait excluded, should be done in 10 min"
    Row("run_timeout", r"\b(?:should|must|has\s+to|needs?\s+to)\s+(?:be\s+)?(?:done|finish(?:ed)?|complete(?:d)?|over)\s+(?:in\s+|within\s+)?(?:under\s+|less\s+than\s+|at\s+most\s+|no\s+more\s+than\s+)?{D}",
        needs=r"\b(?:whole|entire|total|full|complete)\s+(?:run|workflow|thing|job|pipeline|flow|audit|process|batch)\b"),
    Row("run_timeout", r"\b(?:wall[- ]?(?:clock\s+)?time|run\s+time\s+limit|time\s+limit\s+for\s+the\s+(?:run|workflow))\s*(?:of|:|=|is)?\s*{D}"),
    Row("timeout", r"\b(?:per[- ](?:attempt|try|call|request)\s+)?time-?\s*outs?\s*(?:of|:|=|is|after|at|set\s+to|to)?\s*(?:after\s+|at\s+)?(?:about\s+)?{D}(?:\s+(?:per|each|an?|for\s+each)\s+(?:{TRY}|call|request))?"),
    Row("timeout", r"\b(?:cap|limit)\s+(?:each|every|the|its|any|a\s+single)\s+(?:attempt|try|call|run|request)s?\s+(?:at|to)\s+{D}"),
    Row("timeout", r"\bno\s+(?:single\s+)?(?:attempt|try|call|request|run)\s+(?:may|should|must|can|shall|is\s+allowed\s+to)\s+(?:take|run|last)\s+(?:any\s+)?(?:longer|more)\s+than\s+{D}"),
    Row("timeout", r"\btimes?\s+(?:it\s+)?out\s+(?:after|at|in)\s+{D}|\btimed\s+out\s+(?:after|at)\s+{D}"),
    Row("timeout", r"\b(?:a\s+|an\s+)?{D}\s+(?:per[- ](?:attempt|try|call)\s+)?time-?\s*out\b(?:\s+(?:per|each|an?|for\s+each)\s+(?:{TRY}|call|request))?|\b{D}\s+(?:hard\s+)?(?:limit|deadline|cap)\b(?:\s+(?:per|each|an?)\s+(?:{TRY}))?"),
    Row("timeout", r"\bgive\s+(?:it|the\s+[\w-]+|each\s+(?:attempt|try|call|run|go|request|pass|execution|lookup))\s+(?:up\s+to\s+|at\s+most\s+|no\s+more\s+than\s+|about\s+|a\s+max(?:imum)?\s+of\s+)?{D}(?:\s+(?:per|each|an?)\s+(?:{TRY}|call|request))?"),
    Row("timeout", r"\b(?:each|every|per)\s+(?:try|attempt|call|request)\s+(?:gets|has|may\s+take|can\s+take|is\s+given|is\s+allowed)\s+(?:up\s+to\s+|at\s+most\s+)?{D}"),
    Row("timeout", r"\b(?:gets?|has|have)\s+{D}\s+(?:each|apiece|per\s+(?:attempt|call|try|request|lookup))\b"),
    Row("timeout", r"\b(?:allow|allowing|budget|grant)\s+(?:it\s+|each\s+(?:attempt|try|call)\s+)?(?:up\s+to\s+|at\s+most\s+)?{D}"),
    Row("timeout", r"\b(?:no|without\s+an?|if\s+there'?s\s+no|if\s+no)\s+(?:answer|response|reply|result|output)\s+(?:with)?in\s+{D}"),
    Row("timeout", r"\b(?:doesn'?t|does\s+not|don'?t|didn'?t|hasn'?t|has\s+not|haven'?t|have\s+not|fails\s+to)\s+(?:answer(?:ed)?|respond(?:ed)?|repl(?:y|ied)|return(?:ed)?|finish(?:ed)?|complete[d]?)\s+(?:with)?in\s+{D}", also=("class:timeout",)),
    Row("timeout", r"\b(?:takes?|taking|runs?|running|lasts?|lasting|goes|going|hangs?|hanging|is\s+(?:still\s+)?running)\s+(?:for\s+)?(?:longer|more|over|past)\s+(?:than\s+)?{D}"),
    Row("timeout", r"\b(?:should|must|may|can|shall)(?:n'?t|\s+not|\s+never)?\s+(?:take|run|last)\s+(?:no\s+)?(?:more|longer)\s+than\s+{D}"),
    Row("timeout", r"\b(?:should|must|may|can|shall|has\s+to)\s+(?:take|run|last|finish|complete|answer|respond|be\s+done)\s+(?:in|at\s+most|under|within|in\s+(?:under|less\s+than))\s+{D}"),
    Row("timeout", r"\b(?:kill|cut|cancel|abort|stop|terminate)\s+(?:it\s+|the\s+(?:call|attempt|step|request)\s+)?(?:off\s+)?(?:after|at|past)\s+{D}"),
    Row("timeout", r"\b(?:at\s+most|max(?:imum)?|up\s+to|no\s+more\s+than|under)\s+{D}\s+(?:per|each|an?|for\s+(?:each|one|an?))\s+(?:{TRY}|call|request|run)\b"),
    Row("timeout", r"\b{D}\s+(?:per|each|an?|for\s+each|for\s+one)\s+(?:attempt|try|call|request)\b"),
    Row("timeout", r"\btime-?\s*box(?:ed)?\s*(?:of|:|=|is|to|at|-)?\s*{D}(?:\s+(?:per|each|an?)\s+(?:{TRY}|call|request))?|\b{D}\s+time-?\s*box\b"),
    Row("timeout", r"\b(?:deadline|time\s+limit|time\s+budget|time\s+cap|max(?:imum)?\s+(?:run\s*time|runtime|duration|time)|run\s*time\s+limit)\s*(?:of|:|=|is)?\s*{D}"),
    Row("timeout", r"\b(?:slower|longer)\s+than\s+{D}"),
    # "over 2 min", "(>90s)": a limit only beside words of time running out ("kill it if it takes over
    # 2 min", "Timeout: > 90s"); "turbines with >8000 h since inspection" is a threshold, not a limit
    Row("timeout", r"(?:^|\s|(?<=\())(?:>|over|more\s+than)\s*{D}",
        needs=r"(?i)\b(?:tak(?:e|es|ing)|took|runs?|running|ran|hang(?:s|ing)?|hung|slow|stuck|times?|timeouts?|timed|"
              r"kill|cut|abort|stop|cancel|give\s+up|fails?|wait|respond|answer|reply|finish|done|long|after|"
              r"limit|cap|max|budget|allow|deadline|abandon|drop|bail|quit|skip)\b"),
    Row("timeout", r"\b{D}\s*,?\s+(?:max(?:imum)?|tops|at\s+most)\b(?!\s+(?:wait|delay|backoff))(?:\s+(?:per|each|an?|for\s+each)\s+(?:{TRY}|call|request))?"),
)

# how many tries: counts of retries, then of attempts
COUNT_ROWS: tuple[Row, ...] = (
    Row("retries", r"\bretr(?:y|ies)\s*+(?:count|limit)?\s*+[:=-]\s*+(?:times\s*+[:=]\s*+)?(?:up\s+to\s+|at\s+most\s+|max(?:imum)?\s+)?{N}\b(?!\s*+(?:attempts?|tries)\b)"),
    Row("retries", r"\b(?:max(?:imum)?\s+)?retr(?:y|ies)[\s_-]*(?:count|limit|number|cap)\s*(?:[:=-]|of|is)?\s*{N}\b(?!\s*(?:attempts?|tries|s\b|sec|min|ms))"),
    Row("attempts", r"\b(?:max(?:imum)?\s+)?(?:attempt|try)[\s_-]*(?:count|limit|number|cap)\s*(?:[:=-]|of|is)?\s*{N}\b(?!\s*(?:s\b|sec|min|ms))"),
    Row("retries", r"\b(?:max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than)\s+(?:of\s+)?{N}\s+(?:re-?tries|retr(?:y|ies)|retry\s+attempts|more\s+(?:tries|attempts|times))\b"),
    Row("retries", r"\b(?:give\s+it\s+|allow\s+(?:it\s+)?)?{N}\s+(?:such\s+)?(?:re-?tries|retries|retry\s+attempts|more\s+(?:tries|attempts|times|goes|shots)|additional\s+(?:tries|attempts)|extra\s+(?:tries|attempts)|further\s+(?:tries|attempts))\b"),
    Row("retries", r"{RETRY}\s+(?:it\s+|this\s+|that\s+|them\s+|the\s+(?:call|step|request|job|task|upload|fetch)\s+)?(?:again\s+)?(?:up\s+to\s+|at\s+most\s+|a\s+max(?:imum)?\s+of\s+|max(?:imum)?\s+|no\s+more\s+than\s+|another\s+)?{N}\s*(?:x\b|×|more\s+times?\b|times?\b|more\b|(?=\s*(?:[,.;:)(]|$|and\b|with\b|w/|if\b|on\b|then\b|before\b|after\b|waiting\b|every\b|using\b|at\b|but\b|in\b)))"),
    Row("retries", r"{RETRY}\s+(?:it\s+|this\s+)?(?P<n9>once|twice|thrice)\s+more\b"),
    Row("retries", r"\b{N}\s*(?:x|×)\s*(?:retr(?:y|ies)|re-?tr(?:y|ies))\b"),
    Row("retries", r"\b(?:retr(?:y|ies)|re-?tr(?:y|ies))\s*(?:\(\s*)?(?:x|×)\s*{N}\b"),
    Row("retries", r"(?<![\w.])(?P<n1>\d+)\s*(?:x|×)(?=\s|[,.;:)]|$)", needs=r"{RETRY}|\bagain\b"),
    Row("retries", r"\b(?:up\s+to|at\s+most|max(?:imum)?|a\s+maximum\s+of|no\s+more\s+than)\s+{N}\s+times\b", needs=r"{RETRY}|\bagain\b"),
    Row("retries", r"\b(?:try\s+(?:it\s+)?)?(?P<n9>once|twice|thrice)\s+more\b"),
    Row("retries_soft", r"\b(?:one|1)\s+more\s+(?:time|try|attempt|go|shot)\b|\banother\s+(?:try|attempt|go|shot)\b(?!\s+(?:at\s+it\s+)?(?:\d+|once|twice|thrice)\s+(?:more\s+)?(?:times|tries|goes)\b)", value=1),
    Row("retries", r"\b{N}\s+times\b(?:\s+(?:max(?:imum)?|at\s+most|tops|in\s+total|total))?", needs=r"{RETRY}|\bagain\b"),
    # "twice = angry emails", "twice means a double charge": the subject of what a second run brings, no count of tries
    # "people get pinged twice", "or we're billed twice": what a second run would do to someone, no count of tries
    # ("retried twice", "tried twice", "failed twice", "attempted twice" still are, and a noun: "the feed twice")
    Row("retries", r"(?<!(?<=[a-z]{3})(?<!tri)(?<!fail)(?<!attempt)(?<!e)ed\s)\b(?P<n1>once|twice|thrice)\b(?!\s*+(?:=|->|→|means\b|would\b|will\b|could\b|gets?\b|leads?\s+to\b|causes?\b))(?:\s+(?:at\s+most|max(?:imum)?|tops|in\s+total|total))?", needs=r"{RETRY}|\bagain\b"),
    Row("attempts", r"\bmax(?:imum)?[ _-]?(?:attempts|tries)\s*+(?:[:=]|of|is)?\s*+{N}\b"),
    Row("attempts", r"\b(?:attempts|tries)\s*[:=]\s*{N}\b"),
    Row("attempts", r"\b(?:max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than|a\s+max(?:imum)?\s+of|a\s+total\s+of|total\s+of|limit(?:ed)?\s+to)\s+{N}\s+(?:attempts?|tries|goes|shots|runs|calls)\b(?:\s+(?:max|total|in\s+total|overall|altogether))?"),
    Row("attempts", r"\b(?:give\s+it\s+|allow\s+|allowing\s+)?{N}\s+(?:attempts?|tries|goes|shots)\b(?:\s+(?:max(?:imum)?|total|in\s+total|overall|altogether|at\s+most))?"),
    Row("attempts", r"\b(?:try|attempt|run|call)\s+(?:it\s+|this\s+|the\s+(?:call|step|request)\s+)?(?:up\s+to\s+|at\s+most\s+)?{N}\s*(?:x|times)\b"),
    Row("attempts", r"\b(?:try|attempt)\s+(?:it\s+)?(?:up\s+to\s+)?(?P<n9>once|twice|thrice)\b(?!\s+more)"),
    Row("retry_bare", r"\bretry(?:ing)?\b|\bre-?try(?:ing)?\b|\b(?:try|go|run|do|call|hit)\s+(?:it\s+|this\s+)?again\b|\b(?:attempted|tried|called|tries|goes|calls|hits)\s+again\b|\b(?:look|check|ask)(?:ing)?\s+again\b|\bkeep\s+trying\b|\bpoll(?:ing)?\b"),
)

# what happens when recovery is exhausted
FALLBACK: tuple[Row, ...] = (
    Row("use_step", r"\b(?:fall\s*+-?\s*+back\s+(?:to|on)|fail\s*over\s+to|switch\s+to|use|run|try|call|hand\s+(?:it\s+)?(?:over\s+)?to|route\s+(?:it\s+)?to|go\s+to|jump\s+to|send\s+(?:it\s+)?(?:back\s+)?to|pass\s+(?:it\s+)?(?:back\s+)?to|return\s+(?:it\s+)?to)\s+(?:the\s+output\s+of\s+|the\s+result\s+of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,4}?(?:\(\s*)?{STEP}(?:\s*\))?(?:'s\s+(?:output|result|skill))?(?:\s+instead)?", needs=r"{COND}|fall\s*+-?\s*+back|fail\s*over|instead|\bback\s+to"),
    Row("use_step", r"\bfall\s*+-?\s*+back\s*[:=-]\s*{STEP}"),
    Row("use_skill", r"\b(?:fall\s*+-?\s*+back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to|use|run|call|invoke|try)\s+(?:the\s+)?{NAME}(?:\s+(?:skill|instead|as\s+(?:a\s+)?(?:fallback|backup)))*", needs=r"{COND}|fall\s*+-?\s*+back|fail\s*over|instead|backup|switch"),
    Row("use_skill", r"\b(?:fall\s*+-?\s*+back\s+(?:to|on)|fail\s*over\s+to|switch\s+(?:over\s+)?to|use|run|call|try)\s+(?:the\s+|a\s+|our\s+)?(?:[\w-]+\s+){0,4}?\(\s*{NAME}", needs=r"{COND}|fall\s*+-?\s*+back|fail\s*over|instead|backup|switch"),
    Row("use_skill", r"\b{NAME}\s+instead\b"),
    # "do `email-order` instead", "if it's down do the `x` skill instead": `do` names the other skill with `instead` only
    Row("use_skill", r"\bdo\s+(?:the\s+)?{NAME}(?:\s+skill)?\s+instead\b"),
    Row("use_skill", r"\bfall\s*+-?\s*+back\s*[:=-]\s*{NAME}"),
    Row("use_skill", r"\b(?:fall\s*+-?\s*+back\s+(?:to|on)|fail\s*over\s+to|(?:switch|swap)\s+(?:over\s+)?to)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b"),
    Row("use_skill", r"\b(?:use|run|call|do)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s+(?:skill\s+)?(?:for\s+(?:it|them|this|that|the\s+[\w-]+)\s+)?instead\b"),
    Row("use_skill", r"\b(?:swap|switch|sub|bring)\s+in\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b", needs=r"{COND}|instead|can'?t\s+be\s+reached"),
    Row("use_skill", r"\b(?:hand|pass|give|send)\s+(?:it|this|that|the\s+(?:job|work|task|request|call|step|item|message))\s+(?:over\s+)?to\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b(?!\s+(?:team|channel|on-?call|queue|group|rota)\b)", needs=r"{COND}|instead|can'?t\s+be\s+reached"),
    Row("use_skill", r"\b(?:run|call|invoke|trigger)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b(?:\s+skill)?", needs=r"\b(?:fails?|failed|failing|errors?|errored)\b|can'?t\s+be\s+reached|unreachable"),
    Row("use_skill", r"\b(?:use|switch\s+to|fall\s*+-?\s*+back\s+to|try|fail\s*over\s+to)\s+the\s+(?P<name>(?:backup|fallback|secondary|alternate|alternative|spare|standby|legacy|slow|old)\s+[a-z]+)\b(?!\s*\()(?:\s+instead\b)?", needs=r"{COND}|instead"),
    Row("escalate", r"(?:^|(?<=[,;:(.!])|\b(?:and|then|to|just|please|also|immediately|or|we'?ll|we\s+will|should|must|will|you|go|so)\s+|(?<=\bfails\s)|(?<=\bfail\s)|(?<=\bfailed\s)|(?<=\bbreaks\s)|(?<=\bbroke\s)|(?<=\berrors\s)|(?<=\bout\s)|(?<=\bwrong\s)|(?<=\bdown\s)|(?<=\bstuck\s))\s*(?P<msg>(?:page|paging|ping|pinging|alert|alerting|notify|notifying|wake\s+up|call\s+out|email|e-mail|message|slack|tell|inform)\s+(?!(?:it|them|the\s+(?:step|caller|run))\b)(?:\([^)]*\)|[^.;,!?()])*?)(?=\s+(?:so|but|and|because|since|after|if|when|then|unless|before)\b|[.;,!?]|$)"),
    Row("escalate", r"\bescalat(?:e|es|ed|ing|ion)(?:\s+(?:it\s+)?(?P<msg>to\s+(?:\([^)]*\)|[^.;,!?()])+?))?(?=\s+(?:after|if|when|so|but|and|then|unless|before)\b|[.;,!?]|$)"),
    Row("escalate", r"\b(?P<msg>(?:hand|pass|send|give|kick)\s+(?:it\s+|this\s+)?(?:over\s+|back\s+|up\s+)?to\s+(?:a\s+|the\s+)?(?:human|person|people|someone|somebody|operator|on-?call|support|ops|team|oncall)[^.;,!?]*)"),
    Row("escalate", r"\b(?P<msg>(?:needs?|requires?|wait\s+for|ask(?:s)?\s+for|get)\s+(?:a\s+)?(?:human|manual|person|operator)\s*(?:review|intervention|help|attention|decision|look)?)"),
    Row("escalate", r"\b(?P<msg>(?:mark|flag|queue|send)\s+(?:it\s+)?(?:for|to)\s+(?:manual|human)\s+(?:review|handling|intervention))"),
    Row("escalate", r"\b(?P<msg>manual\s+(?:intervention|review|fix|handling|follow-?up))\b"),
    # filing a ticket is an escalation after a failure, not a step that files tickets for a living
    Row("escalate", r"\b(?P<msg>(?:open|file|raise|create|cut)\s+(?:a\s+|an\s+)?(?:ticket|incident|issue|jira|page|p[0-4]|sev-?[0-4]|alert|alarm)\b(?:\s+(?:with|for|to)\s+(?:the\s+)?[\w#@-]+(?:\s+(?:team|on-?call|oncall|channel|group))?)?)",
        needs=r"{COND}|escalat|\bstill\b|give\s+up"),
    Row("escalate", r"\b(?P<msg>(?:a\s+)?(?:human|person|someone|somebody)\s+(?:has|needs|must|should)\s+to\s+(?:look|decide|step\s+in|check|fix)[^.;,]*)"),
    Row("value_nos", r"\b(?:record|return|store|output|emit|give\s+back|log|mark|save|leave)\s+(?:it|them|this|the\s+\w+)?\s*(?:as\s+\w+\s+)?with\s+(?P<nos>no\s+\w+(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+or\s+)no\s+\w+)*)"),
    Row("value_blank", r"\bleave\s+(?:the\s+|it\s+|its\s+)?(?:[\w-]+\s+)?(?:blank|empty)\b"),
    # "set the score = 0" (a field, then =); "a failed report = failed run" is no verb and no value
    Row("value_field", r"\b(?:mark|set|record|treat|label|tag|report|return|flag)\s++(?:the\s+|its\s+|it\s+|this\s+|that\s+)?(?:[\w-]+'s\s+)?(?P<field>[a-z_][\w]*(?:\s+[a-z_]\w*)?)?\s*(?:as|to|(?(field)=|(?!)))\s+(?!(?:a|an|the)\b)(?P<value>\"[^\"]*\"|'[^']*'|`[^`]*`|\d+(?:\.\d+)?|[a-z_][\w-]*)", needs=more8.VALUE_SAID),
    # "just go on with bot_users=[]", "continue with posted=false": the field and its value, written as code
    Row("value_field", r"\b(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed)\s+with\s+(?P<field>[a-z_]\w*)\s*(?:=|:)\s*(?P<value>\[\s*\]|\{\s*\}|\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?|true|false|null|none)(?![\w.])"),
    Row("value_field", r"\b(?:use|put|write)\s+(?:the\s+|an?\s+)?(?P<field>[a-z_]\w*(?:\s+[a-z_]\w*)?)\s+(?:of\s+)?(?P<value>\"[^\"]*\"|'[^']*')", needs=r"{COND}|instead|continu|carry\s+on"),
    # "use purgeable = []", "carry on with recipients = 0": the output field and the value to go on with
    Row("value_field", r"\b(?:use|continue\s+with|carry\s+on\s+with|go\s+on\s+with|move\s+on\s+with|proceed\s+with|set)\s+(?:the\s+)?(?P<field>[a-z_]\w*)\s*(?:=|:=)\s*(?P<value>\[[^\[\]]{0,400}\]|\{[^{}]{0,400}\}|\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?\b|true\b|false\b|null\b)"),
    Row("value_literal", r"\b(?:use|return|default(?:s)?\s+to|fall\s*+-?\s*+back\s+to|assume|substitute|output|emit|give\s+back|record|(?:count|treat|score)\s+(?:it|them|this|that|the\s+(?:result|output|[\w-]+))\s+as|continue\s+with|carry\s+on\s+with|go\s+on\s+with|keep\s+going\s+with|move\s+on\s+with|press\s+on\s+with|pass\s+on)\s+(?:the\s+value\s+|a\s+value\s+of\s+)?(?P<value>`[^`]*`)",
        needs=r"{COND}|instead|default|fall\s*+-?\s*+back|assume|substitute|continu|carry\s+on|go\s+on"),  # not "Use `a-skill`."
    Row("value_literal", r"\b(?:default(?:s)?\s+to|fall\s*+-?\s*+back\s+to|use|return|continue\s+with|output|record|(?:count|treat|score)\s+(?:it|them|this|that)\s+as)\s+(?P<value>\"[^\"]*\"|'[^']*'|\d+(?:\.\d+)?\b|true\b|false\b|null\b|\[[^\[\]]{0,400}\](?!\()|\{[^{}]{0,400}\})(?:\s+(?:as\s+(?:the\s+|its\s+)?(?:value|result|output|default|answer))|\s+instead)?"),
    Row("value_empty", r"\b(?:use|return|assume|substitute|output|emit|give\s+back|pretend\s+(?:that\s+)?(?:it|this|the\s+[\w-]+)\s+(?:returned|gave(?:\s+back)?|produced|came\s+back\s+with)|treat\s+(?:it|this|the\s+(?:result|output))\s+as|continue\s+with|carry\s+on\s+with|go\s+on\s+with|proceed\s+with|fall\s*+-?\s*+back\s+to|default\s+to|pass\s+(?:on|along))\s+(?:an?\s+|the\s+)?(?P<what>empty|blank|no|default|placeholder|cached|stub|dummy|null|zero)\s*(?P<kind>[\w-]+)?(?:\s+(?:value|values|result|results|output|list|docs|data|answer|response))?"),
    Row("value_empty", r"\b(?:use|return|output)\s+(?:an?\s+)?(?P<what>empty|default)\s+(?P<kind>value|result|output|list|string|object)\b|\btemplate\s+fallback\b|\bempty\s+(?:result|output|value)\s+and\s+(?:continue|carry\s+on|move\s+on)\b"),
    Row("continue", r"\b(?:don'?t|do\s+not|never|must\s+not|mustn'?t|shouldn'?t|should\s+not|won'?t|will\s+not|no\s+need\s+to)\s+(?:fail|stop|abort|block|halt|kill)\s+(?:the\s+)?(?:(?:whole|entire)\s+[\w-]+|(?:rest\s+of\s+the\s+)?(?:run|workflow|pipeline|job|flow|thing|everything|rest|rotation|release|rollout|batch|migration|sync|import|export|procedure|process|digest|report|deploy(?:ment)?))\b"),
    Row("continue", r"\b(?:don'?t|do\s+not|never)\s+(?:stop|abort)\b(?!\s+(?:re)?trying)(?=\s*[,;:.]|\s+(?:and|but|just)\b)"),
    Row("continue", r"\b(?:it'?s|it\s+is|that'?s|that\s+is)\s+(?:fine|ok(?:ay)?|acceptable|alright|all\s+right|no\s+problem|not\s+a\s+problem|no\s+big\s+deal)(?=\s+(?:if|when|for)\s+(?:it|this|that|the\s+[\w-]+)(?:\s+step)?\s+(?:to\s+)?(?:fails?|failing|errors?(?:\s+out)?|breaks?|doesn'?t\s+work)\b)"),
    Row("fail", r"\b(?:fails|fail|failing|abort|aborting|stop|stopping|halt|halting|kill|killing|end|ending|terminate|cancel|bring\s+down|crash)\s+(?:the\s+|this\s+|our\s+)?(?:whole\s+|entire\s+|full\s+|complete\s+)?(?:run|workflow|pipeline|job|flow|thing|everything|process|dag|build|deploy(?:ment)?)\b"),
    Row("fail", r"\b(?:just\s+|simply\s+)?fail\s+(?:hard|loudly|the\s+step|outright|right\s+there|it)\b|\bjust\s+fail\b|\blet\s+(?:it|the\s+(?:run|step|workflow))\s+fail\b|\b(?:the\s+)?(?:run|workflow|pipeline|job)\s+(?:fails|should\s+fail|must\s+fail|is\s+failed|stops|should\s+stop|aborts)\b|\bmark\s+(?:the\s+)?(?:run|workflow)\s+(?:as\s+)?failed\b|\bor\s+(?:it'?s|it\s+is|it\s+gets|the\s+(?:run|workflow)\s+is)\s+(?:marked|considered|treated\s+as|reported)\s+(?:as\s+)?failed\b|\bstop\s+(?:right\s+)?there\b|\bstop\s+everything\b|\bdon'?t\s+(?:continue|carry\s+on|go\s+on|proceed)\b|\bnothing\s+else\s+(?:should\s+)?runs?\b|\bblock\s+(?:the\s+)?(?:rest|run|workflow)\b"),
    Row("fail", r"^\s*+(?:fail|abort|stop|halt)\s*+(?:\.|!)?\s*+$|\bon[ _-]?(?:error|failure)\s*+[:=]\s*+fail\b|\bfail\s+(?:the\s+)?(?:step\s+)?and\s+stop\b|\b(?:and\s+)?then\s+(?:just\s+)?fail\b|\b(?:then\s+)?stop\b(?=\s*+(?:[.;,]|$|and\s+(?:tell|page|alert|notify|ping)))"),
    Row("fail", r"\bgiv(?:e|ing)\s+up\b"),
    # "fail the order", "fail the refund": what the run is about, failed
    Row("fail", r"\b(?:then\s+)?fail\s+(?:the|this|our)\s+(?:whole\s+|entire\s+)?[a-z]+\b(?=\s*+(?:[,.;(]|$|and\b|so\b))"),
    Row("continue", r"\b(?:skip(?:\s+(?:it|this|the\s+step|this\s+step|ahead|this\s+\w+|the\s+\w+))?|ignore\s+(?:it|the\s+(?:error|failure|problem)|errors|failures)|ignore(?=\s*(?:and|,)\s+(?:finish|continue|carry\s+on|move\s+on|go\s+on|keep\s+going|proceed)\b))\b(?:\s+(?:anyway|regardless|without\s+it))?", needs=r"{COND}|\band\s+(?:continue|carry\s+on|move\s+on)"),
    Row("continue", r"\b(?:skip|drop|discard)\s+(?:the|this|that)\s+(?:record|row|item|entry|file|document|doc|message|line|event|receipt|page|batch)\b(?:\s+(?:and\s+)?(?:continue|carry\s+on|move\s+on|go\s+on))?"),
    Row("continue", r"\b(?:continue|continuing|carry\s+on|carrying\s+on|keep\s+going|move\s+on|moving\s+on|go\s+on|proceed|proceeding|let\s+the\s+(?:rest|run|workflow)\s+(?:continue|go\s+on|carry\s+on)|the\s+(?:rest|run|workflow)\s+(?:continues|goes\s+on|carries\s+on))\b(?:\s+(?:anyway|regardless|without\s+it))?"),
    Row("continue", r"\b(?:best[- ]effort|non-?blocking|nice[- ]to[- ]have|optional|non-?fatal|not\s+fatal|not\s+(?:critical|essential|important|required|blocking)|doesn'?t\s+(?:block|matter)|does\s+not\s+(?:block|matter)|don'?t\s+(?:block|fail\s+the\s+(?:run|workflow))|shouldn'?t\s+block|should\s+not\s+block|never\s+blocks?|(?:must|should)\s+not\s+fail\s+the\s+(?:run|workflow)|(?:won'?t|will\s+not)\s+fail\s+the\s+(?:run|workflow))\b"),
)

# holdout3 families: a value a failure continues with, said before or after the word for going on;
# a failure that is only logged, or that must not fail what the run is about; another skill routed to
FALLBACK = (
    Row("value_literal", r"\bdefault(?:s|ing)?\s+(?:the\s+|its\s+)?(?:result|output|value|answer|response|[\w-]+)\s+to\s+(?P<value>\{[^{}]{0,400}\}|\[[^\[\]]{0,400}\]|`[^`]{0,400}`)"),
    Row("value_literal", r"(?P<value>`[\[{][^`]{0,400}[\]}]`|\{[^{}]{0,400}\})\s+and\s+(?:then\s+)?(?:carry\s+on|continue|move\s+on|keep\s+going|go\s+on|proceed)\b"),
    Row("continue", r"\b(?:is|are|gets?|will\s+be|should\s+be)\s+(?:just\s+|only\s+|simply\s+)?logged\s+and\s+(?:then\s+)?(?:ignored|skipped|dropped|swallowed|otherwise\s+ignored)\b"),
    Row("continue", r"\b(?:don'?t|do\s+not|never|shouldn'?t|should\s+not|must\s+not|won'?t)\s+fail\s+the\s+(?:whole\s+|entire\s+)?[\w-]+\s+(?:over|because\s+of|for|on\s+account\s+of)\s+(?:it|this|that|the\s+[\w-]+)\b"),
    Row("ambiguous", r"\b(?:try|use|run|call|switch\s+to|fall\s*+-?\s*+back\s+(?:to|on))\s+the\s+other\s+(?:one|skill|service|provider|api|tool|endpoint|vendor)\b", value="a fallback, but the skill to fall back to is not named"),
    Row("use_skill", r"\b(?:route|re-?route|redirect|divert|send)\s+(?:it|this|that|the\s+(?:job|work|task|request|call|step|item|message|query|lookup|traffic))\s+(?:over\s+)?to\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b(?!\s+(?:team|channel|on-?call|queue|group|rota)\b)", needs=r"{COND}|instead|unavailable|\bdown\b|can'?t\s+be\s+reached"),
    *FALLBACK,
)

# which failures a sentence is about, what it may say without a policy, what is too vague, what is
# implied: `spec.grammar_aside`; the later families add to them below

# holdout4 families: a duration that is about something else (a cache, a retention) and a retry that is
# talked about ("re-running it is cheap") are no policy; an escalation needs a failure it follows (a contact
# line "ping her in #data-eng" is none); a count written "x2"; waits "spaced" apart; a repeat "stopped after"
# a time is a budget; a value put "for" a field, a value named in brackets, a result "we pretend we got"
IGNORE += (
    # "no reason to wait for it", "don't wait for the export": what runs beside what, not a wait between tries
    Row("ignore", r"\b(?:no\s+(?:reason|need)\s+to\s+|(?:don'?t|do\s+not|needn'?t)\s+(?:have\s+to\s+|need\s+to\s+)?)wait\s+(?:for|on)\s+(?:it|them|that|this|each\s+other|the\s+[\w-]+(?:\s+[\w-]+)?)\b(?!\s+(?:more|longer|over)\b)"),
    Row("ignore", r"\b(?:cached|kept|stored|retained|archived|persisted|valid|saved|held|locked|expires?|expiring|ttl\s+of|cache(?:s|d)?\s+(?:for|of))\s+(?:for\s+|after\s+|up\s+to\s+)?(?:about\s+|roughly\s+)?{D}"),
    Row("ignore", r"\b(?:re-?running|retrying|re-?trying|running\s+it\s+again)\s+(?:it\s+|this\s+|that\s+|the\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:is|are|was|would\s+be|will\s+be|stays?|remains?)\s+(?:cheap|safe|fine|ok(?:ay)?|harmless|free|idempotent|quick|fast|easy|expensive|costly|slow)\b[^.;]*"),
    Row("ignore", r"\b(?:it'?s|it\s+is|is|are)\s+still\s+broken\b|\bstill\s+broken\b"),
    Row("ignore", r"\b(?:(?:the\s+)?owner\s+(?:of\s+(?:this|the)\s+[\w-]+\s+)?is|(?:owned|maintained|run)\s+by|point\s+of\s+contact(?:\s+is)?|contact\s+person(?:\s+is)?|(?:send\s+)?questions\s+(?:go\s+)?to)\s+@?[\w.-]+[^.;]*"),
    Row("ignore", r"\b(?:ping|ask|contact|reach|email|e-mail|message|slack|dm)\s+(?:me|us|him|her|them|@?[\w.-]+)\s+(?:(?:in|on|via|at)\s+#?[\w.-]+\s+)?(?:with|for|if\s+you\s+have)\s+(?:any\s+)?(?:questions|queries|doubts|feedback)\b"),
)
VAGUE += (
    # anyone's approval not given in time, with what follows: the wait of an approval, never the step's timeout
    Row("ambiguous", r"\b(?:if|when|unless)\s+@?[\w.-]+(?:\s+[\w-]+)?\s+(?:has\s+not|hasn'?t|have\s+not|haven'?t|does\s+not|doesn'?t|did\s+not|didn'?t)\s+(?:approv\w*|sign\w*\s+off|said\s+yes|say\s+yes|given\s+(?:the\s+)?(?:ok|go-?ahead|approval)|decid\w*)\s+(?:with)?in\s+{D}[^.]*", value="an approval not given in time is the wait of an approval, not a policy of the step; write it on the step's approval (`Approval: required, timeout {time} -> reject`)"),
    Row("ambiguous", r"\b(?:if|when|unless)\s+@?[\w.-]+(?:\s+[\w-]+)?\s+(?:has\s+not|hasn'?t|have\s+not|haven'?t|does\s+not|doesn'?t|did\s+not|didn'?t)\s+(?:answer\w*|respond\w*|repl(?:y|ied))\s+(?:with)?in\s+{D}\s*,?[^.]{0,60}?\b(?:as\s+approved|approved|rejected|declined|don'?t\s+send|do\s+not\s+send|cancel\w*|proceeds?)\b[^.]*", value="an answer time with its outcome is the wait of an approval, not a policy of the step; write it on the step's approval"),
)
FIRST += (
    # the whole run's limit said through what it must not take, or the window it must fit in
    # the limit said through what happens at it: "the whole thing dies after 40 minutes", "the entire job is killed at 2h"
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|full)\s+(?:run|workflow|thing|job|pipeline|flow|procedure|process|chain|batch)\s+(?:dies|is\s+killed|gets\s+killed|is\s+stopped|gets\s+stopped|is\s+cut\s+off|gets\s+cut\s+off|times\s+out|is\s+aborted|gets\s+aborted)\s+(?:after|at)\s+{D}"),
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|full)\s+(?:run|workflow|thing|job|pipeline|flow|procedure|notebook|process|chain)\s+(?:takes|runs|lasts|goes\s+on)\s+(?:more|longer)\s+than\s+{D}"),
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|full)\s+(?:run|workflow|thing|job|pipeline|flow|procedure|notebook|process|chain)\s+(?:must|should|has\s+to|needs?\s+to)\s+fit\s+(?:inside|within|in(?:to)?)\s+(?:the\s+|a\s+|an?\s+)?{D}"),
    # "Total time: no more than 3 hours", "total runtime under 20 min": the whole run's limit
    Row("run_timeout", r"\btotal\s+(?:time|duration|run-?\s*time|wall[- ]?time|elapsed\s+time)\s*(?::|=|is|of)?\s*(?:no\s+more\s+than\s+|at\s+most\s+|under\s+|max(?:imum)?\s+|up\s+to\s+|less\s+than\s+|within\s+)?{D}"),
    # "Each address must come back within 8 seconds": how long one call may take
    Row("timeout", r"\b(?:must|should|has\s+to|have\s+to|needs?\s+to)\s+(?:come\s+back|return|respond|answer|reply)\s+(?:with)?in\s+{D}"),
    # "hard stop at 5 min", "hard limit of 30s": how long one attempt may take
    Row("timeout", r"\bhard\s+(?:stop|limit|cap|deadline|time-?\s*out|ceiling)\s+(?:at|of|after)\s+{D}"),
    # "whole sheet must finish inside the 1 h change window": the whole of whatever the document calls it
    Row("run_timeout", r"\b(?:the\s+)?(?:whole|entire|full)\s+[a-z-]+\s+(?:must|should|has\s+to|needs?\s+to)\s+(?:finish|complete|be\s+done|end|fit)\s+(?:inside|within|in(?:to)?)\s+(?:the\s+|a\s+|an?\s+)?{D}"),
    # "let the import run for at most 15 min": how long it may run, not a time to retry in
    Row("timeout", r"\b(?:let|allow)\s+(?:it|this|that|the\s+[\w-]+)\s+(?:to\s+)?(?:run|take|last|go\s+on)\s+(?:for\s+)?(?:at\s+most|up\s+to|no\s+more\s+than|a\s+max(?:imum)?\s+of)\s+{D}"),
    # "doubling delays (1s, 2s, 4s...)": a series left open shows where the backoff starts (a closed one is the waits)
    Row("exp_start", r"(?:(?<=delays)|(?<=waits)|(?<=pauses)|(?<=backoff))\s*\(\s*{D}(?:\s*,\s*\d+(?:\.\d+)?\s*[a-z]{0,7})+\s*(?:…|\.\.\.?|,?\s*etc\.?)\s*\)", also=("exponential",)),
    Row("budget", r"\b(?:stop|quit|give\s+up|cut\s+it\s+off)\s+(?:after|once|at)\s+(?:about\s+)?{D}(?:\s+(?:have|has)\s+(?:passed|elapsed|gone\s+by))?", needs=r"\bevery\b|\bkeep\s+\w+ing\b|\bpoll|\bre-?poll|\buntil\s+it|{RETRY}"),
)
BUDGET += (
    Row("budget", r"\bfor\s+as\s+long\s+as\s+{D}"),
)
WAIT += (
    Row("wait_fixed", r"\bspaced\s+(?:out\s+)?(?:by\s+)?{D}(?:\s+apart)?"),
)
COUNT_ROWS += (
    Row("retries", r"(?<![\w.])x\s?(?P<n1>\d+)\b(?!\s*(?:each|every|per|the|as|longer|factor|multipl|growth|backoff))", needs=r"\bretr"),
)
FALLBACK = (
    Row("value_field", r"\b(?:use|put|write|set|record)\s+(?P<value>\"[^\"]*\"|'[^']*'|`[^`]*`)\s+(?:for|as|in)\s+(?:the\s+|its\s+)?(?P<field>[a-z_]\w*)\b", needs=r"{COND}|instead|continu|carry\s+on|move\s+on|keep\s+going"),
    Row("value_literal", r"\b(?:use|return|fall\s*+-?\s*+back\s+to|continue\s+with|go\s+on\s+with|carry\s+on\s+with)\s+(?:[\w'-]+\s+){0,3}?(?:value|result|answer|number|figure|score|reading)s?\s*\(\s*`(?P<value>[^`]{1,400})`\s*\)"),
    Row("value_empty", r"\b(?:pretend|act\s+as\s+if|as\s+if|assume)\s+(?:that\s+)?(?:we|it|they|the\s+[\w-]+)\s+(?:got|received|had|returned|gave|came\s+back\s+with|produced)\s+(?:back\s+)?(?:an?\s+|the\s+)?(?P<what>empty|blank|no)\s*(?P<kind>[\w-]+)?(?:\s+back)?"),
    Row("use_skill", r"\b(?:plan\s+b|backup\s+plan|fall\s*-?\s*back(?:\s+plan)?)\b[^:.;]{0,60}:\s*(?:use\s+|run\s+|call\s+)?(?:the\s+)?`?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)`?(?=\s*(?:[,.;(]|$|with|on|instead|skill))"),
    Row("use_skill", r"\b(?:route|re-?route|send|pass|run|push|put)\s+(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:through|via|to)\s+(?:the\s+)?{NAME}(?:\s+instead)?", needs=r"{COND}|instead|unavailable|can'?t\s+be\s+reached|chokes?"),
    # "record it as not renewed (`renewed: false`)": the field and value in the brackets, not the words before
    Row("value_field", r"\b(?:record|mark|set|return|report|flag|leave|treat)\s+(?:it|this|that|them|the\s+[\w-]+)\s+as\s+[^(`.;]{0,40}?\(\s*`?(?P<field>[a-z_]\w*)\s*[:=]\s*(?P<value>[^`()]{1,200}?)`?\s*\)"),
    Row("value_field", r"\b(?:skip|drop|mark|leave|close|park|file)\s+(?:it|this|that|them|the\s+[\w-]+)\s+(?:with|under|as)\s+(?:a\s+|the\s+)?(?P<field>[a-z_]\w*)\s+(?P<value>\"[^\"]*\"|'[^']*'|`[^`]*`)"),
    *FALLBACK,
)
COUNT_ROWS += (
    Row("retries", r"\b(?:cap|limit)\s+(?:the\s+)?retries\s+(?:at|to)\s+{N}\b"),
)
TIMEOUT += (
    Row("timeout", r"\b(?:cap|limit)\s+(?:it|this|the\s+(?:step|call|run|request|job|[\w-]+))\s+(?:at|to)\s+{D}"),
    Row("timeout", r"\b(?:the\s+)?(?:whole|entire)\s+step\s+(?:at|to)\s+{D}(?:\s+including\s+(?:the\s+)?(?:waits|retries|pauses|delays))?", needs=r"\bcap|\blimit"),
    Row("timeout", r"\bgive\s+(?:each|every)\s+(?:[\w-]+\s+){1,2}?{D}\b(?!\s*(?:between|apart|pause|wait|delay))"),
)

# holdout5 families: a count corrected after "another go" ("another go - up to 3 more"); a random range of
# waits (its middle, jittered); waits listed after "waits are"; retries told apart by ordinals ("first
# immediately, second after 30s"); a wait "later"; a factor written "1.5x"; a budget each try "gets"; a
# series left open after "double the delay"; a budget after "check every 5s, max 3 min"; values set on
# named fields ("default the score to 0.5", "lat/lon set to null", "an empty list of matches")
EARLY: tuple[Row, ...] = (
    Row("retries", r"(?:\b(?:have\s+|give\s+it\s+|take\s+)?(?:another|one\s+more|a\s+second)\s+(?:chance|go|shot|try|attempt)\b[^.;]{0,20}?)?\b(?:up\s+to|at\s+most|max(?:imum)?|no\s+more\s+than|a\s+max(?:imum)?\s+of)\s+{N}\s+more\b(?!\s+than)(?!\s+(?:seconds?|minutes?|hours?|s|m|h)\b)", needs=r"{RETRY}|\banother\b|\bagain\b|\bgo\b|\bmore\s+(?:tries|times|goes|attempts)"),
    Row("wait_fixed", r"\b(?:an?\s+)?random(?:ly)?\s+(?:(?:wait|delay|pause|sleep|backoff)\s+(?:of\s+)?)?(?:between\s+)?(?P<lo>\d+(?:\.\d+)?)\s*(?:-|–|to|and)\s*{D}(?:\s+(?:in\s+)?between\s+(?:the\s+|each\s+)?(?:retries|tries|attempts|calls))?", also=("jitter_on",)),
    Row("wait_seq", r"\b(?:the\s+)?(?:waits?|delays?|pauses?|backoffs?|gaps?)\s+(?:(?:in\s+)?between\s+(?:the\s+)?(?:tries|attempts|retries|calls|runs)\s+)?(?:are|is|will\s+be|go|:)\s*(?P<seq>{SERIES})"),
    Row("wait_seq", r"\bfirst\s+(?:retry|try|re-?run|one)\s+(?P<oseq>(?:immediately|at\s+once|right\s+away|straight\s+away|(?:after|in)\s+{D})\s*,?\s*(?:and\s+)?(?:then\s+)?(?:the\s+)?second(?:\s+(?:retry|try|one))?\s+(?:(?:after|in)\s+{D}|immediately)(?:\s*,?\s*(?:and\s+)?(?:then\s+)?(?:the\s+)?third(?:\s+(?:retry|try|one))?\s+(?:after|in)\s+{D})?(?:\s*,?\s*(?:and\s+)?(?:then\s+)?(?:the\s+)?fourth(?:\s+(?:retry|try|one))?\s+(?:after|in)\s+{D})?)"),
    Row("wait_fixed", r"\b{D}\s+later\b", needs=r"{RETRY}|\bagain\b"),
    Row("exp_factor", r"(?:\b(?:back(?:ing)?\s+off|grow(?:s|ing)?|multipl\w*(?:\s+by)?|increas\w*\s+by)\s+|(?<![\d.])(?=\d+\.\d+\s*[x×]))(?P<factor>\d+(?:\.\d+)?)\s*[x×](?=\s|[,.;)]|$)(?:\s+(?:each|every)\s+time)?", needs=r"back-?\s*off|backing\s+off|expo|grow|multipl|each\s+time|every\s+time"),
    # "can legitimately take 1 hour and a half, don't time it out before that": the time is the limit
    Row("timeout", r"\b(?:can|may|might|could|will|does|do)\s+(?:\w+ly\s+)?(?:take|run|last)\s+(?:up\s+to\s+|as\s+long\s+as\s+)?{D}(?P<half>\s+and\s+a\s+half)?[^.]{0,30}?\b(?:don'?t|do\s+not|never|mustn'?t|must\s+not)\s+(?:time\s+(?:it\s+)?out|kill\s+it|cut\s+it\s+off)\b[^.;]*"),
    Row("timeout", r"\b(?:each|every|per|any)\s+(?:single\s+)?(?:[\w-]+\s+){0,3}?(?:gets?|has|is\s+given|is\s+allowed|may\s+use)\s+(?:a\s+|an\s+)?{D}\s+(?:time\s+)?(?:budget|limit|cap|allowance|time-?box|timeout|window)\b"),
    Row("exp_start", r"\(\s*{D}(?:\s*,\s*\d+(?:\.\d+)?\s*[a-z]{0,7})+\s*(?:…|\.\.\.?|,?\s*etc\.?)\s*\)", needs=r"doubl|tripl|" + EXPO_WORD + r"|back-?\s*off|multipl|grow|increas", also=("exponential",)),
    Row("budget", r"(?<=\s)(?:max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than)\s+{D}\b(?!\s*(?:between|apart|per|each|wait|delay|of\s+wait))", needs=r"\b(?:check|poll|try|knock|ping|look|retry)\w*\s+(?:again\s+)?every\s+"),
    Row("value_fields", r"\bdefault(?:s|ing)?\s+(?:the\s+|its\s+)?(?P<fields>[a-z_]\w*)\s+to\s+(?P<value>-?\d+(?:\.\d+)?\b|true\b|false\b|null\b|none\b|\"[^\"]{0,200}\"|'[^']{0,200}')"),
    Row("value_fields", r"(?P<fields>\b[a-z_]\w*(?:\s*/\s*[a-z_]\w*|\s+and\s+[a-z_]\w*){0,8})\s+(?:(?:both\s+|all\s+)?set\s+to|=)\s+(?P<value>-?\d+(?:\.\d+)?\b|true\b|false\b|null\b|none\b|\"[^\"]{0,200}\"|'[^']{0,200}')", needs=r"\b(?:move|carry|go|keep|continu\w*|proceed\w*)\s+(?:on|going|with)?|\b(?:continu|proceed)\w*\b"),
    Row("value_fields", r"\b(?:an?\s+)?empty\s+(?P<kind>list|array|string|object|map|set)\s+(?:of|for)\s+(?P<fields>[a-z_]\w*)\b", needs=r"\b(?:move|carry|go|keep|continu\w*|proceed\w*)\s+(?:on|going|with)?|\b(?:continu|proceed)\w*\b"),
    Row("use_skill", r"\b(?:swap|switch|sub|bring|slot)\s+in\s+(?:the\s+)?{NAME}", needs=r"{COND}|instead|\bfor\s+the\b"),
    Row("use_skill", r"\bfall\s+(?:through|over)\s+to\s+(?:the\s+)?`?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)`?(?:\s+skill)?"),
    Row("use_skill", r"\b(?:then|and\s+then|after\s+that)\s+(?:hand|pass|give|send)\s+(?:it|this|that|the\s+(?:job|work|task|request|call))\s+(?:over\s+)?to\s+(?:the\s+)?`?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)`?\b(?!\s+(?:team|channel|on-?call|queue|group|rota)\b)", needs=r"\bretr|\btries\b|\battempts\b|\bgoes\b"),
    Row("no_retry", r"\bunder\s+no\s+circumstances\s+(?:should\s+(?:you\s+|we\s+|it\s+|anyone\s+)?)?(?:re-?run|rerun|retry|re-?try|re-?attempt|try\s+(?:it\s+)?again|repeat)\b"),
    # a value copied from an input ("ship it as-is"), a retry "later", "slow" without a time: not readable
    Row("ambiguous", r"\b(?:ship|pass|send|return|use|keep|leave|forward|publish|output)\s+(?:it|them|this|that|the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:as-?\s*is|unchanged|untouched|verbatim|through\s+unchanged)\b[^.;]*", needs=r"{COND}|instead|\bdown\b", value="a value copied from an input is not a value the plan can hold; write the value to go on with (`continue with {\"text\": \"\"}`) or name a fallback skill"),
    Row("ambiguous", r"\b(?:try|do|run|call)\s+(?:it\s+)?again\s+later\b|\bretry\s+later\b", value="'later' says neither how long to wait nor how many times; write e.g. 'retry 3 times, 1 min apart'"),
    Row("ambiguous", r"\bif\s+(?:it'?s|it\s+is|it\s+gets|it\s+runs|it\s+goes|things\s+(?:are|get))\s+(?:too\s+|very\s+|really\s+)?slow\b[^.;]*", value="'slow' gives no time limit; write the limit, e.g. 'timeout 30s'"),
)
IGNORE += (
    # a person to tell about what a result looks like is a human check, not what follows a failure
    Row("ignore", r"\b(?:ping|ask|tell|message|e-?mail|slack|dm|call|alert|notify|loop\s+in|cc|warn)\s+(?:the\s+|our\s+)?@?[\w.-]+\s+(?:if|when|whenever)\s+(?:the\s+|its\s+|any\s+|these\s+|those\s+|our\s+)?(?:[\w-]+\s+){0,3}?(?:looks?|seems?|appears?|looking|are|is)\s+(?:\w+\s+)?(?:weird|off|wrong|odd|strange|suspicious|fishy|funny|unusual|unexpected|surprising|too\s+\w+)\b[^.;]*"),
    # a time said as an estimate ("takes about 3 minutes"), and waiting a lock out: no policy
    Row("ignore", r"(?:^|(?<=[\s,;(]))(?:it\s+|this\s+|that\s+)?(?:takes?|runs?|lasts?|needs?)\s+(?:about|around|roughly|approximately|approx\.?|~|some)\s*{D}\b(?![^.;]{0,40}\b(?:kill|abort|cancel|fail|time\s+out|longer))[^.;]*"),
    Row("ignore", r"\bwait\s+it\s+out\b"),
    Row("ignore", r"(?<=,\s)and\s+again(?=\s*,)"),  # "after 250 ms, and again, up to 8 times": the repeat, counted after
)

# the whole run's limit wherever a document puts it: "Whole run: if it hasn't finished within 25 minutes, ...",
# "Total time: no more than 3 hours", "the whole job keeps its 15-minute hard ceiling", "the whole sheet must
# finish inside the 1 h window" (what is whole: a run, a job, a feature, a sheet, a recipe, ...)
WHOLE = (r"(?:whole|entire|full|complete)\s+(?:run|workflow|thing|job|pipeline|flow|feature|sheet|process|procedure|batch|macro|"
         r"release|recipe|dish|notebook|chain|card|playbook|runbook|script|suite|build|lot|shebang|conversation|transcript|"
         r"pr|change|deploy(?:ment)?|rollout|migration|pass|sweep|session|shift|round|sequence|routine)")
EARLY += (
    Row("run_timeout", r"\b" + WHOLE + r"\s*[:=-]\s*[^.;]{0,80}?\b(?:within|in|after|inside|under|past|over|beyond|max(?:imum)?|at\s+most|no\s+more\s+than|up\s+to)\s+(?:the\s+|a\s+|an\s+)?{D}"),
    Row("run_timeout", r"\b(?:total|overall|end[- ]to[- ]end)\s+(?:time|run\s*time|runtime|duration|wall[- ]?(?:clock\s+)?time)\s*[:=-]\s*(?:no\s+more\s+than|not\s+more\s+than|at\s+most|max(?:imum)?|under|up\s+to|within|<=?|≤)?\s*{D}"),
    Row("run_timeout", r"\b" + WHOLE + r"\b[^.;]{0,60}?\b{D}\s+(?:hard\s+|strict\s+|overall\s+)?(?:ceiling|cap|limit|deadline|budget|time-?box|window|max(?:imum)?)\b"),
    Row("run_timeout", r"\b" + WHOLE + r"\s+(?:must|should|has\s+to|needs?\s+to|is\s+to|will)\s+(?:be\s+done|be\s+over|finish|complete|run|end|fit|land)\s+(?:inside|within|in(?:\s+under)?|under|in\s+less\s+than)\s+(?:the\s+|a\s+|an\s+)?{D}"),
)
EARLY += (
    Row("run_timeout", r"\b" + WHOLE + r"\s+(?:must|should|may|can)(?:n'?t|\s+not|\s+never)\s+(?:run|go|take|last)\s+(?:past|beyond|over|longer\s+than|more\s+than)\s+{D}"),
)
EARLY += (
    Row("run_timeout", r"\b" + WHOLE + r"\s+(?:dies|is\s+killed|gets\s+killed|is\s+stopped|gets\s+stopped|stops|ends|times\s+out|is\s+cut\s+off)\s+(?:after|at|past)\s+{D}"),
)
GATES_EARLY_MORE = r"|whole|entire|full|complete|total|overall|end[- ]to[- ]end"

# the sixth blind set's families (`spec.grammar_families`): before or after each table's own rows
_PLACEHOLDERS.update({**more.PLACEHOLDERS, "{WHOLE}": WHOLE})
EARLY = more.EARLY_FIRST + EARLY
FIRST = more.FIRST_FIRST + FIRST
NO_RETRY = more.NO_RETRY_FIRST + NO_RETRY
WAIT = more.WAIT_FIRST + WAIT
BACKOFF = more.BACKOFF_FIRST + BACKOFF
COUNT_ROWS = more.COUNT_FIRST + COUNT_ROWS
FALLBACK = more.FALLBACK_FIRST + FALLBACK
VAGUE += more.VAGUE_LAST + more7.VAGUE_LAST
IGNORE, CONTEXT = IGNORE + more.IGNORE_LAST, CONTEXT + more.CONTEXT_LAST
# the seventh blind set's families (`spec.grammar_families7`), the same way
_PLACEHOLDERS.update(more7.PLACEHOLDERS)
_SIXTH = len(more.EARLY_FIRST)  # the sixth set's bracketed pairs read before one field's value
EARLY = EARLY[:_SIXTH] + more8.EARLY_FIRST + more7.EARLY_FIRST + EARLY[_SIXTH:]  # and the eighth's (`grammar_families8`)
FIRST, NO_RETRY = more8.FIRST_FIRST + more7.FIRST_FIRST + FIRST, more7.NO_RETRY_FIRST + NO_RETRY
BOUNDS, WAIT = more8.BOUNDS_FIRST + more7.BOUNDS_FIRST + BOUNDS, more8.WAIT_FIRST + more7.WAIT_FIRST + WAIT + more7.WAIT_LAST
FALLBACK, IGNORE = more8.FALLBACK_FIRST + more7.FALLBACK_FIRST + FALLBACK, IGNORE + more7.IGNORE_LAST + more8.IGNORE_LAST

# in order: a row only reads text no earlier row took
TABLES: tuple[tuple[Row, ...], ...] = (EARLY, FIRST, REGENERATE, VAGUE, NO_RETRY, BUDGET, BOUNDS, WAIT, BACKOFF, TIMEOUT,
                                       COUNT_ROWS, FALLBACK)

# words that show a sentence means to state a policy
_SIGNALS = (
    r"\b(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies|ied|ying)|try\s+(?:it\s+|this\s+)?again|attempts?|tries|back-?\s*off"
    r"|time-?\s*outs?|timed\s+out|times\s+out|wait(?:ing|s)?+(?!\w)(?![\s-]{1,3}+lists?\b)|delay(?:ed|s)?|jitter|fall\s*+-?\s*+back\s*(?:to|on|[:=-])"
    r"|escalat\w*|abort|give\s+up|give\s+it|regenerat\w*|exponential\w*|again(?!\w)|instead|\d+(?:\.\d+)?\s*(?:ms|s|sec|secs"
    r"|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b|(?<!at\s)(?<!^)once|twice|thrice|\d+\s*x\b"
    r"|\b(?:run|take|last|hang|go\s+on)s?\s+(?:too|very|overly)\s+long\b)"
    rf"|\b(?:{WORDS}|half\s+an?)\s+{LONG_UNITS}\b|\bwithin\s+the\s+(?:hour|minute|day)\b"
)


def expand(pattern: str) -> str:
    """Replace {N}, {D} (numbered n1, d1, ... in order) and the named placeholders in `pattern`."""
    for token, body in _PLACEHOLDERS.items():
        pattern = pattern.replace(token, body)
    out: list[str] = []
    counts = {"N": 0, "D": 0}
    i = 0
    while i < len(pattern):
        if pattern.startswith("{N}", i) or pattern.startswith("{D}", i):
            key = pattern[i + 1]
            counts[key] += 1
            body = COUNT if key == "N" else DURATION
            guard = r"(?<!step )(?<!steps )(?<!stage )" if key == "N" else ""
            out.append(f"{guard}(?P<{key.lower()}{counts[key]}>{body}){_TIMED if key == 'N' else ''}")
            i += 3
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class Compiled:
    row: Row
    regex: re.Pattern[str]
    needs: re.Pattern[str] | None


def _every_pattern() -> list[str]:
    """Every pattern of the grammar as written, in a fixed order: the rows, their needs, the
    gates, the signals (the gates and signals have no placeholders to expand)."""
    found: dict[str, None] = {}
    for rows in (*TABLES, IGNORE, CONTEXT, DOUBT, IMPLIED):
        for r in rows:
            found[r.pattern] = None
            if r.needs:
                found[r.needs] = None
    for gate in GATES.values():
        found[gate] = None
    found[_SIGNALS] = None
    return list(found)


_ALL: dict[str, re.Pattern[str]] = {}


def compiled(pattern: str) -> re.Pattern[str]:
    """A pattern of the grammar as written (placeholders and all), expanded and compiled,
    case-insensitive. The first call compiles them all, or loads them compiled by an earlier
    process (`spec.regex_cache`): a few ms instead of 50-70."""
    if not _ALL:
        every = _every_pattern()
        bodies = "\x00".join([COUNT + _TIMED, DURATION, *_PLACEHOLDERS.values()])  # what `expand` puts in
        _ALL.update(zip(every, compile_all("grammar", every, re.I, expand, version=bodies), strict=True))
    found = _ALL.get(pattern)
    return found if found is not None else re.compile(expand(pattern), re.I)


def signals() -> re.Pattern[str]:
    """The words that show a sentence means to state a policy (module docstring), compiled."""
    return compiled(_SIGNALS)


def compile_table(rows: tuple[Row, ...]) -> tuple[Compiled, ...]:
    return tuple(Compiled(r, compiled(r.pattern), compiled(r.needs) if r.needs else None) for r in rows)

# A table's rows are only tried on a sentence with one of its gate's words: most sentences
# skip most tables, and a table no sentence reaches is never compiled (a process that
# reads a spec of plain descriptions pays almost nothing for the grammar).
GATES: dict[int, str] = {
    id(FIRST): r"wait|time|first|strike|beyond|besides|on\s+top|addition|bail|plug|retry|polic|in\s+a\s+row|after|give|stop|quit|chance|another|shot|fail|once|single|fatal|unrecoverable|terminal|hard\s+stop|"
               r"\b1\b|may|should|must|\bcan\b|shall",
    id(IGNORE): r"tried|normally|usually|typically|often|generally|mostly|average|practice|sometimes|always|typical|"
                r"median|usual|normal|expected|mean|count|treat|fail|undo|roll|revert|compensate|clean|leave|\bif\b|"
                r"when|once|should|still|then|after|gives|no\s+more|retries|attempts|tries|approval|sign|review|"
                r"excluding",
    id(REGENERATE): r"regenerat|re-?generat|re-?write|rewrite|repair|\bfix|\bmodel|\bllm\b|\bai\b|new\s+(?:code|script)",
    id(VAGUE): r"\d\s*(?:-|–|to|or)\s*\d|says|returns|reports|comes\s+back|flags|gives|rates|scores|answer|respon|repl|sign|approv|decid|looked|few|several|\bsome\b|many|bunch|handful|multiple|number\s+of|enough|"
               r"reasonable|couple\s+more|times\s+or|\bor\s+(?:for\s+)?\d|time-?\s*out|\btry\b|budget|window|allowance",
    id(NO_RETRY): r"retr|re-?tr|re-?run|rerun|re-?attempt|re-?start|\b0\b|zero|\bno\b|only|single|once|\bone\b|shot|\btry|"
                  r"second|retryable",
    id(BUDGET): r"\bfor\b|keep|until|within|\bover\b|during|no\s+longer|most|up\s+to|window|budget|deadline|total|"
                r"overall",
    id(BOUNDS): r"back|expon|delay|wait|doubl|tripl|grow|increas|interval|start|begin|initial|first|from|base|max|most|cap|more\s+than|limit|"
                r"top|ceiling|up\s+to",
    id(WAIT): r"wait|delay|pause|sleep|interval|apart|between|every|immediate|instant|right\s+away|straight\s+away|"
              r"at\s+once|back|after|\bin\b|\bat\b|fixed|constant|flat|linear|cool|gap|break|schedule|\(|once|poll|\d",
    id(TIMEOUT): r"time|give|each|every|per\b|allow|budget|grant|answer|respon|reply|result|output|finish|complete|"
                 r"take|\brun|last|hang|kill|cut|cancel|abort|stop|terminat|\bmost\b|max|up\s+to|more\s+than|under|"
                 r"deadline|limit|\bcap\b|slower|longer|>|over|tops|whole|entire|full|wall|\d",
    id(COUNT_ROWS): r"retr|re-?tr|again|\d|once|twice|thrice|attempt|tries|\btry|goes|shot|time|more|another|poll|"
                    r"keep\s+trying",
    id(FALLBACK): r"fall|fail|switch|swap|\bsub\b|bring|\buse|\brun|call|invoke|\btry|instead|backup|step|stage|page|ping|alert|notif|"
                  r"wake|e-?mail|message|slack|tell|inform|escalat|hand|pass|send|giv|kick|need|requir|\bask|\bget\b|"
                  r"mark|flag|queue|manual|open|file|raise|create|human|person|someone|somebody|record|return|store|"
                  r"output|emit|\blog|save|leave|\bset\b|treat|label|tag|report|default|assume|substitut|continu|carry|"
                  r"go\s+on|proceed|empty|blank|template|abort|stop|halt|kill|\bend|terminat|cancel|bring\s+down|crash|"
                  r"\blet\b|nothing\s+else|block|skip|ignore|keep\s+going|move\s+on|best|optional|fatal|critical|"
                  r"essential|important|required|matter|\bdon'?t|\bnever|won'?t|`",
    id(BACKOFF): r"jitter|random|determin|factor|multipl|ratio|[x×]\s*\d|doubl|tripl|twice\s+as|expo|exp\.|back|"
                 r"increas|grow|longer",
}


# the words of the holdout3 rows (FIRST += ..., FALLBACK = ... + FALLBACK)
GATES[id(FIRST)] += r"|cap|limit|ceiling|kill|abort|cancel|terminat|cut\s+off|chance|opportunit|across|jitter|random|allow|until|poll"
GATES[id(FALLBACK)] += r"|route|redirect|divert|logged"
# the words of the holdout4 rows
GATES[id(FALLBACK)] += r"|put|write|pretend|as\s+if|assume|plan\s+b|through|via|push|close|park"
GATES[id(IGNORE)] += r"|wait|cache|kept|stor|retain|archiv|persist|valid|saved|held|lock|expir|ttl|running|broken|ping|ask|contact|reach|mail|message|slack|\bdm\b"
GATES[id(FIRST)] += r"|cut\s+it|let|allow|\(|whole|entire|full"
GATES[id(WAIT)] += r"|spaced"
GATES[id(COUNT_ROWS)] += r"|\bx"
GATES[id(VAGUE)] += r"|said|say\s+yes|given|checked|reviewed|tasted|seen|ok'?d|okayed"
# the words of the holdout5 rows
GATES[id(EARLY)] = (r"more|random|wait|delay|pause|backoff|gap|first|later|\dx|x\s|\d\s*×|each|every|per|any|\(|max|most|up\s+to|"
                     r"default|set\s+to|=|\bas\b|empty|swap|switch|\bsub\b|bring|slot|fall|hand|pass|give|send|circumstances|"
                     r"ship|keep|leave|forward|publish|output|return|\buse\b|again|slow|take|last" + GATES_EARLY_MORE)
GATES[id(IGNORE)] += r"|ping|tell|notify|warn|\bcc\b|loop|takes?|runs?|lasts?|needs?|wait\s+it|times|twice|thrice"
# the words of the sixth set's rows
_BY_NAME = {"EARLY": EARLY, "FIRST": FIRST, "NO_RETRY": NO_RETRY, "WAIT": WAIT, "BACKOFF": BACKOFF,
            "COUNT_ROWS": COUNT_ROWS, "FALLBACK": FALLBACK, "VAGUE": VAGUE, "IGNORE": IGNORE}
_BY_NAME["BOUNDS"] = BOUNDS  # the seventh set's rows join it too
for _name, _words in (*more.GATES.items(), *more7.GATES.items(), *more8.GATES.items()):
    GATES[id(_BY_NAME[_name])] += _words

class Table:
    """One table of rows, with its gate; the rows are compiled when first needed."""

    def __init__(self, rows: tuple[Row, ...]) -> None:
        self._rows = rows
        self._gate = GATES.get(id(rows))
        self._compiled: tuple[Compiled, ...] | None = None

    def rows(self) -> tuple[Compiled, ...]:
        if self._compiled is None:
            self._compiled = compile_table(self._rows)
        return self._compiled

    def applies(self, text: str) -> bool:
        return self._gate is None or compiled(self._gate).search(text) is not None


class _Lazy:
    """A table compiled on first use (the context and doubt rows), iterated as its rows."""

    def __init__(self, rows: tuple[Row, ...]) -> None:
        self._table = Table(rows)

    def __iter__(self) -> Iterator[Compiled]:
        return iter(self._table.rows())


COMPILED: tuple[Table, ...] = tuple(Table(t) for t in TABLES)
COMPILED_IGNORE = Table(IGNORE)
COMPILED_CONTEXT = _Lazy(CONTEXT)
COMPILED_DOUBT = _Lazy(DOUBT)
COMPILED_IMPLIED = _Lazy(IMPLIED)
