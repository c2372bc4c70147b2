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

from orchestrator.spec.grammar import LONG_UNITS, NUMBER_WORDS, TYPOS, UNIT_SECONDS, UNITS, WORDS
from orchestrator.spec.regex_cache import compile_many

_COUNT_NOUNS = (rf"(?:{LONG_UNITS}|ms|s|m|h|times?|retries|retry|re-?tries|attempts?|tries|go(?:es)?|shots?|more|additional|"
                r"extra|further|x\b|×)")
# compiled once per install, not per process (`spec.regex_cache`)
# the plain numbers (not "once", "a couple of"): one written alone after "then" in a series of waits
_CARDINALS = "|".join(w for w in sorted(NUMBER_WORDS, key=len, reverse=True)
                      if " " not in w and w not in ("once", "twice", "thrice", "single", "dozen", "hundred"))
_NUMBER_WORD, _HALF, _HALF_A, _ONE_UNIT, _QUOTED, _TYPO, _COMPOUND, _SERIES_WORD = compile_many("normalize", [
    (rf"\b(?!(?:once|twice|thrice|a\s+couple\s+more)\b)({WORDS})\b(?=\s*-?\s*{_COUNT_NOUNS})", re.I),
    (rf"\b(\d+(?:\.\d+)?|{WORDS})\s+and\s+a\s+half\s+({LONG_UNITS})\b", re.I),
    (rf"\b(half|(?:a\s+|one\s+)?quarter\s+of|three\s+quarters\s+of)\s+an?\s+({LONG_UNITS})\b", re.I),
    (rf"\b(?:an?|another|one)\s+({LONG_UNITS})\b(?!\s+(?:chance|try|attempt|go|shot|time|thought))", re.I),
    (r"`[^`]*`|\"[^\"]*\"", 0),
    (r"\b(" + "|".join(sorted(map(re.escape, TYPOS), key=len, reverse=True)) + r")\b", re.I),
    (rf"\b(\d+(?:\.\d+)?)\s*({UNITS})(?![a-z])\s*(?:and\s+)?(\d+(?:\.\d+)?)\s*({UNITS})(?![a-z])", re.I),
    # "wait 1 minute, then two, then five": each word after "then" follows a number already written as one
    (rf"(?<=\d)([^.;]{{0,30}}?\bthen\s+)({_CARDINALS})\b(?=\s*(?:,|;|\.|\bthen\b|\band\b|\bbetween\b|\bapart\b|$))", re.I),
])


# "half an hour", "a quarter of an hour", "three quarters of an hour": the fraction of the unit
_FRACTION = {"half": 0.5, "a": 0.25, "one": 0.25, "quarter": 0.25, "three": 0.75}


def _compound(m: re.Match[str]) -> str:
    """`1m30s` → `90 s`, when the second unit is the smaller (else two durations, left as they are)."""
    first, second = UNIT_SECONDS.get(m.group(2).lower()), UNIT_SECONDS.get(m.group(4).lower())
    if first is None or second is None or second >= first:
        return m.group(0)
    return f"{float(m.group(1)) * first + float(m.group(3)) * second:g} s"


def _digits(word: str) -> str:
    return str(NUMBER_WORDS.get(" ".join(word.lower().split()), word))


def _rewrite(text: str, where: list[int], regex: re.Pattern[str], fn: Callable[[re.Match[str]], str],
             keep: list[tuple[int, int]]) -> tuple[str, list[int]]:
    """`regex` replaced by `fn` in `text`, but not inside the `keep` spans; `where` maps each
    character to its place in the sentence as written, and is carried along."""
    out: list[str] = []
    places: list[int] = []
    last = 0
    for m in regex.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in keep):
            continue
        out.append(text[last:m.start()])
        places += where[last:m.start()]
        replacement = fn(m)
        span = where[m.start():m.end()] or [where[m.start() - 1] if m.start() else 0]
        out.append(replacement)
        last_char = len(replacement) - 1  # the replacement's ends map to the original's ends
        places += [span[-1] if i == last_char else span[min(i * len(span) // max(len(replacement), 1), len(span) - 1)]
                   for i in range(len(replacement))]
        last = m.end()
    out.append(text[last:])
    places += where[last:]
    return "".join(out), places


def normalize(text: str) -> tuple[str, list[int]]:
    """The sentence as the rows read it, and where each of its characters was written.

    Misspellings are read as meant (`TYPOS`); number words are written as digits:
    `three times` → `3 times`, `a minute` → `1 minute`, `half an hour` → `0.5 hour`, `a quarter of an hour` → `0.25 hour`,
    `two and a half minutes` → `2.5 minutes`, `1m30s` → `90 s`. Quoted and backticked
    text is left as written."""
    where = list(range(len(text)))
    steps: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
        (_TYPO, lambda m: TYPOS[m.group(1).lower()]),
        (_HALF, lambda m: f"{float(_digits(m.group(1))) + 0.5:g} {m.group(2)}"),
        (_HALF_A, lambda m: f"{_FRACTION[m.group(1).split()[0].lower()]:g} {m.group(2)}"),
        (_ONE_UNIT, lambda m: f"1 {m.group(1)}"),
        (_NUMBER_WORD, lambda m: _digits(m.group(1))),
        (_COMPOUND, _compound),
        (_SERIES_WORD, lambda m: m.group(1) + _digits(m.group(2))),
        (_SERIES_WORD, lambda m: m.group(1) + _digits(m.group(2))),  # the next "then" after the one just written
    ]
    for regex, fn in steps:
        keep = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
        text, where = _rewrite(text, where, regex, fn, keep)
    return text, where
