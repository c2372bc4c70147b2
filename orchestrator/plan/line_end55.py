"""Where a skill's label list ends when the paragraph runs on past it (holdout37, every skill).

    Outputs: net_kg (number), grade (text A or B)
    Exits 2 (reason on stderr) when an input is missing or not the right type.

`bare_names` reads a label line's list over the paragraph's next lines; when the whole does not read
as names, the list ends at the end of an earlier line of it when: that much reads as names; the line
does not end in the middle of the list (a comma, a semicolon, an open parenthesis, "and", "or",
"plus"); the next line opens a new sentence (a capitalised word: "Exits 2 ...", "Returns 0 ...", "The
script ..."); and what follows does not itself read as names ("Outputs: a (x), b (y)" then "C (z)",
a list whose comma is missing, is no new sentence: the label line stays unread and is warned). The
latest such line is taken; the lines after it are the skill's prose, not the list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NEW_SENTENCE = _rx(r"^[A-Z][a-z]")  # "Exits", "The": a capitalised word (not "ID", not "net_kg")
_GOES_ON = _rx(r"(?i)(?:[,;(]|(?<![\w-])(?:and/or|and|or|plus))[ \t]*+$")

T = TypeVar("T")


def list_lines(parts: Sequence[tuple[int, str]], read: Callable[[str], T | None]) -> int | None:
    """How many of `parts` (the label line's text, then the paragraph's next lines) hold the list, when
    the whole does not read (`read` gives None) but its first lines do (module docstring); None: no
    such end."""
    for k in range(len(parts) - 1, 0, -1):
        last, after = parts[k - 1][1], parts[k][1]
        if not _NEW_SENTENCE.match(after.lstrip()) or _GOES_ON.search(last):
            continue
        if read(" ".join(t for _, t in parts[:k])) is None:
            continue
        if read(" ".join(t for _, t in parts[k:])) is not None:
            return None  # the next lines are names too: the list goes on, its comma missing
        return k
    return None


_rx.save()
