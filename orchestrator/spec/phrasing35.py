"""Recovery phrasings a twenty-sixth blind set misread or dropped (thirty-fifth round), in words that are not its own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- waits written as numbers joined by hyphens, then one unit, then a word for a schedule: "a 1-2-4-8 second
  ladder", "on a 5-10-20 min schedule" is "1 s, 2 s, 4 s, 8 s" (each a wait, in order).

Rows of the policy grammar (`EARLY`, `LATE`, `IGNORE`, joined through `spec.grammar_families8`):

- lists of waits: "hold off 10 s, then 30 s, then 90 s before each new go", "sit tight 5 s, 20 s, 60 s"
  (a wait word other than "wait"); "one after 45 s and one after 3 min" (each retry with its own wait);
  "the 1 s, 2 s, 4 s ladder" (after `plain`); "try again in 2 min, and once more 5 min after that": the waits in
  order, a retry each;
- a count said with a verb of asking again: "re-request it up to five times", "resend up to 3 times":
  that many retries;
- a time to give up by said as "stop bothering / checking / chasing after 3 hours": the budget of retries, then
  the failure (as "give up after 3 hours" is);
- an attempt's time said as a limit: "readings get 15 seconds, not a tick longer", "the upload gets 2 min,
  max"; "if the render is still going at the 8-minute mark, pull the plug"; "no reply after 40 seconds
  counts as a failure"; a whole run's "the entire overnight close has 1.5 hour, start to finish", "the whole robot
  list must wrap up inside 2 hours";
- a fallback said as "let `x` do the job in its place / take over": the skill `x`;
- values to go on with after "treating it as": "press on treating it as level "low" and alert false";
  a field and a quoted text added after a value ("... = [] and the note "fill by hand""); values said
  after "assume", joined by "/" ("assume rain_chance 50 / plan tent"), or "put it down as status "x""
  before going on; a bracket of `name value` pairs after going on "as if" ("(needs_licence empty, fees 0)":
  empty is an empty list);
- "ORDER ONCE ONLY", "print once only" (a verb that is not a retry's): no retry; "do not let it retry": no retry;
- "... before we call it." (at the sentence's end, beside a retry): the failure after the tries;
- said, never read: "don't spend all day on it" (how long is not said);
- no policy: "is having a moment" (a bad spell, not a time).

`recovery_opening` says whether a step's text that opens with an if-clause is, in its first sentence, read whole as
the step's recovery ("If the printer jams, wait two minutes and have one more go"): its if-clause is then the failure
the policy answers, not a condition left unread (`spec.condition_opening` does not warn it).
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "a 1-2-4-8 second ladder": numbers joined by hyphens, one unit, a word for a schedule
_HYPHEN_SERIES = _rx(r"(?i)(?<![\w.-])(\d{1,6}+(?:-\d{1,6}+){1,11}+)[\s-]{0,3}+(ms|s|secs?|seconds?|mins?|minutes?|h|hours?)"
                     r"(?=\s{1,3}+(?:ladder|schedule|back-?off|sequence|progression|pattern|staircase|series|cadence)\b)")


def plain(text: str) -> str:
    """`text` with hyphen-joined waits written as a series (module docstring); a text without them as it is."""
    if "-" not in text:
        return text
    return _HYPHEN_SERIES.sub(lambda m: ", ".join(f"{n} {m.group(2)}" for n in m.group(1).split("-")), text)


# a field's name: with an underscore, or a plain word that is no sentence word
_FIELD = (r"(?!(?:the|a|an|it|its|if|though|usual|normal|before|always|then|and|or|no|yes|with|is|are|was|be|as|"
          r"step|attempt|try|retry|wait|timeout|run|value|of|for|in|at|on|by|from|to|i|we|you|they|he|she|nothing)\b)"
          r"[a-z][a-z0-9_]{0,40}+")
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+(?:ms|s|secs?|seconds?|m|"
          r"mins?|minutes?|h|hrs?|hours?|d|days?|x|times|tries|retries|attempts|goes|%)\b)|\[\s*+\]|\{\s*+\}|"
          r"(?:true|false|null|yes|no|empty|none)\b)")
_WORD = r"(?:" + _VALUE + r"|[a-z][a-z-]{0,30}+\b)"  # a value, or one word (a text) where the notation says so
_PAIR = r"(?:the\s+)?" + _FIELD + r"\s*+(?:=\s*+|:\s*+)?" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s*+;\s*+|\s++and\s+|\s*+&\s*+|\s*+/\s*+)"
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press(?:ing)?\s+on|push(?:ing)?\s+on|crack(?:ing)?\s+on|get\s+on\s+with\s+it)")
_WAIT_WORD = (r"(?:sit(?:ting)?\s+tight|hold(?:ing)?\s+off|hang(?:ing)?\s+(?:on|back|fire)|hold(?:ing)?\s+on|"
              r"stand(?:ing)?\s+by|back(?:ing)?\s+off|paus(?:e|ing)|leav(?:e|ing)\s+it)")
_KILL = (r"(?:pull\s+the\s+plug|kill|abort|cancel|stop|drop|cut|abandon|bail|give\s+up|bin|scrap|ditch|"
         r"shut\s+it\s+down|end\s+it)")
_ASK_AGAIN = (r"(?:re-[a-z]{3,20}+|resend|resubmit|requery|refetch|repoll|reissue|redial|reupload|recheck|reload|"
              r"re-?request|reping)")
_RETRY_NEAR = (r"\b(?:retr(?:y|ies|ied|ying)|re-?try|re-?run|again|more\s+times|goes|tries|attempts|"
               r"another\s+(?:go|try|shot|attempt))\b")

EARLY: tuple[Row, ...] = (
    # "hold off 10 s, then 30 s, then 90 s before each new go": the waits in order
    Row("wait_seq", r"(?<![\w-])" + _WAIT_WORD + r"\s+(?:for\s+)?(?P<seq>{SERIES})(?:\s+(?:before|between)\s+(?:each\s+|every\s+|the\s+|"
        r"any\s+)?(?:new\s+|next\s+|fresh\s+|successive\s+|consecutive\s+)?(?:go|goes|tries|try|attempts?|retry|retries|runs?|"
        r"asks?|calls?|ones?)\b)?"),
    # "one after 45 s and one after 3 min": a retry each, with its wait
    Row("wait_seq", r"(?<![\w-])(?:one|the\s+first)\s+after\s+(?P<seq>{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:one|another|"
        r"the\s+other|a\s+second|the\s+second|the\s+next)\s+after\s+{D}(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:one|another|"
        r"a\s+third|the\s+third|the\s+last)\s+after\s+{D})?)"),
    # "try again in 2 min, and once more 5 min after that": two retries, each with its wait
    Row("wait_seq", r"(?<![\w-])(?:try|retry|run|send|do|go)\s+(?:it\s+|that\s+|this\s+)?again\s+(?:in|after)\s+(?P<seq>{D}\s*+,?\s*+"
        r"(?:and\s+)?(?:then\s+)?once\s+more\s+{D})(?=\s+(?:after\s+(?:that|this|it)|later|on)\b)"),
    # "1 s, 2 s, 4 s, 8 s ladder" (after `plain`): the waits in order
    Row("wait_seq", r"(?:(?:gets?|is|are|be)\s+retried\s+(?:on|with|using|by|along|to)\s+(?:a|an|the)\s+)?(?P<seq>{SERIES})\s+(?:ladder|schedule|back-?off|sequence|progression|pattern|staircase|series|"
        r"cadence)\b"),
    # "re-request the census up to five times": that many retries
    Row("retries", r"(?<![\w-])" + _ASK_AGAIN + r"\b(?:\s+[\w-]+){0,5}?\s+up\s+to\s+(?P<n1>\d{1,3}+)\s+(?:more\s+)?times\b"),
    # "stop bothering after 3 hours", "stop chasing once 2 h have passed": the budget of retries
    Row("budget", r"(?<![\w-])stop\s+(?:bothering|checking|looking|asking|polling|pinging|chasing|calling|knocking|"
        r"hammering|nagging)(?:\s+(?:with\s+)?(?:it|them))?\s+(?:after|once|when)\s+{D}", also=("fail",)),
    # "still going at the 8-minute mark, pull the plug": the attempt's time
    Row("timeout", r"(?<![\w-])(?:if|when|once)\s+(?:it|this|that|they|the\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:is|are|'s)\s+"
        r"still\s+(?:going|running|working|busy|churning|spinning|hanging|stuck|grinding|not\s+(?:done|finished|back))\s+"
        r"(?:at|after|past|by)\s+(?:the\s+)?{D}(?:\s+mark)?\s*+,?\s*+(?:then\s+)?" + _KILL
        + r"(?:\s+(?:on\s+)?(?:it|this|that|them))?"),
    # "no reply from the meter after 40 seconds counts as a failure": the attempt's time
    Row("timeout", r"(?<![\w-])no\s+(?:reply|answer|response|word|result|reading|data)\s+(?:(?:from|back\s+from|out\s+of)\s+"
        r"(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,3}?)?(?:after|in|within|inside)\s+{D}(?=\s*+(?:counts\s+as|is|means|=)\s+"
        r"(?:a\s+|an\s+)?(?:fail|failure|failed|error|dead|down|timeout|time-?out)\b)"),
    # "the entire overnight close has 1.5 hour, start to finish": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|complete)\s+(?!(?:step|stage|attempt|call|try)\b)(?:[\w-]+\s+){0,3}?"
        r"[\w-]+\s+(?:has|gets?|is\s+given|is\s+allowed)\s+{D}\s*+,?\s*+(?:from\s+)?(?:start\s+to\s+finish|end\s+to\s+end|"
        r"beginning\s+to\s+end|top\s+to\s+bottom|all\s+in|in\s+total|wall[- ]?clock)\b(?:\s*+,?\s*+not\s+(?:a|one|1)\s*+"
        r"(?:tick|second|sec|s|minute|min|m|moment)\s+(?:more|longer))?"),
    # "the whole robot list must wrap up inside 2 hours": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|complete)\s+(?!(?:step|stage|attempt|call|try)\b)(?:[\w-]+\s+){0,3}?"
        r"[\w-]+\s+(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+to|will)\s+(?:be\s+)?(?:wrap(?:ped)?\s+up|finish(?:ed)?|"
        r"done|complete[d]?|over|through)\s+(?:inside|within|in\s+under|in\s+less\s+than|under|in|by)\s+(?:the\s+|a\s+|an\s+)?{D}"),
    # "let `x` do the job in its place", "let `x` take over": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:let|have|get)\s+{NAME}\s+(?:take\s+over|(?:do|handle|cover|run)\s+(?:the\s+job|the\s+work|it|"
        r"this|that)\s+(?:in\s+its\s+(?:place|stead)|instead))"),
    # "press on treating it as level "low" and alert false": every pair
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"(?:\s*+,)?\s+(?:treating|taking|counting|reading|scoring|recording|logging|"
        r"marking)\s+(?:it|this|that|them|the\s+(?:result|reading|answer))\s+as\s+(?P<wpairs>" + _PAIR + r"(?:" + _LINK
        + _PAIR + r"){1,12}+)"),
    # "assume rain_chance 50 / plan tent": the pairs, one word a text after "/"
    Row("value_pairs", r"(?<![\w-])assum(?:e|ing)\s+(?P<wpairs>[a-z][a-z0-9]*+_[a-z0-9_]{1,40}+\s++" + _VALUE
        + r"(?:\s*+/\s*+" + _FIELD + r"\s++" + _WORD + r"){1,8}+)(?=\s*+(?:\(|[.;,!]|--|$))"),
    # "put that one down as status "not inspected" and keep going": the field and its text
    Row("value_pairs", r"(?<![\w-])(?:put|mark|log|record|note|write)\s+(?:it|this|that|them|that\s+one|this\s+one|it)\s+"
        r"(?:down\s+)?as\s+(?P<wpairs>" + _PAIR + r")(?=\s*+,?\s*+(?:and\s+|then\s+)?" + _GO_ON + r")"),
    # "carry on as if nothing needs a licence (needs_licence empty, fees 0)": the bracket's pairs
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"\s+as\s+(?:if|though)\s+[^().;]{1,80}?\((?P<wpairs>" + _PAIR + r"(?:"
        + _LINK + _PAIR + r"){1,12}+)\)"),
    # "carry on with volunteers = [] and the note "fill by hand"": the quoted text's field as well
    Row("value_pairs", r"(?<=[\]}\w\"'])\s+and\s+(?:the\s+|a\s+|an\s+)(?P<wpairs>" + _FIELD + r"\s++(?:\"[^\"]{1,200}+\"|'[^'\n]{1,200}+'))",
        needs=r"(?<![\w-])" + _GO_ON + r"\s+(?:with|as)\b"),
    # "ORDER ONCE ONLY", "print it once only": no retry (a retry's own verb is "retry once only", one retry)
    Row("no_retry", r"(?<![\w-])(?!(?:retry|retried|rerun|re-run|re-try|poll|again|try|tried|more|it|this|that|than)\b)"
        r"[a-z]{3,20}+\s+(?:it\s+|this\s+|that\s+)?once\s+only\b(?!\s+(?:per|a|an|each|every)\b)"),
    # "do not let it retry": no retry
    Row("no_retry", r"(?<![\w-])(?:do\s+not|don'?t|never)\s+let\s+(?:it|this|that|them|the\s+[\w-]+)\s+(?:re-?try|retry|re-?run|"
        r"go\s+again|try\s+again)\b"),
    # "poke it again three more times before we call it.": the failure after the tries
    Row("fail", r"(?<![\w-])before\s+(?:you\s+|we\s+|i\s+|they\s+)?call(?:ing)?\s+it(?=\s*+(?:[.!;]|$))", needs=_RETRY_NEAR),
    # "don't spend all day on the reprint": a limit said, its time not
    Row("ambiguous", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+(?:spend|waste|burn|sit\s+on\s+it\s+for)\s+(?:all\s+day|all\s+night|"
        r"forever|ages|too\s+long|the\s+whole\s+day|all\s+morning|all\s+afternoon)\b",
        value="how long it may take is not said: write the time (e.g. 'give it 1 hour at most')"),
)

# after every earlier round's rows: "the whole run gets 2 hours, not a minute more" stays the whole run's
LATE: tuple[Row, ...] = (
    # "readings get 15 seconds, not a tick longer", "the upload gets 2 min, max": the attempt's time
    Row("timeout", r"(?<![\w-])(?:gets?|has|have|is\s+given|are\s+given|is\s+allowed|are\s+allowed)\s+{D}\s*+,?\s*+"
        r"(?:not\s+(?:a|one|1)\s+(?:tick|second|sec|minute|min|moment|jot|bit|instant|heartbeat)\s+(?:longer|more|over)|"
        r"and\s+no\s+(?:longer|more)|tops\b|max(?:imum)?\b|at\s+(?:the\s+)?most\b)"),
)

IGNORE: tuple[Row, ...] = (
    # "unless the EPR is having a moment": a bad spell, no time
    Row("ignore", r"(?<![\w-])(?:is|are|'s|was|were)\s+having\s+(?:a|one\s+of\s+(?:its|their|those|his|her)|its|their)\s+"
        r"moments?\b"),
)

GATES = {
    "EARLY": (r"|sit|hold|hang|stand|back|paus|leav|after|ladder|schedule|sequence|progression|pattern|staircase|series|"
              r"cadence|re|stop|still|no|whole|entire|complete|let|have|get|treating|taking|counting|assum|put|mark|log|"
              r"record|note|write|as|once|never|don|before|spend|waste|burn|has|given|allowed"),
    "IGNORE": r"|having",
}

_STANDS_IN = _rx(r"(?i)\b(?:instead|in\s++its\s++(?:place|stead)|take\s++over|fall\s++back|swap\s++in|switch\s++(?:over\s++)?to)\b")
_SENTENCE_END = _rx(r"(?<=[.!?])\s|\n\s*+\n")


def recovery_opening(words: str) -> bool:
    """Whether the first sentence of `words` (an if-clause a step's text opens with) is read whole as the step's
    recovery: a retry, a time or what a failure does ("If the printer jams, wait 2 min and have one more go";
    "If it is still going at the 8-minute mark, pull the plug"): then the if-clause is the failure it answers,
    never a condition of the step (`spec.condition_opening`)."""
    # the policy grammar joins this module's rows, so the reader is imported when first asked
    from orchestrator.spec.phrase import read_phrase

    sentence = _SENTENCE_END.split(words[:400], maxsplit=1)[0]
    phrase = read_phrase(sentence)
    s = phrase.statement
    # a skill run after an if-clause is a fallback only where the sentence says it stands in ("If the dough is slack,
    # run `x`" is a branch)
    fallback = s.on_failure is not None and (s.on_failure.skill is None or _STANDS_IN.search(sentence) is not None)
    return phrase.read and not phrase.problems and (fallback or any(
        v not in (None, False) for v in (s.retries, s.max_attempts, s.wait, s.timeout_s, s.no_retry)))


_WORD_PAIR = _rx(r"(?i)(?:the\s++)?([a-z][a-z0-9_]{0,40}+)\s*+(?:=\s*+|:\s*+)?(\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|\[\s*+\]|"
                 r"\{\s*+\}|[^\s,;/&()]{1,60}+)")
_SPLIT = _rx(r"(?i)(?:,(?:\s++and(?!\S))?|;|&|/|(?<!\S)and(?!\S))")


def word_pairs(text: str, literal: Any) -> dict[str, Any]:
    """Each `name value` pair of `text` ("rain_chance 50 / plan tent", "needs_licence empty, fees 0"):
    a literal by `literal` (`phrase_value.json_literal`), "empty" an empty list, another word its text."""
    out: dict[str, Any] = {}
    parts = re.split(r"(\"[^\"]*\"|'[^'\n]*')", text)  # quoted texts kept whole, the links split between them
    chunks: list[str] = []
    for i, part in enumerate(parts):
        if i % 2:
            chunks[-1] = (chunks[-1] if chunks else "") + part
            continue
        pieces = _SPLIT.split(part)
        if chunks and pieces:
            chunks[-1] += pieces.pop(0)
        chunks += pieces
    for chunk in chunks:
        m = _WORD_PAIR.fullmatch(chunk.strip())
        if not m:
            continue
        found, value = literal(m.group(2))
        word = m.group(2).lower()
        said: dict[str, Any] = {"empty": [], "none": None, "yes": True, "no": False}
        out[m.group(1)] = value if found else said[word] if word in said else m.group(2)
    return out


_rx.save()
