"""Recovery phrasings a twenty-ninth blind set misread or dropped (forty-fifth round), in words that are not its own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- a wait said as a noun with its time before a list of more times: "after a 10-second pause, then 40 seconds, then
  2 minutes" is "after 10 seconds, then 40 seconds, then 2 minutes" (one retry a wait);
- waits said clause by clause, each with its try: "wait 1 min, have another go; wait 5 mins, another go" is
  "retry after 1 min, then 5 mins" (only two or more such clauses in a row).

`whole_scope45` reads a time as the whole run's when the sentence says the run is meant "overall" ("overall this
run must wrap up inside 8 minutes", "the batch as a whole gets two hours") and sets nothing else but a fail.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a backoff's cap said "cap it at 8 s" in a sentence that doubles or triples a pause (alone it is the attempt's time);
- a backoff's first wait said "starting with a 5-second gap" and its cap "never waiting past 2 minutes" beside a
  doubling or tripling;
- one retry said "have one more crack at it" (the clause ends there), with "straight away" after it as no wait;
- a time said as a mark: "the check has until the 4-minute mark", "it is killed at the 3-hour mark";
- a time allowed, then what is done past it: "allow the export 90 minutes; past that, kill it" ("... it's dead to
  us", round 49);
- a fallback skill said "`x` will do" after a failure or a question ("no joy? `x` will do");
- values to go on with said after going on and a dash, as `name value`: "carry on regardless - score null,
  label "not scored"" (a value a literal: a number, a quoted text, true/false/null/yes/no);
- a person waiting ("while the customer waits at the till") is no wait of the step (`IGNORE`).
"""

from __future__ import annotations

import re

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_notation25 import _ONE as _ONE25
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNIT = r"(?:second|sec|minute|min|hour|hr)"
# "a 10-second pause" before ", then 40 seconds": the time alone
_NOUN_WAIT = _rx(r"(?i)(?<![\w-])an?\s++(\d{1,6}+(?:\.\d{1,3}+)?+)-(" + _UNIT + r")s?+\s++(?:pause|wait|gap|delay|break|"
                 r"breather|rest)(?=\s*+,?\s*+(?:and\s++)?then\s++(?:after\s++)?(?:\d|an?\s|one\s|two\s|three\s|five\s|ten\s))")
_TIME = (r"(?:\d{1,6}+(?:\.\d{1,3}+)?+\s*+[a-z]{1,8}+|an?\s++(?:quarter|half)\s++(?:of\s++)?an?\s++[a-z]{3,6}+|an?\s++"
         r"[a-z]{3,7}+|[a-z]{3,6}+\s++[a-z]{3,7}+)")
# "wait 1 min, have another go": one clause of a wait and its try
_CLAUSE = (r"wait\s++(" + _TIME + r")\s*+,\s*+(?:then\s++)?(?:have\s++|take\s++|give\s++it\s++)?(?:another|one\s++more|a\s++further|"
           r"(?:a\s++|the\s++)?(?:last|final))\s++(?:go|try|attempt|shot|crack|pop|stab)\b")
_CLAUSES = _rx(r"(?i)(?<![\w-])" + _CLAUSE + r"(?:\s*+[;,]\s*+(?:and\s++|then\s++)?" + _CLAUSE.replace("(" + _TIME, "(?:" + _TIME)
               + r"){1,8}+")
_ONE_CLAUSE = _rx(r"(?i)" + _CLAUSE)


def plain(text: str) -> str:
    """`text` with a noun's wait before a list written as its time, and waits said clause by clause as a list of
    retries' waits (module docstring)."""
    lowered = text.lower()
    if "-" in text and "then" in lowered:
        text = _NOUN_WAIT.sub(lambda m: f"{m.group(1)} {m.group(2)}s", text)
    if lowered.count("wait") >= 2:
        text = _CLAUSES.sub(_as_list, text)
    return text


def _as_list(m: re.Match[str]) -> str:
    times = [c.group(1) for c in _ONE_CLAUSE.finditer(m.group(0))]
    return "retry after " + ", then ".join(times)


# the run said as meant overall: "overall this run", "the pipeline as a whole", "the job, all told"
_OVERALL = _rx(r"(?i)(?<!\w)(?:overall(?:\s*+,)?\s++(?:this|the|our|tonight'?s|today'?s)\s++(?:run|batch|job|workflow|pipeline|process)|"
               r"(?:this|the|our)\s++(?:run|batch|job|workflow|pipeline|process)(?:\s*+,)?\s++(?:as\s++a\s++whole|overall|all\s++told|"
               r"in\s++total))\b")


def whole_scope45(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` says the run is meant overall (module docstring)."""
    return whole_scoped(text, statement, scope=_OVERALL, one=_ONE25)


_COUNT = r"(?P<n1>1)"
_AGAIN_NOUN = r"(?:stab|crack|swing|bite|whack|pop|punt|shot|go|try|attempt)"
_NAME_SAID = r"(?:{NAME})"
_GROWS = r"\b(?:doubl\w*|tripl\w*|back\s*-?\s*off|exponential\w*|twice\s+as\s+long)"
_THE = r"(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)"
_FAILED = (r"\b(?:if|when|whenever|should|in\s+case|fails?|failing|failed|breaks?|broken|errors?|erroring|dies|died|crash\w*|"
           r"down|no\s+joy|no\s+luck|no\s+dice)\b|\?")
_STOPPED = r"(?:killed|stopped|cancell?ed|aborted|terminated|ended|halted|pulled|cut\s+off|dropped|binned|scrapped)"
_GO_ON = (r"(?:carry(?:ing)?\s++on|keep(?:ing)?\s++going|mov(?:e|ing)\s++on|go(?:ing)?\s++on|continu(?:e|ing)|"
          r"proceed(?:ing)?|press\s++on|push\s++on|crack\s++on|soldier\s++on)")
_LITERAL = (r"(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w.])|\[\s*+\]|\{\s*+\}|"
            r"(?:true|false|null|none|yes|no)(?![\w-]))")
_PAIR = r"[a-z][a-z0-9_]{0,40}+\s++" + _LITERAL
_LINK = r"(?:\s*+,\s*+(?:and\s++)?|\s*+;\s*+|\s++and\s++)"

EARLY: tuple[Row, ...] = (
    # "double the pause each time, but cap it at 8 s": the backoff's cap, not the attempt's time
    Row("exp_cap", r"(?<![\w-])cap\s+(?:it|that|them|the\s+(?:pause|wait|delay|gap|backoff|back-off)s?)\s+(?:at|to)\s+{D}",
        needs=_GROWS),
    # "starting with a 5-second gap and tripling it each round": the backoff's first wait
    Row("exp_start", r"(?<![\w-])start(?:ing|s)?\s+(?:with|at|from|on)\s+(?:a\s+|an\s+)?{D}\s*-?\s*(?:gap|pause|wait|delay|"
        r"breather)s?\b", needs=_GROWS),
    # "but never waiting past 2 minutes" beside a doubling: the backoff's cap
    Row("exp_cap", r"(?<![\w-])never\s+(?:wait(?:ing)?|paus(?:e|ing)|sleep(?:ing)?)\s+(?:past|beyond|over|longer\s+than)\s+{D}",
        needs=_GROWS),
    # "have one more crack at it straight away": one retry (and no wait)
    Row("retries", r"(?<![\w-])(?:have|take|give\s+it|make)\s+" + _COUNT + r"\s+more\s+" + _AGAIN_NOUN + r"\s+(?:at|on)\s+"
        r"(?:it|this|that|them)\s+(?:straight\s+away|right\s+away|immediately|at\s+once)\b", also=("wait_none",)),
    Row("retries", r"(?<![\w-])(?:have|take|give\s+it|make)\s+" + _COUNT + r"\s+more\s+" + _AGAIN_NOUN + r"\s+(?:at|on)\s+"
        r"(?:it|this|that|them)\s*+(?:[,;.]|$|\s+(?:then|and\s+then|before)\b)"),
    # "the price check has until the 4-minute mark": the attempt's time
    Row("timeout", r"(?<![\w-])(?:has|have|gets?|is\s+given|is\s+allowed|may\s+run|can\s+run|runs?)\s+(?:until|till|up\s+to)\s+"
        r"the\s+{D}\s*-?\s*mark\b"),
    # "the reconciliation is killed at the 3-hour mark": the time (the whole run's when said so, `whole_scoped`)
    Row("timeout", r"(?<![\w-])(?:is|are|gets?|will\s+be|'ll\s+be)\s+" + _STOPPED + r"\s+(?:at|on|by)\s+the\s+{D}\s*-?\s*mark\b"),
    # "allow the export 90 minutes; past that, kill it": the attempt's time
    Row("timeout", r"(?<![\w-])(?:allow|give|grant)\s+" + _THE + r"\s+{D}\s*+[;,:-]\s*+(?:but\s+)?(?:past|after|beyond|over)\s+"
        r"(?:that|this|it)\s*+,?\s*+(?:kill|stop|abort|cancel|end|drop|bin|scrap|halt|fail|it'?s\s+(?:dead|over|failed|"
        r"toast)|it\s+(?:is|has)\s+(?:dead|over|failed|toast))\b"),
    # "no joy from the live feed? `feed-cached` will do": the fallback skill
    Row("use_skill", r"(?<![\w-])" + _NAME_SAID + r"\s+(?:will|'ll|would|can|should|must)\s+(?:have\s+to\s+)?do\b", needs=_FAILED),
    # "carry on regardless - score null, label "not scored"": each field and its value
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"(?:\s+(?:regardless|anyway|anyhow|all\s+the\s+same))?\s*+(?:-|–|—|:)\s*+"
        r"(?P<wpairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)(?=\s*+(?:[.;)!]|$))"),
)

IGNORE: tuple[Row, ...] = (
    # "while the customer waits at the till": a person's waiting, no wait of the step
    Row("ignore", r"(?<![\w-])(?:while|whilst|as)\s+(?:the\s+|a\s+|our\s+|their\s+)?(?:customer|client|caller|user|patient|guest|"
        r"driver|member|shopper|visitor|buyer)s?\s+(?:waits?|(?:is|are)\s+waiting|stands?\s+waiting)\b(?!\s+(?:for\s+)?\d)"),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|cap|start|never|more|until|till|mark|killed|stopped|allow|will\s+do|'ll\s+do|carry|keep|go|continu|proceed|"
                  r"press|push|crack|soldier",
         "IGNORE": r"|while|whilst|\bas\b"}

_rx.save()
