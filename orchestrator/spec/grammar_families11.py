"""Rows of the policy grammar (`spec.grammar`) for the eleventh round's step-policy FAMILIES, and
the reason clauses that name no failure class.

Joined to the grammar's tables through `spec.grammar_families8` (before the tenth round's rows), so
the grammar's own module does not grow. The families, in words that are not the blind set's:

- several values to go on with, written as `field value` pairs ("fall back to lat 0 / lon 0",
  "go with low_band 3, high_band 9 and unit "mm""): an object of those fields;
- a value to go on with said before its field ("proceed using 1.0 as the fx_rate");
- a time said per item ("Cap each slide at 20 s", "90 s per ticket", "limit every call to 2 min"):
  one attempt's time (a loop step's attempt is one item's);
- a count written with `x` ("up to 4x", "retry it 3x"); "N reattempts"; "at 5-second spacing";
- a time said with what happens past it ("gets 3 hours, not a minute more", "has 250 ms; slower
  than that is a miss"): the attempt's time;
- "the first after 10 s and the second after 1 min": the waits before each retry;
- a reason clause ("the printer is slow on Mondays, so ...", "because the VPN is sluggish") says
  why the author wants a policy, not which failures it is for: `reason_spans` marks it, and the
  failure-class words inside it are not read (`spec.phrase`).
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_VALUE = r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}(?:\.\d{1,9})?+(?!\w|\.\d|\s*+(?:%|x\b))|true\b|false\b|null\b)"
# a field and its value with no `=` ("ct 15", "band of 3"): never a word of prose as the field
_BARE_PAIR = (r"(?!(?:and|or|the|a|an|step|stage|phase|part|item|row|page|line|attempt|try|retry|round|version|"
              r"v|it|them|up|to|at|of|every|each)\b)[a-z_]\w{0,40}+\s++(?:(?:of|at|as|=|:)\s*+)?" + _VALUE)
_SEP = r"\s*+(?:,\s*+(?:and\s+)?|and\s+|&\s*+|/\s*+|;\s*+|\+\s*+)"
_GO = (r"(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|go\s+ahead|press\s+on|go|run|roll|settle|"
       r"make\s+do|fall\s+back\s+to|default\s+to|use)")
_COUNT_WORDS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_PER = r"(?:per|for\s+each|for\s+every)"
_NO_WAIT_WORDS = r"^(?!.*(?:wait|paus|apart|between|delay|sleep|back-?off|gap|spacing|every\s+\d|interval|cool))"

EARLY: tuple[Row, ...] = (
    # "go with low_band 3, high_band 9 and unit "mm"": two or more fields and their values, no `=`
    Row("value_pairs", r"(?<!\w)" + _GO + r"\s+(?:with\s+|on\s+with\s+)?(?:the\s+)?(?:(?:default|fallback|generic|usual|standard|"
        r"safe|stock)\s+(?:values?|numbers?|settings?|figures?)\s+(?:of\s+)?)?(?P<pairs>" + _BARE_PAIR
        + r"(?:" + _SEP + _BARE_PAIR + r"){1,8})(?:\s*+,?\s*+instead\b)?", needs=r"{COND}|instead|unreachable|unavailable|anyway|regardless"),
    # "proceed using 1.0 as the fx_rate": the value, then its field
    Row("value_field", r"(?<!\w)(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|go\s+ahead|press\s+on)\s+"
        r"(?:using|with|taking)\s+(?P<value>" + _VALUE + r")\s+(?:as|for)\s+(?:the\s+|its\s+|our\s+)?(?P<field>[a-z_]\w*+)",
        needs=r"{COND}|instead"),
    # "up to 4x", "retry it 3x", "have another go max 5x": the retries (the first try is behind)
    Row("retries", r"(?<!\w)(?:up\s+to|at\s+most|max(?:imum)?|no\s+more\s+than)\s+{N}\s*+x(?!\w)",
        needs=r"{RETRY}|another\s+(?:go|try|shot|attempt)|\bagain\b|\bchokes?\b|{COND}"),
    Row("retries", r"(?<!\w)(?:{RETRY}|another\s+(?:go|try|shot))\s+(?:it\s+|this\s+|that\s+)?{N}\s*+x(?!\w)"),
    # "ten reattempts", "up to 4 re-tries at ...": the retries
    Row("retries", r"(?<!\w)(?:up\s+to\s+|at\s+most\s+|no\s+more\s+than\s+)?(?P<n1>\d{1,6}+|" + _COUNT_WORDS
        + r")\s+re-?attempts\b"),
    # "at 3-second spacing", "with 5 min gaps": the wait between tries
    Row("wait_fixed", r"(?<!\w)(?:at|with)\s+(?:a\s+)?{D}\s+(?:spacing|gaps?|intervals?|breaks?)\b"),
    # "no waiting around between them": no wait between tries
    Row("wait_none", r"(?<!\w)(?:no|without(?:\s+any)?)\s+(?:waiting|pausing|hanging|sitting)\s+(?:around|about)"
        r"(?:\s+(?:in\s+)?between(?:\s+(?:them|the\s+(?:tries|attempts|retries|goes)))?)?"),
    # "the first after 10 s and the second after 1 min (, the third after 5 min)": a wait before each retry
    Row("wait_seq", r"(?<!\w)the\s+first\s+(?:one\s+)?(?P<oseq>(?:after|in)\s+{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?the\s+second"
        r"(?:\s+one)?\s+(?:after|in)\s+{D}(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?the\s+third(?:\s+one)?\s+(?:after|in)\s+{D})?)",
        needs=r"{RETRY}|attempts|tries|goes|shots"),
)

FIRST: tuple[Row, ...] = (
    # "Cap each slide at 20 s", "limit every call to 2 min": one attempt's (one item's) time
    Row("timeout", r"(?<!\w)(?:cap|limit|time-?box|restrict)\s+(?:each|every|any|one|a\s+single|per)\s+[\w-]{1,40}+"
        r"(?:\s+[\w-]{1,40}+)?\s+(?:at|to)\s+(?:(?:at\s+)?most\s+)?{D}"),
    # "90 s per ticket", "45s for each claim": the time one item's attempt has (a wait said is no time limit)
    Row("timeout", r"(?<!\w){D}\s+" + _PER + r"(?:\s+(?:one|single))?\s+(?!(?:retry|re-?try|wait|pause|time|go|round|pass|turn|attempt|try|call|run|request)\b)[a-z][\w-]{0,40}+",
        needs=_NO_WAIT_WORDS),
    # "gets 3 hours, not a minute more", "has 250 ms; slower than that is a miss", "gets 90 s then it's a fail":
    # the attempt's time
    Row("timeout", r"(?<!\w)(?:gets?|has|is\s+given|is\s+allowed)\s+(?:up\s+to\s+|at\s+most\s+)?{D}\s*+[,;:-]?\s*+"
        r"(?:not\s+(?:a|one|1)\s+(?:second|minute|moment|bit)\s+(?:more|longer)|(?:anything\s+|any\s+)?(?:slower|longer)\s+"
        r"than\s+(?:that|this)(?:\s+(?:is|means)\s+(?:a\s+)?(?:miss|time-?out|dead|over))?|"
        # "gets 90 s then it's a fail", "has 2 min, after that it counts as failed": the time, then a failure
        r"(?:then|after\s+that|past\s+that)\s*+[,:]?\s*+(?:it['’]s|it\s+is|that['’]s|that\s+is|it\s+counts\s+as|"
        r"count\s+it\s+as|call\s+it)\s+(?:a\s+)?(?:fail|failure|failed|miss|dead|lost)(?![\w-]))"),
)

# what a sentence may say without a policy: "no need to wait for step 1", "it doesn't have to wait on the
# intake step", "don't wait for the scan to finish": when the step starts (`spec.branch_parallel`), no wait between tries
IGNORE: tuple[Row, ...] = (
    Row("ignore", r"(?<!\w)(?:no\s+need\s+to|(?:don'?t|do\s+not|doesn'?t|does\s+not|needn'?t|need\s+not)(?:\s+(?:have|need)\s+to)?)"
        r"\s+wait\s+(?:for|on|until|till)\s+(?:(?:step|stage|phase|task)\s+\w{1,12}+|(?:the|that|this|those)\s+[\w-]{1,40}+"
        r"(?:\s+[\w-]{1,40}+)?\s+(?:step|stage|phase|task|one|ones|job|lookup|run)s?|(?:it|them|that|this)\s+to\s+"
        r"(?:finish|complete|end|be\s+done)|(?:the\s+)?[\w-]{1,40}+\s+to\s+(?:finish|complete|end|be\s+done))\b"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|with|using|waiting|pausing|hanging|sitting|\dx|\d\s+x|re-?attempts|spacing|gaps?|first",
    "FIRST": r"|cap|limit|time-?box|restrict|per|for\s+each|for\s+every|gets?|has|given|allowed",
    "IGNORE": r"|wait\s+(?:for|on|until|till)",
}

# a reason clause: "<something> is slow ..., so" / "because <something> is sluggish" / "<something> is slow. <rule>"
_SLOW = r"(?:slow|sluggish|laggy|glacial|crawling)"
_REASON = _rx(r"(?i)(?<!\w)(?:is|are|gets|runs|can\s+be|tends\s+to\s+be|has\s+been)\s++(?:(?:really|very|pretty|quite|often|"
              r"always|usually|a\s+bit|kind\s+of|painfully|super|so|too|dead)\s++)?" + _SLOW
              + r"\b[^.;,!?]{0,80}?(?:,\s*+|\s++)(?:so|which\s+is\s+why|that'?s\s+why|hence)\b"
              r"|(?<!\w)(?:because|since|'cause|cause|as)\s++[^.;,!?]{0,60}?(?<!\w)(?:is|are|gets|runs|can\s+be)\s++"
              r"(?:(?:really|very|pretty|quite|often|always|usually|a\s+bit|kind\s+of)\s++)?" + _SLOW + r"\b"
              # a sentence of its own that says so, before the rule: "The API is slow. give it 90 s ..." (round 45)
              r"|(?:^|(?<=[.!?;:]\s))(?![^.;!?]{0,60}?(?<!\w)(?:if|when|whenever|once|unless|should)\b)[^.;!?]{0,60}?"
              r"(?<!\w)(?:is|are|gets|runs|can\s+be|tends\s+to\s+be|has\s+been)\s++(?:(?:really|very|pretty|quite|often|"
              r"always|usually|a\s+bit|kind\s+of|painfully|super|so|dead)\s++)?" + _SLOW + r"\s*+[.!](?=\s++\S)")


def reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` gives a reason ("the share is slow on Fridays, so ...", "the share is slow. retry ..."): the failure-class words
    in it say why, not which failures the policy is for. "too slow" is a failure said, never a reason."""
    return [m.span() for m in _REASON.finditer(text) if "too" not in m.group(0).lower().split()]
