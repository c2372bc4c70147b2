"""Rows of the policy grammar (`spec.grammar`) for the twenty-first round's policy notations.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a time said as a thing the step is given or capped at: "the export gets a 2-hour window and not
  a second longer", "a 90-second ceiling", "cap `fetch-rates` at 20 s", "give the scan 12 seconds;
  after that ..." (a fallback said after it): the attempt's time. "cap the wait at 60 s" stays a
  backoff's cap;
- "after the third failed try", "on the fifth failure", "fails a second time": the retries before it
  (one fewer than the ordinal);
- a wait series that starts at once: "straight away, then after 20 s, then after 1 min": 0 first;
- a wait series said one retry at a time: "resend after 2 minutes, again after 10 minutes, and a final
  time after 1 hour": the series, one retry each;
- "N hours is the most the whole sync may take": the whole run's limit;
- "must never be run a second time", "never to be tried twice": no retry;
- "no waiting in between", "no gap between goes": no wait between the retries;
- "hand the item to `skill`", "pass it over to `skill`": the fallback skill;
- "the feed has been hanging all week: cap it at 20 s, then 2 more goes": what has been going on, said
  before a colon, is the reason, not the failures the retries are for (`colon_reason_spans`);
- "carry on with the original photo and resized set to false": only `resized` (`fields_of_list`);
- "carry on with the figures off the board: a_l 10, b_l 20, low false" (names and values after a
  colon, each `name value`): the value to go on with (`colon_pairs`).
"""

from __future__ import annotations

from typing import Any

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ORDINALS = (("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5), ("sixth", 6), ("seventh", 7), ("eighth", 8),
             ("ninth", 9), ("tenth", 10), ("2nd", 2), ("3rd", 3), ("4th", 4), ("5th", 5), ("6th", 6), ("7th", 7),
             ("8th", 8), ("9th", 9), ("10th", 10))
_TRY = r"(?:try|attempt|go|run|call|shot|pass|send|submission|upload|push)"


def _ordinal_rows() -> tuple[Row, ...]:
    rows: list[Row] = []
    for word, n in _ORDINALS:
        # "after the fourth failed try", "on the third failure", "once the 5th attempt has failed"
        # ("no retry after the third failure" is read by an earlier round's row: the count before it)
        rows.append(Row("retries", rf"(?<!\w)(?<!retry\s)(?<!retries\s)(?<!again\s)(?:after|on|at|with|following)\s+(?:the\s+|a\s+)?{word}\s+(?:(?:failed|failing|"
                                   rf"unsuccessful|bad|dead)\s+{_TRY}|failure|fail|miss|error|timeout|time-?out)\b", value=n - 1))
        rows.append(Row("retries", rf"(?<!\w)once\s+the\s+{word}\s+{_TRY}\s+(?:has\s+|have\s+)?(?:failed|died|errored|timed\s+out)\b",
                        value=n - 1))
        # "if it fails a third time", "when it errors for the 4th time"
        rows.append(Row("retries", rf"(?<!\w)(?:fails?|failed|errors?|errored|dies|died|breaks?|times?\s+out|timed\s+out)\s+"
                                   rf"(?:for\s+)?(?:a|the)\s+{word}\s+time\b", value=n - 1))
    return tuple(rows)


_NOW = r"(?:straight\s+away|right\s+away|immediately|at\s+once|instantly|directly|without\s+(?:a\s+)?wait(?:ing)?)"
_AFTER = r"(?:(?:after|in|wait(?:ing)?|pause|give\s+it)\s+(?:another\s+)?)?"

EARLY: tuple[Row, ...] = (
    *_ordinal_rows(),
    # "three retries - straight away, then after 30 s, then after 2 min": 0 s first
    Row("wait_seq", rf"(?<!\w)(?P<nseq>{_NOW}\s*+,?\s*+(?:and\s+)?then\s+{_AFTER}{{D}}(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?"
        rf"{_AFTER}{{D}}){{0,6}}+)", needs=r"{RETRY}|chances?|goes|tries|attempts|shots|again"),
    # "resend after 2 minutes, again after 10 minutes, and a final time after 1 hour": one retry each
    Row("wait_seq", r"(?<!\w)(?:after|in)\s+(?P<seq>{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:again|once\s+more)\s+(?:after|in)\s+{D}"
        r"(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:again|once\s+more)\s+(?:after|in)\s+{D}){0,4}+(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?"
        r"(?:a|one)\s+(?:final|last|third|fourth)\s+(?:time|go|try|attempt)\s+(?:after|in)\s+{D})?)"),
    # "gets a 3-hour window and not a minute more", "is allowed a 20-minute slot": the attempt's time ("the whole run
    # has a 10 minute ceiling" is left to the whole run's rows)
    Row("timeout", r"(?<!\w)(?:gets?|has|have|is\s+given|is\s+allowed|allowed|given|allow\s+(?:it|them))\s+(?:a|an|one)\s+{D}\s+"
        r"(?:budget|window|allowance|slot|time\s*-?box)\b(?!\s+(?:for|of)\s+(?:the\s+)?(?:retr|re-?tr|tries|"
        r"attempts|waits|whole|entire))(?:\s*+,?\s*+and\s+not\s+(?:a|one|1)\s+(?:single\s+)?(?:second|minute|moment|hour|day|"
        r"tick)s?\s+(?:more|longer|over)\b)?"),
    # "and a 40-second ceiling", "a 2 min cut-off": the attempt's time (not "up to a ceiling of", a backoff's cap)
    Row("timeout", r"(?:^|(?<=[,;:(])|(?<=\band\s)|(?<=\bwith\s)|(?<=\bplus\s))\s*+(?:a|an)\s+{D}\s+(?:ceiling|cap|cut-?off|"
        r"hard\s+limit|time\s*-?limit|limit|deadline)\b(?!\s+(?:on|for|of)\s+(?:the\s+)?(?:wait|delay|gap|pause|back-?off|retr|"
        r"whole|entire))", needs=r"(?<!\w)(?:no|not|never|don'?t|without)\b|^\W*(?:a|an)\s"),
    # "cap read-metar at 20 s", "cap each call at 5 min": the attempt's time ("cap the wait at 60 s" is no timeout)
    Row("timeout", r"(?<!\w)cap\s+(?!(?:the\s+|each\s+|every\s+)?(?:wait|delay|gap|pause|back-?off|interval|sleep|retr|tries|attempts|"
        r"whole|entire|total|run\b))(?:`[\w./-]{1,60}+`|[\w-]{1,40}+(?:\s+[\w-]{1,30}+)?|it|them|(?:each|every)\s+[\w-]{1,30}+)"
        r"\s+at\s+{D}"),
    # "give the barcode scan 12 seconds; after that, hand it to `x`": the attempt's time, a fallback said after it
    Row("timeout", r"(?<!\w)give\s+(?:the\s+|each\s+|every\s+|this\s+|that\s+|it\s+)?(?:[\w-]{1,30}+\s+){0,3}?{D}(?=\s*+"
        r"[;,:\u2013\u2014-]\s*+(?:and\s+)?(?:after\s+(?:that|which)|past\s+(?:that|which)|beyond\s+(?:that|which)|then)\b)",
        needs=r"`[\w./-]{1,60}+`|fall\s*back|hand|pass|switch|route|give\s+up|fail|stop|abort|kill|escalat"),
    # "Two hours is the most this whole sync may take": the whole run's limit
    Row("run_timeout", r"(?<!\w){D}\s+is\s+(?:the\s+)?(?:most|longest|max(?:imum)?|limit|cap|ceiling|all)\b",
        needs=r"(?<!\w)(?:whole|entire|overall|end[- ]to[- ]end|start\s+to\s+finish|all\s+told|in\s+total)\b"),
    # "must never be attempted a second time", "is never to be run twice": no retry
    Row("no_retry", r"(?<!\w)(?:never|not\s+ever|not)\s+(?:to\s+)?be\s+(?:attempted|tried|run|re-?run|done|sent|submitted|posted|"
        r"started|fired|issued|executed|called)\s+(?:a\s+second\s+time|twice|again|more\s+than\s+once|a\s+2nd\s+time)\b"),
    # "no waiting in between", "no gap between goes": no wait
    Row("wait_none", r"(?<!\w)no\s+(?:waiting|pausing|sleeping|delaying|gap|gaps|breather|let-?up)(?:\s+(?:in\s+)?between"
        r"(?:\s+(?:them|goes|tries|attempts|retries|the\s+(?:goes|tries|attempts|retries)))?)?\b"),
    # "hand the item to `manual-entry`", "pass it over to `backup-geocoder`": the fallback skill
    Row("use_skill", r"(?<!\w)(?:hand|pass|give|send|kick|punt|route)\s+(?:the\s+[\w-]{1,30}+|it|them|this|that|the\s+job|the\s+lot)"
        r"\s+(?:over\s+|across\s+|off\s+)?to\s+`(?P<name>[\w.-]{1,60}+)`(?:\s+instead)?",
        needs=r"(?<!\w)(?:fail\w*|error\w*|break\w*|broke|broken|crash\w*|down|dies|died|dead|after\s+(?:that|which)|"
              r"past\s+(?:that|which)|otherwise|time[sd]?\s*-?out|timed\s+out|no\s+(?:luck|answer)|gives?\s+up|stuck)\b"),
    # "carry on with the board figures: a_l 5200, b_l 2600, low false": names and values after a colon
    Row("value_pairs", r"(?<=:)\s*+(?P<cpairs>[a-z_]\w{0,40}+\s+[\w\"'-]{1,40}+(?:\.\d{1,6}+)?(?:\s*+,\s*+(?:and\s+)?"
        r"[a-z_]\w{0,40}+\s+[\w\"'-]{1,40}+(?:\.\d{1,6}+)?){1,12}+)",
        needs=r"(?:carry\s+on|continue|keep\s+going|go\s+on|move\s+on|proceed|press\s+on)\s+(?:with|using|on)\s+[^:;.]{1,80}+:"),
)

IGNORE: tuple[Row, ...] = (
    Row("ignore", r"(?<!\w)instead(?=\s*+:)"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d(?:st|nd|rd|th)|straight|right|immediately|"
             r"at\s+once|instantly|directly|without|again|once|gets?|has|have|given|allow|ceiling|cap|cut-?off|limit|deadline|"
             r"give|most|longest|never|not|no\s|hand|pass|send|kick|punt|route|carry|continue|keep|go|move|proceed|press",
    "IGNORE": r"|not|instead",
}

_NOW_WORD = _rx(r"(?i)^\s*+" + _NOW)
_SPLIT = _rx(r"(?i)(?<!\s)\s*+,\s*+|(?<!\s)\s++(?:and\s+)?then\s++|(?<!\s)\s++and\s++")
_PAIR = _rx(r"(?i)^(?:and\s+)?([a-z_]\w{0,40}+)\s+([\w\"'-]{1,40}+(?:\.\d{1,6}+)?)$")


def now_series(said: str, duration: Any) -> tuple[float, ...] | None:
    """The waits of a series that starts at once ("straight away, then after 30 s, then after 2 min"
    -> (0, 30, 120)); `duration` reads one duration (`phrase_value.duration`). None when a part is no wait."""
    out: list[float] = []
    for part in _SPLIT.split(said):
        if not part.strip():
            continue
        if _NOW_WORD.match(part):
            out.append(0.0)
            continue
        seconds = duration(part)
        if seconds is None:
            return None
        out.append(float(seconds))
    return tuple(out) if len(out) >= 2 else None


def colon_pairs(said: str, literal: Any) -> dict[str, Any] | None:
    """Each `name value` of "a_l 5200, b_l 2600, low false" ({a_l: 5200, b_l: 2600, low: False});
    `literal` reads one value (`phrase_value.json_literal`). None when a part is no `name value`."""
    out: dict[str, Any] = {}
    for part in said.split(","):
        m = _PAIR.match(part.strip())
        if m is None:
            return None
        found, value = literal(m.group(2))
        out[m.group(1)] = value if found else m.group(2).strip("\"'")
    return out or None


# the word before a list of fields that starts the list ("carry on with image and ..."); any other word
# ("with the original image and resized set to false") makes the first name the end of a noun phrase
_LIST_START = _rx(r"(?i)(?:^|[,;:(]|(?<!\s)\s|(?<![\w-])(?:with|using|set|mark|put|make|leave|use|and|then|flag|keep|default|"
                  r"record|treat|both|all|on|to|plus|also))\s*+$")


def fields_of_list(names: list[str], before: str, said: str) -> list[str]:
    """The fields a value is set to ("image and resized set to false" after "the original": only
    `resized`): the first name is dropped when it ends a noun phrase of words before it (an article,
    an adjective) and is no field's name (no `_`, no backticks), and an "and" joins it to the next."""
    if len(names) < 2 or "_" in names[0] or "/" in said.split(" and ", 1)[0] or " and " not in said:
        return names
    words = before.rstrip().split()
    if not words or _LIST_START.search(" " + words[-1]) is not None:
        return names
    return names[1:]


# "The feed has been hanging all week: cap it at 20 s, then ...": what has been happening, said as the
# reason before a colon, is no failure class of the policy after it
_COLON_REASON = _rx(r"(?i)^[^:;.!?]{0,160}?(?<!\w)(?:has|have|'s|'ve)\s+been\s+(?:[\w'-]{1,30}+\s+){0,2}?[\w'-]{1,30}+(?<=ing)\b"
                    r"[^:;.!?]{0,80}+:")
_COLON_CONDITION = _rx(r"(?i)(?<!\w)(?:if|when|whenever|unless|should|in\s+case)\b")


def colon_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` opens with what has been going on as its reason, up to a colon ("the feed has been
    hanging all week:"): no failure class for what follows. "If it has been hanging:" keeps its own."""
    m = _COLON_REASON.match(text)
    if m is None or _COLON_CONDITION.search(m.group(0)) is not None:
        return []
    return [m.span()]


_rx.save()
