"""The Error Recovery section of a markdown spec: its tables, bullets and paragraphs.

    | Step | Failure | Detection | Recovery | Fallback | Max Attempts | Owner |   a table
    | When | Do this |                                                     a table without a Step column
    - Step 3: retry 3 times, waiting 2s between tries                        a bullet naming its steps
    - If anything else blows up just fail the run                           a bullet for every step

Columns are recognised by words in their header (`COLUMNS`); other columns are
kept and read cell by cell (`recovery.read_recovery_row`). Without a Step
column, a row's step is the one its failure cell names ("Step 1, any error"); a
row that names none is a catch-all for every step. A bullet is read as one
statement for the steps its start names ("Step 3:", "Steps 1 and 2:"), or for
every step when it names none; a paragraph, sentence by sentence.
"""

from __future__ import annotations

import re

from orchestrator.spec.blocks import Block, Bullet, Para, Table
from orchestrator.spec.fields import step_id
from orchestrator.spec.model import RecoveryRowSpec
from orchestrator.spec.phrase import number, read_phrase
from orchestrator.spec.policy_text import is_catch_all
from orchestrator.spec.prose import record, sentences
from orchestrator.spec.recovery import RowCells, read_recovery_row
from orchestrator.spec.source import Source

# header word → the cell's meaning, first match wins
COLUMNS: tuple[tuple[str, str], ...] = (
    ("step", "step"), ("detect", "detection"), ("how noticed", "detection"), ("recover", "recovery"),
    ("do this", "recovery"), ("action", "recovery"), ("response", "recovery"), ("handling", "recovery"),
    ("fallback", "fallback"), ("then", "fallback"), ("otherwise", "fallback"), ("type", "error_class"),
    ("class", "error_class"), ("attempt", "max_attempts"), ("fail", "failure"), ("error", "failure"),
    ("when", "failure"), ("problem", "failure"), ("condition", "failure"), ("case", "failure"),
)  # fmt: skip
_STEPS = re.compile(r"(?i)^\s*(?:\*\*)?\s*(?:for\s+)?(?P<all>all\s+steps|every\s+step|each\s+step|any\s+step)?"
                    r"(?:steps?|stages?)?\s*(?P<nums>(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
                    r"(?:\s*(?:,|and|&|/|-|–|to|or)\s*(?:steps?\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|"
                    r"nine|ten))*)?\s*(?:\*\*)?\s*(?P<sep>[:,.)—–-])\s*")


def raw_cells(line_text: str) -> list[str]:
    inner = line_text.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return re.split(r"(?<!\\)\|", inner)


def table_columns(table: Table, src: Source) -> list[str | None]:
    """The meaning of each column; a column with none is kept under its own name (None here)."""
    columns: list[str | None] = []
    for cell in table.header:
        low = cell.lower()
        name = next((col for word, col in COLUMNS if word in low), None)
        if name is not None and name in columns:
            name = None
        columns.append(name)
    return columns


def step_refs(text: str, ids: list[str]) -> tuple[tuple[str, ...], str]:
    """The steps a text's start names ("Steps 1 and 2:", "Step 1, any error") and the rest of it.

    `ids` are the spec's step ids in order: "Step 3" is `step-3`, or else the third step."""
    m = _STEPS.match(text)
    if m is None or (not m.group("nums") and not m.group("all")):
        return (), text
    if m.group("all"):
        return tuple(ids), text[m.end():]
    words = re.findall(r"\d+|one|two|three|four|five|six|seven|eight|nine|ten", m.group("nums").lower())
    numbers = [int(number(w) or 0) for w in words]
    if re.search(r"\d\s*(?:-|–|to)\s*(?:steps?\s+)?\d", m.group("nums")) and len(numbers) == 2:
        numbers = list(range(numbers[0], numbers[1] + 1))
    found: list[str] = []
    for n in numbers:
        sid = f"step-{n}" if f"step-{n}" in ids else (ids[n - 1] if 0 < n <= len(ids) else None)
        if sid is not None and sid not in found:
            found.append(sid)
    return tuple(found), text[m.end():]


def _row(block: Table, line: int, cells: tuple[str, ...], columns: list[str | None], src: Source,
         ids: list[str]) -> list[RecoveryRowSpec]:
    raw = raw_cells(src.line_text(line))
    if len(raw) != len(columns):
        src.error(line, f"table row has {len(raw)} cells; the header has {len(columns)}", "spec.table")
        return []
    values = {c: v for c, v in zip(columns, cells, strict=False) if c}
    extra = tuple((h, v) for h, c, v in zip(block.header, columns, cells, strict=False) if c is None)
    step_cell = values.pop("step", None)
    if step_cell is not None:
        cell = step_cell.strip().strip("`")
        if is_catch_all(cell) or cell.lower() in {"all", "every step", "all steps", "each", "*"}:
            return [read_recovery_row(sid, RowCells(**values, extra=extra), src, line, every_step=True) for sid in ids]
        sid = step_id(cell) or step_id(f"step {cell}") or cell
        named = (sid,) if sid in ids else step_refs(f"steps {cell}:", ids)[0]
        if not named or (sid not in ids and len(named) < len(re.findall(r"\d+", cell))):
            src.error(line, f"table row names step '{cell}', which the spec does not have", "spec.unknown-step")
            return []
        return [read_recovery_row(s, RowCells(**values, extra=extra), src, line) for s in named]
    failure = values.get("failure", "")
    named, rest = step_refs(failure, ids)
    if named:
        values["failure"] = rest
        return [read_recovery_row(sid, RowCells(**values, extra=extra), src, line) for sid in named]
    if not is_catch_all(failure):
        src.warn(line, f"error recovery: the row '{failure.strip()[:60]}' names no step (write `Step N, ...` "
                       "or add a Step column); it applies to every step", "spec.unread")
    return [read_recovery_row(sid, RowCells(**values, extra=extra), src, line, every_step=True) for sid in ids]


def _table(block: Table, src: Source, ids: list[str]) -> list[RecoveryRowSpec]:
    columns = table_columns(block, src)
    if "step" not in columns and "failure" not in columns:
        src.error(block.line, "the error recovery table has no Step column (nor a failure column naming "
                              "the steps)", "spec.table")
        return []
    for header, column in zip(block.header, columns, strict=False):
        if column is None:
            src.warn(block.line, f"column '{header}' is not a recovery column: its cells are read for "
                                 "policy, and an Owner names who an escalation is for; the rest is kept as notes",
                     "spec.unread")
    rows: list[RecoveryRowSpec] = []
    for line, cells in block.rows:
        rows += _row(block, line, cells, columns, src, ids)
    return rows


def _bullet(text: str, line: int, src: Source, ids: list[str], *, bullet: bool) -> None:
    named, rest = step_refs(text, ids)
    said = " ".join((rest if named else text).split())
    phrase = read_phrase(said)
    if bullet and not phrase.read and not phrase.signal:
        src.warn(line, f"error recovery: '{said[:60]}' not read", "spec.unread")
        return
    if named:
        record(phrase, said, line, src, section="recovery", steps=named, who=", ".join(named), note=text)
    else:
        record(phrase, said, line, src, section="recovery", steps=(), who="error recovery", specific=False)


class StepIds(list[str]):
    """The spec's step ids in order, with a set behind `in` (a table of thousands of rows stays linear)."""

    def __init__(self, ids: list[str]) -> None:
        super().__init__(ids)
        self._known = frozenset(ids)

    def __contains__(self, item: object) -> bool:
        return item in self._known


def read_recovery_section(blocks: list[Block], src: Source, ids: list[str]) -> list[RecoveryRowSpec]:
    """Every block of the Error Recovery section (module docstring): the table rows; bullet
    and paragraph readings go to `src.readings` (or are reported)."""
    ids = StepIds(ids)
    rows: list[RecoveryRowSpec] = []
    for block in blocks:
        if isinstance(block, Para) and block.text.lstrip().startswith("|"):
            src.error(block.line, "this table does not parse: it needs a header row and a "
                                  "`|---|---|` delimiter row", "spec.table")
        elif isinstance(block, Table):
            rows += _table(block, src, ids)
        elif isinstance(block, Bullet):
            _bullet(block.text, block.line, src, ids, bullet=True)
            for child in block.children:
                if isinstance(child, Bullet | Para):
                    _bullet(child.text, child.line, src, ids, bullet=True)
        elif isinstance(block, Para):
            for text, line in sentences(block.text, block.line):
                _bullet(text, line, src, ids, bullet=False)
        else:
            src.warn(block.line, "error recovery: block not read", "spec.unread")
    return rows
