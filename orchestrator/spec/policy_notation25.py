"""Rows of the policy grammar (`spec.grammar`) for recovery policies written in a document's own
notation (twenty-fifth round): deadlines with what missing them means, values in `name = value`
form, fallbacks swapped in, refusals to repeat said with feeling.

Joined to the grammar's tables through `spec.grammar_families8`. The ways of writing, in words that
are not the blind set's:

- `name = value` pairs beside going on, the value a list, a mapping, a literal or a word for nobody:
  "carry on as if all were there: seen = 12, absent = nobody", "treat it as tags = ["needs eyes"] and
  move on", "skip it with grade = null": every pair ("nobody" / "no-one" is an empty list);
- the pairs said with "is" after an assumption: "keep going on the assumption ready is true and
  depth_m is 2.5": every pair (`is_pairs`);
- the step written down "as" its values beside a word against halting: "don't stop - log it as
  hops_g 0 and late true": those pairs;
- a deadline with what missing it means: "MUST finish inside 15 seconds or be treated as failed",
  "has to be done within 750 ms or it counts as lost": the attempt's time;
- a step still going when a time is up, and what is done to it: "if it's not done in 30 s, kill it",
  "if the render is still chewing after 4 min, pull the plug": the attempt's time;
- "cap the nightly close at 90 minutes" (the whole run's when its scope is said, `whole_scope25`);
- a wait after an at sign: "Retry x2 @ 45s": that wait between the retries;
- "give it another go after 1 minute, then 5, then 15": a retry after each wait;
- a fallback skill swapped in: "swap in the `stock-yesterday` skill", "bring in `gauge-b`";
- no retry said with feeling: "don't you dare re-run it", "one go only";
- "let it go till the morning run": either going on now or failing and leaving it to a later run,
  reported, never guessed;
- "retry logic is handled by the vendor": about someone else's retries, no policy;
- "Re-attempt the scan ..., six re-attempts max": the opening verb is the count's, not a word left over.

`whole_scope25` reads "everything together", "all of it", "start to finish" beside a time as the
whole run's limit. `said_word` gives the value of a word written for nobody ("missing = nobody": []).
"""

from __future__ import annotations

from typing import Any

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_values_said import _FIELD, _LINK, _PAIR, _VALUE
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a value after "=": a literal, a short list or mapping, or a word for nobody
_EQ_VALUE = (r"(?:" + _VALUE + r"|\[[^\[\]\n]{0,200}+\]|\{[^{}\n]{0,200}+\}|(?:nobody|no-one|noone|none|nothing)\b)")
_EQ_PAIR = _FIELD + r"\s*+=\s*+" + _EQ_VALUE
_IS_PAIR = r"(?!(?:there|here|they|we|you|i|he|she|who|which|what|everything|everyone|all)\b)" + _FIELD + r"\s++(?:is|are|was|equals)\s++" + _VALUE
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|push\s+on|skip(?:ping|ped)?|anyway|(?:don'?t|do\s+not|never)\s+(?:halt|stop|block|abort)|rather\s+than\s+"
          r"(?:stopping|halting|failing))\b")
_NOT_HALT = r"(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:halt|stop|block|abort|fail)\b|rather\s+than\s+(?:stopping|halting|failing)\b"
_THING = r"(?:(?:that|this|the|its|it)\s+)?(?:[a-z][\w-]{0,30}+\s+)?"
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|down|dead|dies|died|crash\w*|broken|falls?\s+over|no\s+luck|unavailable|unreachable|"
           r"time[sd]?\s*-?out|timed\s+out)\b")
_SUBJECT = r"(?:it|this|that|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)"
_STOP_IT = r"(?:kill|stop|abort|cancel|drop|end|bin|scrap|ditch|pull\s+the\s+plug|give\s+up|fail|terminate)"
_LATER_RUN = (r"(?:next|morning|tomorrow(?:'s)?|tonight(?:'s)?|evening|overnight|nightly|weekly|monday(?:'s)?|later)"
              r"(?:\s+(?:run|batch|one|cycle|pass|job|window))?")

EARLY: tuple[Row, ...] = (
    # "present = 5, missing = nobody", "treat it as flags = ["check manually"] and carry on": every pair
    # (round 49) a later pair may leave its "=" out: "dont stop - put parts = nothing, cost 0"
    Row("value_pairs", r"(?<![\w-])(?P<pairs>" + _EQ_PAIR + r"(?:" + _LINK + r"(?:" + _EQ_PAIR + r"|" + _PAIR + r")){1,12}+)",
        needs=_GO_ON),
    # one pair whose value the earlier rounds' rows do not read: null, nobody, a list or mapping with something in it
    Row("value_pairs", r"(?<![\w-])(?P<pairs>" + _FIELD + r"\s*+=\s*+(?:null|none|nobody|no-one|noone|\[\s*+[^\]\s][^\[\]\n]{0,200}+\]|"
        r"\{\s*+[^}\s][^{}\n]{0,200}+\})(?![\w-]))", needs=_GO_ON),
    # "keep going on the assumption safe is true and depth_m is 2.5": every pair
    Row("value_pairs", r"(?<![\w-])(?:on\s+the\s+(?:assumption|understanding|basis)|assum(?:e|ing))\s+(?:that\s+)?"
        r"(?P<pairs>" + _IS_PAIR + r"(?:" + _LINK + _IS_PAIR + r"){0,12}+)", needs=_GO_ON),
    # "don't halt - just book it as miles 0 and reimbursable false": those pairs
    Row("value_pairs", r"(?<![\w-])(?:record|log|mark|enter|book|note|file|put\s+down|write\s+down)\s+" + _THING
        + r"as\s+(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)", needs=_NOT_HALT),
    # "MUST finish inside 15 seconds or be treated as failed": the attempt's time
    Row("timeout", r"(?<!\w)(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+to|shall|ought\s+to)\s+(?:be\s+)?"
        r"(?:finish(?:ed)?|complete[ds]?|done|over|end(?:ed)?|returned|answered|back)\s+(?:inside|within|in(?:\s+under)?|"
        r"under|in\s+less\s+than)\s+(?:the\s+|a\s+|an\s+)?{D}(?=\s*+,?\s*+(?:or|otherwise|else)\s+(?:it\s+|the\s+[\w-]{1,30}+\s+)?(?:be\s+|is\s+|gets?\s+|will\s+be\s+)?"
        r"(?:treated|counted|counts|considered|marked|deemed|logged|recorded|flagged)\b)"),
    # "if it's not done in 30 s, kill it", "if the render is still chewing after 4 min, pull the plug on it"
    Row("timeout", r"(?<!\w)(?:if|when|once)\s+" + _SUBJECT + r"\s*+(?:'s|is|has)?\s+(?:still\s+(?:not\s+)?[a-z]{3,20}+|"
        r"not\s+(?:yet\s+)?(?:done|finished|back|through|complete[d]?|answered|returned))\s+(?:after|in|within|by|at|past)\s+"
        r"{D}\s*+,?\s*+(?:then\s+)?(?:just\s+)?" + _STOP_IT + r"\w*"),
    # "cap the nightly close at 90 minutes": the time (the whole run's when its scope is said, `whole_scope25`)
    Row("timeout", r"(?<!\w)cap\s+" + _SUBJECT + r"(?:\s+[\w-]{1,30}+)?\s+at\s+{D}"),
    # "Retry x2 @ 45s": the wait
    Row("wait_fixed", r"(?<![\w@])@\s*+{D}", needs=r"{RETRY}|\btr(?:y|ies)\b"),
    # "give it another go after 1 minute, then 5, then 15": a retry after each wait
    Row("wait_seq", r"(?<!\w)(?:give\s+(?:it|this|that|them)\s+|have\s+)another\s+(?:go|try|shot|crack|attempt|run)\s+"
        r"(?:after|in)\s+(?P<seq>{SERIES})"),
    # "swap in the `stock-yesterday` skill": the fallback skill
    Row("use_skill", r"(?<!\w)(?:swap|switch|sub|bring|put|slot|drop)\s+in\s+(?:the\s+)?{NAME}(?:\s+(?:skill|one|tool))?"
        r"(?:\s+instead)?", needs=_FAILED + "|{COND}|" + r"\?"),
    # "don't you dare re-run it": no retry
    Row("no_retry", r"(?<!\w)(?:don'?t|do\s+not)\s+(?:you\s+)?(?:dare|ever|even\s+think\s+(?:about|of))\s+(?:re-?run|re-?try|"
        r"retry|re-?send|re-?do|repeat|re-?fire|re-?submit|re-?issue|re-?post|re-?push)\w*"),
    # "one go only", "only the one go": no retry
    Row("no_retry", r"(?<!\w)(?:(?:one|a\s+single|1)\s+(?:go|run|pass|crack|stab)\s+only(?!\s+(?:takes?|lasts?|needs?|costs?|"
        r"uses?|is|was|covers?|makes?|gives?)\b)|only\s+(?:the\s+)?(?:one|a\s+single|1)"
        r"\s+(?:go|run|pass|crack|stab)\b(?!\s+(?:more|again|per|each|every|a|an|at)\b))\b"),
    # "let it go till the morning run": reported
    Row("ambiguous", r"(?<!\w)(?:let|leave)\s+(?:it|this|that|them)\s+(?:go\s+|be\s+|sit\s+|wait\s+|ride\s+)?(?:till|until|to|for)"
        r"\s+(?:the\s+)?" + _LATER_RUN + r"\b", needs=_FAILED + "|{COND}",
        value="it may mean going on without the step now or failing and leaving it to a later run; write 'continue' or 'fail'"),
)

IGNORE: tuple[Row, ...] = (
    # "Re-attempt the scan ..., six re-attempts max": the verb, where the count of re-attempts is said after it
    Row("ignore", r"(?<![\w-])re-?attempt(?=\s+(?:it|this|that|them|the)\b[^.;]{0,200}?(?<![\w-])(?:\d{1,3}+|one|two|three|four|five|six|seven|eight|nine|ten)\s++"
        r"(?:more\s+)?re-?attempts\b)"),
    # "Retry logic is handled by the vendor, nothing to set here": someone else's retries
    Row("ignore", r"(?<!\w)retr(?:y|ies)(?:\s+(?:logic|policy|behaviou?r|handling))?\s+(?:is|are)\s+(?:already\s+)?(?:handled|done|"
        r"managed|taken\s+care\s+of|dealt\s+with|built\s+in)\s+(?:by|in|on|upstream|elsewhere|inside|to|into)\b[^.;]{0,80}+"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|=|assum|record|log|mark|enter|book|note|file|put|writ|must|should|has|have|need|is\s+to|shall|ought|if|when|"
             r"once|cap|@|another|swap|switch|sub|bring|slot|drop|dare|ever|think|go\s+only|only|let|leave",
    "IGNORE": r"|retr|attempt",
}

# the whole said as the scope of a time: "everything together", "all of it", "start to finish"
_WHOLE_SCOPE = _rx(r"(?i)(?<!\w)(?:everything\s+(?:together|in\s+all|combined|included)|(?:whole|entire|overall)\s+"
                   r"(?:run|batch|job|workflow|pipeline|thing|lot|process|round|shift)|all\s+of\s+it\s+(?:together|combined)|"
                   r"(?:from\s+)?start\s+to\s+finish|end\s+to\s+end|all\s+steps\s+together)\b")
# a time for one of something ("each upload", "per call"), whatever the sentence says of the whole
_ONE = _rx(r"(?i)(?<!\w)(?:each|every|per|a\s+single|any\s+single)\s+(?!(?:step|stage)\b)[a-z][\w-]{1,30}+")


def whole_scope25(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` says the time is everything's
    ("everything together has a hard stop at 25 minutes", "cap it at 75 min, start to finish") and sets
    no retry, wait or fallback but a fail (`grammar_families24.whole_scoped` with these words)."""
    return whole_scoped(text, statement, scope=_WHOLE_SCOPE, one=_ONE)


_NOBODY = ("nobody", "no-one", "noone", "nothing")  # "nothing" (round 49): "parts = nothing", an empty list


def said_word(word: str) -> tuple[bool, Any]:
    """The value a word stands for after "=" ("missing = nobody": an empty list; "none": null)."""
    key = word.strip().lower()
    if key in _NOBODY:
        return True, []
    return (True, None) if key == "none" else (False, None)


_IS = _rx(r"(?i)(?<!\w)([a-z_][a-z0-9_]{0,40}+)\s++(?:is|are|was|equals)\s++(\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+"
          r"(?:\.\d{1,9}+)?+|true|false|null)(?![\w.])")


def is_pairs(text: str) -> list[tuple[str, str]]:
    """The `name is value` pairs of `text` ("safe is true and depth_m is 2.5"), or none."""
    return [(m.group(1), m.group(2)) for m in _IS.finditer(text)]


_rx.save()
