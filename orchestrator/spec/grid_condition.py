"""A step's condition, or its other branch, said in a cell of its grid or table row.

    C1   fix loudness - ONLY if A = off    loudness-fix     lufs + peak from A     runs only when cue A's `off...`
    C2   else: master as-is                master-as-is     lufs from A            the other branch of C1
    | 3 | Refund — only if 2 says approved | `issue-refund` |                      runs only when step 2's `approved`
    | 4 | otherwise: send the apology      | `apology-mail` |                      the other branch of row 3

A step found from a row of a fixed-width grid (cells apart by two or more spaces) or of a `|` table
whose source row has three or more cells is read cell by cell, the row's key and the cell naming its
skill left out: a cell that opens with "else", "otherwise" or "if not" and a colon or a dash (or is that
word alone) makes the step the other branch of the nearest earlier step with a condition; a cell whose
tail after a dash, or whose opening, is "only if"/"only when"/"unless" ... (`spec.heading_condition`'s
`clause_said`) is its condition. An earlier step is named by its row key ("A", "C1": `spec.cue_notes
.cue_labels`), a circled number or a number. A value said of a step alone ("A = off") is that step's
output named by the word, true; the planner takes a field of that step whose name opens with the word
when none is so named (`word_field`: `off` is `off_target`). Every reading is warned at the row's line
(`spec.grid-condition`); a cell that looks like a condition and is not read is warned (the step always
runs). Cells that say "only" or "else" in other senses ("only the intro", "else we wait") are not read.

`read_grid_conditions` runs after `spec.heading_condition`, before `spec.only_when`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from orchestrator.spec.cue_notes import cue_labels, skill_of
from orchestrator.spec.heading_condition import Said, apply_said, clause_said, step_ref, tail_of
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.grid-condition"

_WIDE = _rx(r"(?<=\S)[ \t]{2,}+(?=\S)")
# "else: master as-is", "otherwise - skip", "if not —", "else"
_ELSE_CELL = _rx(r"(?i)^(?:otherwise|else|if[ \t]++not)(?:[ \t]*+$|[ \t]*+[:—–][ \t]*+|[ \t]++-[ \t]++)")
_KEY = _rx(r"^[ \t|*]*+(?:[A-Z][0-9]{0,2}+|[0-9]{1,3}+[a-z]?+)[.):]?+$")


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _row(step: StepSpec, end: int, src: Source) -> int:
    """The source line of the step's row: the line of its span that names its skill (its own line else)."""
    start, skill = _line(step), skill_of(step)
    if not skill:
        return start
    for n in range(start, min(end, start + 12, len(src.lines) + 1)):
        if skill in src.line_text(n):
            return n
    return start


def cells(line: str) -> list[str]:
    """The cells of a grid or table row: split at `|` when it has two or more, else at runs of 2+ spaces."""
    if line.count("|") >= 2:
        return [c.strip() for c in line.strip().strip("|").split("|")]
    return [c.strip() for c in _WIDE.split(line.strip())]


def _said(cell: str, named: Callable[[str], str | None]) -> Said | None:
    if _ELSE_CELL.match(cell):
        return Said("otherwise", cell)
    said = clause_said(cell, named, else_alone=False)
    if said is None and (tail := tail_of(cell)) is not None:
        said = clause_said(tail, named)
    return said


def read_grid_conditions(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose grid or table row says when it runs in a cell, read so (module docstring)."""
    if not any(s.form in ("list", "table", "paragraph") for s in steps):
        return steps
    labels = cue_labels(steps, src)
    starts = [_line(s) for s in steps]
    out: list[StepSpec] = []
    latest: StepSpec | None = None
    for index, step in enumerate(steps):
        if step.form in ("list", "table", "paragraph") and starts[index] and not (
                step.when or step.otherwise_where or step.otherwise_of or step.routes or step.approval):
            end = next((n for n in starts[index + 1:] if n > starts[index]), starts[index] + 12)
            row = _row(step, end, src)
            found = cells(src.line_text(row))
            skill = skill_of(step)
            if len(found) >= 3:
                earlier = list(out)

                def named(ref: str, earlier: list[StepSpec] = earlier) -> str | None:
                    return step_ref(ref, earlier, labels)

                for cell in found:
                    if not cell or _KEY.match(cell) or (skill and skill in cell and len(cell) <= len(skill) + 4):
                        continue
                    said = _said(cell, named)
                    if said is not None:
                        step = apply_said(step, said, latest, src, row, "its row's cell", CODE)
                        break
        if step.when:
            latest = step
        out.append(step)
    return out


def word_field(name: str, fields: Iterable[str]) -> str | None:
    """The one field whose name opens with the word `name` and more (`off` -> `off_target`), or None."""
    if not re.fullmatch(r"[a-z][a-z0-9]{1,20}", name):
        return None
    near = [f for f in fields if f.startswith(f"{name}_")]
    return near[0] if len(near) == 1 else None


_rx.save()
