"""Rows of the policy grammar (`spec.grammar`) for the twenty-fourth round's one-line recovery phrasings.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a wait said as a possessive rest: "a minute's rest between each", "thirty seconds' pause before the
  next go", "a 2-minute breather between tries": that fixed wait;
- waits spaced out as a list: "space the re-sends out 2 s, 4 s, 8 s and so on" (a series that goes
  on is a backoff, `phrase_checks.geometric`); "never above / never over 5 minutes" beside the
  series or a backoff: its cap;
- a bare cap after a backoff with a unit: "after 4 seconds, doubling each time up to 32": 32 s (the
  number takes the unit of the time before it, `bare_cap`);
- "another go up to twice", "one more try, at most three times": that many retries;
- a time given before the step is given up on: "give the OCR pass 0.25 hour before pulling the plug",
  "allow the sync 10 min before we kill it": the attempt's time;
- a time limit written as a label: "Limit 250 ms", "limit: 2 min": the attempt's time;
- the fallback skill said as one who stands in: "`offline-geocoder` can cover for it", "`manual-desk`
  will step in"; or said after a time: "gets 90 s; after that use `manual-finder`";
- a value "read": "pretend it read moisture_pct 30", "act as if it returned count 0": the value to go on
  with ("shouldn't hold us up" is going on);
- "do not repeat the unlock command, even if ...", "never resend the payment, whatever happens": no retry
  (beside words of failing or of doubt, so "don't repeat the header row" is no policy);
- counts and times too loose to read, reported never guessed: "a few more goes", "several more tries";
  "don't let it hang around too long", "it shouldn't take forever";
- the scope of a time said as the whole: "from first step to last, ... gets 90 minutes", "... is cut off
  at 3 hours whatever stage it's reached": the whole run's limit (`whole_scoped`).

`FAILURE_IDIOMS` are more ways of saying a step failed ("dies", "falls through", "can't be reached")
that `spec.condition_opening` counts as a failure: such an opening is the policy's, not the step's
condition. `merged_values` puts the `name value` pairs of one sentence together ("record dose_mg as 0
and needs_review as true": both fields).
"""

from __future__ import annotations

from re import Pattern
from typing import Any

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_values_said import _LINK, _PAIR
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OBJ = r"(?:(?:it|this|that|them|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+){0,2}?)\s+)"
_REST = r"(?:rest|break|pause|wait|breather|breathing\s+space|gap|sleep|cool-?down|breathing\s+room)"
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|break\w*|broke|broken|crash\w*|down|dies|died|dead|time[sd]?\s*-?out|timed\s+out|"
           r"timeout|blows?\s+up|falls?\s+over|stuck|hangs?|no\s+luck|unreachable|unavailable|offline|flak\w*|go(?:es)?\s+dark|"
           r"stall\w*|freez\w*|froze)\b")
_GIVE_UP = (r"(?:pulling\s+the\s+plug|pull\s+the\s+plug|giving\s+up(?:\s+on\s+it)?|(?:we|I|you)\s+(?:give\s+up|kill\s+it|pull\s+"
            r"the\s+plug|cut\s+it\s+off|stop\s+it|abandon\s+it|call\s+it)|killing\s+it|cutting\s+it\s+off|calling\s+it|"
            r"abandoning\s+it|stopping\s+it|timing\s+it\s+out|it'?s\s+(?:killed|stopped|cut\s+off|abandoned))")
_AFTER_THAT = "(?:" + "|".join(f"(?<={w}{sep})" for w in ("after that", "past that", "beyond that", "after which",
                                                              "once that's up", "once that is up")
                             for sep in (" ", ", ", "; ")) + ")"
_LOOSE = r"(?:few|handful\s+of|bunch\s+of|several|some|number\s+of|load\s+of|couple\s+more)"

EARLY: tuple[Row, ...] = (
    # "a minute's rest between each", "thirty seconds' pause before the next go": the wait
    Row("wait_fixed", r"(?<!\w){D}(?:'s|s'|')\s+" + _REST + r"\b(?:\s+(?:in\s+)?(?:between|before|after)(?:\s+(?:each|every|"
        r"them|tries|goes|attempts|the\s+next(?:\s+(?:one|go|try|attempt))?|each\s+(?:one|go|try|attempt)))?)?",
        needs=r"{RETRY}|\btr(?:y|ies)\b|\bgo(?:es)?\b|attempts?|cracks|shots|stabs|again|retr"),
    # "space the re-sends out 3 s, 6 s, 12 s and so on": the waits in order
    Row("wait_seq", r"(?<!\w)spac(?:e|ed|ing)\s+(?:any\s+|the\s+|all\s+|each\s+|those\s+|them\s+|it\s+)?(?:[\w-]{1,30}+\s+){0,2}?"
        r"out\s+(?:by\s+|at\s+)?(?P<seq>{SERIES})"),
    # "never above 2 minutes", "never over 30 s" beside a series or a backoff: its cap
    Row("exp_cap", r"(?<!\w)(?:never|not)\s+(?:going\s+|getting\s+)?(?:above|over|beyond|past|exceeding)\s+{D}"
        r"(?!\s+(?:between|apart|per|each|wait|delay))", needs=r"and\s+so\s+on|\.\.\.|…|\betc\b|doubl|tripl|back-?\s*off|expo|spac(?:e|ed|ing)\s"),
    # "doubling the pause each time up to 32": a bare number, the unit of the time before it
    Row("exp_cap", r"(?<!\w)(?:doubl\w*|tripl\w*|grow\w*|increas\w*)\b[^.;\d]{0,60}?\b(?:up\s+to|to\s+a\s+max(?:imum)?\s+of|"
        r"max(?:imum)?|capped\s+at|topping\s+out\s+at|no\s+more\s+than)\s+(?P<bare_cap>\d{1,6}+(?:\.\d{1,3}+)?+)(?![\w%]|\.\d)"
        r"(?!\s*+(?:times|tries|retries|attempts|goes|x|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b)"),
    # "have another go up to twice", "one more try, at most three times": that many retries
    Row("retries", r"(?<!\w)(?:another|one\s+more|1\s+more|a\s+further)\s+(?:go|try|attempt|shot|crack|run|pass)\s*+,?\s*+"
        r"(?:up\s+to|at\s+most|no\s+more\s+than|a\s+max(?:imum)?\s+of|max(?:imum)?)\s+(?:{N}\s+times|(?P<n9>once|twice|thrice))\b"),
    # "give the OCR pass 0.25 hour before pulling the plug": the attempt's time
    Row("timeout", r"(?<!\w)(?:give|allow|grant)\s+" + _OBJ + r"?(?:up\s+to\s+|at\s+most\s+|about\s+)?{D}\s+(?:before|until|till)\s+"
        + _GIVE_UP),
    # "Limit 250 ms", "limit: 2 min" at a clause's opening: the attempt's time (not "limit the whole run to")
    Row("timeout", r"(?:^|(?<=[,;:(]))\s*+(?:hard\s+|time\s+)?limit\s*+[:=]?\s*+{D}\b(?!\s+(?:for|on|of|across|over)\s+(?:the\s+)?"
        r"(?:whole|entire|total|run|wait|retr|tries))"),
    # "must wrap inside 10 minutes", "has to wrap up within the hour": the time (the whole run's when said so, `whole_scoped`)
    Row("timeout", r"(?<!\w)(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+to|got\s+to)\s+(?:be\s+)?(?:wrap(?:ped)?(?:\s+up)?|"
        r"done\s+and\s+dusted|in\s+the\s+bag)\s+(?:inside|within|in(?:\s+under)?|under|in\s+less\s+than)\s+(?:the\s+|a\s+|an\s+)?{D}"),
    # "`geocode-by-postcode` can cover for it", "`manual-desk` will step in": the fallback skill
    Row("use_skill", r"`(?P<name>[\w.-]{1,60}+)`\s+(?:can|could|will|should|may|might|is\s+able\s+to)\s+(?:cover\s+for|stand\s+in\s+for|"
        r"fill\s+in\s+for|step\s+in\s+for|substitute\s+for|take\s+over\s+(?:from|for))\s+(?:it|this|that|them|the\s+[\w-]{1,30}+)\b"),
    Row("use_skill", r"`(?P<name>[\w.-]{1,60}+)`\s+(?:can|could|will|should|may|might)\s+(?:step\s+in|stand\s+in|fill\s+in|take\s+over|"
        r"pick\s+up\s+the\s+slack)\b", needs=_FAILED),
    # "gets 90 s; after that use `manual-finder`": the fallback after the time
    # (the words "after that" are left to IGNORE's "if it fails after that": the row reads what follows them)
    Row("use_skill", _AFTER_THAT + r"(?:just\s+|we\s+)?(?:use|run|call|switch\s+to|fall\s+back\s+(?:to|on)|go\s+(?:to|with)|hand\s+(?:it\s+)?(?:over\s+)?to|"
        r"pass\s+(?:it\s+)?to)\s+`(?P<name>[\w.-]{1,60}+)`(?:\s+instead)?", needs=r"\d"),
    # "pretend it read moisture_pct 30", "act as if it returned count 0 and ok false": the value to go on with
    Row("value_pairs", r"(?<!\w)(?:pretend(?:ing)?|act(?:ing)?\s+as\s+(?:if|though)|as\s+(?:if|though)|assum(?:e|ing))\s+(?:that\s+)?"
        r"(?:it|they|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+(?:read|reads|returned|gave|reported|said|answered|showed|"
        r"produced|output|measured|came\s+back\s+with)\s+(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){0,12}+)",
        needs=_FAILED + r"|hold\s+(?:us|things|the\s+\w+|anything|everything)\s+up|block|go\s+on|carry\s+on|continu|keep\s+going"),
    # "don't hold us up" said of a failure: going on
    Row("continue", r"(?<!\w)(?:shouldn'?t|should\s+not|mustn'?t|must\s+not|won'?t|will\s+not|doesn'?t\s+get\s+to|"
        r"(?:don'?t|do\s+not)\s+let\s+(?:it|that|this))\s+hold\s+(?:us|things|the\s+(?:run|round|batch|line|job|rest))\s+up\b",
        needs=_FAILED),
    # "do not repeat the unlock command, even if it looks like it didn't land": no retry
    Row("no_retry", r"(?<!\w)(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|not\s+to)\s+(?:ever\s+)?"
        r"(?:repeat|resend|re-send|reissue|re-issue|refire|re-fire|resubmit|re-submit|redo|re-do|replay)\s+" + _OBJ + r"?",
        needs=r"(?<!\w)(?:even\s+(?:if|when|though)|whatever|no\s+matter|under\s+any|fail\w*|error\w*|time[sd]?\s*-?out|"
              r"didn'?t\s+(?:land|work|go\s+through|arrive|take)|not\s+sure|idempotent|twice|double)"),
    # loose counts and times: reported, never read
    Row("ambiguous", r"(?<!\w)(?:a\s+)?" + _LOOSE + r"\s+(?:more\s+|extra\s+|further\s+)?(?:goes|tries|attempts|retries|shots|"
        r"cracks|stabs|runs|re-?runs|swings)\b", value="the count is not a number: no retry is read (write e.g. 'retry 3 times')"),
    Row("ambiguous", r"(?<!\w)(?:(?:don'?t|do\s+not|never)\s+let\s+" + _OBJ + r"|(?:it|this|that|the\s+[\w-]{1,30}+(?:\s+step)?)\s+"
        r"(?:shouldn'?t|should\s+not|mustn'?t|must\s+not)\s+)(?:hang\s+around|hang\s+about|drag\s+on|linger|dawdle|sit\s+there|spin|"
        r"churn|take)\s+(?:(?:for\s+)?too\s+long|forever|for\s+ages|indefinitely)\b(?![^.;]{0,80}?\d)",
        value="no time is stated: no timeout is read (write e.g. 'timeout 5 min')"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|rest|break|pause|breather|gap|sleep|cool|spac|never|not|no\s|doubl|tripl|grow|increas|another|more|further|"
             r"give|allow|grant|limit|`|after|past|beyond|once|pretend|act|as\s+if|as\s+though|assum|hold|repeat|resend|re-|"
             r"reissue|refire|resubmit|redo|replay|wrap|done|bag|few|handful|bunch|several|some|number|load|couple|let|shouldn|should|"
             r"mustn|must",
}

# more ways of saying that the step failed, beside `spec.grammar_families23.FAILURE_IDIOMS`
FAILURE_IDIOMS = (r"dies|died|die|dying|falls?\s+through|fell\s+through|(?:can'?t|cannot|can\s+not|couldn'?t|could\s+not)\s+be\s+"
                  r"(?:reached|contacted|raised|loaded|opened)|no\s+luck|gives?\s+out|gave\s+out|packs?\s+up|packed\s+up|"
                  r"goes\s+(?:offline|dark|silent|quiet)|went\s+(?:offline|dark|silent|quiet)|flakes?(?:\s+out)?|trips|"
                  r"tripped|bounces|bounced|stalls|stalled|freezes|froze|croaks|croaked|misfires|glitches")

# the whole said as the scope of a time: "from first step to last", "whatever stage it's reached"
_WHOLE_SCOPE = _rx(
    r"(?i)(?<!\w)(?:from\s+(?:the\s+)?(?:first|1st)\s+step\s+(?:to|till|until|through)\s+(?:the\s+)?last(?:\s+one|\s+step)?|"
    r"(?:from\s+)?(?:the\s+)?(?:very\s+)?(?:start|beginning)\s+to\s+(?:the\s+)?(?:very\s+)?(?:finish|end)|"
    r"whatever\s+(?:stage|step|point|phase)\s+(?:it'?s|it\s+is|it\s+has|they'?re|they\s+have)\s+(?:reached|got\s+to|gotten\s+to|"
    r"at|on|in)|wherever\s+(?:it'?s|it\s+has|it\s+is)\s+(?:got|gotten|reached)(?:\s+to)?|"
    r"(?:whole|entire|overall)\s+(?:overnight|nightly|daily|weekly|monthly|end-of-day|month-end|year-end)|"
    r"(?:across|over)\s+all\s+(?:the\s+|its\s+)?steps)\b")
# a time that is one attempt's, or one item's, whatever the sentence says of the whole
_ONE = _rx(r"(?i)(?<!\w)(?:each|every|per|a\s+single|any\s+single)\s+(?:attempt|try|call|request|go|upload|chunk|item|page|record|"
           r"file|row|batch|message|query|lookup|shot|pass)\b")


def whole_scoped(text: str, statement: PolicyStatement, scope: Pattern[str] | None = None,
                 one: Pattern[str] | None = None) -> PolicyStatement:
    """`statement` with its time as the whole run's when `text` says the time is the whole's ("from first
    step to last", "whatever stage it's reached": `scope`) and no single thing's (`one`), and says nothing
    else but a fail (module docstring)."""
    scope, one = scope or _WHOLE_SCOPE, one or _ONE
    if statement.timeout_s is None or statement.whole_run or scope.search(text) is None or one.search(text):
        return statement
    others = statement.model_copy(update={"timeout_s": None, "applies_to": None})
    if not others.is_empty() and not (others.on_failure is not None and others.on_failure.kind == "fail"
                                      and others.model_copy(update={"on_failure": None}).is_empty()):
        return statement
    return statement.model_copy(update={"whole_run": True, "applies_to": None})


_NUMBER_UNIT = _rx(r"(?i)(?<![\d.])(\d++(?:\.\d++)?+)\s*+(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)(?![a-z])")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def bare_cap(before: str, amount: str) -> float | None:
    """Seconds of a bare cap ("up to 32") in the unit of the last time said before it ("after 4 seconds,
    doubling ... up to 32": 32 s); None when no time comes before it."""
    found = list(_NUMBER_UNIT.finditer(before[-400:]))
    if not found:
        return None
    last = found[-1]
    unit = last.group(2).lower()
    key = "ms" if unit.startswith("mil") or unit == "ms" else unit[0]
    return float(amount) * _UNIT_S[key]


def merged_values(seen: list[tuple[Any, str]]) -> Any:
    """The values of one sentence's `name value` slots put together ("record dose_mg as 0 and needs_review as
    true": both fields); the first value of a field said twice is kept. One value that is no mapping stays
    as it is."""
    if len(seen) < 2 or not all(isinstance(v, dict) for v, _ in seen):
        return seen[0][0] if seen else None
    out: dict[str, Any] = {}
    for value, _ in seen:
        for key, item in value.items():
            out.setdefault(key, item)
    return out


_rx.save()
