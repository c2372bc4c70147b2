"""A name given beside a skill input's name at the end of a clause of the step's text, read as that input's value.

    Okay so first, pull-bookings, give it the week and tuner Maggie, it gives you the visits.   -> tuner: "Maggie"
    Run rota-build for the depot and driver Okafor.                                            -> driver: "Okafor"

A step's skill may read a name (`tuner`) that nothing gives. When a clause of the step's own text (a sentence or a
part of one between commas and semicolons) ends with that name's word(s) followed by one or two capitalised words
(a person's or a place's name: "Maggie", "Port Talbot"), those words are the step's literal, warned at the step's
line (`plan.literal_said` does the same for a number). A capitalised word that is not at the clause's end ("tuner
Maggie will ring you") or is a sentence's own first word, "I", or a skill's name is not read.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

__all__ = ["name_said", "named_value"]

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CLAUSE = _rx(r"[.!?;][ \t\n]++|,[ \t\n]++|\n[ \t]*+\n|\band\b")
_VALUE = _rx(r"^[A-Z][a-z]{1,30}+(?:[ \t]++[A-Z][a-z]{1,30}+)?+$")
_NOT_NAMES = frozenset({"I", "If", "The", "Then", "It", "And", "But", "Okay", "Ok", "So", "Monday", "Tuesday",
                        "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Step"})


def name_said(name: str, text: str) -> str | None:
    """The capitalised name `text` gives right after the input `name`'s words at a clause's end (module docstring)."""
    words = [w for w in name.lower().split("_") if w]
    if not words:
        return None
    found: set[str] = set()
    for clause in _CLAUSE.split(text[:4000]):
        tokens = clause.split()
        for i in range(len(tokens) - len(words)):
            if [t.lower() for t in tokens[i:i + len(words)]] != words:
                continue
            rest = tokens[i + len(words):]
            value = " ".join(rest).strip(" .!?")
            if 1 <= len(rest) <= 2 and _VALUE.match(value) and rest[0] not in _NOT_NAMES:
                found.add(value)
    return next(iter(found)) if len(found) == 1 else None


def named_value(name: str, text: str) -> tuple[str, str] | None:
    """(the value, the words that say it) for `name_said`, in the shape the step's other value readers give."""
    said = name_said(name, text)
    return (said, f"{name.replace('_', ' ')} {said}") if said is not None else None


_rx.save()
