"""Differential fuzzing of a rewritten regular expression against the one it replaces (issue 25:
a pattern made linear must find what it found before). Used by `test_regex_same`.

    texts(pattern, count, seed)     [str]: random and adversarial inputs built from the
                                    pattern's own words, numbers, units, separators and blanks
    differences(old, new, inputs)   [(text, old result, new result)]: where they disagree

A result is every match `finditer` finds, each as its span and its groups (or, for a pattern
the code only matches at the start, the one `match` result): the same spans and groups on
every input, or a difference to show.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

_PIECES = (
    "0", "1", "2", "25", "1.5", "3.", ".5", "1s", "5 s", "2.5s", "10ms", "007", "12345", "s", "ms", "m", "min", "mins", "h", "hours", "d", "sec",
    "seconds", "minute", "x", "times", "tries", ",", ", ", " then ", ", then ", " and ", ", and ", "/", " / ",
    "..", "->", "→", "=>", "+", "-", " - ", "(", ")", "`", "'", '"', ".", ";", ":", "=", "!", "?", "'s", "_",
    "*", "{", "}", "${", "${{", "}}", "$(", "$", "a", "an", "the", "it", "é", "\u00a0", "\x00",
)
_BLANKS = ("", " ", " ", " ", "  ", "\t", "\n", "   ", " \t ")
Result = object


def _words(pattern: str) -> list[str]:
    """The letter runs a pattern spells (`(?:delay|wait)` gives delay and wait), to build inputs
    the pattern can get far into."""
    plain = re.sub(r"\\[a-zA-Z]", " ", pattern)  # `\s`, `\b`, `\d`: not words
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", plain)} | {"a", "s"})


def texts(pattern: str, count: int, seed: int = 0) -> list[str]:
    """`count` inputs: random strings of the pattern's words and `_PIECES` with random blanks,
    and each of them again with one piece repeated many times (a run); a third of them short
    strings of single characters (digits, blanks, the pattern's letters and punctuation), where
    the odd corners are (`1.5.3s`, `+ 2`, `a  -> b`)."""
    rng = random.Random(seed)
    words = _words(pattern)
    pool = [*words, *words, *_PIECES]
    letters = sorted(set("".join(words)) | set("0123456789 .,+-/()`:>=→$_{}\t\n"))
    out: list[str] = []
    while len(out) < count:
        if rng.random() < 0.33:
            out.append("".join(rng.choice(letters) for _ in range(rng.randint(1, 16))))
            continue
        parts = [rng.choice(pool) + rng.choice(_BLANKS) for _ in range(rng.randint(1, 14))]
        text = "".join(parts)
        if rng.random() < 0.2:
            text = text.capitalize() if rng.random() < 0.5 else text.upper()
        out.append(text)
        if rng.random() < 0.15:
            at = rng.randrange(len(parts))
            out.append("".join(parts[:at]) + parts[at] * rng.randint(2, 40) + "".join(parts[at + 1:]))
    return out[:count]


def _all(regex: re.Pattern[str], text: str) -> Result:
    return [(m.span(), m.groups()) for m in regex.finditer(text)]


def _start(regex: re.Pattern[str], text: str) -> Result:
    m = regex.match(text)
    return None if m is None else (m.span(), m.groups())


def differences(old: re.Pattern[str], new: re.Pattern[str] | Callable[[str], Result], inputs: list[str],
                anchored: bool = False) -> list[tuple[str, Result, Result]]:
    """The inputs on which `new` (a pattern, or a function giving a result for a text) finds
    other spans or groups than `old`."""
    run = _start if anchored else _all
    found: list[tuple[str, Result, Result]] = []
    for text in inputs:
        before = run(old, text)
        after = new(text) if callable(new) and not isinstance(new, re.Pattern) else run(new, text)
        if before != after:
            found.append((text, before, after))
    return found
