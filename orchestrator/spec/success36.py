"""A success check said as what a step or party gives back: "done when <who> sends back <a thing>".

    We're done when Printwise send back an order number.      -> the step outputting `order_ref` (not empty)
    Complete when line 4 has given an entry number.           -> the step outputting `entry_no` (not empty)
    Done when #4 gives back an entry number.                  -> the same, #4 naming the step

Rehearsal plans, worksheets and spreadsheets end with when the run counts as done: a step (by its
number, "#4", "line 4", "(d)") or the party its skill talks to ("Printwise", "the registry") "sends
back", "has given", "gave", "has returned", "handed back" a thing. The thing is one output of a step
in its words: its name's words, where a number said may be the output's `_no`, `_num`, `_ref` or
`_id` ("order number" is `order_ref` when no `order_no` is output). The check is that the output is
present and not empty, on the one step outputting it. A thing naming no output is left to the other
readers, which warn it; a thing printed, shown or written somewhere ("the order number is printed
on the card") is no giving back and is not read here.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "Printwise send back an order number", "line 4 has given an entry number", "#4 gives back an entry no."
_GIVEN = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|its\s++|our\s++)?(?P<who>[\w'#()-][\w'#() -]{0,59}?)\s++"
             r"(?:(?:has|have)\s++(?:given|sent|returned|handed|passed)(?:\s++back)?+|send\s++back|sends\s++back|"
             r"sent\s++back|give\s++back|gives\s++back|gave(?:\s++back)?+|hand\s++back|hands\s++back|handed\s++back|"
             r"returned|return)"
             r"\s++(?:us\s++|me\s++)?(?:a|an|the|its|their|our|some)\s++(?P<thing>[\w.' -]{1,60}+)$")
_FILLER = frozenset({"the", "a", "an", "its", "their", "of", "for", "on", "in"})
# what a number or reference said may be named in an output, in the order they are tried
_NUMBERED = ("no", "num", "nr", "number", "ref", "reference", "id", "code")
_SAID_NUMBER = frozenset({"number", "no", "num", "nr", "ref", "reference", "id", "code"})


def given_back(part: str) -> tuple[str, list[str]] | None:
    """(who gives it, the thing's words) of a part "Printwise send back an order number", or None."""
    m = _GIVEN.match(part.strip().strip("\"'").rstrip(".").strip())
    if m is None:
        return None
    words = [w for w in m.group("thing").lower().replace(".", " ").replace("-", " ").split() if w not in _FILLER]
    return (m.group("who").strip(), words) if words else None


def numbered_field(words: list[str], names: frozenset[str]) -> str | None:
    """The output a thing's words name when the last word says a number or reference ("order number"
    -> `order_no`, else `order_ref`, `order_id`): the first name tried that the step outputs."""
    if len(words) < 2 or words[-1] not in _SAID_NUMBER:
        return None
    stem = "_".join(words[:-1])
    lowered = {n.lower(): n for n in names}
    return next((lowered[f"{stem}_{tail}"] for tail in _NUMBERED if f"{stem}_{tail}" in lowered), None)


def rows_of(path: str) -> str:
    """The cell separator of a delimited file's rows (a `.csv` file's comma, a `.tsv` file's tab), or ""."""
    lowered = path.lower()
    return "," if lowered.endswith(".csv") else "\t" if lowered.endswith(".tsv") else ""


def one_cell(row: str, sep: str) -> str:
    """A spreadsheet row whose only filled cell is the first (a note: `"Done when #4 gives back an entry
    number.",,,,`): that cell's text, unquoted; any other row as it is."""
    text = row.rstrip()
    if not text.endswith(sep) or sep not in text:
        return row
    cell = text.rstrip(sep).strip()
    if len(cell) > 1 and cell[0] == cell[-1] == '"':
        cell = cell[1:-1].replace('""', '"')
    elif sep in cell:
        return row
    return cell


_rx.save()
