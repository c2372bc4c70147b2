"""A project plan's task sheet saved as fixed-width text (MS Project, ProjectLibre, GanttProject): the markdown it stands for.

    Fill in: Text1 = plot   Text2 = run_date          a legend of custom fields (`Text1`, `Number2`, `Date1`,
             Number1 = length_m                       `Flag3` ...) naming the inputs: `## Inputs`, one a line
    ID  Task Name     Duration  Predecessors  Resource Names  Notes      the header: `## Steps`
    0   WHOLE JOB     1 day                                   2 hrs max   a row before the first step: the steps' lead
    1   Fetch         0.1 days                fetch-rows      from Text1  -> ## Step 1: Fetch, `fetch-rows`, no deps
    2   Price         0.1 days  1,3FS+2d      price-rows      ...         -> its deps: the rows' IDs, type and lag left
                                                              >> more     a line with no ID: the row above's text
    3   Sign off      0 days    2             Site office     manual      a row naming no skill: a person's, not a step

The header is a line of two or more column titles parted by two blanks or more, the first an ID column ("ID",
"#", "No") and among the others a predecessors column ("Predecessors", "Depends on") and a resources column
("Resource Names", "Resources", "Assigned to"). Each column starts where its title starts; a row opens with a
number in the ID column, and a line whose ID cell is empty goes on the row above (its own line in the step's
text, so a finding points at it). A blank line, or a line whose cell breaks the columns, ends the table.
A row is a step when its resource cell is a catalog skill (without a catalog: one hyphenated lowercase
name); the steps are numbered in order, each depending on the steps its predecessor IDs are ("none" when
the cell is empty: it starts at once). A predecessor that is no step is left out, warned; a link type
or lag ("FS+7 days") is not read, warned. Rows before the first step (the summary task) give their notes as
the lead of the steps; other rows without a skill are warned and not read. The Task Name is the step's
name; the Notes cell its text; other columns (Duration, Start, Finish) are the schedule's, warned once.

A custom field's code in a cell ("[Text1]", "Number1-3") is written as the input's name it stands for.
A sheet needs the header and two step rows; else it is left as it is. Patterns anchored and bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ID = frozenset({"id", "#", "no", "no.", "nr", "task id", "uid", "wbs"})
_PRED = frozenset({"predecessors", "predecessor", "depends on", "dependencies", "after"})
_RES = frozenset({"resource names", "resources", "resource", "assigned to", "resource name", "assignee"})
_NAME = frozenset({"task name", "name", "task", "title"})
_NOTES = frozenset({"notes", "note", "comments", "description"})

_CODE = r"(?:Text|Number|Date|Flag|Cost|Duration|Start|Finish|Outline\s?Code)\d{1,2}+"
# a legend's pair: "Text1 = plot", "Number2: slab_wid_m (mm)"
_PAIR = _rx(rf"\b({_CODE})[ \t]*+[=:][ \t]*+([A-Za-z_][A-Za-z0-9_]{{0,40}}+)(?:[ \t]*+(\([^()\n]{{0,40}}+\)))?+")
# a code in a cell: "[Text1]", "Number1-3", "Number2"
_REF = _rx(rf"\b({_CODE})(?:-(\d{{1,2}}+))?+\b")
_TITLE_GAP = _rx(r"\S(?:[^\s]|[ \t](?=\S))*+")  # a title: words parted by single blanks
_PRED_ITEM = _rx(r"^(\d{1,4}+)([A-Za-z]{2})?+([ \t]*+[-+][^,;]*+)?+$")
_ROW_ID = _rx(r"^\d{1,4}+$")
_SKILL = _rx(r"^[a-z][a-z0-9]*+(?:-[a-z0-9]++){1,6}+$")


@dataclass
class _Row:
    tid: str
    at: int
    cells: list[str]
    more: list[tuple[int, str]] = field(default_factory=list)


def _columns(line: str) -> list[tuple[int, str]]:
    """The (start, lowered title) of each column title of a header line."""
    out: list[tuple[int, str]] = []
    for m in _TITLE_GAP.finditer(line):
        out.append((m.start(), " ".join(m.group(0).lower().split())))
    return out


def _header(line: str) -> dict[str, int] | None:
    """Which column index holds the id, predecessors, resources, name and notes; None when no task sheet header."""
    cols = _columns(line)
    if len(cols) < 4 or cols[0][1] not in _ID:
        return None
    kinds: dict[str, int] = {"id": 0}
    for index, (_, title) in enumerate(cols[1:], 1):
        for kind, words in (("pred", _PRED), ("res", _RES), ("name", _NAME), ("notes", _NOTES)):
            if title in words and kind not in kinds:
                kinds[kind] = index
    return kinds if "pred" in kinds and "res" in kinds else None


def _cells(line: str, starts: list[int]) -> list[str] | None:
    """The line cut at the columns' starts; None when a word crosses a column's start."""
    cells = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(line)
        if 0 < start < len(line) and line[start - 1] not in " \t" and line[start] not in " \t":
            return None
        cells.append(line[start:end].strip())
    return cells


def _legend(lines: list[str], before: int) -> dict[str, tuple[str, str, int]]:
    """Each custom field's code -> (input name, its bracketed note, 0-based line), from the lines before the header."""
    out: dict[str, tuple[str, str, int]] = {}
    for at in range(before):
        for m in _PAIR.finditer(lines[at]):
            out.setdefault(m.group(1).replace(" ", "").lower(), (m.group(2), m.group(3) or "", at))
    return out if len(out) >= 2 else {}


def _named(cell: str, legend: dict[str, tuple[str, str, int]]) -> str:
    """The cell with each custom field's code written as the input's name ("Number1-3": three names)."""
    def name(m: re.Match[str]) -> str:
        code, upto = m.group(1).replace(" ", ""), m.group(2)
        stem = code.rstrip("0123456789")
        first = int(code[len(stem):])
        last = int(upto) if upto and int(upto) > first else first
        names = [legend.get(f"{stem}{n}".lower(), ("", "", 0))[0] for n in range(first, min(last, first + 20) + 1)]
        return ", ".join(names) if all(names) else m.group(0)
    return _REF.sub(name, cell) if legend else cell


def _is_skill(cell: str, vocabulary: Vocabulary) -> str | None:
    name = cell.strip("` ")
    if vocabulary.skills:
        return vocabulary.skill_for(name)
    return name if _SKILL.match(name) else None


def task_sheet_markdown(text: str, vocabulary: Vocabulary) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """(markdown, origin, warnings) of a text holding a project plan's task sheet (module docstring), or None."""
    lines = text.split("\n")
    heads = ((at, kinds) for at, line in enumerate(lines) if (kinds := _header(line)) is not None)
    head_at, kinds = next(heads, (-1, {}))
    if head_at < 0:
        return None
    starts = [start for start, _ in _columns(lines[head_at])]
    titles = [title for _, title in _columns(lines[head_at])]
    rows: list[_Row] = []
    end = head_at + 1
    while end < len(lines) and lines[end].strip():
        cells = _cells(lines[end], starts)
        if cells is None:
            break
        if _ROW_ID.match(cells[0]):
            rows.append(_Row(cells[0], end, cells))
        elif not cells[0] and rows:
            rows[-1].more.append((end, lines[end].strip()))
        else:
            break
        end += 1
    skills = [_is_skill(row.cells[kinds["res"]], vocabulary) for row in rows]
    if sum(1 for s in skills if s) < 2:
        return None
    legend = _legend(lines, head_at)
    warnings: list[tuple[int, str]] = []
    out: list[str] = []
    origin: list[int] = []

    def put(text_: str, at: int) -> None:
        out.append(text_)
        origin.append(at)

    legend_lines = sorted({at for _, _, at in legend.values()})
    for at in range(head_at):
        if at in legend_lines:
            if at == legend_lines[0]:
                put("## Inputs", at)
                put("", at)
            for name, note, where in legend.values():
                if where == at:
                    put(f"- {name} {note}".rstrip(), at)
            if at == legend_lines[-1]:
                put("", at)
            continue
        put(lines[at], at)
    put("## Steps", head_at)
    put("", head_at)
    step_of = {row.tid: str(n) for n, row in enumerate((r for r, s in zip(rows, skills, strict=True) if s), 1)}
    number = 0
    other = [titles[i] for i in range(len(titles)) if i not in kinds.values()]
    if other:
        warnings.append((head_at + 1, "the task sheet's column(s) " + ", ".join(f"'{t}'" for t in other)
                         + " are the schedule's, not read"))
    for row, skill in zip(rows, skills, strict=True):
        notes = _named(row.cells[kinds["notes"]], legend) if "notes" in kinds else ""
        more = [(at, _named(t, legend)) for at, t in row.more]
        if not skill:
            if number == 0:  # the summary task(s) before the steps: their notes lead the steps
                for at, t in [(row.at, notes), *more]:
                    if t:
                        put(t, at)
                        put("", at)
            else:
                warnings.append((row.at + 1, f"task {row.tid} of the task sheet names no skill "
                                             f"('{row.cells[kinds['res']]}'): a person's task or a milestone, not a step"))
            continue
        number += 1
        name = _named(row.cells[kinds["name"]], legend) if "name" in kinds else f"Task {row.tid}"
        put(f"## Step {number}: {name}", row.at)
        put("", row.at)
        put(f"- Skill: {skill}", row.at)
        deps: list[str] = []
        for item in (p.strip() for p in row.cells[kinds["pred"]].replace(";", ",").split(",")):
            m = _PRED_ITEM.match(item) if item else None
            if not item:
                continue
            if m is None or m.group(1) not in step_of:
                warnings.append((row.at + 1, f"task {row.tid}: predecessor '{item}' is no step of the sheet; not read"))
                continue
            if m.group(2) or m.group(3):
                warnings.append((row.at + 1, f"task {row.tid}: predecessor '{item}' read as task {m.group(1)}; "
                                             "its link type and lag are not read"))
            deps.append(step_of[m.group(1)])
        put(f"- Depends on: {', '.join(deps) if deps else 'none'}", row.at)
        put("", row.at)
        if row.tid != str(number):
            warnings.append((row.at + 1, f"task {row.tid} of the task sheet read as step {number}"))
        for at, t in [(row.at, notes), *more]:
            if t:
                put(t, at)
                put("", at)
    warnings.insert(0, (head_at + 1, f"the task sheet on lines {head_at + 1}-{end} read as {number} steps "
                                     "(each row whose resource is a skill), its custom-field legend as the inputs"
                        if legend else f"the task sheet on lines {head_at + 1}-{end} read as {number} steps "
                                       "(each row whose resource is a skill)"))
    for at in range(end, len(lines)):
        put(lines[at], at)
    return "\n".join(out), origin, warnings


_rx.save()
