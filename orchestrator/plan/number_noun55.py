"""A number said right before a noun is the noun's (fifty-fifth round): "total flour + 3 ovens" gives `ovens` the 3,
never `flour_kg` (whose word "flour" is as near, but on the number's other side).

`literal_units.number_owner` asks this first: when the word right after the number is a word of exactly one of the
names a skill reads (its plural or singular alike: "2 trays" for `tray_count`, "4 pallets" for `pallets`), the number
is that name's. A word of two of the names, or of none ("3 sacks" when nothing reads sacks), says nothing here and
the nearest-word reading decides as before; a word that bounds or counts ("min", "max", "total") is no noun.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# words that bound or count a name's noun, never the noun itself: "99.5 · max 2 risky" is no number of `max_risky`'s
_QUALIFIERS = frozenset({"min", "max", "minimum", "maximum", "total", "num", "number", "count", "per"})


def _words(name: str) -> set[str]:
    return {w for w in name.lower().split("_") if len(w) >= 3 and w not in _QUALIFIERS}


def noun_owner(lower: Sequence[str], at: int, names: Iterable[str]) -> str | None:
    """Of `names`, the one whose word is the word right after the number at `lower[at]`, or None (module docstring)."""
    if at + 1 >= len(lower):
        return None
    noun = lower[at + 1]
    forms = {noun, noun[:-1] if noun.endswith("s") else noun + "s"}
    owners = [n for n in dict.fromkeys(names) if _words(n) & forms]
    return owners[0] if len(owners) == 1 else None
