"""An input the step's text lists as a thing of its own is never given the one other value it names.

    2. Post with `post`: the season label, the counts and the flagged rows.
        `post` reads `season`, which nothing gives; `flagged` is the one other value the text names:
        "the season label" and "the flagged rows" are two things of one list, so `season` is not given
        `flagged` (it is left unbound, and the planner says so at the step)
    - Refund with `issue-refund` (order # from the facts, amount = full `order_total`)
        "amount = full order_total" names both in one part: `amount` is given `order_total` as before
    Needs sailing ref, vessel, and the filing ref from card 4
        "the filing ref from card 4" names `filing_ref` and `ref` together: as before

The step's text is split into the parts of its lists (at sentence stops, commas, semicolons, "and",
"plus", "+", "&"). The input is kept apart from the value when some part names the input and not the
value, another names the value and not the input, and no part names both: a part that names both
("amount = order_total", "`price_list` as the spec", "the filing ref from card 4") says how they go
together. One pass over the text; the split pattern is bounded.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.plan.wanted import mentioned
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PARTS = _rx(r"(?i)[.;!?](?=\s|$)|,|\s(?:and|plus)\s|\s[+&]\s")


def kept_apart(texts: Iterable[str], wanted: str, given: str) -> bool:
    """The step's texts list `wanted` (an input's own words) and `given` (the other value) as two things (module
    docstring)."""
    alone_wanted = alone_given = False
    for part in (p for text in texts for p in _PARTS.split(text)):
        has = mentioned(part, [wanted, given])
        if len(has) == 2:
            return False
        alone_wanted |= has == [wanted]
        alone_given |= has == [given]
    return alone_wanted and alone_given


_rx.save()
