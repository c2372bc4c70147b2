"""A condition on any one of many things changing by more than an amount: the largest change a step gives.

    If any room type moved more than 25% vs its base    step 4 gives max_change_pct   -> max_change_pct > 25
    when any price rose by more than 10%                step 2 gives largest_increase_pct -> largest_increase_pct > 10
    if any reading jumped over 3                        step 1 gives biggest_jump     -> biggest_jump > 3

"Any <thing> <moved / changed / rose / jumped / ...> more than N" holds when the largest of those
changes is over N. No step gives a value named by the words ("room type moved"); a step that works
the changes out gives their largest as `max_<change>` (or `largest_`, `biggest_`, `highest_`,
`greatest_`, `top_`), the change a noun of the verb ("moved" a change, a move or a delta; "rose" a
rise, an increase or a change; "jumped" a jump). A percentage said ("25%") takes that field's `_pct`
/ `_percent` form first. Only "more than" / "at least" (the largest over N is any over N), and only
when the condition says "any" (or "one of", "a single"): "the price moved more than 25%" is one
price's change, not the largest of many. A guess, warned with the field read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ANY = re.compile(r"(?i)(?<![\w-])(?:any|anything|one\s+of|a\s+single|at\s+least\s+one)(?![\w-])")
_PCT = re.compile(r"(?i)\d\s*(?:%|per\s*cent|percent|pct)(?![\w-])")
# the verbs of a change, and the nouns a step's field calls that change by
_NOUNS: dict[str, tuple[str, ...]] = {
    "moved": ("change", "move", "delta"), "changed": ("change", "delta"), "shifted": ("change", "shift", "delta"),
    "rose": ("rise", "increase", "change"), "risen": ("rise", "increase", "change"),
    "increased": ("increase", "rise", "change"), "grew": ("growth", "increase", "change"),
    "jumped": ("jump", "change"), "dropped": ("drop", "decrease", "change"), "fell": ("drop", "fall", "decrease", "change"),
    "decreased": ("decrease", "drop", "change"), "swung": ("swing", "change"), "varied": ("variance", "change"),
}
_LEADS = ("max", "largest", "biggest", "highest", "greatest", "top")
_OVER = frozenset({">", ">="})


def most_moved(subject: tuple[str, ...], op: str, value: object, said: str,
               resolve: Callable[[str], str | None]) -> str | None:
    """The largest change a step gives for "any <thing> <changed> more than N" (module docstring), as the
    path `resolve` gives it, or None."""
    if not subject or op not in _OVER or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    nouns = _NOUNS.get(subject[-1].lower())
    if nouns is None or _ANY.search(said) is None:
        return None
    tails = ("_pct", "_percent", "") if _PCT.search(said) else ("", "_pct", "_percent")
    for noun in nouns:
        for tail in tails:
            for lead in _LEADS:
                path = resolve(f"{lead}_{noun}{tail}")
                if path is not None:
                    return path
    return None
