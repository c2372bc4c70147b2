"""The waits of a list said one retry at a time, in the order they are written.

`spec.grammar_families15` finds sentences that give a wait before each retry ("re-run #1 after
5 min, re-run #2 after 20", "retry after 1 min, again after 3, a last time after 10", "10 s before
the first retry, 40 s before the second"); this module reads the times out of the matched words
for `spec.phrase_value`:

    waits_in_order("5 min, re-run #2 after 20") → (300, 1200)

Each amount is a wait; one written without a unit takes the unit before it (or, first of all,
the unit after it); a retry's number (`#2`) and an ordinal (`1st`) are no waits.
"""

from __future__ import annotations

import re

from orchestrator.spec import grammar as g
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_AMOUNT = _rx(rf"(?<![\w#.])(?P<n>\d{{1,9}}+(?:\.\d{{1,6}}+)?+)(?:\s*+(?:-\s*+)?(?P<unit>{g.UNITS}|{g.LONG_UNITS})(?![a-z])|(?![\w.]))",
              re.I)


def _seconds(unit: str) -> float | None:
    word = unit.lower()
    return g.UNIT_SECONDS.get(word) or g.UNIT_SECONDS.get(word.rstrip("s"))


def waits_in_order(text: str) -> tuple[float, ...]:
    """Every wait in `text`, in order (module docstring); () when a bare number has no unit to take."""
    found = [(float(m.group("n")), _seconds(m.group("unit")) if m.group("unit") else None) for m in _AMOUNT.finditer(text)]
    out: list[float] = []
    unit = next((size for _, size in found if size is not None), None)  # a first bare amount takes the next unit
    for amount, size in found:
        unit = size if size is not None else unit
        if unit is None:
            return ()
        out.append(amount * unit)
    return tuple(out)


_rx.save()
