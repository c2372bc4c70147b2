"""A skill's label list ends where a sentence starts on its next line (55th round; used by `plan.bare_names`).

    Outputs: letters (whole number)                    the list, whole on its label line
    Exits 2 (reason on stderr) when an input is ...   a new sentence: not the list's wrapped end

    Takes: station_id or station_code (text), day (text,
    YYYY-MM-DD).                                       still one list: the label line leaves it open

A label line's list goes on over the paragraph's next lines; when the whole text reads as no names, the list is
the longest run of its first lines that does read as names, where the line after that run starts a sentence
(a capital letter) and the run's last line leaves nothing open (no trailing `,`, `;`, `(`, "and", "or").
The rest of the paragraph is prose about the skill, not its list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPEN_END = _rx(r"(?i)(?:[,;(]|\b(?:and|or|plus|and/or))[ \t]*+$")
_SENTENCE = _rx(r"^[A-Z][a-z]")

T = TypeVar("T")


def list_lines(parts: list[tuple[int, str]], read: Callable[[str], T | None]) -> int:
    """How many of the list's lines (`parts`: (line number, text)) make the list when the whole reads as no names
    (module docstring); 0 when no such run reads."""
    for n in range(len(parts) - 1, 0, -1):
        if not _SENTENCE.match(parts[n][1].lstrip()) or _OPEN_END.search(parts[n - 1][1]):
            continue
        if read(" ".join(t for _, t in parts[:n])) is not None:
            return n
    return 0


_rx.save()
