"""A checklist table whose doer column names the skills, and a Field/Value table of the inputs.

    | Field | Value |                              before the steps: the workflow inputs,
    | MRN | `mrn` |                                a backticked name in the Value cell (else
    | Shift | night |                              the field's words, `shift`, with the value
                                                   as its example)
    | # | Task | Done by | Uses | Notes |
    | 1 | Reconcile | `med-rec` | meds | ... |      the column whose cells name catalog skills
    | 2 | Walk patient out | HCA | — | ... |       is the skill column, whatever its header
                                                   (Done by, Who, Owner, Bot); a row whose doer
                                                   names no skill is a person's task, not a step

The doer column is taken only when at least two rows, and at least half the rows, name a catalog
skill in it, and more rows than the column the header words call the skill's ("Uses"); that
column is then what the step takes (its header is a word for taking: Uses, Needs) or a note.
Without a catalog a cell counts only when it is one backticked skill-shaped name and nothing
else. A row whose doer cell names no skill, and none of whose cells names a catalog skill in
backticks, is warned at its line as a person's task and not made a step. A Field/Value (or
Item/Value, Key/Value) table in the preamble is read only when no other way of writing gave the
inputs; else it stays a block not read, as before.
"""

from __future__ import annotations

import re

from orchestrator.spec.blocks import Block, Table
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TICKED = _rx(r"`([A-Za-z0-9][\w.-]{0,80}+)`")
_SKILL_SHAPE = _rx(r"^\s*+`([a-z0-9]++(?:-[a-z0-9]++)++)`\s*+$")
_MARKS = _rx(r"[*_`]++")
_DASH = _rx(r"(?i)^\s*+(?:(?:[-–—]++|n/?a|tbd|none|nobody|\?)\s*+)?$")
# a header that names the skill column only by what it takes ("Uses", "Needs")
_TAKES = frozenset({"uses", "needs", "using", "takes", "reads", "inputs", "input", "needs from", "with", "from"})
# the header pair of a table of fields and their values
_FIELD = _rx(r"(?i)^\W*+(?:field|item|key|name|property|setting|parameter|detail|details|what|label)\W*+$")
_VALUE = _rx(r"(?i)^\W*+(?:value|values|example|e\.g\.|entry|details?|what\s+goes\s+here)\W*+$")
_NAME = _rx(r"^\s*+(?:\*\*|__)?`([A-Za-z_]\w{0,60}+)`")
_WORDS = _rx(r"[A-Za-z0-9]++")
# "**Otherwise** (nothing high risk) ...", "Else: ...", "If not, ..." opening a Task cell
_OTHERWISE = _rx(r"(?i)^(?:\*\*|__)?(?:otherwise|else|if\s++not)(?:\*\*|__)?[ \t]*+(?:\([^()]{0,80}+\))?[ \t]*+[,:—–-]?[ \t]*+")
# the dash between a step's name and what more its cell says: "Book transport — can go straight away"
_DASH_SPLIT = _rx(r"[ \t]++(?:—|–|--)[ \t]++")
_PICTOGRAPHS = _rx(r"[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]++")


def _low(text: str) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", text.lower()).split())


def cell_skill(cell: str, vocabulary: Vocabulary) -> str | None:
    """The catalog skill a short cell names (`med-rec`, "med-rec"); None when it names none, or
    is longer than a name and a few words (a sentence that mentions a skill is not a doer)."""
    if len(cell.split()) > 6:
        return None
    if not vocabulary.skills:
        m = _SKILL_SHAPE.match(cell)
        return m.group(1) if m else None
    named = [s for m in _TICKED.finditer(cell) if (s := vocabulary.skill_for(m.group(1)))]
    if named:
        return named[0] if len(set(named)) == 1 else None
    return vocabulary.skill_for(_MARKS.sub("", cell).strip())


def _count(rows: list[tuple[int, tuple[str, ...]]], at: int, vocabulary: Vocabulary) -> int:
    return sum(1 for _, cells in rows if at < len(cells) and cell_skill(cells[at], vocabulary))


def doer_columns(table: Table, columns: list[str | None], vocabulary: Vocabulary
                 ) -> tuple[list[str | None], int | None]:
    """The columns with the one whose cells name catalog skills made the skill column (module
    docstring), and its index; the columns as they were and None when no column does so."""
    rows = list(table.rows)
    need = max(2, (len(rows) + 1) // 2)
    old = columns.index("skill") if "skill" in columns else None
    beaten = _count(rows, old, vocabulary) if old is not None else 0
    best: tuple[int, int] | None = None
    for at, column in enumerate(columns):
        if column is not None:
            continue
        count = _count(rows, at, vocabulary)
        if count >= need and count > beaten and (best is None or count > best[1]):
            best = (at, count)
    if best is None:
        return columns, None
    out = list(columns)
    out[best[0]] = "skill"
    if old is not None:
        out[old] = "input" if _low(table.header[old]) in _TAKES and "input" not in columns else "notes"
    return out, best[0]


def doer_note(table: Table, at: int, columns: list[str | None], before: list[str | None]) -> str:
    """What the reading of the doer column changed, said once at the table's line."""
    moved = [f"column '{h}' read as {'what the step takes' if c == 'input' else 'notes'}"
             for h, c, b in zip(table.header, columns, before, strict=False) if b == "skill" and c != "skill"]
    return (f"column '{table.header[at]}' names a catalog skill in its rows: read as each step's skill"
            + ("; " + "; ".join(moved) if moved else "") + "; check the plan")


def person_row(cells: tuple[str, ...] | list[str], at: int, vocabulary: Vocabulary) -> str | None:
    """The doer a row names when it is a person's (no skill in the doer cell, none in backticks
    in any cell, and the doer said in a few words); None for a row a skill does."""
    doer = cells[at].strip() if at < len(cells) else ""
    if _DASH.match(doer) or "`" in doer or len(doer.split()) > 4 or cell_skill(doer, vocabulary):
        return None
    for cell in cells:
        for m in _TICKED.finditer(cell):
            if vocabulary.skill_for(m.group(1)) or not vocabulary.skills:
                return None
    return _MARKS.sub("", doer).strip()


def task_parts(cell: str) -> tuple[str, str, bool]:
    """A Task cell that says more than the step's name: (the name, the clause after a dash, whether
    it opens with Otherwise). "Book transport 🤖 — can go straight away" -> ("Book transport", "can go
    straight away", False); "**Otherwise** (nothing high risk) print the pack" -> ("Print the pack",
    "", True). A pictograph ending the name is left out; a cell of a name only is given back whole."""
    text, other = cell.strip(), False
    if (m := _OTHERWISE.match(text)) is not None and m.end() < len(text):
        text, other = text[m.end():].strip(), True
    name, said = text, ""
    if (dash := _DASH_SPLIT.search(text)) is not None and len(text[:dash.start()].split()) <= 8:
        name, said = text[:dash.start()], text[dash.end():].strip()
    name = _PICTOGRAPHS.sub("", name).strip()
    if other:
        name = name[:1].upper() + name[1:]
    return (name or cell.strip()), said, other


def value_table(block: Block) -> bool:
    """A two-column table headed Field | Value (Item | Value, Key | Value) with a row or more."""
    return (isinstance(block, Table) and len(block.header) == 2 and bool(block.rows)
            and _FIELD.match(block.header[0]) is not None and _VALUE.match(block.header[1]) is not None)


def value_inputs(preamble: list[Block], src: Source) -> tuple[InputSpec, ...] | None:
    """The workflow inputs a Field/Value table before the steps names: a row each, named by the
    backticked name in its Value cell (else in its Field cell, else the field's words), the rest
    of the row its description; a value that is no name is its example. None without such a table."""
    tables = [b for b in preamble if value_table(b)]
    if not tables:
        return None
    found: dict[str, InputSpec] = {}
    for table in tables:
        assert isinstance(table, Table)
        for line, cells in table.rows:
            field, value = (cells[0].strip(), cells[1].strip()) if len(cells) > 1 else (cells[0].strip(), "")
            in_value = _NAME.match(value)
            m = in_value or _NAME.match(field)
            if m is not None:
                name = m.group(1)
                said = (_MARKS.sub("", field).strip(), value[m.end():].strip(" ()—–-:")) if in_value \
                    else (_MARKS.sub("", field[m.end():]).strip(" ()—–-:"), value)
                description = ", ".join(p for p in said if p)
            else:
                words = _WORDS.findall(_MARKS.sub("", field).lower())
                if not words or len(words) > 5 or _DASH.match(value):
                    src.warn(line, f"row '{field[:40]}' of the field/value table names no input; not read",
                             "spec.unread")
                    continue
                name = "_".join(words)
                description = f"{_MARKS.sub('', field).strip()} (example: {value})"
            if name in found:
                continue
            found[name] = InputSpec(name=name, description=description, where=src.where(line))
            src.warn(line, f"input `{name}` read from the field/value table before the steps"
                     + ("" if m is not None else f" (named from its field; '{value}' is its example)")
                     + "; check the plan", "spec.reading")
    return tuple(found.values()) or None


_rx.save()
