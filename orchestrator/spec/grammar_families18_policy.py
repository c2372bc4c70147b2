"""Rows of the policy grammar (`spec.grammar`) for the eighteenth round's recovery-policy and limit families.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a count said after "another go" with "up to": "have another go, up to 4 times", "give it one more
  try - at most 2 times": that many retries (a count of the retry's own noun; the first try is behind);
- several values to go on with said after "that is" / "i.e." / "meaning", or after "carry on with",
  a `yes`/`no` among them: "carry on as if nothing came back, i.e. score 0 and flagged no" is
  {score: 0, flagged: false};
- a `give_up_after = 60s` key with no retry beside it: the attempt's time (with one, the time to keep trying);
- a cap on anything over a time with what is done to it: "anything over 40 s and we kill it": the
  attempt's time; a labelled "Cut-off: 25 s" the same;
- a pause before one more go: "leave it 10 minutes and send it once more": the wait, never the
  attempt's time ("give it 60 s" alone stays a timeout);
- "no retry after the third failure": three attempts in all, the same count as "three strikes";
- a stop said of the retrying itself: "stop the retry loop at 20 minutes": the time to keep trying;
- a limit said of the whole of something by hold/keep ("hold the whole audit to 20 min"), or a
  `max_total = 20min` key: the whole run's limit;
- words that are not a policy one can run, said beside a failure: "go with the usual" (which value
  or skill?) and "or until the window closes at noon" (a clock time, not a time to keep trying):
  warned, never guessed.

And the nineteenth round's (same table, before the eighteenth's rows):

- a time something "gets" or "is given" with what happens past it or what it is for: "each page
  gets 250 ms to load", "the upload is given 2 min; after that, ...": the attempt's time; said of a
  whole run ("the complete nightly batch has 2 h"): the whole run's limit; and the skill said to
  take over "past that" ("...; beyond that, send the clip to `slow-path`"): the fallback;
- a last go: "try one final time", "give it a last go": one retry;
- a backoff said by habit only ("retry with our standard backoff"): no count nor waits are said, so
  it is warned, never assumed.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a `field value` pair whose value may be a yes/no: the field a name (never a word of the sentence's own)
_FIELD = (r"(?!(?:the|a|an|it|them|this|that|step|stage|attempt|try|retry|as|to|and|or|no|with|if|then|nothing|"
          r"is|are|was|were|be|so)\b)[a-z][a-z0-9_]{0,40}+")
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^']{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d)|true\b|false\b|null\b|"
          r"(?:yes|no)(?=\s*+(?:[.,;)!]|$|and\b|then\b)))")
_PAIR = _FIELD + r"\s++(?:(?:of|as|=)\s*+)?" + _VALUE
_SEP = r"\s*+(?:,\s*+(?:and\s+)?|and\s+|&\s*+|;\s*+|/\s*+)"
_GO_ON = (r"(?:carry(?:ing)?\s+on|keep\s+going|mov(?:e|ing)\s+on|go(?:ing)?\s+on|continu(?:e|ing)|proceed(?:ing)?|"
          r"press\s+on|go\s+ahead|push\s+on)")
_ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

_WHOLE19 = (r"(?:whole|entire|full|complete)\s+(?:[\w-]{1,30}+\s+){0,2}?(?:run|workflow|job|pipeline|flow|process|procedure|"
            r"batch|routine|sequence|session|shift|round|sweep|pass|chain|handover|checklist|service|show|episode|lesson|"
            r"protocol|voyage|watch|onboarding|intake|day|night|cycle)")
_GIVEN19 = (r"(?:gets?|has|have|is\s+given|are\s+given|is\s+allowed|are\s+allowed)\s+(?:up\s+to\s+|at\s+most\s+|no\s+more\s+than\s+|"
            r"a\s+max(?:imum)?\s+of\s+)?{D}")
# "..., not a second longer", "..., tops": the limit said strongly, no more
_STRICT19 = (r"(?:\s++(?:wall[- ]?clock|in\s+total|overall|all\s+in))?(?:\s*+[,;\u2013\u2014-]?\s*+(?:(?:and\s+)?not\s+(?:a|one|1)\s+(?:second|minute|moment|bit)\s+(?:longer|more|over)|"
             r"no\s+(?:more|longer)|tops|max(?:imum)?|at\s+most|and\s+no\s+more)\b)?")

EARLY19: tuple[Row, ...] = (
    # "the complete nightly batch has 2 h", "the whole sweep is given 40 min": the whole run's limit
    Row("run_timeout", r"(?<!\w)" + _WHOLE19 + r"\s+" + _GIVEN19 + _STRICT19),
    # "each page gets 250 ms to load", "the upload is given 2 min; after that, ...": the attempt's time
    Row("timeout", r"(?<!\w)" + _GIVEN19 + r"(?=\s*+(?:to\s+(?!(?:wait|pause|sleep|rest|cool|settle|retry|re-?try)\b)[a-z]|"
        r"[;,:.\u2013\u2014-]\s*+(?:past|beyond|after|over|longer|slower|anything|any\s+longer|if\s+(?:it|that)\s+|then\b|"
        r"when\s+(?:it|that)\s+)))"),
    # "... 2 min; past that, hand the file to `slow-path`": the skill that takes over once the time is up
    Row("use_skill", r"(?<!\w)(?:past|beyond|over|after)\s+(?:that|this|it|which)\s*+,?\s*+(?:route|send|hand|pass|give|switch|"
        r"move|divert|redirect|push)\s+(?:[\w-]{1,30}+\s+){0,3}?(?:to|over\s+to|through|via)\s+{NAME}"),
    # "try one final time", "give it a last go": one retry
    Row("retries", r"(?<!\w)(?:(?:try|go|run|send|do|call|ring|ping|post|push|fire)(?:\s+(?:it|this|that|them))?|"
        r"(?:give|have|make|take)(?:\s+(?:it|this|that))?)\s+(?:one|a)\s+(?:last|final)\s+(?:time|try|go|attempt|shot|round)\b",
        value=1),
    # "retry with our standard backoff", "the usual retries": no count nor waits said
    Row("ambiguous", r"(?<!\w)(?:(?:retry|re-?try|try\s+again|re-?run|back\s+off)\s+(?:with|using|on|per|by)\s+)?(?:the\s+|our\s+|"
        r"its\s+)?(?:usual|normal|standard|regular|customary|house|same\s+old)\s+(?:back-?off|retry\s+(?:policy|schedule|settings|"
        r"rules)|retries|retry)\b",
        value="a backoff named by habit says no count and no waits, so it is not read: write them, e.g. 'retry 3 "
        "times, waiting 2 s then doubling'"),
)

EARLY: tuple[Row, ...] = (
    # "have another go, up to 4 times", "give it one more try - at most 2 times": that many retries
    Row("retries", r"(?<!\w)(?:have|give\s+it|take|make)\s+(?:another|(?:one|1)\s+more|a\s+second)\s+(?:go|shot|try|attempt|"
        r"crack|stab|swing|run)\b(?:\s+at\s+it)?\s*+[,(\u2013\u2014-]?\s*+(?:up\s+to|at\s+most|max(?:imum)?|no\s+more\s+than)"
        r"\s+{N}\s*+(?:times\b|x\b|goes\b|tries\b)"),
    # "..., i.e. score 0 and flagged no", "that is depth 0 / wet no": the values to go on with
    Row("value_pairs", r"(?<!\w)(?:that\s+is|i\.\s*+e\.?|ie|meaning|namely|in\s+other\s+words|which\s+means)\s*+[,:]?\s*+"
        r"(?P<pairs>" + _PAIR + r"(?:" + _SEP + _PAIR + r"){0,8})(?:\s++(?:instead|anyway|regardless|for\s+now)\b)?",
        needs=_GO_ON),
    # "carry on with score 0 and flagged no": two or more values to go on with, one a yes/no
    Row("value_pairs", r"(?<!\w)" + _GO_ON + r"\s+with\s+(?:the\s+)?(?P<pairs>" + _PAIR + r"(?:" + _SEP + _PAIR
        + r"){1,8})(?:\s++(?:instead|anyway|regardless|for\s+now)\b)?", needs=r"{COND}|instead|anyway|regardless|unreachable|unavailable"),
    # "anything over 40 s and we kill it", "any call past 2 min gets cut": the attempt's time
    Row("timeout", r"(?<!\w)(?:anything|any\s+(?:run|call|attempt|try|go|job|request|lookup|query|fetch))\s+(?:that\s+runs\s+|"
        r"that\s+takes\s+|taking\s+)?(?:over|past|beyond|longer\s+than|more\s+than|above)\s+{D}",
        needs=r"pull\s+the\s+plug|\bkill|abort|cancel|\bcut\b|\bstop|\bbin\b|scrap|\bdrop"),
    # "allow the re-index up to 2 days", "allow each render up to 3 hours": the attempt's time
    Row("timeout", r"(?<!\w)allow\s+(?!(?:up\b|for\b))(?:the\s+|each\s+|every\s+|this\s+|that\s+|it\s+|our\s+)?(?:[\w-]{1,30}+\s+){0,3}?"
        r"(?:up\s+to|at\s+most|no\s+more\s+than|a\s+max(?:imum)?\s+of)\s+{D}"),
    # `give_up_after = 60s`: with a retry in the sentence the time to keep trying, else the attempt's time
    Row("budget", r"(?<![\w-])give[_-]up[_-]after\s*+[:=]\s*+{D}", needs=r"retr|again|attempts|tries|\bevery\b"),
    Row("timeout", r"(?<![\w-])give[_-]up[_-]after\s*+[:=]\s*+{D}"),
    # "Cut-off: 25 s", "cutoff = 2 min": the attempt's time
    Row("timeout", r"(?<![\w-])cut-?\s?off\s*+[:=]\s*+{D}"),
    # "give it 20s, then try again, 3 goes, 10s between": with the wait said on its own elsewhere in the sentence,
    # the time given first is each attempt's, not a second wait (round 49)
    Row("timeout", r"(?<!\w)give\s+it\s+(?:a\s+good\s+|about\s+)?{D}(?=\s*+,?\s*+(?:and\s+)?then\s+(?:try|retry|re-?try|"
        r"go|have\s+another)\b)", needs=r"{D}\s+(?:(?:pause|gap|wait|delay)\s+)?(?:in\s+)?(?:between|apart)\b|\b(?:wait|pause|sleep)\s+(?:of\s+)?{D}"),
    # "leave it 10 minutes and send it once more": the wait before the retry
    Row("wait_fixed", r"(?<!\w)(?:leave|give|let)\s+it\s+(?:a\s+good\s+|about\s+|another\s+)?{D}\s*+,?\s*+(?:and|then)\s+"
        r"(?:then\s+)?(?:send|try|run|do|post|push|ring|call|fire|submit|re-?send|retry|re-?try|re-?run|upload|fetch|load|"
        r"print|dial|ping|poll)\b"),
    # "stop the retry loop at 20 minutes", "end the whole cycle after 1 h": the time to keep trying
    Row("budget", r"(?<!\w)(?:stop|end|quit|halt|cap)\s+(?:the\s+)?(?:whole\s+|entire\s+)?(?:retry\s+|polling\s+|re-?try\s+)?(?:loop|cycle)\s+(?:at|after|past|once\s+it\s+hits)\s+{D}"),
    # "hold the whole audit to 20 min max", "keep the entire check under 1 h": the whole run's limit
    Row("run_timeout", r"(?<!\w)(?:hold|keep)\s+(?:the\s+)?(?:whole|entire|full)\s+(?!(?:loop|retry|retries|attempt|try|call|"
        r"lookup|request|upload|download|fetch|step|stage)\b)[\w-]{2,30}+\s+(?:to|at|under|within|below)\s+(?:at\s+most\s+|"
        r"no\s+more\s+than\s+|a\s+max(?:imum)?\s+of\s+)?{D}"),
    # `max_total = 20min`, `total_limit: 1h`: the whole run's limit
    Row("run_timeout", r"(?<![\w-])(?:max(?:imum)?[_ -]total|total[_ -](?:max|limit|cap)|overall[_ -](?:limit|cap|max))"
        r"(?:[_ -]time)?\s*+[:=]\s*+{D}"),
    # "go with the usual", "fall back on the normal one": which value or skill is not said
    Row("ambiguous", r"(?<!\w)(?:go|stick|carry\s+on|proceed|make\s+do|fall\s+back)\s+(?:with|on|to)\s+(?:the\s+)?"
        r"(?:usual|normal|regular|standard|old)(?:\s+(?:one|thing|value|values|stuff|figures?|numbers?|way))?\b"
        r"(?=\s*+(?:[.,;!)]|$|and\b|then\b|instead\b|for\s+now\b))",
        needs="{COND}", value="which value or skill this is, is not said, so it is not read: write 'continue with "
        "`{field: value}`' or 'use `skill-name` instead'"),
    # "or until the window closes at noon", "or until 5 pm": a clock time or an event, not a time to keep trying
    Row("ambiguous", r"(?<!\w)or\s+until\s+(?:(?:the\s+)?[\w-]{1,30}+(?:\s+[\w-]{1,30}+){0,3}?\s+(?:closes|shuts|ends|opens|"
        r"is\s+over|runs\s+out|goes\s+out)\b(?:\s+at\s+[\w:.]{1,10}+)?|noon\b|midnight\b|\d{1,2}+(?::\d\d)?\s*+(?:am|pm)\b)",
        value="a time of day or an event is no time to keep trying, so it is not read (the count is): write how "
        "long to keep trying ('keep trying for 2 h') if that is meant"),
    *(Row("attempts", r"(?<!\w)no\s+(?:more\s+|further\s+)?(?:retr(?:y|ies)|re-?tries|tries|attempts)\s+(?:after|past|beyond)\s+"
          r"the\s+" + word + r"\s+(?:failure|fail|attempt|try|strike|go|miss|error)\b", value=n)
      for n, word in enumerate(_ORDINALS, start=2)),
    # "pause 1 s before the first retry and triple it each time": where the backoff starts
    Row("exp_start", r"(?<!\w)(?:pause|wait|sleep|hold\s+off|delay)\s+(?:for\s+)?{D}\s+before\s+the\s+first\s+(?:retry|re-?try|"
        r"try|attempt|go|re-?run)\b(?=[^.;]{0,40}?(?<!\w)(?:doubl|tripl|quadrupl))"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
EARLY = EARLY19 + EARLY
GATES = {
    "EARLY": r"|last|final|house|customary|gets?|has|have|given|allowed|allow|another|that\s+is|i\.|ie|meaning|namely|words|means|anything|any|cut|leave|give|let|stop|end|quit|halt|"
             r"hold|keep|total|overall|usual|normal|regular|standard|until|no|pause|wait|sleep|delay",
}
