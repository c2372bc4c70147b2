"""Recovery phrasings a thirtieth blind set misread or dropped (forty-sixth round), in words that are not its own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- a tantrum idiom for a failure ("throws a wobbly", "throws a fit", "has a hissy fit") is "falls over", a failure of
  any class ("throws" alone is an exception, a code error);
- "treat it as count 0" is "treat it as count = 0": the field and its value, not the value "count".

`whole_scope46` reads a time as the whole run's when the sentence names the whole of the run ("the entire sequence",
"the full overnight batch", "the whole morning run", "nothing in this run") and sets nothing else but a fail.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a time allowed and nothing more: "allow the solver 75 minutes, no more", "give the tracker 45 s; if it's not back";
- a time to stop at: "pull the plug on the render after 90 secs", "kill the export after 2 minutes";
- a time for each go: "the import gets 10 min per go" (the attempt's time);
- a backoff's first wait said "waiting 10s and doubling the wait" (not a fixed wait), its cap "top out at 2 min";
- a fail said "means abort, full stop" or "that's the end of the run" after a failure;
- one run and never again: "it runs exactly one time, never again" (no retry);
- a fallback skill said as a stand-in: "the understudy is `x`", "our stand-in is `x`";
- values to go on with, each `name value` or `name = value`: "go ahead anyway with ok = false and note "x"", "move
  along as if it returned hits = [] and done = true", "keep rolling with unit "kg"", "treat it as count 0", and one
  value for fields said together: "carry on, lat and lon both null".
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_families24 import whole_scoped
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_notation25 import _ONE as _ONE25
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "throws a wobbly", "threw a fit", "has a hissy fit": a failure of any kind, said as a tantrum
_TANTRUM = _rx(r"(?i)(?<![\w-])(?:throws|threw|throwing|has|had|having|pitches|pitched)\s++an?\s++(?:(?:bit\s++of\s++an?\s++)?"
               r"(?:wobbly|wobbler|strop|tantrum|paddy|hissy(?:\s++fit)?|fit|moody))\b")


# "treat it as headcount 0": a field and its value, written "headcount = 0" so it is not read as the value "headcount"
_AS_PAIR = _rx(r"(?i)(?<![\w-])((?:treat|count|take|record|log)\s++(?:it|this|that|the\s++result)\s++as\s++)([a-z][a-z0-9_]{0,40}+)"
               r"\s++(-?\d{1,12}+(?:\.\d{1,9}+)?+|\"[^\"\n]{0,200}+\"|true|false|null|\[\s*+\])(?=\s*+(?:[.;!]|$))")


def plain(text: str) -> str:
    """`text` with a tantrum idiom written as "falls over", and "treat it as name value" as "name = value" (module
    docstring)."""
    lowered = text.lower()
    if any(w in lowered for w in ("wobbl", " fit", "strop", "tantrum", "paddy")):
        text = _TANTRUM.sub("falls over", text)
    if " as " in lowered:
        text = _AS_PAIR.sub(lambda m: f"{m.group(1)}{m.group(2)} = {m.group(3)}", text)
    return text


# the whole of the run named: "the entire sequence", "the full overnight batch", "nothing in this run"
_WHOLE = _rx(r"(?i)(?<!\w)(?:(?:the|our|this|tonight'?s|today'?s)\s++(?:whole|entire|full|complete)\s++(?:[a-z]{3,12}+\s++){0,2}?"
             r"(?:run|batch|job|workflow|pipeline|process|sequence|thing|lot)|(?:nothing|no\s++step|no\s++part)\s++(?:in|of)\s++"
             r"(?:this|the|our)\s++(?:run|batch|job|workflow|pipeline|process))\b")


def whole_scope46(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` names the whole of the run (module docstring)."""
    return whole_scoped(text, statement, scope=_WHOLE, one=_ONE25)


_THE = r"(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)"
_FAILED = (r"\b(?:fails?|failing|failed|failure|breaks?|broken|errors?|erroring|errored|dies|died|crash\w*|down|no\s+joy|"
           r"no\s+luck|can'?t|cannot|won'?t)\b|\?")
_GROWS = r"\b(?:doubl\w*|tripl\w*|back\s*-?\s*off|exponential\w*|twice\s+as\s+long)"
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep(?:ing)?\s+(?:going|rolling|moving)|mov(?:e|ing)\s+(?:on|along)|go(?:ing)?\s+(?:on|ahead)|"
          r"continu(?:e|ing)|proceed(?:ing)?|press\s+on|push\s+on|crack\s+on|soldier\s+on|roll\s+on)")
_LITERAL = (r"(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w.])|\[\s*+\]|\{\s*+\}|"
            r"(?:true|false|null|none|yes|no)(?![\w-]))")
_PAIR = r"[a-z][a-z0-9_]{0,40}+\s*+(?:=\s*+|:\s*+)?" + _LITERAL
_LINK = r"(?:\s*+,\s*+(?:and\s++)?|\s*+;\s*+|\s++and\s++)"
_PAIRS = r"(?P<wpairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)(?=\s*+(?:[.;)!]|$))"
# one `name = value` alone is read by the grammar's own rows, as the field and its value
_ONE_EQUALS = r"(?![a-z][a-z0-9_]{0,40}+\s*+=\s*+" + _LITERAL + r"\s*+(?:[.;)!]|$))"
_STOP = r"(?:pull\s+the\s+plug\s+on|kill|stop|abort|cancel|bin|scrap|ditch|drop)"

EARLY: tuple[Row, ...] = (
    # "allow the solver 75 minutes, no more" / "give the tracker 45 s; if it's not back ...": the attempt's time
    Row("timeout", r"(?<![\w-])(?:allow|give|grant)\s+" + _THE + r"\s+{D}\s*+(?:,\s*+(?:no\s+more|tops|max(?:imum)?|at\s+most|"
        r"no\s+longer)\b|;\s*+(?:if|when|once)\s+(?:it'?s|it\s+is|it\s+has|it\s+hasn'?t|it'?s\s+not)\b)"),
    # "pull the plug on the render after 90 secs": the attempt's time
    Row("timeout", r"(?<![\w-])" + _STOP + r"\s+" + _THE + r"\s+(?:after|past|beyond)\s+{D}\s*+(?:[.;,!]|$)"),
    # "the import gets 10 min per go": the attempt's time
    Row("timeout", r"(?<![\w-])(?:gets?|has|have|is\s+allowed|is\s+given|allowed|up\s+to)\s+{D}\s+(?:per|each|a|every)\s+"
        r"(?:go|try|attempt|shot|pass|run)\b"),
    # "waiting 10s and doubling the wait every time": the backoff's first wait, not a fixed one
    Row("exp_start", r"(?<![\w-])(?:wait(?:ing)?|paus(?:e|ing)|sleep(?:ing)?)\s+{D}(?=\s*+,?\s*+(?:and|then)\s+(?:then\s+)?"
        r"(?:doubl|tripl))", needs=_GROWS),
    # "(top out at 2 min)" beside a doubling: the backoff's cap
    Row("exp_cap", r"(?<![\w-])(?:top(?:s|ping)?\s+out|max(?:es|ing)?\s+out|level(?:s|ling)?\s+(?:off|out)|plateau\w*)\s+at\s+{D}",
        needs=_GROWS),
    # "an error from the log means abort, full stop": the run fails
    Row("fail", r"(?<![\w-])means\s+(?:we\s+)?(?:abort|halt|stop)(?:ing)?(?:\s+(?:everything|the\s+run|it\s+all))?(?![\w-])"
        r"(?!\s++(?:the|a|an|this|that|our|its|it)\b)",
        needs=_FAILED),
    # "if the check fails, that's the end of the run": the run fails
    Row("fail", r"(?<![\w-])(?:that'?s|that\s+is|it'?s|it\s+is)\s+the\s+end\s+of\s+(?:the\s+(?:run|line|road|job|batch|workflow)|"
        r"everything|us)\b", needs=_FAILED),
    # "it runs exactly one time, never again": no retry
    Row("no_retry", r"(?<![\w-])(?:runs?|fires?|goes|happens?|is\s+run)\s+(?:exactly\s+|only\s+|just\s+)?(?:one\s+time|once)"
        r"(?:\s+only)?\s*+[,;-]?\s*+(?:and\s+)?(?:never\s+again|not\s+twice|no\s+more)\b"),
    # "the understudy is `manual-entry`": the fallback skill
    Row("use_skill", r"(?<![\w-])(?:understudy|stand-?in|stunt\s+double|substitute|sub|reserve|plan\s+b|spare)\s+(?:is|will\s+be|"
        r"=)\s+(?:{NAME})", needs=_FAILED),
    # "go ahead anyway with ok = false and note "x"", "keep rolling with unit "kg"": each field and its value
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"(?:\s+(?:regardless|anyway|anyhow|all\s+the\s+same))?\s+(?:with|as\s+if\s+it\s+"
        r"(?:returned|gave|said|came\s+back\s+with|reported))\s+" + _ONE_EQUALS + _PAIRS),
    # "treat it as count 0": the field and its value
    Row("value_pairs", r"(?<![\w-])(?:treat|count|take|record|log)\s+(?:it|this|that|the\s+result)\s+as\s+(?:if\s+it\s+(?:returned|"
        r"gave|said)\s+)?" + _PAIRS, needs=_FAILED),
    # "carry on, lat and lon both null": one value for the fields said together
    Row("value_fields", r"(?<![\w-])" + _GO_ON + r"(?:\s+(?:regardless|anyway))?\s*+[,:-]\s*+(?P<fields>[a-z][a-z0-9_]{0,40}+"
        r"(?:\s*+(?:,|and|&)\s*+[a-z][a-z0-9_]{0,40}+){1,8}+)\s+(?:both|all|each)\s+(?:set\s+to\s+|=\s*+)?(?P<value>"
        + _LITERAL + r")"),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|allow|give|grant|plug|kill|stop|abort|cancel|bin|scrap|ditch|drop|per|each|every|wait|paus|sleep|top|max|level|"
                  r"plateau|means|end\s+of|once|one\s+time|understudy|stand|stunt|sub|reserve|plan\s+b|spare|carry|keep|mov|go|"
                  r"continu|proceed|press|push|crack|soldier|roll|treat|count|take|record|log"}

_rx.save()
