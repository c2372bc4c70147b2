"""A count in words followed by what the counted things do: "more than 20 kids going".

    more than 20 kids going          -> more than 20 kids
    over 5 orders waiting            -> over 5 orders
    fewer than 3 people signed up    -> fewer than 3 people
    at least 2 helpers coming along  -> at least 2 helpers

The comparison reader (`spec.condition`) reads a count of a plural noun when the noun ends the
condition. Here the words after the noun that only say what the counted things are doing (a word
in -ing or -ed, or "left", "there", "in total", "signed up", "on the list") are cut, so the count
is read; `trim_count_tail` gives the shorter condition, or None when the text is not of that shape
(a number with a unit, "over 20 kg of flour", is not cut: "of" is no doing word).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COUNT = (r"(?:(?:more|fewer|less)\s++than|over|under|at\s++(?:least|most)|above|below)\s++\d{1,9}+"
          r"|\d{1,9}+\s++or\s++(?:more|fewer|less)")
_TAIL = _rx(rf"(?i)^(?P<head>(?:[^\n]{{0,80}}?\s)?(?:{_COUNT})\s++(?P<noun>[a-z][a-z-]{{1,30}}+))"
            r"(?P<tail>(?:\s++[a-z]{1,20}+){1,3}+)\s*+[.!]?$")
_PLURAL_ODD = frozenset({"people", "children", "staff", "men", "women", "sheep", "data"})
_DOING_WORDS = frozenset({"left", "there", "total", "signed", "booked", "enrolled", "registered", "present"})
_AFTER_WORDS = frozenset({"along", "up", "in", "out", "today", "together", "on", "the", "list", "trip", "bus",
                          "register", "rota", "total"})


def _doing(word: str) -> bool:
    w = word.lower()
    return w in _DOING_WORDS or (len(w) > 4 and w.endswith(("ing", "ed")))


def trim_count_tail(text: str) -> str | None:
    """The condition without the doing words after its counted noun (module docstring), or None."""
    m = _TAIL.match(" ".join(text.split()))
    if m is None:
        return None
    noun = m.group("noun").lower()
    if not (noun in _PLURAL_ODD or (noun.endswith("s") and not noun.endswith("ss"))):
        return None
    first, *rest = m.group("tail").split()
    if not (_doing(first) or (first.lower() in ("on", "in") and rest)) or not all(_doing(w) or w.lower() in _AFTER_WORDS for w in rest):
        return None
    return m.group("head")


_rx.save()
