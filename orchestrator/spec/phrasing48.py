"""Recovery phrasings a thirty-first blind set misread or dropped (forty-eighth round), in words that are not its own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- a time said with a mixed fraction ("2 1/2 minutes", "1 ½ hours", "3½ min") is its decimal ("2.5 minutes").

`whole_scope48` reads a time as the whole run's when the sentence opens with the whole of it ("Entire nightly batch
...", "Whole export ...") or names the run's own ceiling ("overall ceiling for the run", "the limit for the whole
run"), and sets nothing else but a fail; "every job on this sheet", "each step in the plan" said beside the whole
("the whole lot - every job on this sheet - ...") are all of its steps, not one thing's time.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a backoff's growth said "growing x3", "rising ×1.5", "increasing x2 each time": the factor;
- a wait in brackets after its word: "after a short pause (5 min)", "a breather (30 s)";
- a time allowed and no more: "has 40 minutes, full stop", "is allowed a quarter of an hour and no more";
- a time to stop at: "pull the plug on the render if it's still going after 3 hours";
- a time said as the most a thing may run: "max runtime for the builder: 90 s", "longest run time of the sync = 2 min";
- a time no more than it for the whole: "no more than 90 seconds for the entire sequence", "the batch is capped at 2 h"
  (a run, batch or job capped: a backoff's or wait's "capped at" stays the backoff's cap);
- the run's ceiling: "overall ceiling for the run is a working day (8 h)";
- a poll said "each 15 min for up to 6 h": the wait between looks;
- a fallback skill said "then fallback `x`";
- a fail said "then call it." or "the whole job is dead", "don't paper over it";
- values to go on with after "don't stop the run": "don't stop the run; grade = "U" for now".
"""

from __future__ import annotations

import re

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.phrasing46 import _FAILED, _LINK, _PAIR, _THE, whole_scope46
from orchestrator.spec.policy_notation25 import _ONE as _ONE25
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNITS = r"(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?)"
# "2 1/2 minutes", "1 ½ hours", "3½ min": the whole number, its fraction and the unit
_MIXED = _rx(r"(?i)(?<![\d./])(\d{1,9}+)(?:\s++(\d)/(\d{1,2}+)|\s*+([½¼¾]))\s*+(" + _UNITS + r")(?![a-z])")
_GLYPH = {"½": 0.5, "¼": 0.25, "¾": 0.75}


def _decimal(whole: str, top: str | None, bottom: str | None, glyph: str | None) -> str | None:
    if glyph:
        return f"{int(whole) + _GLYPH[glyph]:g}"
    if top is None or bottom is None or int(bottom) == 0 or int(top) >= int(bottom):
        return None
    return f"{int(whole) + int(top) / int(bottom):g}"


def plain(text: str) -> str:
    """`text` with a time said with a mixed fraction written as its decimal (module docstring)."""
    if "/" not in text and not any(g in text for g in _GLYPH):
        return text

    def one(m: re.Match[str]) -> str:
        value = _decimal(m.group(1), m.group(2), m.group(3), m.group(4))
        return m.group(0) if value is None else f"{value} {m.group(5)}"

    return _MIXED.sub(one, text)


# the whole of the run opening the sentence ("Entire nightly batch is ...") or its own ceiling ("overall ceiling for the run")
_WHOLE = _rx(r"(?i)(?:^\s*+(?:the\s++)?(?:entire|whole|full|complete)\s++(?:[a-z]{3,12}+\s++){0,2}?(?:run|batch|job|workflow|"
             r"pipeline|process|sequence|close|lot)\b|(?<!\w)(?:overall\s++)?(?:ceiling|cap|limit|budget)\s++(?:for|on|of)\s++"
             r"(?:the|this|our)\s++(?:whole\s++|entire\s++|full\s++)?(?:run|batch|workflow|pipeline)\b)")


# "every job on this sheet", "each step in the plan": all of them, the whole, never one single thing
_ALL_HERE = _rx(r"(?i)(?<!\w)(?:every|each|all\s++(?:the\s++)?)\s*+(?:job|step|task|stage|item|line|part)s?+\s++(?:on|in|of)\s++"
                r"(?:this|the|our)\s++(?:sheet|list|page|plan|run|workflow|runbook|file|doc(?:ument)?|card)\b")


def whole_scope48(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` opens with or names the whole run, or names the whole of
    the run ("the whole lot") beside "every job on this sheet", which is all of its steps, not one (module docstring)."""
    if "every" in text.lower() or "each" in text.lower() or "all" in text.lower():
        text = _ALL_HERE.sub(lambda m: " " * len(m.group(0)), text)
        statement = whole_scope46(text, statement)
    return whole_scoped(text, statement, scope=_WHOLE, one=_ONE25)


# (not "tops", "max": "the whole session gets 45 min max" is read by the whole run's own rows)
_NO_MORE = r"(?:full\s+stop|period|and\s+no\s+more|no\s+more|no\s+longer|not\s+a\s+second\s+more)"
_WHOLE_THING = r"(?:the|this|our|tonight'?s|today'?s)\s+(?:whole|entire|full|complete)\b"
_GO_ON_PAIRS = (r"(?P<wpairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)(?=\s*+(?:[.;)!]|$|for\s+now\b|until\b|"
                r"as\s+a\s+(?:placeholder|stopgap)\b))")

EARLY: tuple[Row, ...] = (
    # "waits growing x3 from 5 seconds", "rising ×1.5 each time": the backoff's factor
    Row("exp_factor", r"(?<![\w-])(?:grow(?:s|ing)?|ris(?:es|ing)|increas(?:es|ing)|climb(?:s|ing)|multiplying)\s+(?:by\s+)?"
        r"[x×]\s*+(?P<factor>\d{1,3}+(?:\.\d{1,3}+)?+)(?![\w.])"),
    # "after a coffee-length pause (5 min)": the wait
    Row("wait_fixed", r"(?<![\w-])(?:pause|wait|breather|break|gap|rest|delay|breath)\s*+\(\s*+{D}\s*+\)"),
    # "tonight's close has 40 minutes, full stop" / "is allowed a quarter of an hour and no more": the time
    Row("timeout", r"(?<![\w-])(?:has|have|is\s+allowed|is\s+given|is\s+granted)\s+{D}(?=\s*+,?\s*+" + _NO_MORE + r"(?![\w-]))"),
    # "pull the plug on the render if it's still going after 3 hours": the time
    Row("timeout", r"(?<![\w-])(?:pull\s+the\s+plug\s+on|kill|stop|abort|cancel|scrap|ditch)\s+(?!the\s+(?:whole|entire|full|"
        r"complete)\b)" + _THE + r"\s+(?:if|when|once)\s+"
        r"(?:it'?s|it\s+is|they'?re|they\s+are)\s+still\s+[a-z]{1,20}?ing\s+(?:after|past|at|beyond)\s+{D}"),
    # "max runtime for the builder: 90 s": the time
    Row("timeout", r"(?<![\w-])(?:max(?:imum)?|longest)\s+(?:run\s*-?\s*time|running\s+time|duration|time)\s+(?:for|of|on)\s+"
        + _THE + r"\s*+(?:[:=]|is)\s*+{D}"),
    # "no more than 90 seconds for the entire sequence": the time (the whole run's, `whole_scope46`)
    Row("timeout", r"(?<![\w-])(?:no\s+more\s+than|at\s+most|not\s+more\s+than|under)\s+{D}\s+(?:for|on)\s+" + _WHOLE_THING),
    # "the entire batch is capped at 3 h" with no backoff said: the time
    Row("timeout", r"(?<![\w-])(?:run|batch|job|workflow|pipeline|sequence|close|lot)\s+(?:is|are)\s+capped\s+at\s+{D}"),
    # "overall ceiling for the run is a working day (8 h)": the time
    Row("timeout", r"(?<![\w-])(?:ceiling|cap|limit)\s+(?:for|on|of)\s+(?:the|this|our)\s+(?:whole\s+|entire\s+)?(?:run|batch|"
        r"workflow|pipeline)\s+is\s+(?:(?:an?|one)\s+[a-z]{3,12}+\s+[a-z]{3,12}+\s*+\(\s*+{D}\s*+\)|{D})"),
    # "keep polling the portal each 15 min for up to 6 h": the wait between looks
    Row("wait_fixed", r"(?<![\w-])each\s+{D}(?=\s+(?:for|until|till|up\s+to|over|during)\b)",
        needs=r"\b(?:poll|check|ping|look|try|retry|knock|query)"),
    # "2 retries, 5s wait, then fallback `x`": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:then\s+|else\s+|otherwise\s+)fall\s*+-?\s*+back\s*+[:=]?\s*+(?:to\s+|on\s+)?(?:{NAME})"),
    # "+1 min, +10 min. Then call it.": the run fails
    Row("fail", r"(?<![\w-])then\s+call\s+it(?:\s+(?:a\s+day|quits))?\s*+(?:[.;!]|$)"),
    # "a broken valuation means the whole job is dead": the run fails
    Row("fail", r"(?<![\w-])(?:means\s+)?(?:the\s+)?(?:whole|entire)\s+(?:job|run|batch|thing|workflow|pipeline)\s+is\s+(?:dead|"
        r"over|finished|toast|done\s+for)\b", needs=_FAILED),
    # "don't paper over it": the run fails (no value, no fallback)
    Row("fail", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+(?:paper|gloss|smooth|cover|paste)\s+over\s+(?:it|this|that|the\s+"
        r"(?:gap|failure|error|problem|hole))\b", needs=_FAILED),
    # "don't stop the run; grade = "U" for now": each field and its value
    Row("value_pairs", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+(?:stop|halt|block|hold\s+up)\s+(?:the\s+(?:run|line|batch|job)|"
        r"everything|us|the\s+rest)\s*+[;:,-]\s*+" + _GO_ON_PAIRS, needs=_FAILED),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|grow|ris|increas|climb|multipl|pause|wait|breath|break|gap|rest|delay|has|have|get|allowed|given|granted|"
                  r"plug|kill|stop|abort|cancel|scrap|ditch|max|longest|more|most|under|capped|ceiling|cap|limit|each|"
                  r"fall|call|whole|entire|paper|gloss|smooth|cover|paste|halt|block|hold"}

_rx.save()
