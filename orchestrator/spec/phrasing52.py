"""Recovery phrasings a thirty-third blind set misread or dropped (fifty-second round), in words that are not its own.

`plain` writes two notations in the words the grammar reads, before any row is tried (`spec.phrase`):

- a time said in hours and minutes apart ("after 1 h 15 m", "2 hrs 5 mins") is that many minutes;
- a backoff's factor said as a wait "doubled each time", "tripled every time" is "doubling each time" (as "1 min,
  doubling each time" was read already: the wait before it the backoff's start, not a fixed wait).

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- retries said as more chances ("give the scale reader three more chances");
- the count of goes said after another go and its wait ("have another go every 45 seconds - three goes at most",
  "take another shot every minute, five tries tops"): the goes counted are the further ones, retries (alone, "three
  goes at most, 45 s apart", they are all the goes, the first among them);
- a time said as a ceiling on the step ("Five-minute ceiling on the carrier rates", "a 30 s cap on the lookup");
- a time said as what the step must be finished in ("has to be finished in 3 days", "must be wrapped up within 2 h");
- a time said as waiting stopped ("stop waiting for the kiln log after 75 minutes");
- no retry said as "no do-overs", "no redos", "no mulligans", "no retakes";
- a backoff's first wait said "start the gap at 4 seconds", "begin the wait from 2 s";
- one wait before the one more go said "give it ten seconds first";
- a fallback skill said "ask `x` instead", "use `x` for that step" (when a failure is said);
- the whole run's time said "nothing in this run may still be going 12 minutes after we press go";
- asides that only look like a policy: "folk won't wait", "and not a second more".

`whole_scope52` reads a time as the whole run's when the sentence says it is everything's: "top to bottom", "all of
it, every stage", "every stage has until ...".
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import _ONE, whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "1 h 15 m", "2 hrs 5 mins": hours and minutes said apart
_H_M = _rx(r"(?i)(?<![\w.])(\d{1,4}+)\s*+h(?:rs?|ours?)?\s++(?:and\s++)?(\d{1,2}+)\s*+m(?:ins?|inutes?)?(?![\w-])")
# "doubled each time", "tripled every time": the factor of a backoff
_GROWN = _rx(r"(?i)(?<![\w-])(doubl|tripl)ed(\s++(?:each|every)\s++time\b)")


def plain(text: str) -> str:
    """`text` with hours and minutes said apart as minutes, and a wait "doubled each time" as "doubling each time"
    (module docstring)."""
    if "h" in text:
        text = _H_M.sub(lambda m: f"{int(m.group(1)) * 60 + int(m.group(2))} minutes", text)
    if "led" in text:
        text = _GROWN.sub(lambda m: f"{m.group(1)}ing{m.group(2)}", text)
    return text


_GO = r"(?:go|bash|try|shot|crack|stab|attempt|whirl|run)"
_GOES = r"(?:goes|bashes|tries|shots|cracks|stabs|attempts|whirls|runs)"
# another go, then (after its wait) the count: "another bash every 45 seconds - three goes at most"
_ANOTHER = (r"(?<![\w-])another\s+" + _GO + r"\b[^.;]{0,60}?(?:\s[-–—]|,|;)\s*+(?:and\s+)?(?:up\s+to\s+|at\s+most\s+)?"
            r"\d{1,3}+\s+" + _GOES + r"\s+(?:at\s+most|max(?:imum)?|tops|or\s+fewer)\b")
_FAILED = r"{COND}|\bwon'?t\s+(?:play|work|cooperate|behave)\b"

EARLY: tuple[Row, ...] = (
    # "have another bash every 45 seconds - three goes at most": the further goes, retries (the wait left to its rows)
    Row("retries", r"(?<![\w-])(?:up\s+to\s+|at\s+most\s+)?{N}\s+" + _GOES + r"\s+(?:at\s+most|max(?:imum)?|tops|or\s+fewer)\b",
        needs=_ANOTHER),
    # "give the scale reader three more chances": retries (a number of chances, not "1 more chance" alone: `spec.phrasing49`)
    Row("retries", r"(?<![\w-])(?:(?:give|allow|grant)\s+(?:it|them)\s+)?{N}\s+more\s+chances\b"),
    # "Five-minute ceiling on the carrier rates": the attempt's time
    Row("timeout", r"(?<![\w-])(?:an?\s+)?{D}\s*+(?:hard\s+)?(?:ceiling|cap|cut-?off|time\s*-?\s*limit|time-?box)(?![\w-])\s+"
        r"(?:on|for)\s+(?!(?:the\s+)?(?:whole|entire|full|run|batch|workflow|pipeline)\b)"),
    # "this has to be finished in 3 days", "the export must be wrapped up within 2 h": the time (not "all of this has to
    # be done inside 50 minutes", "everything must be ...", "the whole lot should be through inside 6 hours": the whole's,
    # read or warned by its own readers, `spec.whole_run_said`)
    Row("timeout", r"(?<![\w-])(?<!all\sof\s)(?:this|it|(?:the|each|every)\s+(?!(?:whole|entire|full|complete|lot|run|job|batch)\b)"
        r"[\w-]+(?:\s+[\w-]+){0,2}?)\s+"
        r"(?:has\s+to|have\s+to|must|needs?\s+to|should)\s+be\s+(?:finished|done|over|completed?|wrapped\s+up|through)\s+(?:in|within|inside(?:\s+of)?)\s+{D}"),
    # "stop waiting for the kiln log after 75 minutes": the time
    Row("timeout", r"(?<![\w-])(?:stop|quit|give\s+up)\s+waiting\s+(?:for|on)\s+(?:the\s+|its\s+|a\s+)?[\w-]+(?:\s+[\w-]+){0,3}?"
        r"\s+(?:after|at|past|beyond)\s+{D}"),
    # "no do-overs on the label purchase", "no redos": no retry
    Row("no_retry", r"(?<![\w-])no\s+(?:do-?\s*overs|re-?dos|mulligans|retakes|second\s+bites)\b"),
    # "start the gap at 4 seconds and triple it": the backoff's first wait
    Row("exp_start", r"(?<![\w-])(?:start|begin|open)\s+(?:the\s+)?(?:gap|wait|delay|pause|back-?off|interval)s?\s+"
        r"(?:at|from|with|on)\s+{D}"),
    # "try it once more, but give it ten seconds first": the wait before that go
    Row("wait_fixed", r"(?<![\w-])give\s+it\s+{D}\s+first\b", needs=r"\bonce\s+more\b|\bone\s+more\b|\bagain\b"),
    # "If the lookup won't play, ask `x` instead": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:ask|use|try|call)\s+(?:{NAME})\s+(?:instead|for\s+(?:that|this|the)\s+(?:step|one|bit)|in\s+its\s+"
        r"place)\b", needs=_FAILED),
    # "skip ahead with images = []", "press on with total: 0": going on with that value
    Row("value_field", r"(?<![\w-])(?:skip|jump|press|push|forge|roll|plough|plow)\s+(?:ahead|on|forward|onward)\s+with\s+"
        r"(?P<field>[a-z_]\w{0,60})\s*+(?:=|:)\s*+(?P<value>\[\s*+\]|\{\s*+\}|\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}+(?:\.\d{1,6}+)?+|true|"
        r"false|null|none)(?![\w.])"),
    # "Nothing in this run may still be going 12 minutes after we press go": the whole run's time
    Row("run_timeout", r"(?<![\w-])nothing\s+(?:in|on)\s+(?:this|the|our)\s+(?:run|batch|job|workflow|pipeline|list|sheet)\s+"
        r"(?:may|can|should|must|is\s+to)\s+(?:still\s+)?be\s+(?:going|running|in\s+progress|at\s+it|working)\s+{D}\s+"
        r"(?:after|past|from)\s+(?:we|you|they|someone|the\s+moment\s+we)\s+(?:press|hit|push|say|click)\s+(?:go|start|run)\b"),
)

# what a sentence may say beside a policy that is none (read before every row)
IGNORE: tuple[Row, ...] = (
    # "it's a kiosk, folk won't wait": an aside, no policy
    Row("ignore", r"(?<![\w-])(?:folk|folks|people|customers|users|visitors|staff|nobody|no\s+one)\s+(?:won'?t|will\s+not|"
        r"can'?t|cannot|don'?t|do\s+not)\s+wait\b"),
    # "has until the 36-minute mark and not a second more": emphasis, no policy ("has 20 s and not a second more" is
    # `spec.phrasing48`'s time)
    Row("ignore", r"(?<=mark\s)(?:and\s+)?not\s+(?:a|1|one)\s+(?:second|minute|moment)\s+(?:more|longer)\b"),
)

# the words its rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|another|chances|ceiling|cap|cut|limit|box|finished|done|over|complet|wrapped|through|waiting|no|start|"
                  r"begin|open|give|ask|use|try|call|nothing|wait|not|with"}

# the whole of the run said as everything in it: "top to bottom", "all of it, every stage", "every stage has until"
_EVERYTHING = _rx(r"(?i)(?<![\w-])(?:top\s++to\s++bottom|start\s++to\s++finish|all\s++of\s++it\s*+,\s*+every\s++(?:stage|step|"
                  r"job|task|part)|every\s++(?:stage|step|job|task)\s++(?:together\s++)?(?:has|have|gets?)\s++until)\b")


def whole_scope52(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` says it is everything's (module docstring)."""
    return whole_scoped(text, statement, scope=_EVERYTHING, one=_ONE)  # not "top to bottom, each attempt gets 5 min"


_rx.save()
