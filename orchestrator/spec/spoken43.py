"""A sentence said aloud, as a transcript writes it: its timestamps, its "uh"s and its amounts in words.

    Okafor has to [01:50] okay it before we book.        -> Okafor has to okay it before we book.
    so give her, uh, six hours                           -> so give her six hours
    if the quote's over eight hundred dollars            -> if the quote's over 800 dollars
    when the bill is above two thousand five hundred     -> when the bill is above 2500
    twelve hundred euros · a thousand pounds · fifty dollars

A voice memo's transcript puts a timestamp where the speaker paused, in the middle of a sentence
("has to [01:50] okay it"), and keeps the fillers ("give her, uh, six hours"). `unspoken` takes
both out, so the readers of an approval see the sentence as said (`step.StepReader._condition`);
a timestamp is a bracketed `m:ss` / `mm:ss` / `h:mm:ss` (a second's fraction allowed), a filler
"uh", "um", "er", "erm" or "you know" set off by commas or dashes. Nothing else changes: a time
of day in words or a bracketed note stays.

An amount said in words is digits in a condition (`spoken_amounts`, asked by
`condition.read_condition`): number words with "hundred", "thousand" or "million" in them
("eight hundred", "two thousand five hundred", "twelve hundred", "a thousand"), and a plain
number word right before a currency or a percent ("fifty dollars", "ten percent"). A count said
with a small number word ("more than three puddles") is left to `gate_count`.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "[01:50]", "[1:02:33]", "[00:12.5]": a transcript's timestamp, with the space before it
_STAMP = _rx(r"(?<!\s)\s*+\[\d{1,2}+:\d{2}+(?::\d{2}+)?+(?:\.\d{1,3}+)?+\]")
# ", uh," / " — um — " / ", you know,": a filler between commas or dashes (the commas go with it)
_FILLER = _rx(r"(?i)(?<!\s)\s*+[,—–]\s*+(?:uh+|um+|umm+|er|erm|uhm|you\s++know)\s*+[,—–](?=\s)")

_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
# a run of number words (hyphens, "and" and "a" between them), not inside a longer word
_RUN = _rx(rf"(?i)(?<![\w-])(?:an?\s++)?(?:{_WORD})(?:(?:\s++and\s++|[\s-]++)(?:{_WORD}))*+(?![\w-])")
_MONEY_AFTER = _rx(r"(?i)\s++(?:dollars?|euros?|pounds?|quid|bucks|usd|eur|gbp|chf|percent|per\s++cent|%)(?![\w-])")


def unspoken(sentence: str) -> str:
    """The sentence without a transcript's timestamps and fillers (module docstring)."""
    if "[" not in sentence and not re.search(r"(?i)\b(?:uh|um|er|erm|uhm|you\s+know)\b", sentence):
        return sentence
    text = _STAMP.sub("", sentence).strip()
    return " ".join(_FILLER.sub("", text).split())


def _value(words: list[str]) -> int | None:
    """The number the words say ("two thousand five hundred": 2500, "twelve hundred": 1200); None when
    they are not one number (two units in a row: "one two")."""
    total, current, last = 0, 0, ""
    for w in words:
        if w in ("a", "an"):
            current = current or 1
            last = "unit"
        elif w in _UNITS:
            if last in ("unit", "teen") or (last == "tens" and _UNITS[w] >= 10):
                return None
            current += _UNITS[w]
            last = "unit" if _UNITS[w] < 10 else "teen"
        elif w in _TENS:
            if last in ("unit", "teen", "tens"):
                return None
            current += _TENS[w]
            last = "tens"
        elif w == "hundred":
            current = (current or 1) * 100
            last = "hundred"
        else:  # thousand, million
            total += (current or 1) * _SCALES[w]
            current, last = 0, "scale"
    return total + current


def spoken_amounts(text: str) -> str:
    """The text with its amounts in words as digits (module docstring); as it was when it says none."""
    out: list[str] = []
    last = 0
    for m in _RUN.finditer(text):
        words = [w for w in re.split(r"[\s-]+", m.group(0).lower()) if w and w != "and"]
        scaled = any(w in _SCALES for w in words)
        if not scaled and (_MONEY_AFTER.match(text, m.end()) is None or words[0] in ("a", "an")):
            continue  # "more than three puddles": a count, `gate_count`'s
        value = _value(words)
        if value is None:
            continue
        out += [text[last:m.start()], str(value)]
        last = m.end()
    return "".join(out) + text[last:] if out else text


_rx.save()
