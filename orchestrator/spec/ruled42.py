"""A fixed-width table ruled with `|` and `+---+` borders whose cells wrap, read as the markdown table it stands for.

     CCP | CHECK                      | TABLET RUNS  | IF IT GOES WRONG      the header: a line of `|` cells right
    -----+----------------------------+--------------+-------------------    above a rule of dashes parted by `+`
     1   | cook temp >= 75C: product +| temp-verify  | probe app flaky -     a row opens where its first cell is
         |  core temp                 |              |  2 more tries         written; a line whose first cell is
     1a  | allergens for the product  | allergen-... | ...                   empty goes on the row above, each
    ------------------------------------------------------------------       column's pieces joined by one space

    +----+--------------+-----------+      the same drawn as a grid: a `+---+` rule under the header
    | #  | Task         | Tool      |      (`+===+` too), and a `+---+` rule between rows closes a row
    +====+==============+===========+      (a line whose first cell is empty still goes on the row above)
    | 1  | load the     | load-rows |
    |    | export       |           |
    +----+--------------+-----------+

The table becomes a markdown pipe table on the header's line, its rule `|---|` and each row on the line it
opens at, so every finding points at the author's row; the lines a row wraps onto and the rules between
rows are left out of the markdown (`origin` maps its lines back to the page). What the table is, a steps
table or a table of data, is then the markdown reader's to say, as for any pipe table: a table of data
stays a block not read. A table needs a header of two cells or more and two rows; a line whose `|` cells
are not as many as the header's, a blank line, or a rule with no `+` ends it. A table with a column of
what each row takes ("Uses", "Needs", "Inputs") is left as it is: its loose words ("ordered dose, weight
off line 1") would become required inputs of those names (the anchored reading reads them softly). Nothing else of the text
changes but the form's long rules of dashes or equals signs (ten or more), which become blank lines: a
rule under a line of text is the form's border, never a heading's underline. One pass over the lines; patterns are anchored and bounded.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.table_columns import column_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TAKES = frozenset({"uses", "needs", "using", "takes", "reads", "inputs", "input", "needs from", "feed it"})

# a rule parted into columns: "-----+------+----", "+----+----+", "+====+====+", "|----+----|"
_RULE = _rx(r"^[ \t]{0,8}+[+|]?+[-=]{2,}+(?:\+[-=]{2,}+){1,20}+[+|]?+[ \t]*+$")
# a rule with no column marks: "---------", "========" (the table's end)
_PLAIN_RULE = _rx(r"^[ \t]{0,8}+[-=_]{3,}+[ \t]*+$")


def _borders(line: str) -> tuple[bool, bool]:
    """Whether the header is drawn with a left and a right border."""
    body = line.strip()
    return body.startswith("|"), body.endswith("|") and len(body) > 1


def _cells(line: str, borders: tuple[bool, bool]) -> list[str] | None:
    """A line's `|` cells (the header's outer borders taken off), or None when it has no `|`."""
    body = line.strip()
    if "|" not in body:
        return None
    if borders[0] and body.startswith("|"):
        body = body[1:]
    if borders[1] and body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def _pipe(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"


def _table(lines: list[str], header_at: int) -> tuple[list[tuple[int, list[str]]], int] | None:
    """The rows (first line, joined cells) of the table whose header is at `header_at`, and the index after it."""
    borders = _borders(lines[header_at])
    header = _cells(lines[header_at], borders)
    if header is None or len(header) < 2 or sum(1 for c in header if c) < 2:
        return None
    width = len(header)
    rows: list[tuple[int, list[list[str]]]] = []
    closed = True  # a `+---+` rule between rows: the next line opens a row
    i = header_at + 2
    while i < len(lines):
        line = lines[i]
        if _RULE.match(line):
            closed = True
            i += 1
            continue
        cells = _cells(line, borders)
        if cells is None or len(cells) != width:
            break
        if not any(cells):
            i += 1
            continue
        if cells[0] or closed or not rows:
            rows.append((i, [[c] if c else [] for c in cells]))
        else:
            for column, cell in enumerate(cells):
                if cell:
                    rows[-1][1][column].append(cell)
        closed = False
        i += 1
    if len(rows) < 2:
        return None
    return [(at, [" ".join(parts) for parts in pieces]) for at, pieces in rows], i


def _takes_column(header: list[str]) -> bool:
    """Whether a column says what each row takes ("Uses", "Needs", "Inputs"): its loose words ("ordered dose,
    weight off line 1") would become the steps' required inputs, so such a table is left as it is."""
    return any(" ".join(h.lower().split()) in _TAKES or column_of(h) == "input" for h in header)


def ruled_markdown(text: str) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """(markdown, origin, warnings) of a text holding a ruled fixed-width table whose cells wrap (module
    docstring), or None when it holds none, or none whose rows wrap over lines or are parted by rules."""
    lines = text.split("\n")
    out: list[str] = []
    origin: list[int] = []
    notes: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        if i + 2 < len(lines) and _RULE.match(lines[i + 1]) and not _RULE.match(lines[i]) \
                and (table := _table(lines, i)) is not None:
            rows, end = table
            header = _cells(lines[i], _borders(lines[i])) or []
            if end - (i + 2) > len(rows) and not _takes_column(header):  # rows wrap or rules part them
                out.append(_pipe(header))
                origin.append(i)
                out.append("|" + "---|" * len(header))
                origin.append(i + 1)
                for at, cells in rows:
                    out.append(_pipe(cells))
                    origin.append(at)
                notes.append((i + 1, f"the ruled table on lines {i + 1}-{end} read as a table of {len(rows)} "
                                     "rows, a row's wrapped lines joined per column into its cells"))
                if end < len(lines) and (_PLAIN_RULE.match(lines[end]) or _RULE.match(lines[end])):
                    out.append("")  # the closing rule: no heading's underline
                    origin.append(end)
                    end += 1
                i = end
                continue
        out.append("" if _PLAIN_RULE.match(lines[i]) and len(lines[i].strip()) >= 10 else lines[i])
        origin.append(i)
        i += 1
    if not notes:
        return None
    return "\n".join(out), origin, notes


_rx.save()
