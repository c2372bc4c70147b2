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
from orchestrator.spec.fields import split_top
from orchestrator.spec.model import InputSpec, StepSpec
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
_TICK = _rx(r"(?i)^\s*+(?:[☐☑☒✓✔✗✘□■]|\[\s*+[x✓]?\s*+\]|done|tick|✅|❌)?\s*+$")
# the values an input's description lists: "walking / wheelchair / stretcher", "red or amber or green"
_LISTED = _rx(r"(?i)(?<![\w/])[a-z][a-z0-9-]{1,30}+(?:\s*+(?:/|\bor\b)\s*+[a-z][a-z0-9-]{1,30}+){1,8}+(?![\w/])")
_LISTED_SPLIT = _rx(r"(?i)(?:(?<!\s)\s++)?(?:/|\bor\b)\s*+")
# a Uses part: its words end where a source or an aside begins ("vehicle from #4", "med plan (from #2)")
_HEAD_END = _rx(r"(?i)(?:(?<!\s)\s++)?\(|(?<!\s)\s++(?:from|of|off)\s++")
_OWN = _rx(r"^\s*+`?+([A-Za-z_]\w{0,60}+)`?+\s*+=")
_ROW_SAID = _rx(r"(?i)(?:#|\b(?:step|row)\s*+)\d{1,3}\b")
_PAREN = _rx(r"\(([^()]{1,120}+)\)")
# "<a skill> flags <state>": what a skill reports, as a condition
_FLAGS = _rx(r"(?i)^\W*+(?:the\s++)?(?P<thing>[`*\w-]{2,60}+)(?:\s++(?:skill|step|check))?\s++(?:says|shows|reports|finds|flags|"
             r"marks|comes\s++back)\s++(?:(?:it|that|as|with|up)\s++)?(?P<state>[\w' -]{1,60}+)$")
_ASIDE_END = _rx(r"(?:(?<!\s)\s++)?\([^()]{0,120}+\)\s*+$")
_FILLER = frozenset({"a", "an", "the", "is", "it", "its", "as", "any", "some", "there", "s", "are", "was"})
# "**Otherwise** (nothing high risk) ...", "Else: ...", "If not, ..." opening a Task cell
_OTHERWISE = _rx(r"(?i)^(?:\*\*|__)?(?:otherwise|else|if\s++not)(?:\*\*|__)?[ \t]*+(?:\([^()]{0,80}+\))?[ \t]*+[,:—–-]?[ \t]*+")
# the dash between a step's name and what more its cell says: "Book transport — can go straight away"
_DASH_SPLIT = _rx(r"(?<![ \t])[ \t]++(?:—|–|--)[ \t]++")
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
        if column is not None or "(" in table.header[at]:  # "Entry action (skill)": said, and the state reader's
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


def tick_column(table: Table, at: int) -> bool:
    """A column of tick boxes only (☐, ☑, ✓, [ ], [x], or empty), under a header that is one too or
    none: a checklist's boxes to tick by hand, which say nothing of the step."""
    cells = [table.header[at], *(c[at] if at < len(c) else "" for _, c in table.rows)]
    return all(_TICK.match(c) for c in cells)


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


def flagged_condition(text: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """A condition said as what a skill reports: "`med-rec` flags high risk (anticoag ...)",
    "the stock-count says low stock": the output of that skill whose name is the state's words
    (`high_risk`, `low_stock`), `== true`, or `> 0` for a count (`late_count`); (the expression, the
    output's skill) or None when the words name no such output of the skill (or of one skill alone)."""
    m = _FLAGS.match(_ASIDE_END.sub("", text).strip())
    if m is None or not vocabulary.skills:
        return None
    state = "_".join(w for w in _WORDS.findall(m.group("state").lower()) if w not in _FILLER)
    if not state:
        return None
    thing = _MARKS.sub("", m.group("thing")).strip().lower()
    named = [s for s in sorted(vocabulary.skills) if s == thing or s in thing.split()]
    found = [(s, o) for s in (named or sorted(vocabulary.skills)) for o in sorted(vocabulary.outputs_of(s) or ())
             if o.lower() == state or o.lower() in (f"{state}_count", f"{state}_n", f"is_{state}", f"has_{state}")]
    if len({o for _, o in found}) != 1:
        return None
    skill, out = found[0]
    return (f"{out} > 0" if out.lower().endswith(("_count", "_n")) else f"{out} == true"), skill


def uses_cell(cell: str, skill: str, vocabulary: Vocabulary) -> tuple[str, list[str]]:
    """A Uses cell in the author's words, each part given the name of the skill's input it is:
    "discharge date" -> `date = discharge_date` (the input's name among the part's words), "how many
    meds (count from #1)" -> `meds_count = count from #1`, and the one part left that names a row
    ("vehicle from #4") -> the one input left (`transport = vehicle from #4`). (the cell, what was
    renamed); the cell as it was when the skill's inputs are not known or no part needs a name."""
    takes = vocabulary.inputs_of(skill) or frozenset()
    if not takes:
        return cell, []
    parts = [p.strip() for p in split_top(cell, ",;+") if p.strip()]
    free = set(takes)
    names: list[str | None] = []
    for part in parts:
        head = _snake(_HEAD_END.split(part, maxsplit=1)[0])
        own = _OWN.match(part)
        name = own.group(1) if own else head if head in free else None
        names.append(name)
        free.discard(name or "")
    for i, part in enumerate(parts):  # an input whose words are all among the part's
        if names[i] is None:
            words = set(_WORDS.findall(_MARKS.sub("", part).lower()))
            fits = [t for t in sorted(free) if set(t.lower().split("_")) <= words]
            if len(fits) == 1:
                names[i] = fits[0]
                free.discard(fits[0])
    left = [i for i, n in enumerate(names) if n is None and _ROW_SAID.search(parts[i])]
    if len(left) == 1 and len(free) == 1 and sum(n is None for n in names) == 1:
        names[left[0]] = free.pop()  # the one part left that names a row: the one input left
    said: list[str] = []
    out: list[str] = []
    for part, name in zip(parts, names, strict=True):
        head = _snake(_HEAD_END.split(part, maxsplit=1)[0])
        inner = _PAREN.search(part)
        own_row = bool(inner and _ROW_SAID.search(inner.group(1)))
        if name is None or _OWN.match(part) or (head == name and not own_row and (
                part.strip().strip("`") == name or not _ROW_SAID.search(part))):
            out.append(part)
            continue
        end = _HEAD_END.search(part)
        value = inner.group(1).strip() if inner and own_row else (
            f"{name}{part[end.start():]}" if head == name and end is not None else part.strip()) \
            if _ROW_SAID.search(part) else head
        if not value:
            out.append(part)
            continue
        out.append(f"{name} = {value}")
        said.append(f"'{part}' as `{name}` ({value})")
    return ", ".join(out), said


def _snake(text: str) -> str:
    return "_".join(_WORDS.findall(_MARKS.sub("", text).lower()))


def value_gates(steps: list[StepSpec], inputs: tuple[InputSpec, ...], src: Source) -> list[StepSpec]:
    """A step's approval asked for one of the values an input lists ("`mobility` — walking / wheelchair /
    stretcher" and "Stretcher ambulance needs the bed manager's OK first"): the gate holds only when the
    input has that value (`mobility == 'stretcher'`), said at the line. The value must open the approval's
    sentence and be listed by one input alone; a gate with a condition already is left as it is."""
    listed: dict[str, list[str]] = {}  # a value -> the inputs that list it
    for spec in inputs:
        for run in _LISTED.finditer(spec.description):
            for value in _LISTED_SPLIT.split(run.group(0)):
                listed.setdefault(value.strip().lower(), []).append(spec.name)
    if not listed:
        return steps
    out: list[StepSpec] = []
    for step in steps:
        asked = next((r for r in step.readings if "approval" in r.note and r.what != "otherwise"), None)
        if step.approval is None or step.approval.when is not None or asked is None:
            out.append(step)
            continue
        first = _WORDS.match(_MARKS.sub("", asked.text).lstrip(" >-*"))
        names = listed.get(first.group(0).lower(), []) if first else []
        if first is None or len(set(names)) != 1:
            out.append(step)
            continue
        when = f"{names[0]} == '{first.group(0).lower()}'"
        src.warn(int(asked.where.rsplit(":", 1)[1]), f"{step.id}: the approval asked for '{first.group(0)}' is read as "
                 f"held only when `{when}` (a value `{names[0]}` lists); check the plan", "spec.approval-condition")
        out.append(step.model_copy(update={"approval": step.approval.model_copy(update={"when": when})}))
    return out


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
        read: list[str] = []
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
            read.append(f"`{name}`" + ("" if m is not None else f" (named from its field; '{value}' is its example)"))
        if read:
            src.warn(table.line, "the field/value table before the steps is read as the workflow inputs: "
                     + ", ".join(read) + "; check the plan", "spec.reading")
    return tuple(found.values()) or None


_rx.save()
