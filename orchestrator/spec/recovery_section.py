"""The Error Recovery section of a markdown spec: its tables, bullets and paragraphs.

    | Step | Failure | Detection | Recovery | Fallback | Max Attempts | Owner |   a table
    | When | Do this |                                                     a table without a Step column
    - Step 3: retry 3 times, waiting 2s between tries                        a bullet naming its steps
    - If anything else blows up just fail the run                           a bullet for every step

Columns are recognised by words in their header (`COLUMNS`); other columns are
kept and read cell by cell (`recovery.read_recovery_row`). Steps are found as the
structure reader finds them (`structure.StepIndex`: a number, id or name). A Step
cell names one step, a list ("9, 10") or every step ("any", "all"). Without a
Step column, a row's step is the one its failure cell opens with ("Step 1, any
error", "Step 3 crashes"), else the one step whose name it names ("Mail server
down" for "Send the mail", kept as a reading of that step); a catch-all
("anything not listed below") is a row for every step, and so, with a warning,
is a row that names no step. A bullet is read as one statement for the steps its
start names ("Step 3:", "Steps 1 and 2:"), else for the one step whose name it
names, else for every step; a paragraph, sentence by sentence, likewise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.blocks import Block, Bullet, Para, Table
from orchestrator.spec.fields import NUMBER, STEP_WORD
from orchestrator.spec.model import Reading, RecoveryRowSpec
from orchestrator.spec.policy_text import is_catch_all, read_feedback
from orchestrator.spec.prose import read_named, record, sentences
from orchestrator.spec.recovery import RowCells, read_recovery_row
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import read_step_list
from orchestrator.spec.structure import StepIndex

# header word → the cell's meaning, first match wins
COLUMNS: tuple[tuple[str, str | None], ...] = (
    ("step", "step"), ("retries", None), ("tries", None), ("detect", "detection"), ("how noticed", "detection"), ("recover", "recovery"),
    ("do this", "recovery"), ("what to do", "recovery"), ("what we do", "recovery"), ("action", "recovery"),
    ("response", "recovery"), ("reaction", "recovery"), ("remedy", "recovery"), ("mitigation", "recovery"),
    ("handling", "recovery"), ("fallback", "fallback"), ("then", "fallback"), ("otherwise", "fallback"),
    ("type", "error_class"), ("class", "error_class"), ("attempt", "max_attempts"), ("still fail", "fallback"),
    ("if it fail", "fallback"), ("if that fail", "fallback"), ("give up", "fallback"), ("fail", "failure"),
    ("error", "failure"), ("when", "failure"), ("problem", "failure"), ("issue", "failure"),
    ("condition", "failure"), ("case", "failure"), ("situation", "failure"), ("symptom", "failure"),
    ("scenario", "failure"), ("what happens", "failure"),
)  # fmt: skip
_EVERY_STEP = re.compile(r"(?i)^\W*(?:any|all|every|\*|each|catch[- ]?all|default|everything|anything|"
                         r"any step|all steps|every step|other|others)\b")
_REFS = (rf"(?:{STEP_WORD}s?)\s+{NUMBER}(?:\s*(?:,|\band\b|&|/|-|–|—|\bto\b|\bor\b)\s*"
         rf"(?:{STEP_WORD}s?\s+)?{NUMBER})*")
_LEADING = re.compile(rf"(?i)^\s*+(?:\*\*)?\s*+(?:for\s+)?(?:(?P<all>all\s+steps|every\s+step|each\s+step|any\s+step)|"
                      rf"(?P<refs>{_REFS}))\b\s*(?:\*\*)?(?:\s*[:,;.)—–-]\s*|\s+(?=\S)|$)")


class RecoveryRows(list[RecoveryRowSpec]):
    """The rows of the section, and the readings of steps found by name (`StepIndex.named_in`)."""

    readings: dict[str, list[Reading]]

    def __init__(self) -> None:
        super().__init__()
        self.readings = {}


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
        name = next((col for word, col in COLUMNS if word in low), None)  # None: a policy column of its own
        if name is not None and name in columns:
            name = None
        columns.append(name)
    if "step" not in columns and "failure" not in columns and columns and columns[0] is None:
        columns[0] = "failure"  # | Situation | What we do |: the first column says what went wrong
    if not {"recovery", "fallback", "max_attempts"} & set(columns) and None in columns[1:]:
        columns[columns.index(None, 1)] = "recovery"  # and the next unnamed one what to do
    return columns


def leading_steps(text: str, index: StepIndex) -> tuple[tuple[str, ...], str]:
    """The steps a text's start names ("Steps 1 and 2:", "Step 1, any error", "Step 3 crashes",
    "all steps:") and the rest of it; ((), text) when it opens with none."""
    m = _LEADING.match(text)
    if m is None:
        return (), text
    if m.group("all"):
        return tuple(index.every()), text[m.end():]
    found = read_step_list(m.group("refs"), bare_digits=True)
    resolved = [index.resolve(t) for t in found.ids]
    if not found.ids or not all(resolved):
        return (), text
    return tuple(dict.fromkeys(r for r in resolved if r)), text[m.end():]


def _row(block: Table, line: int, cells: tuple[str, ...], columns: list[str | None], src: Source,
         index: StepIndex, every: list[str], out: RecoveryRows) -> None:
    raw = raw_cells(src.line_text(line))
    if len(raw) != len(columns):
        src.error(line, f"table row has {len(raw)} cells; the header has {len(columns)}", "spec.table")
        return
    values = {c: v for c, v in zip(columns, cells, strict=False) if c}
    extra = tuple((h, v) for h, c, v in zip(block.header, columns, cells, strict=False) if c is None)
    step_cell = values.pop("step", None)
    if step_cell is not None:
        cell = step_cell.strip().strip("`")
        if (is_catch_all(cell) or _EVERY_STEP.match(cell)) and index.resolve(cell) is None:
            out += _rows(every, RowCells(**values, extra=extra), src, line, index, every_step=True)
            return
        named = _cell_steps(cell, index)
        if not named:
            src.error(line, f"table row names step '{cell}', which the spec does not have", "spec.unknown-step")
            return
        out += _rows(named, RowCells(**values, extra=extra), src, line, index)
        return
    failure = values.get("failure", "")
    named, rest = leading_steps(failure, index)
    if named:
        values["failure"] = rest
        out += _rows(named, RowCells(**values, extra=extra), src, line, index)
        return
    if not is_catch_all(failure) and not _EVERY_STEP.match(failure):
        by_name = index.named_in(failure)
        if by_name is not None:
            sid, words = by_name
            out.readings.setdefault(sid, []).append(Reading(
                what="recovery", where=src.where(line), text=" ".join(failure.split())[:160],
                note=f"Error Recovery row read as {sid}'s: its failure names the step ('{words}')"))
            out += _rows((sid,), RowCells(**values, extra=extra), src, line, index)
            return
        src.warn(line, f"error recovery: the row '{failure.strip()[:60]}' names no step (write `Step N, ...`, "
                       "the step's name, or add a Step column); it applies to every step", "spec.unread")
    out += _rows(every, RowCells(**values, extra=extra), src, line, index, every_step=True)


def _rows(sids: Sequence[str], cells: RowCells, src: Source, line: int, index: StepIndex, *,
          every_step: bool = False) -> list[RecoveryRowSpec]:
    """A row for each of `sids`, read and reported once: the first step's reading, copied
    (re-read quietly where the row names a step to regenerate, which depends on whose it is)."""
    if not sids:
        return []
    who = "every step" if every_step else ", ".join(sids)
    first = read_recovery_row(sids[0], cells, src, line, every_step=every_step, resolve=index.resolve, who=who)
    if read_feedback(cells.recovery, "") is None:
        return [first, *(first.model_copy(update={"step": sid}) for sid in sids[1:])]
    quiet = Source(src.text, src.path)
    return [first, *(read_recovery_row(sid, cells, quiet, line, every_step=every_step, resolve=index.resolve)
                     for sid in sids[1:])]


def _cell_steps(cell: str, index: StepIndex) -> tuple[str, ...]:
    """A Step cell's steps: one by number, id or name, or a list ("9, 10", "Steps 1 and 2")."""
    sid = index.resolve(cell)
    if sid is not None:
        return (sid,)
    found = read_step_list(cell, bare_digits=True)
    resolved = [index.resolve(t) for t in (*found.ids, *found.names)]
    if found.ids and all(resolved):
        return tuple(dict.fromkeys(r for r in resolved if r))
    return ()


def _table(block: Table, src: Source, index: StepIndex, every: list[str], out: RecoveryRows) -> None:
    columns = table_columns(block, src)
    if "step" not in columns and "failure" not in columns:
        src.error(block.line, "the error recovery table has no Step column (nor a failure column naming "
                              "the steps)", "spec.table")
        return
    for header, column in zip(block.header, columns, strict=False):
        if column is None:
            src.warn(block.line, f"column '{header}' is not a recovery column: its cells are read for "
                                 "policy, and an Owner names who an escalation is for; the rest is kept as notes",
                     "spec.unread")
    for line, cells in block.rows:
        _row(block, line, cells, columns, src, index, every, out)


def _bullet(text: str, line: int, src: Source, index: StepIndex, out: RecoveryRows, *, bullet: bool) -> None:
    named, rest = leading_steps(text, index)
    said = " ".join((rest if named else text).split())
    phrase = read_named(said, index.resolve)
    if bullet and not phrase.read and not phrase.signal:
        src.warn(line, f"error recovery: '{said[:60]}' not read", "spec.unread")
        return
    if not named and (phrase.read or phrase.signal) and not is_catch_all(said):
        by_name = index.named_in(said)
        if by_name is not None:
            named = (by_name[0],)
            out.readings.setdefault(by_name[0], []).append(Reading(
                what="recovery", where=src.where(line), text=said[:160],
                note=f"Error Recovery sentence read as {by_name[0]}'s: it names the step ('{by_name[1]}')"))
    if named:
        record(phrase, said, line, src, section="recovery", steps=named, who=", ".join(named), note=text)
    else:
        record(phrase, said, line, src, section="recovery", steps=(), who="error recovery", specific=False)


def read_recovery_section(blocks: list[Block], src: Source, index: StepIndex) -> RecoveryRows:
    """Every block of the Error Recovery section (module docstring): the table rows, and the
    readings of steps found by name; bullet and paragraph readings go to `src.readings` (or
    are reported)."""
    out = RecoveryRows()
    every = index.every()
    for block in blocks:
        if isinstance(block, Para) and block.text.lstrip().startswith("|"):
            src.error(block.line, "this table does not parse: it needs a header row and a "
                                  "`|---|---|` delimiter row", "spec.table")
        elif isinstance(block, Table):
            _table(block, src, index, every, out)
        elif isinstance(block, Bullet):
            _bullet(block.text, block.line, src, index, out, bullet=True)
            for child in block.children:
                if isinstance(child, Bullet | Para):
                    _bullet(child.text, child.line, src, index, out, bullet=True)
        elif isinstance(block, Para):
            for text, line in sentences(block.text, block.line):
                _bullet(text, line, src, index, out, bullet=False)
        else:
            src.warn(block.line, "error recovery: block not read", "spec.unread")
    return out
