"""A sentence as the grammar's rows read it: misspellings mended, number words as digits.

    normalize("retyr three times, a minute apart") → ("retry 3 times, 1 minute apart", places)

`places` maps every character of the result to its place in the sentence as
written, so what a row read can be quoted back in the writer's own words. The
rows' patterns stay small because counts and durations reach them as digits
(`grammar.COUNT`, `grammar.DURATION`). Quoted and backticked text is left as
written: it is a value or a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from orchestrator.spec.engine_time import REWRITES as ENGINE_REWRITES
from orchestrator.spec.grammar import LONG_UNITS, NUMBER_WORDS, TYPOS, UNIT_SECONDS, UNITS, WORDS
from orchestrator.spec.grammar_families import REDO_NOUN
from orchestrator.spec.regex_cache import compile_many

_COUNT_NOUNS = (rf"(?:{LONG_UNITS}|ms|s|m|h|times?|retries|retry|re-?tries|attempts?|tries|go(?:es)?|shots?|more|additional|"
                rf"extra|further|x\b|×|{REDO_NOUN})")
_NUMBER_ROOT = (r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and)")
# compiled once per install, not per process (`spec.regex_cache`)
# the plain numbers (not "once", "a couple of"): one written alone after "then" in a series of waits
_CARDINALS = "|".join(w for w in sorted(NUMBER_WORDS, key=len, reverse=True)
                      if " " not in w and w not in ("once", "twice", "thrice", "single", "dozen", "hundred"))
(_NUMBER_WORD, _HALF, _HALF_A, _ONE_UNIT, _QUOTED, _TYPO, _COMPOUND, _SERIES_WORD, _LIST_WORD, _HALF_AFTER,
 _LABEL_WORD, _BOTH_WAYS) = compile_many("normalize", [
    # ("a couple of minutes" is a loose time: left as written, so `grammar`'s vague rows report it; "a couple
    # of minutes tops" is a cap, two)
    # ("a couple of goes" counts tries or retries: left as written, so `notation33` reports it)
    (rf"\b(?!(?:once|twice|thrice|a\s+couple\s+more)\b|a\s+couple\s+of\s+(?:goes|go|tries|attempts|shots|swings|stabs|"
     rf"bites|whacks|runs)\b|a\s+couple\s+of\s+(?:{LONG_UNITS})\b"
     rf"(?!\s*+,?\s*+(?:tops|max(?:imum)?|at\s+most|at\s+the\s+most)\b))({WORDS})\b"
     rf"(?=\s*-?\s*{_COUNT_NOUNS})", re.I),
    (rf"\b(\d+(?:\.\d+)?|{WORDS})\s+and\s+a\s+half\s+({LONG_UNITS})\b", re.I),
    # "half an hour", "half a minute", "every half minute", "a half-hour"
    (rf"\b(?:an?\s+)?(half|(?:a\s+|one\s+)?quarter\s+of|three\s+quarters\s+of)[\s-]+(?:an?\s+)?({LONG_UNITS})\b", re.I),
    (rf"\b(?:an?|another|one)\s+(?:full\s+|whole\s+|good\s+)?({LONG_UNITS})\b(?!\s+(?:chance|try|attempt|go|shot|time|thought|charge|call|request|run|payment|e-?mail|mail|message|copy|invoice|order|one|opinion|look|pass|round|version|instance|reminder|notice|pair|batch))", re.I),
    (r"`[^`]*`|\"[^\"]*\"", 0),
    (r"\b(" + "|".join(sorted(map(re.escape, TYPOS), key=len, reverse=True)) + r")\b", re.I),
    (rf"\b(\d+(?:\.\d+)?)\s*({UNITS})(?![a-z])\s*(?:and\s+)?(\d+(?:\.\d+)?)\s*({UNITS})(?![a-z])", re.I),
    # "wait 1 minute, then two, then five": each word after "then" follows a number already written as one
    (rf"(?<=\d)([^.;]{{0,30}}?(?:;\s*+)?\bthen\s+)({_CARDINALS})\b(?=\s*(?:,|;|\.|\bthen\b|\band\b|\bbetween\b|\bapart\b|$))", re.I),
    # "pausing one, two, then four minutes": the words of a list whose last number has the unit
    (rf"\b({_CARDINALS})\b(?=\s*(?:,|\band\b|\bthen\b)[^.;]{{0,40}}?\b\d+(?:\.\d+)?\s*(?:{LONG_UNITS}|{UNITS})\b)", re.I),
    # "an hour and a half", "an hour and a quarter" (after "an hour" is "1 hour"): the unit and that part of it
    (rf"(?<![\d.])(\d+(?:\.\d+)?)\s*+({LONG_UNITS})\s+and\s+(a\s+half|a\s+quarter|three\s+quarters)\b", re.I),
    # "Retries: a dozen", "max attempts = five": a count after its label, with no noun after it
    (rf"\b((?:max(?:imum)?[\s_-]+)?(?:retries|retry|attempts|tries)\s*+[:=]\s*+)(?!once|twice|thrice)({WORDS})\b", re.I),
    # "two (2) further times", "thirty (30) seconds": a number in words with its digits after it, as a contract writes it
    (rf"(?<![\w-])(?:{_NUMBER_ROOT}(?:[\s-]{_NUMBER_ROOT}){{0,3}})\s*+\(\s*+(\d{{1,9}}(?:\.\d{{1,6}})?)\s*+\)", re.I),
])


# "half an hour", "a quarter of an hour", "three quarters of an hour": the fraction of the unit
_FRACTION = {"half": 0.5, "a": 0.25, "one": 0.25, "quarter": 0.25, "three": 0.75}
_PART_AFTER = {"half": 0.5, "quarter": 0.25, "quarters": 0.75}  # "1 hour and a quarter": 1.25 hours


def _compound(m: re.Match[str]) -> str:
    """`1m30s` → `90 s`, when the second unit is the smaller (else two durations, left as they are)."""
    first, second = UNIT_SECONDS.get(m.group(2).lower()), UNIT_SECONDS.get(m.group(4).lower())
    if first is None or second is None or second >= first:
        return m.group(0)
    return f"{float(m.group(1)) * first + float(m.group(3)) * second:g} s"


def _digits(word: str) -> str:
    return str(NUMBER_WORDS.get(" ".join(word.lower().split()), word))


def _rewrite(text: str, where: list[int], ends: list[int], regex: re.Pattern[str],
             fn: Callable[[re.Match[str]], str], keep: list[tuple[int, int]]) -> tuple[str, list[int], list[int]]:
    """`regex` replaced by `fn` in `text`, but not inside the `keep` spans; `where` maps each
    character to where it starts in the sentence as written and `ends` to where it ends, and both
    are carried along: a replacement starts where the words it replaces start and ends where they
    end ("three" -> "3": the 3 is all of "three", so a quote of it is the whole word)."""
    out: list[str] = []
    places: list[int] = []
    closes: list[int] = []
    last = 0
    for m in regex.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in keep):
            continue
        out.append(text[last:m.start()])
        places += where[last:m.start()]
        closes += ends[last:m.start()]
        replacement = fn(m)
        span = where[m.start():m.end()] or [where[m.start() - 1] if m.start() else 0]
        tail = ends[m.start():m.end()] or [ends[m.start() - 1] if m.start() else 0]
        out.append(replacement)
        size = max(len(replacement), 1)
        places += [span[0] if i == 0 else span[min(i * len(span) // size, len(span) - 1)] for i in range(len(replacement))]
        closes += [tail[-1] if i == len(replacement) - 1 else tail[min(i * len(tail) // size, len(tail) - 1)]
                   for i in range(len(replacement))]
        last = m.end()
    out.append(text[last:])
    places += where[last:]
    closes += ends[last:]
    return "".join(out), places, closes


def normalize(text: str) -> tuple[str, list[int]]:
    """The sentence as the rows read it, and where each of its characters starts as written
    (`normalize_spans` gives where each ends too).

    Misspellings are read as meant (`TYPOS`); number words are written as digits:
    `three times` → `3 times`, `a minute` → `1 minute`, `half an hour` → `0.5 hour`, `a quarter of an hour` → `0.25 hour`,
    `two and a half minutes` → `2.5 minutes`, `an hour and a half` → `1.5 hour`, `half a minute` → `0.5 minute`,
    `Retries: a dozen` → `Retries: 12`, `1m30s` → `90 s`, `thirty (30) seconds` → `30 seconds`. Quoted and backticked
    text is left as written."""
    norm, where, _ = normalize_spans(text)
    return norm, where


def normalize_spans(text: str, names: re.Pattern[str] | None = None) -> tuple[str, list[int], list[int]]:
    """`normalize(text)`, with where each character of the result ends in the sentence as written:
    `text[where[i]:ends[j] + 1]` is what the result's `[i:j + 1]` says, in whole words. `names`
    finds the catalog's skill names written bare (`spec.named_skills.bare`): each is put in backticks."""
    where = list(range(len(text)))
    ends = list(range(len(text)))
    if names is not None:
        text, where, ends = _rewrite(text, where, ends, names, lambda m: f"`{m.group(0)}`", [])
    for regex, fn, in_quotes in ENGINE_REWRITES:  # `PT2M`, `R3/PT10S`, 02:00:00, retry_interval (`spec.engine_time`)
        keep = [] if in_quotes else [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
        text, where, ends = _rewrite(text, where, ends, regex, fn, keep)
    steps: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
        (_BOTH_WAYS, lambda m: m.group(1)),
        (_TYPO, lambda m: TYPOS[m.group(1).lower()]),
        (_HALF, lambda m: f"{float(_digits(m.group(1))) + 0.5:g} {m.group(2)}"),
        (_HALF_A, lambda m: f"{_FRACTION[m.group(1).split()[0].lower()]:g} {m.group(2)}"),
        (_ONE_UNIT, lambda m: f"1 {m.group(1)}"),
        (_NUMBER_WORD, lambda m: _digits(m.group(1))),
        (_HALF_AFTER, lambda m: f"{float(m.group(1)) + _PART_AFTER[m.group(3).split()[-1].lower()]:g} {m.group(2)}"),
        (_LABEL_WORD, lambda m: m.group(1) + _digits(m.group(2))),
        (_LIST_WORD, lambda m: _digits(m.group(1))),
        (_COMPOUND, _compound),
        (_SERIES_WORD, lambda m: m.group(1) + _digits(m.group(2))),
        (_SERIES_WORD, lambda m: m.group(1) + _digits(m.group(2))),  # the next "then" after the one just written
    ]
    for regex, fn in steps:
        keep = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
        text, where, ends = _rewrite(text, where, ends, regex, fn, keep)
    return text, where, ends
