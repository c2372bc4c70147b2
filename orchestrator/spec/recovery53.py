"""Recovery phrasings a thirty-fourth blind set misread or dropped (fifty-third round), in words that are not its own.

`plain` writes three notations in the words the grammar reads, before any row is tried (`spec.phrase`):

- a series of waits said one after another, "10 s then 20 s then 40 s and so on", is "10 s, then 20, 40 and so on"
  (a backoff from the first, by the factor the series shows, as `spec.phrasing49` reads it);
- a series said as further goes, "after one minute, again after five, and a last time after fifteen", is "after
  1 minute, then 5 minutes, then 15 minutes" (each bare number in the first wait's unit);
- a bare "throws" (no object) before going on ("when the lookup throws, carry on with x = 0", "... use `x` instead")
  names a failure of any class, as "fails" does: the run is to go on whatever broke; before a retry ("if the parser
  throws, retry it twice") or about the step's code (rewriting, fixing the script) it stays a code error.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a backoff's cap said of each wait: "cap each wait at a minute", "every pause capped at 30 s" (not the attempt's
  time: "cap each attempt at a minute" stays one);
- an attempt's time said as giving up on it: "pull the plug on the optimiser at the 12-minute mark", "call it quits
  on the lookup after 8 s", "don't let the OCR chew on a page for more than three minutes", "the upload can have ninety
  seconds";
- a time said with "and not a tick more": "the morning run gets 90 seconds and not a tick more" (the whole run's
  when said so);
- the whole run's time said as the whole of it still going: "if the batch is still running at the three-hour mark,
  kill the whole thing", as the whole of it capped: "the entire close-out is capped at a quarter of an hour", and
  finished: "the whole stocktake job, soup to nuts, must be finished within 40 minutes";
- no retry said as the step not run again: "it does not get re-run if it errors", "this won't be re-tried";
- retries said with the verb of the thing retried: "reconnect to the sensor up to 5 times", "redial up to 3 times";
- the count of further goes said "twice at most" after another go and its wait ("have another bash in 45 seconds -
  twice at most").

`whole_scope53` reads a time as the whole run's when the sentence spans it from the first step to the last ("from the
first step starting to the last one finishing, allow two days").
"""

from __future__ import annotations

import re

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import _ONE, whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the counts a series of waits is said in (`grammar` imports this module: its table is not read here)
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45,
                "fifty": 50, "sixty": 60, "ninety": 90}
_UNITS = r"(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)"
# "10 s then 20 s then 40 s and so on": a series said with "then" between each wait
_THEN_SERIES = _rx(r"(?i)(?<![\w.])(\d{1,5}+)\s*+(" + _UNITS + r")\s++then\s++(\d{1,5}+)\s*+(?:" + _UNITS + r")?\s++then\s++"
                   r"(\d{1,5}+)\s*+(?:" + _UNITS + r")?(\s*+,?\s*+and\s++so\s++on)\b")
_WORD = r"(\d{1,5}+|" + "|".join(sorted((w for w in NUMBER_WORDS if w not in ("a", "an")),
                                        key=len, reverse=True)) + r")"
# "after one minute, again after five, and a last time after fifteen": a series of waits
_AGAIN_SERIES = _rx(r"(?i)(?<![\w-])after\s++(a|an|" + _WORD[1:-1] + r")\s++(second|minute|hour)s?+\s*+,\s*+again\s++after\s++"
                    + _WORD + r"\s*+,?\s*+(?:and\s++)?(?:a\s++(?:last|final|third)\s++time|one\s++(?:last|final)\s++time|"
                    r"once\s++more|finally)\s++after\s++" + _WORD + r"(?![\w-])")
# a bare "throws": any failure
_THROWS = _rx(r"(?i)(?<![\w-])throws(?=\s*+(?:[,;:.!?]|[-–—]\s|$))")
# what the sentence does after it: goes on (with a value, a spare skill), not retry the failed code
_GOES_ON = _rx(r"(?i)\b(?:carry|move|press|push|keep|go|plough|plow|roll|skip)\s++(?:on|going|ahead)\b|\bcontinue\b|\binstead\b|"
               r"\bfall\s*+-?\s*+back\b|\bswap\b|\bhand\s++(?:it|the\s++\w++)\s++to\b")
_CODE = _rx(r"(?i)\b(?:script|code|regenerat\w*|rewrit\w*|fix(?:es|ed)?|bug|model|llm)\b")


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word.lower(), 1)


def _again(m: re.Match[str]) -> str:
    unit = m.group(2).lower()
    first, second, third = (_number(m.group(i)) for i in (1, 3, 4))
    return f"after {first} {unit}s, then {second} {unit}s, then {third} {unit}s"


def plain(text: str) -> str:
    """`text` with a series said with "then" or "again after" in the notation the grammar reads, and a bare "throws"
    as "fails" (module docstring)."""
    if "then" in text:
        text = _THEN_SERIES.sub(lambda m: f"{m.group(1)} {m.group(2)}, then {m.group(3)}, {m.group(4)}{m.group(5)}", text)
    if "again" in text:
        text = _AGAIN_SERIES.sub(_again, text)
    if "throws" in text and _CODE.search(text) is None and _GOES_ON.search(text) is not None:
        text = _THROWS.sub("fails", text)
    return text


_THING = r"(?:the\s+|its\s+|this\s+|that\s+)?[\w-]+(?:\s+[\w-]+){0,3}?"
_WHOLE = r"(?:the\s+)?(?:whole|entire|full)\s+(?:thing|lot|run|batch|job|shebang|workflow|pipeline|process)|everything|the\s+lot"

EARLY: tuple[Row, ...] = (
    # "cap each wait at a minute", "every pause capped at 30 s": the backoff's cap
    Row("exp_cap", r"(?<![\w-])cap\s+(?:each|every|any|the)\s+(?:wait|pause|delay|gap|back-?off|interval|breather)s?\s+"
        r"(?:at|to)\s+{D}"),
    Row("exp_cap", r"(?<![\w-])(?:each|every|any)\s+(?:wait|pause|delay|gap|interval|breather)\s+(?:is\s+)?capped\s+(?:at|to)\s+{D}"),
    # "pull the plug on the optimiser at the 12-minute mark", "call it quits on the lookup after 8 s": the attempt's time
    Row("timeout", r"(?<![\w-])(?:pull\s+the\s+plug|call\s+it\s+(?:quits|a\s+day)|knock\s+it\s+on\s+the\s+head)\s+"
        r"(?:on\s+" + _THING + r"\s+)?(?:at\s+the\s+{D}\s+mark|(?:after|at|past)\s+{D})"),
    # "don't let the OCR chew on a page for more than three minutes": the attempt's time
    Row("timeout", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+let\s+(?:it|them|" + _THING + r")\s+(?:chew|sit|spin|run|hang|grind|"
        r"churn|stew|dwell|work|go\s+on|mull)\s+(?:(?:on|over)\s+(?:a|the|each|one|any)\s+[\w-]+\s+)?(?:for\s+)?(?:more|longer)\s+"
        r"than\s+{D}"),
    # "the upload can have ninety seconds": the attempt's time (not "can have 5 minutes to ...", "for ...")
    Row("timeout", r"(?<![\w-])(?:can|may|could|gets\s+to)\s+have\s+(?:up\s+to\s+|at\s+most\s+)?{D}(?![\w-])(?!\s+(?:to|for)\s)"),
    # "if the batch is still running at the three-hour mark, kill the whole thing": the whole run's time
    Row("run_timeout", r"(?<![\w-])still\s+(?:going|running|at\s+it|in\s+progress|on)\s+(?:at|by|after|past)\s+(?:the\s+)?{D}"
        r"(?:\s+mark)?\s*+,?\s*+(?:then\s+)?(?:kill|stop|end|cancel|scrap|abort|bin|halt|pull)\s+(?:" + _WHOLE + r")\b"),
    # "the entire close-out is capped at a quarter of an hour": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|full)\s+[\w-]+(?:\s+[\w-]+){0,2}?\s+(?:is|are|gets|get)\s+"
        r"(?:capped|limited|held)\s+(?:at|to)\s+{D}"),
    # "the whole stocktake, start to end, must be finished within 40 minutes": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|full)\s+[\w-]+(?:\s+[\w-]+){0,2}?\s*+(?:,[^,.;]{1,30}+,\s*+)?"
        r"(?:must|has\s+to|needs\s+to|should)\s+be\s+(?:finished|done|over|complete|completed|wrapped\s+up)\s+"
        r"(?:in|within|inside)\s+{D}"),
    # "the morning run gets 90 seconds and not a tick more": the time
    Row("timeout", r"(?<![\w-])(?:gets|has|have|get)\s+{D}\s*+,?\s*+and\s+not\s+(?:a|one)\s+(?:tick|second|minute|moment|jot|"
        r"breath|heartbeat)\s+(?:more|longer|over)\b"),
    # "it does not get re-run if it errors", "this won't be re-tried": no retry
    Row("no_retry", r"(?<![\w-])(?:does|do|will|should|must|is|are|can)(?:n'?t|\s+not|\s+never)\s+(?:get\s+|be\s+)?"
        r"re-?(?:run|tried|started|done|sent|attempted|fired|executed)\b"),
    # "reconnect to the sensor up to 5 times": retries
    Row("retries", r"(?<![\w-])re-?(?:connect|dial|send|poll|post|submit|fetch|upload)\s+(?:to\s+)?(?:" + _THING + r"\s+)?"
        r"(?:up\s+to|at\s+most|no\s+more\s+than)\s+{N}\s+(?:more\s+)?times\b"),
    # "have another bash in 45 seconds - twice at most": two further goes, retries (the wait read by its own row)
    Row("retries", r"(?<![\w-])(?=(?:twice|thrice|once)\s){N}\s+(?:at\s+most|max(?:imum)?|tops)\b",
        needs=r"(?<![\w-])another\s+(?:go|bash|try|shot|crack|stab|attempt|whirl|run)\b[^.;]{0,60}?(?:\s[-–—]|,|;)\s*+"
              r"(?:twice|thrice|once)\s+(?:at\s+most|max(?:imum)?|tops)\b"),
    # "another bash in 45 seconds - twice at most": the wait before them (not "another go in 2 min, and again ...")
    Row("wait_fixed", r"(?<![\w-])another\s+(?:go|bash|try|shot|crack|stab|attempt|whirl)\s+in\s+{D}",
        needs=r"(?<![\w-])(?:twice|thrice|once)\s+(?:at\s+most|max(?:imum)?|tops)\b"),
)

# the words its rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|cap|plug|quits|day|head|let|have|still|whole|entire|full|re|twice|thrice|once|another|gets|has|have|get"}

# the run spanned from its first step to its last: "from the first step starting to the last one finishing"
_SPANNED = _rx(r"(?i)(?<![\w-])from\s++(?:the\s++)?(?:first|1st)\s++(?:step|stage|job|task)\s++(?:starting\s++|starts\s++|"
               r"kicking\s++off\s++)?(?:to|until|till)\s++(?:the\s++)?last\s++(?:one|step|stage|job|task)?\s*+"
               r"(?:finishing|finishes|ends|ending|is\s++done|done|completing|completes)?\b")


def whole_scope53(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` spans it from the first step to the last (module
    docstring)."""
    return whole_scoped(text, statement, scope=_SPANNED, one=_ONE)


_rx.save()
