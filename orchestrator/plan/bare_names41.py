"""Names a skill's instructions list bare, each described in brackets, as a printed form's skills are
written: "Inputs: product (text), core_temp_c (number, degrees C from the probe).", "Outputs:
allergens (list of text, sorted), source (text, "binder")."

The list opens right after the word (`plan.wanted`'s Inputs / Outputs / Returns ...) and goes on
item by item, each a lower-case name (letters, digits, `_`) with its bracket, split at the commas and
the "and" outside the brackets; a name's bracket is what it is (its type, its values), never names
of its own. The list ends at the first item that is no such name: "Outputs: the total (a number)"
or "Reads the recipe database (a fixed copy ...)" name nothing. Names in backticks are read as ever
(`plan.wanted`); this reads a clause with none.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# one item: a bare lower-case name and its bracket, nothing else
_ITEM = _rx(r"^(?:and[ \t]++)?+(?P<name>[a-z][a-z0-9_]{0,60}+)[ \t]*+\((?P<about>[^()]{0,200}+)\)[ \t]*+[.;]?+$")


def _items(clause: str) -> list[tuple[str, int]]:
    """The clause's parts split at the commas and the " and " outside brackets, each with its start."""
    parts: list[tuple[str, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(clause):
        ch = clause[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and (ch == "," or clause.startswith(" and ", i)):
            parts.append((clause[start:i], start))
            i += 1 if ch == "," else 4
            start = i
            continue
        i += 1
    parts.append((clause[start:], start))
    return parts


def bare_names(clause: str) -> list[tuple[str, str, int]]:
    """(name, what its bracket says, where it starts) for each bare name the list opening `clause` gives
    (module docstring); none when its first item is no such name."""
    out: list[tuple[str, str, int]] = []
    for text, start in _items(clause):
        m = _ITEM.match(text.strip())
        if m is None:
            break
        out.append((m.group("name"), m.group("about").strip(), start + len(text) - len(text.lstrip())))
    return out
