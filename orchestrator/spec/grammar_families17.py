"""Rows of the policy grammar (`spec.grammar`) for the seventeenth round's misread families, and a
failure said as the reason before a bare retry.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a value to CARRY ON WITH, said in everyday words beside a going-on ("carry on with room `TBA` and
  tutor `cover`", "go ahead with a depth of 0", "just put N/A and keep going", "log it as 0 and move
  on", "call it 4 and press on", "treat it as grade band "B" and carry on"): a continue-with-value,
  never a plain continue with the value dropped (`EARLY`); what no row reads is said
  (`spec.phrase_checks.lost_value`);
- a step that must happen ONCE ("only send it once", "print the badge just once", "the notice goes
  out strictly once"): no retry (`EARLY`); "a second ticket confuses the crew" is why, no policy
  (`IGNORE`);
- ONE retry with its wait ("ring them again after 10 s", "post it again in 2 min"): one retry,
  never the default count (`EARLY`); "don't wait 5 min between tries" is no wait, never a 5-min
  wait (`EARLY`); "don't wait, go on with X" is going on past the wait, no wait between tries (`EARLY`);
- a step whose own job is to send something ("Email the parents the trip letter", "Text the crew
  the berth number"): no escalation (`IGNORE`);
- a failure said as the reason just before a bare retry ("the tide feed is slow on the hour, give
  it 3 more goes"): why the author wants the retry, not which failures it is for
  (`comma_reason_spans`, read beside `spec.grammar_families16.failure_reason_spans`).
"""

from __future__ import annotations

from orchestrator.spec.grammar_families15 import _EQ_PAIR
from orchestrator.spec.grammar_families16 import _FAILS, _SLOW
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GO_ON = (r"(?:carry(?:ing)?\s+on|keep\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|go\s+ahead|crack\s+on|push\s+on|soldier\s+on)")
_GOING = r"carry|keep\s+going|move\s+on|moving\s+on|go\s+on|going\s+on|continu|proceed|press\s+on|go\s+ahead|crack\s+on|push\s+on"
# a field as a word of prose: never a word of the sentence's own grammar
_FIELD_WORD = (r"(?!(?:and|or|the|a|an|step|stage|phase|part|item|row|page|line|attempt|try|retry|round|version|batch|"
               r"v|it|them|up|to|at|of|every|each|no|nothing|whatever|next|last|rest|other|remaining|first|second|"
               r"same|that|this|those|these|as|with|only|just)\b)[a-z][a-z0-9_]{0,40}+")
_UNIT = r"(?:%|x\b|ms\b|s\b|secs?\b|seconds?\b|m\b|mins?\b|minutes?\b|h\b|hrs?\b|hours?\b|d\b|days?\b|times\b|tries\b|retries\b)"
_NUMBER = r"-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+" + _UNIT + r")"
_TICKED = r"(?:``[^`]{1,200}+``|`[^`]{1,200}+`)"
_QUOTED = r"(?:\"[^\"]{0,200}+\"|'[^']{0,200}+')"
# a value said bare: a number, a quoted or ticked text, N/A, a word in capitals ("TBA", "TEMP-7"), zero
_VALUE = (r"(?:" + _QUOTED + r"|" + _TICKED + r"|" + _NUMBER + r"|n/a\b|(?-i:[A-Z][A-Z0-9]{1,30}+(?:-[A-Z0-9]{1,30}+){0,4}+)"
          r"(?![\w-])|zero\b|true\b|false\b|null\b)")
_SEP = r"\s*+(?:,\s*+(?:and\s+)?|and\s+|&\s*+|;\s*+)"
_TICK_PAIR = _FIELD_WORD + r"\s++(?:(?:of|as|=)\s*+)?" + _TICKED
# where a value said bare ends: nothing more of it follows ("lane 3 closed" is no value 3)
_END = (r"(?=\s*+(?:[.;!)]|,(?!\s*+[a-z_][\w-]{0,40}+\s++(?:of\s+|at\s+|as\s+)?(?:-?\d|true\b|false\b|null\b|[\"'`]))|$|"
        r"and\b|then\b|instead\b|for\s+now\b|until\b|anyway\b|regardless\b|so\b|but\b))")
# a value said for a field after it ("put "n/a" for the country") is the field's (`spec.grammar`'s rows)
_NOT_FOR = r"(?!\s++(?:for|as|into|under)\s|\s++in\s++(?:the|its|their)\b)"
_ONCE_END = (r"(?!\s++(?:more|again|after|later|\d|a|an|per|every|each|the|daily|weekly|you|it|we|they)\b|"
             r"\s*+,\s*+(?:(?:then\s+)?(?:after|in)\s|\d|(?:an?\s+)?[\w-]{1,20}+\s+later\b))")
_OBJECT = r"(?:it|this|that|them|(?:the|its|our|this|that|each)\s+[\w-]{1,40}+(?:\s+[\w-]{1,40}+){0,2}?)"
_ONCE_VERB = (r"(?:fire|send|run|do|post|issue|file|print|submit|raise|open|ring|trigger|push|place|make|book|charge|order|"
              r"call|publish|announce|broadcast|play|sound|email|e-mail|text|pay|transfer|dispense|release|ship)")
_IT = r"(?:it|this|that|them|the\s+(?:result|score|reading|count|value|answer|figure|number))"

EARLY: tuple[Row, ...] = (
    # "don't wait 5 min between tries", "no need to pause a full minute before each go": no wait
    Row("wait_none", r"(?<!\w)(?:don'?t|do\s+not|no\s+need\s+to|never|needn'?t)\s+(?:wait|pause|sleep|hold\s+off)\s+"
        r"(?:for\s+)?(?:a\s+full\s+|the\s+full\s+|all\s+)?{D}\s+(?:in\s+)?(?:between|before|after)\b(?:\s+(?:the\s+|each\s+|two\s+)?"
        r"(?:tries|attempts|retries|goes|calls|runs|them|each(?:\s+(?:one|try|attempt|go))?)\b)?"),
    # "past 45s don't wait, go on with ...", "do not wait any longer - carry on": stop waiting and go on, no wait
    # between tries (the going-on is the going-on rows'; round 47)
    Row("ignore", r"(?<!\w)(?:don'?t|do\s+not|never)\s+wait(?:\s+(?:any\s+)?(?:longer|more))?+(?=\s*+[,;:-]?\s*+(?:just\s+|and\s+|"
        r"but\s+|simply\s+)?" + _GO_ON + r"\b)"),
    # "ring them again after 10 s", "post it again in 2 min": one retry (its wait is the wait rows'); a second
    # "again" in the sentence is a series (`spec.grammar_families15`)
    Row("retries", r"(?<!\w)(?:send|re-?send|do|run|ring|call|phone|dial|post|print|submit|fire|file|push|ask|email|"
        r"e-mail|page|text|upload|fetch|pull|ping|poll|try|load|book|order)\s+(?:it|this|that|them|(?:the|him|her)\s+"
        r"[\w-]{1,40}+|him|her)\s+again\b(?=\s*+,?\s*+(?:after|in)\s)(?![^.;]{0,80}?\bagain\b)", value=1),
    # "only send it once", "just print the badge once", "fire it only once": no retry
    Row("no_retry", r"(?<![\w-])(?:only|just|exactly|strictly)\s+(?:ever\s+)?" + _ONCE_VERB + r"\s+" + _OBJECT + r"\s+once\b"
        + _ONCE_END),
    Row("no_retry", r"(?<![\w-])" + _ONCE_VERB + r"\s+" + _OBJECT + r"\s+(?:only|just|exactly|strictly)\s+once\b" + _ONCE_END),
    # "Run it one time, it sends a message", "send it only a single time": no retry (round 30, `spec.fill_names30`'s sheet)
    Row("no_retry", r"(?<![\w-])(?:(?:only|just|exactly)\s+)?" + _ONCE_VERB + r"\s+" + _OBJECT
        + r"\s+(?:(?:only|just|exactly)\s+)?(?:one|1|a\s+single)\s+time\b" + _ONCE_END),
    # a failure cell that opens "ONCE." / "Once only -": run it once, no retry (`spec.sheet_cells27`'s sheets)
    Row("no_retry", r"(?:^|(?<=:)\s*+)(?:only\s+)?once(?:\s+only)?\s*+(?:[.!;]|-\s|—|$)"),
    # "the notice goes out exactly once", "it is sent only once": no retry
    Row("no_retry", r"(?<!\w)(?:goes|go|is\s+sent|gets\s+sent|is\s+fired|fires|is\s+run|runs|is\s+filed|is\s+issued|"
        r"is\s+printed|is\s+posted|happens)\s+(?:out\s+)?(?:only|just|exactly|strictly)\s+once\b" + _ONCE_END),
    # "cut the export off at 75 seconds", "cut it off after 2 min": the attempt's time
    Row("timeout", r"(?<!\w)cut\s+(?:it|this|that|them|(?:the|each|every)\s+[\w-]{1,40}+(?:\s+[\w-]{1,40}+){0,2}?)\s+off\s+"
        r"(?:at|after|past|beyond)\s+{D}"),
    # "three hours is the absolute ceiling", "90 s is the hard limit": the attempt's time
    Row("timeout", r"(?<!\w){D}\s+(?:is|'s|are)\s+(?:the\s+|our\s+|its\s+)?(?:absolute\s+|hard\s+|upper\s+|outside\s+)?"
        r"(?:ceiling|cap|limit|max(?:imum)?|cut-?off|most\s+(?:it|we)\s+(?:gets|allow|wait))\b"),
    # "four extra attempts", "2 additional tries": that many retries (the first try is not one of them)
    Row("retries", r"(?<!\w){N}\s+(?:extra|additional|further|bonus|spare)\s+(?:attempts?|tries|goes|shots|re-?runs|runs|"
        r"retries)\b"),
    # "let it through as new (is_duplicate=false)": the field and value in brackets say what the words meant
    Row("value_pairs", r"\(\s*+`?(?P<pairs>" + _EQ_PAIR + r")`?\s*+\)", needs=r"{COND}|instead|anyway|regardless|"
        r"carry|keep\s+going|move\s+on|go\s+on|continu|proceed|let\s+(?:it|them|the\s+[\w-]{1,40}+)\s+through"),
    # "carry on with room `TBA` and tutor `cover`": each field and its ticked value
    Row("value_pairs", r"(?<!\w)" + _GO_ON + r"\s+with\s+(?:the\s+)?(?P<pairs>" + _TICK_PAIR + r"(?:" + _SEP + _TICK_PAIR
        + r"){0,8})", needs=r"{COND}|instead|anyway|regardless|unreachable|unavailable"),
    # "go ahead with a depth of 0", "carry on with tide 0": one field and its number
    Row("value_field", r"(?<!\w)" + _GO_ON + r"\s+with\s+(?:an?\s+|the\s+)?(?P<field>" + _FIELD_WORD + r"(?:\s++(?!of\b)"
        + _FIELD_WORD + r")?)\s++(?:of\s+|at\s+|as\s+)?(?P<value>" + _NUMBER + r")" + _END,
        needs=r"{COND}|instead|anyway|regardless|unreachable|unavailable"),
    # "treat it as grade band "B" and carry on", "score it as risk 0 and move on": the field, then its value
    Row("value_field", r"(?<!\w)(?:treat|count|score|log|record|mark|rate|call|enter|book)\s+" + _IT + r"\s+(?:as\s+|at\s+)?"
        r"(?:an?\s+|the\s+)?(?P<field>" + _FIELD_WORD + r"(?:\s++" + _FIELD_WORD + r"){0,2})\s*+(?:of\s+|=\s*+|:\s*+)?"
        r"(?P<value>" + _QUOTED + r"|" + _TICKED + r"|" + _NUMBER + r")", needs=_GOING),
    # "call it a 3.5 and carry on", "log it as 0 and move on", "count them as N/A, keep going": the value
    Row("value_literal", r"(?<!\w)(?:treat|count|score|log|record|mark|rate|call|enter|book|note)\s+(?:it|this|that|them)"
        r"\s+(?:as\s+|at\s+)?(?:an?\s+)?(?P<value>" + _VALUE + r")" + _NOT_FOR, needs=_GOING),
    # "just put N/A and keep going", "write 0 in and move on", "fill in TBC and carry on": the value
    Row("value_literal", r"(?<!\w)(?:put|write|enter|type|fill\s+in|plug\s+in|pencil\s+in|stick)\s+(?:in\s+)?(?:an?\s+)?"
        r"(?P<value>" + _VALUE + r")" + _NOT_FOR, needs=_GOING),
)

IGNORE: tuple[Row, ...] = (
    # "a second quarantine ticket confuses the crew": why there is no retry, no policy of its own
    Row("ignore", r"(?<!\w)(?:a|any|1)\s+second\s+(?!(?:try|attempt|go|shot|chance|retry|run|time|round|pass)\b)[\w-]{1,40}+"
        r"(?:\s+[\w-]{1,40}+)?\s+(?:confuses|would|will|causes|means|creates|makes|upsets|double|doubles)\b"),
    # "Email the parents the trip letter", "Text the crew the berth number": the step's own job, said with
    # nothing of a failure in the sentence
    Row("ignore", r"^[\s*\d.)-]{0,8}+(?:please\s+)?(?:e-?mail|message|text|slack|tell|send|whatsapp|dm)\s+(?:the\s+|our\s+|"
        r"all\s+|each\s+|every\s+)?[\w-]{1,40}+(?:\s+[\w-]{1,40}+)?\s+(?:the|a|an|their|its|our|this|today'?s|"
        r"tomorrow'?s)\s+[\w-]{1,40}+(?![^.;]{0,200}?(?<!\w)(?:fail|error|down\b|broke|wrong|crash|time[sd]?\s+out|timeout|"
        r"if\b|when\b|unless\b|can'?t|cannot|won'?t|doesn'?t|isn'?t|instead))"),
)

# a failure or slowness said, a comma, then a retry with no condition of its own
_COMMA_REASON = _rx(r"(?i)(?<!\w)(?:" + _FAILS + r"|" + _SLOW + r")\b(?P<rest>[^.;,!?:]{0,80}+),\s*+(?=(?:so\s+)?(?:just\s+)?"
                    r"(?:give\s+it|have\s+another|retry|re-?try|try\s+(?:it\s+)?again|re-?run|another\s+go|one\s+more|"
                    r"let\s+it\s+(?:retry|try))\b)")
_CONDITION_BEFORE = _rx(r"(?i)(?<!\w)(?:if|when|whenever|should|unless|in\s+case|once)\s+(?:[\w'-]{1,30}+\s+){0,6}+$")
_CONDITION_IN = _rx(r"(?i)(?<!\w)(?:if|when|whenever|unless)\b")


def comma_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` gives a failure or slowness as the reason before a bare retry ("the feed is slow
    on the hour, give it 3 more goes"): no failure class. "If it is slow, retry twice" keeps its own."""
    spans: list[tuple[int, int]] = []
    for m in _COMMA_REASON.finditer(text):
        if _CONDITION_BEFORE.search(text[max(0, m.start() - 120):m.start()]) is None \
                and _CONDITION_IN.search(m.group("rest")) is None:
            spans.append(m.span())
    return spans


# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|=|cut|ceiling|cap|limit|max|extra|additional|further|bonus|spare|again|once|wait|pause|sleep|hold|put|write|enter|type|fill|plug|pencil|stick|call|count|score|log|"
             r"record|mark|rate|book|note|treat|ahead|press|crack|push|soldier|one\s+time|1\s+time|single\s+time",
    "IGNORE": r"|second|mail|message|text|slack|tell|send|whatsapp|dm",
}

_rx.save()
