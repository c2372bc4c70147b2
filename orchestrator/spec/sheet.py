"""A spreadsheet pasted as CSV or TSV: a header row naming a steps table's columns, a row per step.

    #,Task,Tool,Uses,After,If it fails,Comments        the header: its words name the columns
    1,Load,load-rows,the export,-,"retry 3x, 10 s",    a step; a quoted cell keeps its commas
    2,Check,check-rows,rows from #1,1,-,
    ,,,,,,                                             an empty row ends the table
    Whole run max 1 h.,,,,,,                           a notes row: its text, read as prose

A line that splits on tabs, commas or semicolons into three cells or more whose words make a
steps table (`step_forms.is_step_table`: a skill column, or a name or number column beside
what a step takes, gives or waits for), followed by at least one row of the same cells, is the
header. Its rows are read as a markdown steps table's rows are (`step_forms.table_steps`, with
the column words of `table_columns`): each at its own line. A row with more filled cells than
the header has columns is an error at its line (an unquoted comma would move every cell after it
into the wrong column). Every other line of the document that splits the same way is a notes
row: its filled cells, as one line of prose (a bullet, so that each row is read apart); a row of
a single word that titles the notes ("NOTES", "Comments:") is blanked. Lines keep their
numbers, so every finding points at the author's row.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass

from orchestrator.spec.blocks import Table
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sheet_inputs45 import SheetInput, find_inputs, item_loops, merged_note
from orchestrator.spec.source import Source
from orchestrator.spec.step_forms import RouteSink, is_step_table, table_steps
from orchestrator.spec.table_columns import columns_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DELIMITERS = ("\t", ",", ";")
_MAX_HEADER = 400  # characters: a longer line is prose, not a header row
_MAX_CELL_WORDS = 6  # a header cell of more words is a sentence cut at its commas
_NOT_HEADER = _rx(r"^\s*+(?:[-*+>|]\s|\||#{1,6}+(?!\t)\s|```|~~~)")  # "#<tab>JOB": a number column
_FENCE = _rx(r"^\s{0,3}+(`{3,}+|~{3,}+)")
_NOTES_TITLE = _rx(r"(?i)^\W*+(?:notes?|remarks?|comments?|misc|other|todo|to\s++do|info|extra)\W*+$")


@dataclass(frozen=True)
class Sheet:
    """The steps table read from the rows, and the document as markdown with its lines kept."""

    table: Table
    text: str
    first: int  # the header's line
    problems: tuple[tuple[int, str], ...]  # errors at rows that cannot be read
    inputs: tuple[SheetInput, ...] = ()  # the names of its inputs block (`spec.sheet_inputs45`)
    merged: tuple[tuple[int, int], ...] = ()  # (line, the row's line) of each merged row read as a row's note


def _split(line: str, delimiter: str) -> list[str]:
    # a lone carriage return inside a line is no line break here (csv would refuse the row)
    return next(csv.reader([line.replace("\r", " ")], delimiter=delimiter, skipinitialspace=False), [])


def _header_cells(line: str) -> tuple[str, list[str]] | None:
    """The delimiter and cells of a line that can head a steps table, or None."""
    if len(line) > _MAX_HEADER or _NOT_HEADER.match(line):
        return None
    for delimiter in _DELIMITERS:
        if line.count(delimiter) < 2:
            continue
        cells = [c.strip() for c in _split(line, delimiter)]
        while cells and not cells[-1]:
            cells.pop()
        filled = [c for c in cells if c]
        if len(filled) < 3 or len(filled) != len(cells) or any(len(c.split()) > _MAX_CELL_WORDS for c in cells):
            continue
        if is_step_table(Table(line=1, header=tuple(cells), rows=())):
            return delimiter, cells
    return None


def _records(lines: list[str], start: int, delimiter: str) -> Iterator[tuple[int, int, list[str]]]:
    """Each record from line index `start` on: (first index, last index, cells); a quoted cell
    may run over lines. A generator: a header with no row under it costs one record."""
    i = start
    while i < len(lines):
        first, chunk = i, lines[i]
        while chunk.count('"') % 2 and i + 1 < len(lines) and i - first < 20:  # a quoted cell runs on
            i += 1
            chunk += "\n" + lines[i]
        yield first, i, [c.strip() for c in _split(chunk, delimiter)]
        i += 1


def find_sheet(text: str) -> Sheet | None:
    """The steps table of a document pasted from a spreadsheet, or None (module docstring)."""
    lines = text.split("\n")
    fence = ""
    for at, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened:  # a sheet shown in a fenced block is an example, not the steps
            fence = "" if fence and opened.group(1).startswith(fence) else fence or opened.group(1)[:3]
            continue
        if fence:
            continue
        found = _header_cells(line)
        if found is None:
            continue
        delimiter, header = found
        sheet = _read(lines, at, delimiter, header)
        if sheet is not None:
            return sheet
    return None


def _read(lines: list[str], at: int, delimiter: str, header: list[str]) -> Sheet | None:
    rows: list[tuple[int, tuple[str, ...]]] = []
    problems: list[tuple[int, str]] = []
    out = list(lines)
    out[at] = ""
    for k in range(at):  # a title row above the header ("Entry prep v3,,,,"): its text
        if delimiter in lines[k] and '"' not in lines[k]:
            out[k] = " ".join(c.strip() for c in _split(lines[k], delimiter) if c.strip())
    in_table, end = True, at
    merged: list[tuple[int, int]] = []
    for first, last, cells in _records(lines, at + 1, delimiter):
        filled = [c for c in cells if c]
        if in_table and len(filled) >= 2:
            extra = [c for c in cells[len(header):] if c]
            if extra:
                problems.append((first + 1, f"this row has {len(cells)} cells but the header at line {at + 1} has "
                                            f"{len(header)} columns, so its cells cannot be matched to them: put a "
                                            "cell that holds a comma in double quotes"))
            rows.append((first + 1, tuple(cells[: len(header)]) + ("",) * (len(header) - len(cells))))
            end = last
            for k in range(first, last + 1):
                out[k] = ""
            continue
        if not rows:
            return None  # a header without a row under it is a sentence with commas
        if in_table and first == end + 1 and (notes := merged_note(cells, header)) is not None:
            line, row = rows[-1]  # a merged row right under a row: that row's note (`spec.sheet_inputs45`)
            at_notes, said = notes
            joined = f"{row[at_notes]}. {said}" if row[at_notes].strip() else said
            rows[-1] = (line, (*row[:at_notes], joined, *row[at_notes + 1:]))
            merged.append((first + 1, line))
            end = last
            for k in range(first, last + 1):
                out[k] = ""
            continue
        in_table = False
        if delimiter not in "".join(lines[first:last + 1]):
            continue  # a line of plain prose under the sheet: as written
        said = " — ".join(" ".join(c.split()) for c in filled)
        out[first] = "" if not said or _NOTES_TITLE.match(said) else f"- {said}"
        for k in range(first + 1, last + 1):
            out[k] = ""
    if not rows:
        return None
    inputs, block = find_inputs(lines, delimiter, range(at, end + 1))  # "RUN INPUTS, job_ref, ..." (`sheet_inputs45`)
    for k in block:
        out[k] = ""
    return Sheet(table=Table(line=at + 1, header=tuple(header), rows=tuple(rows)), text="\n".join(out),
                 first=at + 1, problems=tuple(problems), inputs=inputs, merged=tuple(merged))


def sheet_steps(sheet: Sheet, src: Source) -> list[StepSpec]:
    """The steps of the sheet's rows, read as a markdown steps table's, with how its columns were
    taken said at the header (a guess at the author's column words), and an error at each row
    whose cells cannot be matched to the columns."""
    from orchestrator.spec.structure import StepIndex, give_routes, resolve_references

    for line, message in sheet.problems:
        src.error(line, message, "spec.sheet")
    said = ", ".join(f"'{h}' as {_SAID.get(c or '', 'policy text' if c is None else c)}"
                     for h, c in zip(sheet.table.header, columns_of(sheet.table.header), strict=True))
    src.warn(sheet.first, f"the rows under this line are read as a steps table pasted from a spreadsheet, one step "
                          f"a row, its columns by their header words: {said}; check the plan, or write it as a "
                          "markdown table (`| # | Step | Skill | Depends on |`)", "spec.reading")
    for line, row in sheet.merged:
        src.warn(line, f"this row's one cell, right under the row at line {row} with its own first cell empty, is read "
                       f"as that row's note (a merged cell); check the plan, or write it in the row's own notes cell",
                 "spec.reading")
    sink: RouteSink = []
    lists = [i.name for i in sheet.inputs if i.several]  # "each room's room, big": a For each (`sheet_inputs45`)
    steps = table_steps(item_loops(sheet.table, lists, src), src, sink)
    steps = give_routes(steps, sink, src)
    return resolve_references(steps, StepIndex(steps))


_SAID = {"number": "the step number", "name": "its name", "id": "its id", "skill": "the skill",
         "input": "what it takes", "needs": "what it takes (step numbers alone: what it waits for)", "output": "what it gives", "depends": "what it waits for", "when": "its condition",
         "notes": "notes", "attempts": "its attempts", "description": "notes", "retries": "its retries",
         "timeout": "its timeout", "on_error": "what happens on error", "approval": "its approval",
         "for_each": "what it loops over", "compensation": "its undo", "success": "its success check"}


_rx.save()
