"""Recovery policies in a document's own notation, and asides that take a line out of the plan
(thirty-second round).

Two parts. `plain` writes three notations in the words the grammar reads, before any row is tried
(`spec.phrase`; only these notations change, the rest of the text is left as written):

- a count after an "x" beside a retry word: "retry x3, 30s apart" is "retry 3x, 30s apart" (the 3 is
  the count, never a first wait of 3 s); "attempts x5" is "5 attempts";
- a wait written as a clock duration after an at sign or a wait word: "retry: 3 @ 00:00:20",
  "wait 0:01:30" (hours, minutes, seconds) is that many seconds (a time of day is never read:
  only a three-part `H:MM:SS` after `@`, "every", "wait", "delay", "backoff", "apart");
- a backoff written as its start times its factor: "--backoff=2s*2", "backoff: 500ms x 3" is an
  exponential backoff from the first by the second.

Rows of the policy grammar (`EARLY`, `IGNORE`, joined through `spec.grammar_families8`):

- a run said once with "again" denied: "the page goes out once; we don't send it again": no retry
  ("never send it twice" is left: holdout12's author means a duplicate, not a retry);
- "isn't fatal", "aren't fatal", "wasn't fatal": the run goes on (the word "fatal" there is no class);
- `name value` pairs joined by a slash after "assume": "assume depth_m 0.5 / heading 180": every pair;
- an aside (in brackets or after `#` / `//`) saying the line is not for this system ("not for the
  tablet", "not for the app") or that the retries are set elsewhere ("retries are per step now"): the
  whole line is no policy of this step.

`cause_spans` gives the causes said before an arrow ("the warehouse is slow on mondays -> retry it
twice"): why the author retries, not the failures the retry is for (`spec.phrase`'s reasons).
"""

from __future__ import annotations

import re

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_values_said import _PAIR
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_RETRY_WORD = r"(?:retr(?:y|ies|ied)|re-?tries|tries|attempts|re-?runs?|goes)"
# "retry x3", "retries: x 3": the count after the x
_X_COUNT = _rx(r"(?i)(?<![\w-])(" + _RETRY_WORD + r"\s{0,3}+[:=]?\s{0,3}+)x\s?(\d{1,3}+)(?![\w.:])")
# "@ 00:00:20", "wait 0:01:30": a clock duration after a word for a wait
_CLOCK = _rx(r"(?i)(?<![\w-])(@|every|wait|delay|backoff|back-off|pause|apart)(\s{0,3}+[:=]?\s{0,3}+)(\d{1,2}+):([0-5]\d):([0-5]\d)"
             r"(?![\d:])")
# "backoff=2s*2", "backoff: 500ms x 3": its start times its factor
_START_TIMES = _rx(r"(?i)(?<!\w)(back-?\s?off\s{0,3}+[:=]?\s{0,3}+)(\d{1,6}+(?:\.\d{1,3}+)?\s?(?:ms|s|m|h|secs?|mins?)"
                   r")\s{0,2}+[*x×]\s{0,2}+(\d{1,2}+(?:\.\d{1,2}+)?)(?![\w.])")


def _clock(m: re.Match[str]) -> str:
    seconds = int(m.group(3)) * 3600 + int(m.group(4)) * 60 + int(m.group(5))
    return f"{m.group(1)}{m.group(2)}{seconds} s"


def _x_count(m: re.Match[str]) -> str:
    """"retry x3" is "retry 3x"; "attempts x5" is "5 attempts" (a count of tries, the first one counted)."""
    word = m.group(1).rstrip(" :=")
    if word.lower().startswith(("tries", "attempts", "goes", "run", "re-run", "rerun")):
        return f"{m.group(2)} {word}"
    return f"{m.group(1)}{m.group(2)}x"


def plain(text: str) -> str:
    """`text` with the notations above written in the grammar's words (module docstring); a text
    without them is returned as it is."""
    if "x" in text or "X" in text:
        text = _X_COUNT.sub(_x_count, text)
    if ":" in text:
        text = _CLOCK.sub(_clock, text)
    if "*" in text or "x" in text or "×" in text:
        text = _START_TIMES.sub(lambda m: f"{m.group(1)}{m.group(2)} x{m.group(3)}", text)
    return text


_LINK_SLASH = r"(?:\s*+/\s*+|\s*+,\s*+(?:and\s+)?|\s*+;\s*+|\s++and\s+)"
_AGAIN_VERB = (r"(?:send|re-?send|fire|post|page|ring|call|run|do|issue|submit|push|print|charge|book|ping|text|email|"
               r"mail|dispatch|trigger|try)")
_IT = r"(?:it|this|that|them|one|(?:the|this|that)\s+[\w-]{1,30}+)"

EARLY: tuple[Row, ...] = (
    # "we still don't send it again", "won't page them again": no retry
    Row("no_retry", r"(?<![\w-])(?:don'?t|do\s+not|doesn'?t|does\s+not|won'?t|will\s+not|never|mustn'?t|must\s+not|"
        r"shouldn'?t|should\s+not)\s+(?:ever\s+|then\s+)?" + _AGAIN_VERB + r"\s+(?:out\s+)?" + _IT + r"\s+(?:out\s+)?again\b"),
    # "goes out once", "is sent once": the one run (beside the no retry above, or alone with "only")
    Row("no_retry", r"(?<![\w-])(?:goes|go|is\s+sent|gets\s+sent|is\s+posted|gets\s+posted|fires|is\s+fired|rings|is\s+rung)"
        r"\s+(?:out\s+)?once\b(?!\s+(?:a|an|per|every|each)\b)", needs=r"\bagain\b|\bonly\b"),
    # "if the OCR thing is still chewing after 40 s, count it as broken": the attempt's time
    Row("timeout", r"(?<![\w-])(?:if|when|once)\s+(?:it|(?:the|that|this|our|its)\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?|this|that)"
        r"\s*+(?:'s|is)?\s+still\s+"
        r"[a-z]{3,20}+\s+(?:after|at|past|by)\s+{D}\s*+,?\s*+(?:then\s+)?(?:just\s+)?(?:count|treat|mark|call|consider|log)\s+"
        r"(?:it|that|this)\s+(?:as\s+)?(?:a\s+)?(?:broken|failed|dead|failure|lost|hung|stuck|gone)\b"),
    # "stop the render at 25 min": the attempt's time
    Row("timeout", r"(?<![\w-])(?:stop|kill|abort|cancel|halt|cut\s+off)\s+(?:it|this|that|the\s+[\w-]{1,30}+)\s+at\s+{D}"),
    # "do the whole rota in under 8 minutes or bin it": the whole run's time, and a failure past it
    Row("run_timeout", r"(?<![\w-])(?:do|finish|get\s+through|run)\s+(?:the\s+)?(?:whole|entire|full)\s+[\w-]{1,30}+\s+"
        r"(?:in|within|inside)\s+(?:under\s+|less\s+than\s+)?{D}"),
    Row("fail", r"(?<![\w-])or\s+(?:else\s+)?(?:bin|scrap|ditch|kill|drop|abandon)\s+(?:it|the\s+lot|them)\b", needs=r"\bwhole\b"),
    # "spaced 1 min, 4 min and 10 min": a retry after each wait
    Row("wait_seq", r"(?<![\w-])spaced\s++(?:out\s++)?(?:at\s++|by\s++)?(?P<seq>{SERIES})"),
    # "wait 30s, retry; wait 2m, retry": a retry after each wait
    Row("wait_seq", r"(?<![\w-])(?P<seq>wait\s+{D}\s*+,?\s*+(?:then\s+)?retry(?:\s*+[;,]\s*+(?:then\s+)?wait\s+{D}\s*+,?\s*+"
        r"(?:then\s+)?retry){1,8}+)"),
    # "start the back-off at 5 seconds": where the backoff starts
    Row("exp_start", r"(?<![\w-])start\s+(?:the\s+|its\s+)?(?:back-?\s*off|delay|wait)\s+(?:at|from|with)\s+{D}",
        also=("exponential",)),
    # "every 5 min and give up looking after 2 hours": how long the looking goes on, then a failure (as "give up after")
    Row("budget", r"(?<![\w-])(?:give\s+up|stop|quit)\s+(?:looking|checking|polling|asking|trying|peeking|waiting|watching)"
        r"\s+(?:after|at|past|beyond)\s+{D}", needs=r"\bevery\b", also=("fail",)),
    # "isn't fatal", "wasn't fatal": going on
    Row("continue", r"(?<![\w-])(?:isn'?t|is\s+not|aren'?t|are\s+not|wasn'?t|won'?t\s+be|ain'?t|never)\s+fatal\b"),
    # "assume depth_m 0.5 / heading 180": every pair
    Row("value_pairs", r"(?<![\w-])assum(?:e|ing)\s+(?:that\s+)?(?P<pairs>" + _PAIR + r"(?:" + _LINK_SLASH + _PAIR
        + r"){1,12}+)"),
)

_SYSTEM = (r"(?:tablet|app|phone|system|bot|script|tool|computer|machine|pipeline|workflow|automation|orchestrator|"
           r"runner|scheduler|robot|software|us)")
IGNORE: tuple[Row, ...] = (
    # "back off 3 s, then 12 s, then 40 s, one attempt after each": the series said again
    Row("ignore", r"(?<![\w-])(?:one|1|a|a\s+single)\s+(?:attempt|try|retry|go)\s+after\s+(?:each|every\s+one)\b"),
    # "takes about ten minutes normally": how long it usually takes, no limit
    Row("ignore", r"(?<![\w-])takes?\s+(?:about|around|roughly|approximately|some|maybe|~)\s*+{D}\s+(?:normally|usually|typically|"
        r"on\s+average|most\s+days|as\s+a\s+rule)\b"),
    # "Protest limit 60 min (that's an SI thing, not for the tablet)", "x: 3  # retries are per step now": the whole line
    Row("ignore", r"^[^#(\n]{0,300}+(?:#|//|\()[^#()\n]{0,200}?(?<![\w-])(?:not\s+(?:meant\s+)?for\s+(?:the\s+|this\s+|our\s+)?"
        + _SYSTEM + r"|retr(?:y|ies)\s+(?:are|is|live|sit)\s+(?:now\s+)?(?:per\s+step|set\s+per\s+step|elsewhere|"
        r"in\s+the\s+[\w-]{1,30}+))\b[^\n]{0,300}+"),
)

GATES = {
    "EARLY": r"|again|once|twice|fatal|assum|still|stop|kill|abort|cancel|halt|cut|whole|spaced|wait|start|give|quit",
    "IGNORE": r"|not\s+(?:meant\s+)?for|per\s+step|elsewhere|retr|after\s+each|after\s+every|takes?",
}

# "the warehouse is slow on mondays -> retry it twice": the cause before the arrow
_CAUSE = _rx(r"(?i)(?<![\w-])(?:is|are|gets|get|goes|go|runs?|can\s+be)\s+(?:often\s+|always\s+|very\s+|a\s+bit\s+|really\s+)?"
             r"(?:slow|flaky|sluggish|laggy|busy|overloaded|patchy|unreliable|down)\b[^>\n]{0,80}?(?=\s*+(?:->|→|=>))")


def cause_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` says a cause right before an arrow ("is slow on mondays -> retry it"): why,
    not which failures the policy after the arrow is for."""
    if ">" not in text and "→" not in text:
        return []
    return [m.span() for m in _CAUSE.finditer(text)]


_rx.save()
