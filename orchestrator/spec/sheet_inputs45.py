"""A pasted sheet's inputs block (a labelled row of names, a row of examples under it), and "each X's a, b".

    RUN INPUTS<tab>job_ref<tab>from_postcode<tab>rooms          the run's inputs: the names in the cells after the label
    <tab>e.g. HS-1142<tab>LS6 3AB<tab>each room + its counts    their examples (never values): the row right under it
    Parameters,week,region                                      the same, comma-separated, with no example row
    INPUTS<tab>the job ref and the postcodes                    no: the cells after the label are words, not names

A spreadsheet pasted as CSV or TSV (`spec.sheet`) often keeps its run's inputs in a block of its own
away from the steps table: a row whose first filled cell is a label for them ("RUN INPUTS",
"Parameters", "Job arguments:") and whose other filled cells are each one name as a skill reads
it (`job_ref`, `rooms`), and, right under it, a row whose label cell is empty or says "e.g." /
"example" holding an example under each name. Those names are the workflow inputs (required);
an example is kept in the input's description, never as a value. An example that says the value
holds several things ("each room + ...", "one per line", "a list of ...") makes the input a list.
The block's rows are not read as prose; the inputs are warned at the label's line.

    1<tab>Volume<tab>room-volume<tab>each room's room, big, small    For each: item in rooms (its fields room, big, small)
    2<tab>Count<tab>tally<tab>every crate's weight                   For each: item in crates, when `crates` is an input list
    3<tab>Check<tab>check-room<tab>each room's size                  no: when no list input is named `rooms`

    5<tab>Send<tab>send-quote<tab>job_ref<tab>NEVER twice<tab>                the row
    <tab>IF PRICE OVER 2,500 Dave signs it off first<tab><tab><tab><tab>      a merged cell under it: row 5's note

A row right under a steps row (no blank row between) whose first cell is empty and which holds one cell
of text (a merged cell pasted into the first cell of its span) is that row's note, when the sheet has a
notes column: its text is added to the row's notes cell and read with the step's words, warned.

A takes-cell of the steps table that says "each <thing>'s <field>, <field> and <field>", the thing
being the singular of one of those list inputs, runs the step once per item of that list, each
field named taken from the item's field of that name; warned at the row. One pass over the rows; patterns
anchored and bounded.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass

from orchestrator.spec.blocks import Table
from orchestrator.spec.h3_left31 import singular
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.table_columns import columns_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "RUN INPUTS", "Inputs:", "Job parameters", "Arguments (fill in)": up to three words, then the label's noun
_LABEL = _rx(r"(?i)^(?:[a-z]{1,20}+[ \t]++){0,3}?(?:inputs?|parameters|params|arguments|args)[ \t]*+"
             r"(?:\([^()]{0,40}+\))?[ \t]*+:?$")
_NAME = _rx(r"^`?+([A-Za-z_][A-Za-z0-9_]{0,60}+)`?+$")
_EXAMPLE_LABEL = _rx(r"(?i)^(?:e\.?g\.?|examples?|samples?|for[ \t]++example)[ \t]*+:?$")
_EXAMPLE_LEAD = _rx(r"(?i)^(?:e\.?g\.?|example|for[ \t]++example)[ \t]*+[:,]?[ \t]*+")
# an example that says the value holds several things
_SEVERAL = _rx(r"(?i)(?<![\w-])(?:each|every|one[ \t]++(?:per|a|for[ \t]++each)|a[ \t]++list|list[ \t]++of|several)(?![\w-])")
# "each room's room, big, small", "every crate's weight and size"
_EACH_OF = _rx(r"(?i)^[ \t]*+(?:for[ \t]++)?(?:each|every)[ \t]++(?P<thing>[a-z][a-z_]{0,40}+)['’]s[ \t]++(?P<fields>[^'’\n]{1,200}+)$")
_FIELD_SEP = _rx(r",|;|&|\+|(?<![\w-])and(?![\w-])")
_MAX = 400  # characters: a longer line is no inputs row


@dataclass(frozen=True)
class SheetInput:
    """One name of the inputs block, with the example written under it."""

    name: str
    example: str
    line: int
    several: bool


def _cells(line: str, delimiter: str) -> list[str]:
    return [c.strip() for c in next(csv.reader([line.replace("\r", " ")], delimiter=delimiter), [])]


def find_inputs(lines: Sequence[str], delimiter: str, skip: range) -> tuple[tuple[SheetInput, ...], tuple[int, ...]]:
    """(the inputs of the sheet's inputs block, the 0-based indexes of its rows), or ((), ()) (module
    docstring); the lines in `skip` (the steps table) are not looked at."""
    for at, line in enumerate(lines):
        if at in skip or len(line) > _MAX or delimiter not in line:
            continue
        cells = _cells(line, delimiter)
        first = next((i for i, c in enumerate(cells) if c), None)
        if first is None or not _LABEL.match(cells[first]):
            continue
        named = [(i, c) for i, c in enumerate(cells) if c and i > first]
        if not named or not all(_NAME.match(c) for _, c in named):
            continue
        below = _cells(lines[at + 1], delimiter) if at + 1 < len(lines) and at + 1 not in skip \
            and len(lines[at + 1]) <= _MAX else []
        label = below[first] if first < len(below) else ""
        example_row = any(below) and (not label or _EXAMPLE_LABEL.match(label) is not None)
        found: list[SheetInput] = []
        for i, cell in named:
            example = _EXAMPLE_LEAD.sub("", below[i]) if example_row and i < len(below) else ""
            name = _NAME.match(cell)
            assert name is not None
            found.append(SheetInput(name=name.group(1), example=example, line=at + 1,
                                    several=_SEVERAL.search(example) is not None))
        return tuple(found), ((at, at + 1) if example_row else (at,))
    return (), ()


def sheet_inputs(found: Sequence[SheetInput], src: Source) -> tuple[InputSpec, ...]:
    """The workflow inputs of the sheet's inputs block, warned at its label's line."""
    out = tuple(InputSpec(name=f.name, type="array" if f.several else None,
                          description=f"an example: {f.example}" if f.example else "", where=src.where(f.line))
                for f in found)
    lists = [f.name for f in found if f.several]
    src.warn(found[0].line, "the row of names after its label is read as the workflow inputs: "
             + ", ".join(f"`{f.name}`" for f in found) + (" (the row under it: examples, not values)"
                                                           if any(f.example for f in found) else "")
             + (f"; {', '.join(f'`{n}`' for n in lists)} a list, as its example says it holds several" if lists else "")
             + "; check the plan, or declare them in an Inputs section", "spec.reading")
    return out


def merged_note(cells: Sequence[str], header: Sequence[str]) -> tuple[int, str] | None:
    """(the notes column's index, the text) of a row that is one merged cell's text, its first cell empty,
    in a sheet with a notes column, or None (module docstring)."""
    filled = [c for c in cells if c]
    notes = next((i for i, c in enumerate(columns_of(tuple(header))) if c in ("notes", "description")), None)
    if notes is None or len(filled) != 1 or not cells or cells[0] or len(filled[0]) > _MAX:
        return None
    return notes, " ".join(filled[0].split())


def each_of_item(cell: str, lists: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """(the list input, the item's fields) a takes-cell "each room's room, big, small" names, or None."""
    m = _EACH_OF.match(cell) if len(cell) <= _MAX else None
    if m is None:
        return None
    thing = m.group("thing").lower()
    over = [n for n in lists if n.lower() != thing and singular(n).lower() == thing]
    fields = [f.strip().strip("`") for f in _FIELD_SEP.split(m.group("fields").strip().rstrip("."))]
    if len(over) != 1 or not fields or not all(_NAME.match(f) for f in fields):
        return None
    return over[0], tuple(fields)


def item_loops(table: Table, lists: Sequence[str], src: Source) -> Table:
    """The table with each row whose takes-cell says "each X's a, b" given a For each over the list
    input X names, its fields the item's (module docstring); the table as it is when none does."""
    columns = columns_of(table.header)
    takes = next((i for i, c in enumerate(columns) if c in ("input", "needs")), None)
    if takes is None or not lists or "for_each" in columns:
        return table
    rows: list[tuple[int, tuple[str, ...]]] = []
    looped = False
    for line, cells in table.rows:
        said = each_of_item(cells[takes], lists) if takes < len(cells) else None
        if said is None:
            rows.append((line, (*cells, "")))
            continue
        over, fields = said
        looped = True
        src.warn(line, f"'{cells[takes].strip()}' is read as a For each over the workflow input `{over}`, each item "
                       f"as `item`, its fields " + ", ".join(f"`{f}`" for f in fields) + " the step's inputs; check "
                       f"the plan, or write `For each: item in {over}`", "spec.reading")
        rows.append((line, (*cells[:takes], ", ".join(fields), *cells[takes + 1:], f"item in {over}")))
    if not looped:
        return table
    return Table(line=table.line, header=(*table.header, "For each"), rows=tuple(rows))


_rx.save()
