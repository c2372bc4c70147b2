"""A value to go on with said as what to assume, named by the step's outputs (twenty-ninth round).

    museum site is sloooow - 2 mins max, then just assume 6.50 a head and that its open
        -> on failure the step's output is {price_per_head: 6.5, open: true}: the venue-quote skill
           gives `price_per_head` and `open`; "6.50 a head" is the number for the output that shares
           the word "head", "that its open" the output `open` set to true

People write the output to go on with as what they would assume, in their own words for each field:
"assume 0 cups and that it's closed" (a café's stock check: `cups`, `closed`), "just assume 3 nurses
on shift" (a ward rota: `nurses_on_shift`), "assume 120 a night and that it's available" (a booking:
`price_per_night`, `available`). Each part names one output of the step by a word of its name; a part
that names none, or names several, leaves the whole sentence unread (the policy reader's warning
stands). Only read when nothing else says the step's fallback. A number may follow "a" ("a 15 mm spine":
`spine_mm`, the unit a word of the name), a unit's short form stands for its word ("256 pp": `pages`),
and the going on that ends the sentence ("... and keep going") is no part of the value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "then just assume ...", "and assume ...": the words after it, to the sentence's end or a bracket
_ASSUME = _rx(r"(?i)(?<![\w-])(?:just\s++|simply\s++)?(?:assum(?:e|ing)|pretend(?:ing)?)\s++(?:that\s++)?(?P<rest>(?:[^.;()]|(?<=\d)\.(?=\d)){1,200}+)")
_PARTS = _rx(r"(?i)(?<!\s)(?:\s*+,\s*+(?:and\s++)?|\s++and\s++)")
# "6.50 a head", "3 nurses on shift", "£120 a night"
_NUMBER = _rx(r"(?i)^(?:(?:we|they|it)\s++(?:have|had|got|saw|found)\s++|there\s++(?:are|is|were|was)\s++)?(?:an?\s++)?[£$€]?"
              r"(?P<n>-?\d{1,9}+(?:\.\d{1,6}+)?+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\s++"
              r"(?P<words>[a-z][a-z\s-]{0,60}+)$")
_WORD_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10}
# the endings a word and an output's name may differ by ("closures" and `closed_days`, "bookings" and `booked`)
_ENDINGS = ("ures", "ure", "ings", "ing", "ies", "ied", "ed", "es", "s", "e")
# "that its open", "that it's closed", "it isn't full"
_STATE = _rx(r"(?i)^(?:that\s++)?(?:it'?s|it\s++is|they(?:'re|\s++are))\s++(?P<neg>not\s++)?(?P<word>[a-z][a-z-]{0,30}+)$"
             r"|^(?:that\s++)?it\s++isn'?t\s++(?P<word2>[a-z][a-z-]{0,30}+)$")
_SMALL = frozenset({"a", "an", "the", "per", "each", "of", "on", "in", "for", "we", "it", "its"})
# the going on that ends the sentence ("assume 256 pp and a 15 mm spine and keep going"): no part of the value
_GOING_ON = _rx(r"(?i)^(?:then\s++)?(?:keep\s++going|carry\s++on|move\s++on|go\s++on|continue|proceed|press\s++on)$")
# a unit's short form and the word an output's name spells it with ("256 pp" is `pages`)
_SHORT = {"pp": "pages", "pg": "page", "pgs": "pages", "qty": "quantity", "pcs": "pieces", "pkgs": "packages"}


def _named(words: str, names: Iterable[str]) -> str | None:
    """The one output whose name shares a word with `words` (small words aside), else None."""
    said = {_SHORT.get(w, w) for w in words.lower().replace("-", " ").split() if w not in _SMALL}
    hits = [n for n in names if said & {p for p in n.lower().split("_") if p not in _SMALL}]
    if not hits:  # "zero closures" for `closed_days`: the same stem, at least four letters
        stems = {_stem(w) for w in said} - {""}
        hits = [n for n in names if stems & {_stem(p) for p in n.lower().split("_") if p not in _SMALL}]
    return hits[0] if len(hits) == 1 else None


def _stem(word: str) -> str:
    """`word` without one ending of `_ENDINGS`, when four letters or more are left; "" when none is."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word if len(word) >= 4 else ""


def assumed_output(text: str, names: Iterable[str]) -> dict[str, Any] | None:
    """The output to go on with when `text` says what to assume, each part naming one of `names`
    (module docstring); None when it does not, or a part names no output or several."""
    m = _ASSUME.search(text)
    outputs = list(names)
    if m is None or not outputs:
        return None
    value: dict[str, Any] = {}
    for part in _PARTS.split(m.group("rest").strip()):
        part = part.strip()
        if not part or (_GOING_ON.match(part) is not None and value):
            continue
        if (num := _NUMBER.match(part)) is not None:
            name = _named(num.group("words"), outputs)
            if name is None or name in value:
                return None
            n = num.group("n")
            value[name] = _WORD_NUMBERS[n.lower()] if n.lower() in _WORD_NUMBERS else float(n) if "." in n else int(n)
        elif (state := _STATE.match(part)) is not None:
            word = (state.group("word") or state.group("word2")).lower()
            name = next((n for n in outputs if n.lower() in (word, f"is_{word}")), None)
            if name is None or name in value:
                return None
            value[name] = not (state.group("neg") or state.group("word2"))
        else:
            return None
    return value or None


# `name = words` in a sentence: a field set to something said in words ("to_withdraw = all the candidates' barcodes")
_SET = _rx(r"(?<![\w.])(?P<name>[A-Za-z_][A-Za-z0-9_]{0,40}+)\s*+=\s*+(?P<what>[^,;()=]{1,80}?)(?=\s*+(?:[,;()]|\band\b|\.(?:\s|$)|$))")


def unread_fields(text: str, value: Any, outputs: Iterable[str]) -> list[str]:
    """The `name = words` parts of `text` that set an output of the step the value to go on with does not
    hold ("to_withdraw = all the candidates' barcodes": earlier data, which a value to go on with cannot
    name), as written; empty when `value` is no object."""
    if not isinstance(value, dict):
        return []
    names = set(outputs)
    return [f"{m.group('name')} = {m.group('what').strip()}" for m in _SET.finditer(text)
            if m.group("name") in names and m.group("name") not in value]


_rx.save()
