"""Notes under a sheet's grid keyed by the row's label with a noun before it: "Line 1:", "Row 3b -", "Item C:".

    LINE | ACTION            | SYSTEM STEP                (a worksheet's grid: rows labelled 1, 2, 3a, 3b, 4)
      1  | Pull the record    | record-get
      3b | Query the owner    | owner-query
    NOTES
     - Line 1: the server is slow; 20 s timeout.          a note of the step whose row is labelled "1"
     - Row 3b: send it ONE time only.                     a note of the step whose row is labelled "3b"
     - Line 1 of the form is the header.                  no: no separator after the label
     - Line up the trays: 2 min each.                     no: no label after the noun

A worksheet, a rota or a prep sheet often numbers its rows in a grid and then writes notes about them
under it, each opened by the grid's own word for a row and the row's label ("Line 1:", "Row 3b -",
"Item C:"). `spec.cue_notes` keys a note by a bare label opening its line ("B - ..."); this module gives
it the same key when the label follows one of the nouns line, row, item, entry or stage (any case) and
is followed by a separator (":", "-", "=", ")", "." or two blanks). Whether the label belongs to a step's
row is checked by the caller, as for a bare label. One match per line, anchored at its start.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the noun, the label, then a separator: "- Line 1: ...", "Row 3b - ...", "ITEM C: ..."
_NOUN_KEYED = _rx(r"^[\s|*>-]{0,6}+(?i:line|row|item|entry|stage)[ \t]{1,3}+([A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)"
                  r"(?:[ \t]{0,4}+[-–—:=)][ \t]|\.[ \t]|[ \t]{2,}+\S)")


def noun_keyed(line: str) -> tuple[str, int] | None:
    """The row label of a note line opened by a noun and the label ("Line 3b: ..." -> ("3b", 5)), with
    the width of the noun before the label (the note's text may start after it); None otherwise."""
    m = _NOUN_KEYED.match(line)
    if m is None:
        return None
    noun = m.group(0)[: m.start(1) - m.start(0)].strip(" \t|*>-")
    return m.group(1), len(noun) + 1


_rx.save()
