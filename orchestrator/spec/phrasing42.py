"""Recovery phrasings a twenty-eighth blind set misread or dropped (forty-second round), in words that are not its own.

`plain` writes two notations in the words the grammar reads, before any row is tried (`spec.phrase`):

- a time said "a full" or "a whole": "waiting a full 2 minutes" is "waiting 2 minutes", "a whole minute" "a minute";
- a field "left empty (null)" is the literal in the brackets: "gusts left empty (null)" is "gusts null".

`whole_scope42` reads a time as the whole run's when the sentence says every step is in it ("the full close, every
step included, gets three hours", "first step to last, a hard stop at two days") and sets nothing else but a fail.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- counts with "up to" before a noun of doing again: "have up to four more cracks at it";
- "try the bank feed again up to 6 times": that many retries;
- waits listed after a colon: "gaps between re-sends of the file: 5, 10, then 30 seconds";
- a backoff's start said "2 s to start" or "first pause 1 s and doubling after that";
- an attempt's time: "quit the render if it's still chewing after 3 minutes", "time-box the check to ninety
  seconds", "the lookup gets 8 seconds.", "give the scheduler 45 s; if it runs out of time ...", a sentence opening
  "four minutes for the download, ...";
- a whole run's time: "if tonight's batch isn't through end to end in 12 minutes, abort the lot";
- a fallback skill: "do that step with `x`" (after a failure), "`x` takes over" or "x-y takes over" (after an
  if-clause), "we use x-y in its place";
- values to go on with: "treat it as photos_ok: true", "skip past it with reserved: false and reason 'down'";
- the failure: "a failure ends the run"; no retry: "no second go", "no automatic second try", "the refund goes
  through once.".
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_notation25 import _ONE as _ONE25
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNIT_WORD = r"(?:second|minute|hour|day|week)s?+\b"
_FULL_NUMBER = _rx(r"(?i)(?<![\w-])a\s++(?:full|whole|good|solid)\s++(?=\d|(?:one|two|three|four|five|six|seven|eight|nine|"
                   r"ten|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety)\s)")
_FULL_UNIT = _rx(r"(?i)(?<![\w-])(an?)\s++(?:full|whole|good|solid)\s++(?=" + _UNIT_WORD + r")")
_LEFT_EMPTY = _rx(r"(?i)(?<![\w-])(?:left|kept|set(?:\s++to)?|as)\s++(?:empty|blank|unset|missing)\s*+\(\s*+(null|none|\"\"|\[\s*+\]|"
                  r"\{\s*+\})\s*+\)")


def plain(text: str) -> str:
    """`text` with "a full 2 minutes" written "2 minutes" and "left empty (null)" "null" (module docstring)."""
    lowered = text.lower()
    if any(w in lowered for w in ("full ", "whole ", "good ", "solid ")):
        text = _FULL_NUMBER.sub("", text)
        text = _FULL_UNIT.sub(lambda m: "an " if m.string[m.end():m.end() + 4].lower() == "hour" else "a ", text)
    if "(" in text:
        text = _LEFT_EMPTY.sub(lambda m: m.group(1), text)
    return text


# the whole said as the scope of a time: "every step included", "all stages counted", "first step to last"
_WHOLE_SCOPE = _rx(r"(?i)(?<!\w)(?:(?:every|each|all(?:\s+the)?)\s+(?:step|stage)s?+\s+(?:included|counted|together|combined|"
                   r"in(?:cluded)?\s+(?:it|that|the\s+time))|including\s+(?:every|each|all(?:\s+the)?)\s+(?:step|stage)s?+|"
                   r"(?:the\s+)?(?:first|1st)\s+(?:step|stage)\s+(?:to|till|until|through)\s+(?:the\s+)?last)\b")


def whole_scope42(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` says every step is in it (module docstring)."""
    return whole_scoped(text, statement, scope=_WHOLE_SCOPE, one=_ONE25)


_THE = r"(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)"
_SUBJECT = r"(?:it|this|that|they|the\s+[\w-]+(?:\s+[\w-]+){0,3}?|[\w-]+'s\s+[\w-]+(?:\s+[\w-]+){0,2}?)"
_COUNT = r"(?P<n1>\d{1,3}+)"
_AGAIN_NOUN = r"(?:stabs|cracks|swings|bites|whacks|pops|punts|shots|goes|tries|attempts)"
_HYPHEN_NAME = r"(?P<name>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)"
_FIELD = r"(?!(?:the|a|an|it|its|if|as|and|or|then|is|be|to|of|in|on|at|with)\b)[a-z][a-z0-9_]{0,40}+"
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d)|\[\s*+\]|\{\s*+\}|"
          r"(?:true|false|null|yes|no)\b)")
_COLON_PAIR = _FIELD + r"\s*+[:=]\s*+" + _VALUE
_ANY_PAIR = _FIELD + r"(?:\s*+[:=]\s*+|\s++)" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s++and\s+)"
_FAILED = (r"\b(?:if|when|whenever|should|in\s+case|fails?|failing|failed|breaks?|broken|errors?|erroring|dies|died|crash\w*|"
           r"down|misbehav\w*|stalls?)\b|\?")
# the failure itself said, not only the condition ("when done, use x in its place" is no fallback)
_FAILED_WORD = (r"\b(?:fails?|failing|failed|breaks?|broken|errors?|erroring|dies|died|crash\w*|down|misbehav\w*|stalls?|"
                r"(?:isn'?t|is\s+not|not)\s+(?:working|answering|responding|available))\b|\?")
# a sentence about the whole or entire run is read by the run's own rows (`spec.carry_value`, `spec.grammar_families23`)
_NOT_ENTIRE = r"^(?!.*\b(?:whole|entire)\s)"
_KILL = r"(?:abort|kill|stop|cancel|scrap|halt|end|ditch|bin)\s+(?:it|them|everything|the\s+(?:lot|run|job|batch|whole\s+thing))"

EARLY: tuple[Row, ...] = (
    # "have up to four more cracks at it": that many retries
    Row("retries", r"(?<![\w-])(?:have|take|give\s+it|make)\s+up\s+to\s+" + _COUNT + r"\s+(?:more|further|extra)\s+" + _AGAIN_NOUN
        + r"\s+(?:at|on)\b"),
    # "try the bank feed again up to 6 times": that many retries
    Row("retries", r"(?<![\w-])(?:try|run|call|poll|send)\s+" + _THE + r"\s+again\s+(?:up\s+to\s+|at\s+most\s+)?" + _COUNT
        + r"\s+(?:more\s+)?times\b"),
    # "gaps between re-sends of the manifest: 5, 5, 20, then 60 seconds": a retry each, with its wait
    Row("wait_seq", r"(?<![\w-])(?:pauses|waits|gaps|delays|breathers|intervals)\s+(?:between|before)\s+(?:the\s+)?(?:re-?[a-z]{2,20}s|"
        r"retries|tries|attempts|goes)(?:\s+of\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2}?)?\s*+[:=-]\s*+(?P<seq>{SERIES})"),
    # "2 s to start, triple it each go": the backoff's first wait
    Row("exp_start", r"(?<![\w.-]){D}\s+to\s+(?:start|begin)(?:\s+with)?\b",
        needs=r"\b(?:doubl\w*|tripl\w*|back\s*-?\s*off|exponential\w*|twice\s+as\s+long)"),
    # "first pause 1 s and doubling after that": the backoff's first wait
    Row("exp_start", r"(?<![\w-])first\s+(?:pause|wait|delay|gap|breather)\s+(?:of\s+)?{D}(?=\s*+,?\s*+(?:and\s+|then\s+)*(?:doubl|"
        r"tripl))"),
    # "quit the render if it's still chewing after 3 minutes": the attempt's time
    Row("timeout", r"(?<![\w-])(?:quit|kill|stop|abort|cancel|drop|ditch|bin|scrap|end)\s+" + _THE + r"\s+(?:if|when|once)\s+"
        r"(?:it'?s|it\s+is|they'?re|they\s+are)\s+still\s+[a-z]{3,20}ing\s+(?:after|past|beyond|at)\s+{D}", needs=_NOT_ENTIRE),
    # "time-box the VAT check to ninety seconds": the attempt's time
    Row("timeout", r"(?<![\w-])time-?\s*+box(?:ed)?\s+" + _THE + r"\s+(?:to|at)\s+{D}"),
    # "the barcode lookup gets 8 seconds.", "the close, every step included, gets 2 hours.": the time (the sentence ends there)
    Row("timeout", r"(?<![\w-])(?:gets|is\s+given|is\s+allowed)\s+{D}"
        r"(?=\s*+(?:[.;!]|$))", needs=_NOT_ENTIRE),
    # "give the scheduler 45 s; if it runs out of time ...": the attempt's time
    Row("timeout", r"(?<![\w-])give\s+" + _THE + r"\s+{D}(?=\s*+[;,.:-]\s*+(?:and\s+)?(?:if|when|once|should)\s+(?:it|this|that|"
        r"they)\s+(?:runs?\s+out\s+of\s+time|runs?\s+over|overruns?|times?\s+out|takes?\s+(?:any\s+)?longer|isn'?t\s+(?:done|"
        r"finished|back)|hasn'?t\s+(?:finished|answered|returned)))"),
    # "four minutes for the kiln profile download, two retries ...": the attempt's time, said first
    Row("timeout", r"^\s*+{D}\s+(?:for|on)\s+(?:the\s+|each\s+|every\s+)?[\w-]+(?:\s+[\w-]+){0,3}?\s*+(?=[,;:]|\s+-\s)",
        needs=r"\bretr|\bfail|\bstop|\babort|\bgive\s+up|\bkill"),
    # "if tonight's batch isn't through end to end in 12 minutes, abort the lot": the time (the whole run's: "end to end")
    Row("timeout", r"(?<![\w-])(?:if|when|once)\s+" + _SUBJECT + r"\s+(?:isn'?t|is\s+not|aren'?t|are\s+not|hasn'?t\s+been|"
        r"has\s+not\s+been)\s+(?:through|done|finished|complete|over)(?:\s+(?:end\s+to\s+end|start\s+to\s+finish))?\s+(?:in|"
        r"within|inside|by)\s+{D}\s*+,?\s*+(?:then\s+)?" + _KILL + r"\b"),
    # "scraper down? do that step with `x`": the fallback skill
    Row("use_skill", r"(?<![\w-])do\s+(?:that|this|it|the\s+whole|the)(?:\s+(?:step|job|work|bit|lookup))?\s+(?:with|using|via|through)"
        r"\s+{NAME}", needs=_FAILED),
    # "if ocr-fast can't read it, ocr-careful takes over": the fallback skill (a hyphenated name opening its clause)
    Row("use_skill", r"(?:(?<=,)|(?<=;)|(?<=\bthen))\s*+" + _HYPHEN_NAME + r"\s+(?:takes\s+over|steps\s+in|will\s+take\s+over)\b",
        needs=r"\b(?:if|when|whenever|should|in\s+case)\b"),
    # "we use lab-results-fax in its place": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:use|run|call|try|invoke|bring\s+in|swap\s+in|sub\s+in)\s+(?:the\s+)?(?:{NAME}|"
        + _HYPHEN_NAME.replace("name", "bare") + r")\s+in\s+(?:its|their)\s+(?:place|stead)\b", needs=_FAILED_WORD),
    # "treat it as photos_ok: true (and carry on)": each field and its value
    Row("value_pairs", r"(?<![\w-])treat\s+(?:it|this|that|the\s+(?:result|output|outcome|check|step))\s+as\s+(?P<wpairs>"
        + _COLON_PAIR + r"(?:" + _LINK + _COLON_PAIR + r"){0,8}+)", needs=_FAILED + r"|\bcarry\s+on\b|\bcontinue"),
    # "skip past it with reserved: false and reason 'system down'": each field and its value
    Row("value_pairs", r"(?<![\w-])skip\s+(?:past|over|on\s+from)\s+(?:it|this|that|the\s+step)\s+with\s+(?P<wpairs>" + _ANY_PAIR
        + r"(?:" + _LINK + _ANY_PAIR + r"){0,8}+)", also=("continue",)),
    # "a failure ends the run": the failure
    Row("fail", r"(?<![\w-])(?:a|any)\s+failure\s+(?:here\s+)?(?:ends|stops|kills|halts|fails)\s+the\s+(?:whole\s+)?(?:run|job|batch|"
        r"workflow|pipeline|lot)\b"),
    # "two retries a minute apart, then stop the batch": the failure after the tries
    Row("fail", r"(?<![\w-])then\s+(?:stop|halt|abort|end|fail|kill|scrap)\s+the\s+(?:whole\s+|entire\s+)?(?:batch|run|job|lot|"
        r"workflow|pipeline|thing)\b", needs=r"\b(?:retr\w*|tries|attempts|again|goes)\b"),
    # "no second go", "no automatic second try": no retry
    Row("no_retry", r"(?<![\w-])no\s+(?:automatic\s+|auto\s+|further\s+)?(?:second|2nd)\s+(?:go|try|attempt|shot|run|chance)\b"),
    # "the refund goes through once.": no retry (the sentence ends there: "it goes through once a day" is a schedule)
    Row("no_retry", r"(?<![\w-])(?:it|this|that|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:goes\s+through|is\s+tried|is\s+attempted|is\s+made|"
        r"is\s+submitted|gets\s+submitted|is\s+pushed)\s+once(?:\s+only)?(?=\s*+[.;!]|\s*+$)"),
)

GATES = {
    "EARLY": (r"|up\s+to|again|pause|wait|gap|delay|breather|interval|to\s+start|to\s+begin|first|quit|kill|stop|abort|cancel|"
              r"drop|ditch|bin|scrap|box|gets|given|allowed|give|for|through|done|finished|complete|do\s|take|step|in\s+its|"
              r"in\s+their|treat|skip|failure|second|2nd|once"),
}


_rx.save()
