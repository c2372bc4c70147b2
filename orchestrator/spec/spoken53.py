"""A value to go on with said aloud: "carry on as if it said texted nought" (53rd round).

    And if it goes wrong just carry on as if it said texted nought     continue with {texted: 0}
    if it breaks, go on as though it came back count zero              continue with {count: 0}
    carry on as if it said sent none                                   not read here ("none" is no number)

After "as if it said" / "as though it came back" (`spec.as_if30`), an output of the step's skill followed by
a number - in digits, or one word spoken for it: "nought", "zero", "nil", "oh" (0), "one" .. "twenty",
"thirty" .. "ninety" - is that output's value, with no colon or "=" between. A name that is not one of the
skill's outputs, or a word that is no number, is not read here (the as-if reader goes on as before, and what
it does not read is warned by the policy reader). Patterns anchored and bounded.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WORDS = {"nought": 0, "naught": 0, "zero": 0, "nil": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4,
          "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
          "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
          "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
          "eighty": 80, "ninety": 90}
_PAIR = _rx(r"(?P<field>[A-Za-z_][\w]{0,40}+)[ \t]++(?P<value>-?\d{1,9}+(?:\.\d{1,6}+)?+|[A-Za-z]{2,9}+)(?![\w-]|\.\d)",
            re.IGNORECASE)


def spoken_number(word: str) -> int | None:
    """The number a single spoken word stands for ("nought" -> 0, "twelve" -> 12), else None."""
    return _WORDS.get(word.strip().lower())


def spoken_pair(text: str, start: int, outputs: frozenset[str] | None) -> tuple[str, int | float, int] | None:
    """(output, its number, where the pair ends) of "texted nought" at `start` when the name is one of `outputs`
    and the word after it a number (module docstring), else None."""
    if not outputs:
        return None
    m = _PAIR.match(text, start)
    if m is None or m.group("field") not in outputs:
        return None
    said = m.group("value")
    if said[:1].isdigit() or said[:1] == "-":
        return m.group("field"), (float(said) if "." in said else int(said)), m.end()
    number = spoken_number(said)
    return (m.group("field"), number, m.end()) if number is not None else None


_rx.save()
