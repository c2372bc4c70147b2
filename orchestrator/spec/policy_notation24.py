"""Rows of the policy grammar (`spec.grammar`) for recovery policies written in a document's own
notation (twenty-fourth round): the policy sentences of forms, memos, job sheets and comments.

Joined to the grammar's tables through `spec.grammar_families8`. The ways of writing, in words that
are not the blind set's:

- each wait said against the retry it comes before, the later ones as bare numbers: "wait 5 seconds
  before the first retry and 20 before the second (and 60 before the third)": the waits in order;
- a re-verb with a series of waits after it: "re-book after 2 min, then 5, then 10", "re-send in
  30 s, then 60": as many retries as waits, in that order;
- doing a thing once, said with its verb: "Send ONCE.", "Only post it once per batch", "charge the
  card once only": no retry ("once every sample's in", "once a day" and "once more" are not);
- the values to go on with, said with "put" / "set" / "enter": "put batch_no "HAND" and signed
  false", or as what the step would have said: "carry on as if it returned depth_m 4, tide "low"":
  every pair;
- the whole of the work given a time as a thing to be done: "the whole lot must be done inside the
  hour", "the entire job has to be finished within 2 hours": the whole run's limit;
- a fallback skill with an aside before "instead": "use `gauge-b` (the spare on the roof) instead";
- "double" before a noun that is no wait ("double spaces", "a double booking") is no backoff factor.

`typeset_spaces` reads a typeset space between a number and its unit ("90\\,s", "5~min") as a blank.
`once_only_before` tells "Only run it once per wave" (a limit) from "run once per file" (a step
run per item, `plan.fan_words`). `habit_reason_spans` reads an opening that says what tends to happen, up to a colon or a
semicolon ("The scanner sometimes times out: retry 3 times"): a reason, not the one failure the
policy after it is kept to.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNIT = r"(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)"
_NTH_TRY = r"(?:\s+(?:re-?try|one|try|attempt|go|re-?run))?"
_LATER = r"(?:second|third|fourth|fifth|next|last|final)"
_BARE_WAIT = r"\d{1,6}+(?:\.\d{1,3}+)?+(?:\s*+" + _UNIT + r"(?![a-z]))?"
_AND = r"\s*+,?\s*+(?:and\s+)?(?:then\s+)?"
_RE_VERBS = (r"(?:re-[a-z]{2,20}+|re(?:file|book|send|submit|post|try|run|load|connect|request|fetch|check|sync|start|"
             r"launch|queue|dial|print|upload|issue|poll|transmit|do)|retry|try\s+(?:it\s+)?again)")
_ONCE_VERB = (r"(?:send|run|post|call|fire|log|submit|execute|file|print|notify|ping|email|text|charge|bill|book|"
              r"publish|write|upload|push|issue|trigger|do|invoke|dispatch|message|page)")
_OBJ = r"(?:(?:it|this|that|them|the\s+[\w-]{1,30}+)\s+)?"
# a field's name and its value: a number with no unit, a truth word, null or a quoted text
_FIELD = (r"(?!(?:the|a|an|it|its|them|this|that|step|stage|attempt|try|retry|retries|as|to|and|or|no|with|if|then|"
          r"is|was|wait|timeout|limit|max|run|of|for|in|at|on|by|from|up|down|every|each|after|before)\b)"
          r"[a-z][a-z0-9_]{0,40}+")
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+(?:" + _UNIT
          + r"|x|times|tries|retries|attempts|goes|%)\b)|true\b|false\b|null\b|\[\s*+\])")
_PAIR = _FIELD + r"\s++(?:=\s*+|:\s*+)?" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s++and\s+|\s*+\(\s*+)"  # "(scanned false ...)": an aside holding one more pair
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|push\s+on|anyway)")
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|down|dead|dies|died|crash\w*|broken|unavailable|unreachable|time[sd]?\s*-?out|"
           r"timed\s+out|won'?t\s+answer|not\s+answer\w*)\b")
_WHOLE = r"(?:whole|entire|complete)\s+(?:lot|thing|job|run|batch|workflow|pipeline|process|procedure|flow|sheet|round|shift)"
_DONE = (r"(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+to|shall|ought\s+to)\s+(?:all\s+)?(?:be\s+)?"
         r"(?:done|finished|complete[d]?|over|through|wrapped\s+up|out\s+of\s+the\s+way)\s+(?:inside|within|in|under)\s+")

EARLY: tuple[Row, ...] = (
    # "waiting 10 seconds before the first retry and 30 before the second": the waits in order
    Row("wait_seq", r"(?<!\w)(?:wait(?:ing|s)?|paus(?:e|ing)|sleep(?:ing)?|leave|leaving|allow(?:ing)?)\s+(?P<lseq>{D}\s+"
        r"before\s+the\s+first" + _NTH_TRY + r"(?:" + _AND + _BARE_WAIT + r"\s+before\s+the\s+" + _LATER + _NTH_TRY
        + r"){1,4}+)"),
    # "re-file after 5 min, then 10, then 15": a retry after each wait
    Row("wait_seq", r"(?<![\w-])" + _RE_VERBS + r"\s+" + _OBJ + r"(?:after|in)\s+(?P<seq>{SERIES})"),
    # "Send ONCE.", "Only run it once per wave", "charge the card once only": no retry; "run once per parcel in
    # `parcels`" is a loop over that list (`spec.for_each`), no count of tries
    Row("no_retry", r"(?<![\w-])(?:only\s+)?" + _ONCE_VERB + r"\s+" + _OBJ + r"(?:only\s+|just\s+)?once(?:\s+only)?\b"
        r"(?!\s+(?:more|again|every|each|all|both|a|an|it|they|we|you|that|this|the|in|or|daily|per\s+(?:second|minute|"
        r"hour|day|night|week|month|year)|per\s+[\w-]{1,30}+\s+(?:in|of|from|on))\b)"
        r"(?!\s*+(?:[a-z]+\s+)?(?:is|are|has|have)\s+(?:back|done|in|ready)\b)"),
    # "put entry_id "PAPER" and lawful true" beside going on or a failure: every pair
    Row("value_pairs", r"(?<![\w-])(?:put(?:ting)?|set(?:ting)?|enter(?:ing)?|fill(?:ing)?\s+in|writ(?:e|ing)(?:\s+down)?)\s+"
        r"(?:down\s+)?(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){1,12}+)", needs=_GO_ON + "|" + _FAILED),
    # "carry on as if it said max_wind_kn 30, route "coastal"": what the step would have given
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"\s+as\s+(?:if|though)\s+(?:it|they|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+"
        r"(?:had\s+)?(?:said|returned|given|gave|reported|read|answered|sent|come\s+back\s+with|came\s+back\s+with)\s+"
        r"(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)"),
    # "use `wind-from-station` (our own anemometer) instead" beside a failure: the fallback skill, the aside skipped
    Row("use_skill", r"(?<![\w-])(?:use|run|call|try|switch\s+to|fall\s+back\s+(?:on|to))\s+{NAME}\s*+\([^()]{0,120}+\)\s*+"
        r"instead\b(?!\s+of\b)", needs=_FAILED + "|{COND}"),
    # "the whole lot must be done inside the hour": the whole run's limit
    Row("run_timeout", r"(?<!\w)(?:the\s+)?" + _WHOLE + r"\s+" + _DONE + r"(?:the|an|one)\s+hour\b", value=3600.0),
    Row("run_timeout", r"(?<!\w)(?:the\s+)?" + _WHOLE + r"\s+" + _DONE + r"(?:the|a|one)\s+day\b", value=86400.0),
    Row("run_timeout", r"(?<!\w)(?:the\s+)?" + _WHOLE + r"\s+" + _DONE + r"{D}"),
)

IGNORE: tuple[Row, ...] = (
    # "double spaces", "a double booking": an adjective, no backoff
    Row("ignore", r"(?<![\w-])double\s+(?!(?:the|each|every|it|them|that|this|waits?|delays?|time|times|pauses?|gaps?|"
        r"back-?\s*offs?|intervals?|up|on)\b)[a-z]{2,20}+"),
    # "once every field's back", "once all the uploads are in": when, not how often
    Row("ignore", r"(?<!\w)once\s+(?:every|all|each|both)\s+(?:(?:of\s+)?(?:the\s+)?[\w'-]{1,30}+\s+){0,3}?"
        r"(?:is|are|'s|has|have|got)?\s*+(?:back|done|in|finished|complete|ready|through|there|arrived|returned)\b"),
    Row("ignore", r"(?<!\w)once\s+(?:every|all|each|both)\s+[\w-]{1,30}+'s\s+(?:back|done|in|finished|complete|ready|through)\b"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|wait|paus|sleep|leav|allow|re|try|once|put|set|enter|fill|writ|as\s+if|as\s+though|whole|entire|complete|"
             r"instead",
    "IGNORE": r"|double|once",
}

# what tends to happen, said before a colon or semicolon: "The scanner sometimes times out:", "Portal
# rejects now and then;", "The tide server drops out a lot:"
_HABIT = _rx(r"(?i)^[^:;.!?]{0,160}?(?<!\w)(?:sometimes|often|occasionally|now\s+and\s+(?:then|again)|from\s+time\s+to\s+time|"
             r"a\s+lot|at\s+times|every\s+so\s+often|tends?\s+to|is\s+known\s+to|has\s+been\s+known\s+to|can\s+be|"
             r"regularly|frequently|usually|routinely)\b[^:;.!?]{0,80}+[:;]")
_CONDITION = _rx(r"(?i)(?<!\w)(?:if|when|whenever|unless|should|in\s+case|on\s+(?:error|failure|timeout))\b")


def habit_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` opens with what tends to happen, up to a colon or semicolon ("The margins service
    sometimes times out: retry 3 times"): its failure words are the reason, not the failures the
    policy after it is kept to. "If it sometimes times out:" keeps its own."""
    m = _HABIT.match(text)
    if m is None or _CONDITION.search(m.group(0)) is not None:
        return []
    return [m.span()]


# a typeset space between a number and its unit: LaTeX's `90\,s`, `2\;min`, `5~s`, `10\ s`
_TYPESET_SPACE = _rx(r"(?<=\d)(?:\\[,;: ]|~)(?=\s*+[A-Za-z])")


def typeset_spaces(text: str) -> str:
    """`text` with each typeset space between a number and its unit written as blanks of the same
    length ("Give it 90\\,s" reads "Give it 90  s"): where each character is stays where it was."""
    return _TYPESET_SPACE.sub(lambda m: " " * len(m.group(0)), text)


# "Only run it once per wave", "at most once per batch": a limit on runs, not a step run per item
_ONCE_ONLY = _rx(r"(?i)(?<![\w-])(?:(?:only|just|at\s++most|no\s++more\s++than|never\s++more\s++than)(?![\w-])"
                 r"[^.;:!?]{0,40}?(?<![\w-])once|once\s++only)\s++$")


def once_only_before(text: str, at: int) -> bool:
    """Whether the words right before `at` say a thing is done once only ("Only run it once " before
    "per wave"): the "per ..." after them limits the runs, it asks for no run per item."""
    return _ONCE_ONLY.search(text[max(0, at - 60):at]) is not None


_rx.save()
