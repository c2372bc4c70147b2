"""A plain-text sheet (a tour day sheet, a shift card) whose step lines open with a marker (`~`, `>`, `*`)
and list each step's inputs after `<-`, read as the markdown it stands for, line for line:

    DATE ...... [show_date]     CITY ...... [city]      two-column fill-ins: each `LABEL .... [name]`
    SETTLEMENT (tablet does the sums, TM signs)         the line over the block: `## Steps`
    ~ box-office-count + merch-count kick off together  a marker line with no `<-`: a group; "together",
        box-office-count  <- venue, show date. gives x    "at the same time", "in parallel": its steps
           (45 sec then kill it, retry x3)                start together (each `<-` line a step)
        merch-count       <- city. gives merch_gross
    ~ then deal-calc <- sold (box office), tix, cap,    a marker line with `<-`: a step of its own; the
        guarantee 1800 and split 80. gives payout       words before the skill ("then", "last") kept
    ~ last settle-sheet <- venue, payout, sold

Each step line becomes a numbered list item `N. <words> <skill>, with <list>` and its indented lines the
item's lines (its bracketed rules are read as the step's policies there); a group line and the fill-in
lines become blank. The fill-ins are the workflow inputs (`[name]` in square brackets after a dotted
label; two or more on one line read each). Each item of a `<-` list gives one input of the step's skill
(`bind_lists`): the input of its name, or whose name it shortens ("cap" `capacity`, "split 80"
`split_pct`), or that the value's own name says longer ("show date" is `show_date`, for `date`); the
value is a number said after the words (a literal), the fill-in of its name or that its name shortens
("tix" `tix_eur`), else the nearest earlier step giving it (a bracket naming the step picks: "sold (box
office)"). The one item and the one input left over go together, warned. What is not matched is warned.

A sheet needs two `<-` step lines at least, a marker line among them and no markdown heading; else it
is left as it is. Every pattern is anchored or bounded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.check import SpecParts
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.marker-sheet"
_MARKER = _rx(r"^(?P<indent>[ \t]{0,8}+)(?P<m>[~>*])[ \t]++(?P<rest>\S.*+)$")
# "then deal-calc <- sold, tix", "box-office-count  <- venue, show date. gives sold + comps"
_ARROW = _rx(r"^(?P<lead>(?:[A-Za-z]++[ \t]++){0,3}+)(?P<skill>[a-z0-9]++(?:-[a-z0-9]++)++)[ \t]*+(?:<-|\u2190)"
             r"[ \t]*+(?P<rest>.*+)$")
_FILL = _rx(r"(?P<label>[A-Z][A-Za-z0-9#&'/ ]{0,30}?)[ \t]*+\.{3,}+[ \t]*+\[(?P<name>[a-z][a-z0-9_]{0,40}+)\]"
            r"(?P<note>[ \t]*+\([^()\n]{1,80}+\))?+")
_RULE = _rx(r"^[ \t]*+[=_-]{5,}+[ \t]*+$")
_GIVES = _rx(r"(?i)(?:^|[.;][ \t]*+)(?:(?:gives|returns|outputs)(?![\w-])|->)")
_TOGETHER = _rx(r"(?i)(?<![\w-])(?:together|at[ \t]++the[ \t]++same[ \t]++time|in[ \t]++parallel|side[ \t]++by[ \t]++side|"
                r"simultaneously|at[ \t]++once)(?![\w-])")
_NOT = _rx(r"(?i)(?<![\w-])(?:not|never|n['\u2019]t)(?![\w-])")
_ITEM = _rx(r"^(?P<words>[A-Za-z][A-Za-z0-9_ '\u2019-]{0,40}?)(?:[ \t]++(?P<number>-?\d++(?:\.\d++)?+)%?+)?+"
            r"(?:[ \t]*+\((?P<note>[^()]{1,60}+)\))?+$")
_SPLIT = _rx(r"(?<![ \t])[ \t]*+(?:,|;|\+|(?<![\w-])and(?![\w-]))[ \t]*+")


@dataclass
class SheetStep:
    """One `<-` line: its number, line, skill, the list's text and the line of the group it starts with."""

    number: int
    line: int
    skill: str
    listed: str
    together_with: int | None = None  # the number of the first step of its group, when they start together
    group_line: int = 0


@dataclass
class Sheet:
    """The sheet read: its markdown (line for line), fill-in inputs and steps."""

    markdown: str
    inputs: list[tuple[str, str, int]] = field(default_factory=list)  # (name, label, line)
    steps: list[SheetStep] = field(default_factory=list)
    heading: tuple[int, str] = (0, "")


def _list_text(rest: str, more: list[str]) -> str:
    """The `<-` list: the line's words, and its next lines' up to a bracket or "gives", before "gives"."""
    text = rest
    for line in more:
        if line.lstrip().startswith("(") or _GIVES.search(text):
            break
        text += " " + line.strip()
    cut = _GIVES.search(text)
    return (text[:cut.start()] if cut is not None else text).strip(" .;")


def read_sheet(text: str) -> Sheet | None:
    """The sheet (module docstring), or None when the text is no such sheet."""
    lines = text.splitlines()
    if any(line.startswith("#") and line.lstrip("#").startswith(" ") for line in lines):
        return None
    markers = [(i, m) for i, line in enumerate(lines) if (m := _MARKER.match(line)) is not None]
    if not markers or len({m.group("m") for _, m in markers}) != 1:
        return None
    first = markers[0][0]
    out = list(lines)
    sheet = Sheet(markdown="")
    group: tuple[int, int, bool] | None = None  # (line index, its indent, whether it says together)
    number = 0
    i = first
    marker_at = {i for i, _ in markers}
    while i < len(lines):
        line = lines[i]
        m = _MARKER.match(line)
        body = m.group("rest") if m is not None else line.strip()
        indent = len(line) - len(line.lstrip())
        arrow = _ARROW.match(body)
        if m is None and (not line.strip() or group is None or indent <= group[1]) and arrow is None:
            break  # the block ends at a blank line or an unindented line of no step
        if arrow is None and m is not None:  # a group line
            group = (i, indent, bool(_TOGETHER.search(body)) and not _NOT.search(body))
            out[i] = ""
            i += 1
            continue
        if arrow is None:
            i += 1
            continue
        if m is not None:
            group = None
        more = []
        j = i + 1
        while j < len(lines) and lines[j].strip() and j not in marker_at and _ARROW.match(lines[j].strip()) is None \
                and len(lines[j]) - len(lines[j].lstrip()) > indent:
            more.append(lines[j])
            j += 1
        number += 1
        step = SheetStep(number=number, line=i + 1, skill=arrow.group("skill"), listed=_list_text(arrow.group("rest"), more))
        if group is not None and group[2]:
            firsts = [s for s in sheet.steps if s.group_line == group[0] + 1]
            step.group_line = group[0] + 1
            step.together_with = firsts[0].number if firsts else None
        sheet.steps.append(step)
        lead = arrow.group("lead")
        out[i] = f"{number}. {lead}{arrow.group('skill')}, with {arrow.group('rest').strip()}"
        for k in range(i + 1, j):
            out[k] = "   " + lines[k].strip()
        i = j
    if len(sheet.steps) < 2:
        return None
    if i < len(lines) and not lines[i].strip() and any(line.strip() for line in lines[i + 1:]):
        out[i] = "## Notes"  # the lines after the block: the run's rules, never more steps
    above = first - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    if above < 0:
        return None
    sheet.heading = (above + 1, lines[above].strip())
    out[above] = "## Steps"
    for k, line in enumerate(lines[:above]):
        found = list(_FILL.finditer(line))
        if found:
            sheet.inputs += [(f.group("name"), " ".join((f.group("label").strip() + (f.group("note") or "")).split()),
                              k + 1) for f in found]
            out[k] = ""
    for k in range(first, len(lines)):  # a rule under the block's lines: no heading's underline
        if _RULE.match(lines[k]):
            out[k] = ""
    sheet.markdown = "\n".join(out) + ("\n" if text.endswith("\n") else "")
    return sheet


def _words(name: str) -> list[str]:
    return [w for w in name.lower().replace("-", "_").replace(" ", "_").split("_") if w]


def _shortens(said: str, name: str) -> bool:
    """Whether `said` is `name` or names it shortened: "cap" `capacity`, "split" `split_pct`, `nom_psi`
    `nominal_psi`, "sailing date" `sail_date`, "show date" for `date` (its last words), each word shortened
    three letters or more."""
    a, b = _words(said), _words(name)
    if not a or not b:
        return False
    if a == b:
        return True
    if len(a) < len(b) and b[:len(a)] == a:  # "split" for `split_pct`
        return True
    if len(b) < len(a) and a[-len(b):] == b and all(len(w) >= 3 for w in b):  # "show date" for `date`
        return True
    return len(a) == len(b) and all(x == y or (min(len(x), len(y)) >= 3 and (y.startswith(x) or x.startswith(y)))
                                    for x, y in zip(a, b, strict=True))


def _item(part: str) -> tuple[str, float | int | None, str] | None:
    m = _ITEM.match(part.strip())
    if m is None:
        return None
    said = m.group("number")
    value: float | int | None = None if said is None else (float(said) if "." in said else int(said))
    return m.group("words").strip(), value, m.group("note") or ""


def bind_lists(steps: list[StepSpec], sheet: Sheet, src: Source, vocabulary: Vocabulary) -> list[StepSpec]:
    """The steps with each `<-` list's items as their inputs, and their starts (module docstring)."""
    by_line = {s.line: s for s in sheet.steps}
    fills = [name for name, _, _ in sheet.inputs]
    out: list[StepSpec] = []
    made: list[tuple[StepSpec, frozenset[str]]] = []  # the steps before, each with what its skill gives
    ids: dict[int, str] = {}
    for step in steps:
        line = int(step.where.rsplit(":", 1)[-1]) if step.where.rsplit(":", 1)[-1].isdigit() else 0
        said = by_line.get(line)
        skill = said.skill if said is not None else (step.skill or "").strip("`")
        reads = vocabulary.inputs_of(skill) if said is not None else None
        if said is None:
            out.append(step)
            made.append((step, vocabulary.outputs_of(skill) or frozenset()))
            continue
        ids[said.number] = step.id
        update = _bind(step, said, sorted(reads), fills, made, src) if reads else {}
        if said.together_with is not None and (first := ids.get(said.together_with)) is not None and \
                not step.depends_on and step.starts_with is None:
            where = src.where(said.group_line)
            src.warn(said.group_line, f"the sheet's group line says its steps start together: {step.id} starts "
                                      f"with {first}, waiting for what it waits for", CODE)
            update |= {"starts_with": first, "unordered_where": where, "readings": (
                *step.readings, Reading(what="depends_on", where=where, text=src.line_text(said.group_line)[:160],
                                        note=f"starts together with {first}"))}
        new = step.model_copy(update=update)
        out.append(new)
        made.append((new, vocabulary.outputs_of(skill) or frozenset()))
    return out


def _source(words: str, note: str, fills: list[str], made: list[tuple[StepSpec, frozenset[str]]]) -> str | None:
    """Where an item's value comes from: the fill-in of its name or that its name shortens, else the nearest
    earlier step giving it (the one the note names, when it names one)."""
    key = "_".join(_words(words))
    for name in fills:
        if name == key:
            return f"inputs.{name}"
    longer = [name for name in fills if name.startswith(key + "_") or _shortens(key, name)]
    if len(longer) == 1:
        return f"inputs.{longer[0]}"
    givers = [s for s, outs in made if key in outs]
    if note:
        noted = [s for s in givers if set(_words(note)) & set(_words((s.skill or "").strip("`")) + _words(s.name))]
        givers = noted or givers
    return f"steps.{givers[-1].id}.output.{key}" if givers else None


def _bind(step: StepSpec, said: SheetStep, reads: list[str], fills: list[str],
          made: list[tuple[StepSpec, frozenset[str]]], src: Source) -> dict[str, object]:
    where = src.where(said.line)
    fields: list[FieldSpec] = []
    values: dict[str, object] = dict(step.input_values)
    left = list(reads)
    unmatched: list[tuple[str, float | int | None, str, str]] = []
    notes: list[str] = []
    for part in (p for p in _SPLIT.split(said.listed) if p.strip()):
        got = _item(part)
        if got is None:
            notes.append(f"'{part.strip()[:40]}' not read")
            continue
        words, value, note = got
        source = None if value is not None else _source(words, note, fills, made)
        source_name = source.rsplit(".", 1)[-1] if source else ""
        target = next((f for f in left if _shortens(words, f)), None) or next(
            (f for f in left if source_name and _shortens(source_name, f)), None)
        if target is None:
            unmatched.append((words, value, note, source or ""))
            continue
        left.remove(target)
        if value is None and source is None:
            notes.append(f"'{words}' (for `{target}`) names no fill-in and no earlier step's output")
            continue
        _give(target, value, source, where, fields, values)
    if len(unmatched) == 1 and len(left) == 1 and (unmatched[0][1] is not None or unmatched[0][3]):
        words, value, _note, source = unmatched[0]
        _give(left[0], value, source or None, where, fields, values)
        src.warn(said.line, f"{step.id} ({said.skill}): '{words}' in its `<-` list is read as its skill's "
                            f"`{left[0]}`, the one input left (the one item left): if not, write `{left[0]} <- ...`",
                 CODE)
        unmatched, left = [], []
    notes += [f"'{w}' names no input of `{said.skill}`" for w, _v, _n, _s in unmatched]
    if notes:
        src.warn(said.line, f"{step.id} ({said.skill}): in its `<-` list, " + "; ".join(notes), CODE)
    taken = {f.name for f in fields}
    return {"inputs": (*(f for f in step.inputs if f.name not in taken), *fields), "input_values": values}


def _give(name: str, value: float | int | None, source: str | None, where: str, fields: list[FieldSpec],
          values: dict[str, object]) -> None:
    if value is not None:
        values[name] = value
    elif source is not None:
        fields.append(FieldSpec(name=name, required=False, source=source, where=where))


def apply_sheet(parts: SpecParts, sheet: Sheet, src: Source) -> SpecParts:
    """The markdown reader's parts with the sheet's fill-ins as the inputs (when it declares none) and its
    `<-` lists bound (`bind_lists`)."""
    update: dict[str, object] = {"steps": tuple(bind_lists(list(parts.steps), sheet, src, src.vocabulary))}
    if parts.inputs is None and sheet.inputs:
        update["inputs"] = sheet_inputs(sheet, src)
    return parts.model_copy(update=update)


def sheet_inputs(sheet: Sheet, src: Source) -> tuple[InputSpec, ...]:
    """The fill-ins as the workflow inputs, each with its label."""
    return tuple(InputSpec(name=name, description=label, where=src.where(line)) for name, label, line in sheet.inputs)


_rx.save()
