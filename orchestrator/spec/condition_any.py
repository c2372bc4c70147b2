"""A condition that asks whether any item is of a kind, read as a count of that kind above zero.

    "if any swap is a high-alert drug"        ->  high_alert_drug_count > 0   (placed on `high_alert_count`)
    "if any of the rooms are double-booked"   ->  double_booked_count > 0
    "when any sample is a repeat"             ->  repeat_count > 0

People ask about the items of a list by their kind; the step before usually says how many of that
kind it found (`high_alert_count`). The clause is read as the count of the kind's words, and the
planner places it on the one count field whose words are all among them (`plan.count_field`). It
is a guess, so the plan says how it was read and warns; with no such field the condition names no
value and is reported as any other such condition is.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ANY_IS = _rx(r"(?i)^\W*+(?:if\s++|when\s++)?+any\s++(?:of\s++(?:the|its|their)\s++)?(?P<item>[A-Za-z][\w-]*+"
              r"(?:\s++[A-Za-z][\w-]*+)?)\s++(?:is|are)\s++(?:an?\s++)?(?P<kind>[A-Za-z][\w-]*+(?:\s++[A-Za-z][\w-]*+)"
              r"{0,2}+)\s*+(?:\([^()]{0,200}+\)?)?[\s.]*+$")
_WORD = _rx(r"[A-Za-z][A-Za-z0-9]*+")


def any_of_kind(text: str) -> tuple[tuple[str, ...], str] | None:
    """(the count's subject words, how it was read) for "any X is a Y", else None."""
    m = _ANY_IS.match(text)
    if m is None or m.group("kind").lower() in ("empty", "missing", "blank", "null", "none", "set", "present"):
        return None
    words = tuple(w.lower() for w in _WORD.findall(m.group("kind")))
    if words[-1].endswith("s") and not words[-1].endswith("ss"):
        words = (*words[:-1], words[-1][:-1])
    note = (f"'{text.strip()[:80]}' is read as a count of {' '.join(words)} above 0 (the count field of the step "
            "that lists them); to say so plainly write `FIELD_count > 0`")
    return (*words, "count"), note


_rx.save()
