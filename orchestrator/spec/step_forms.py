"""Steps written without step headings: list items, table rows and runbook paragraphs.

    1. Extract: `extract-rows` (table -> rows). Retry 3x.     a list item (ordered or not)
       - Depends on: none                                    its sub-bullets are its bullets
    | # | Step | Skill | Depends on | Notes |                 a table row per step (a Max
                                                             Attempts, Owner, ... cell goes to
                                                             the policy reader as it is)
    First pull the tarball using `fetch-mirror`. ...         a paragraph per step

Each becomes the number, name and blocks that `read_step` reads, with a `Reading`
saying how the text was taken as a step. An ordered list keeps its own numbers;
a bulleted list, a table without a number column and paragraphs are numbered in
order. What is not taken as a step is a warning with its line.
"""

from __future__ import annotations

import re

from orchestrator.spec import step_prose as prose
from orchestrator.spec.blocks import Block, Bullet, Para, Table
from orchestrator.spec.cell_literals26 import (
    copy_inputs,
    same_as,
    same_typed,
    split_literals,
    split_named,
)
from orchestrator.spec.condition_opening import otherwise_lead
from orchestrator.spec.fields import STEP_WORD, number_of, source_of, spell_step_refs, step_id
from orchestrator.spec.inputs_lead import inputs_lead
from orchestrator.spec.list_branches import (
    branch_steps,
    branches_of,
    inline_choice,
    inline_choice_steps,
    nested_choice,
    step_then_choice,
)
from orchestrator.spec.model import FieldSpec, Reading, SpecText, StepSpec
from orchestrator.spec.pair_item import pair_of, pair_steps
from orchestrator.spec.pair_sentence import sentence_pair, sentence_pair_steps
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.row_labels43 import relabel, row_labels
from orchestrator.spec.sections import join_branches
from orchestrator.spec.shape_aside import fallback_only, footer, not_a_step
from orchestrator.spec.sheet_cells27 import (
    aside_start,
    lower_shouted,
    own_words,
    start_note,
    whichever_rows,
)
from orchestrator.spec.source import Source
from orchestrator.spec.step import LABELS, read_step, step_heading
from orchestrator.spec.table35 import (
    cell_skill,
    doer_columns,
    doer_note,
    person_row,
    task_parts,
    tick_column,
    uses_cell,
)
from orchestrator.spec.table_columns import UNIT, columns_of, failure_header, needs_key
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

RouteSink = list[tuple[str, prose.RouteReading, int]]

_HEAD = _rx(r"^\s*(?:\*\*|__)?([^:`*_][^:`]{0,60}?)(?:\*\*|__)?(?:(?<!\s)\s+)?(?::|\s[—–-]\s)\s*(.*)$", re.S)
_BOLD_HEAD = _rx(r"^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*[.:—–-]?\s*(.*)$", re.S)
_SKILLISH = _rx(r"`[a-z0-9]+(?:-[a-z0-9]+)+`|`[a-z][a-z0-9]*_[a-z0-9_]+`|"
                r"(?<![\w*])(?:\*\*|\*)[a-z0-9]+(?:-[a-z0-9]+)+(?:\*\*|\*)(?![\w*])")
_STEP_LEAD = _rx(rf"^\s*(?:\*\*|__)?({STEP_WORD}\s+\w+\s*[:.\-–—]\s*[^*_.:\n]{{0,60}})", re.I)
_CLOSER = _rx(r"(?i)^(?:that['’]?s it|that is (?:it|all)|the end|done\.)")
# a condition cell that sets no condition, and one that is the other side of a condition before it
_ALWAYS = _rx(r"(?i)^\W*(?:always|every ?time|yes|unconditional(?:ly)?|any|all|n/?a|none|[-–—]|)\W*$")
_OTHER_CASE = _rx(
    r"(?i)^\W*(?:otherwise|else|(?:in\s+)?(?:any|all|every)\s+other\s+cases?|(?:for\s+)?anything\s+else|"
    r"the\s+rest|default|fallback\s+branch|not\s+#?\d+|if\s+not)\b")
_OTHER_OF = _rx(rf"(?i)\bnot\s+(?:{STEP_WORD}\s*|#)?(\d+)\b|(?:{STEP_WORD}\s*|#)(\d+)\s+(?:did\s+not|didn['’]t)\s+run")


def _reading(src: Source, line: int, text: str, note: str) -> Reading:
    one = " ".join(text.split())
    return Reading(what="step", where=src.where(line), text=one[:160], note=note)


def split_head(text: str) -> tuple[str, str]:
    """`Extract: `x` (a -> b). Retry 3x.` → ("Extract", "`x` (a -> b). Retry 3x.");
    `**Extract** — ...` likewise; no head → (a name made from the first clause, the text)."""
    for pattern in (_BOLD_HEAD, _HEAD):
        m = pattern.match(text)
        if m and len(m.group(1).split()) <= 6 and m.group(1).strip().lower() not in LABELS:
            return m.group(1).strip(), m.group(2).strip()
    return prose.name_of_sentence(text), text.strip()


def list_steps(items: list[Bullet], src: Source, sink: RouteSink, taken: set[int]) -> list[StepSpec]:
    """Each top-level list item a step; its text and sub-blocks are the step's."""
    steps: list[StepSpec] = []
    numbers = [number_of(i.number or "") if i.number else None for i in items]
    ordered = all(n is not None for n in numbers)
    shift = 0  # the steps a choice added before this item
    after: list[str] = []  # the branches of the item before, for a step that runs after "whichever ran"
    for position, item in enumerate(items, start=1):
        if item.label and LABELS.get(item.label) and not item.children:
            src.warn(item.line, f"'{item.text[:60]}' is a step bullet outside any step; not read",
                     "spec.unread")
            continue
        number = numbers[position - 1] if ordered else position
        assert number is not None
        line_step = one_line_step(item.text, item.line)
        if line_step is not None:
            number += shift  # after an item read as two steps, this one's number moves on too  # `if 3.failing > 0: **alert-tutor** ← course (3.course)`
            name, lead, other = line_step
            kind = "numbered list item" if item.ordered else "list item"
            reading = _reading(src, item.line, item.text, f"{kind} read as step-{number} ({name}): "
                               + "; ".join(str(getattr(b, "text", "")) for b in lead))
            step = read_step(number, name, item.line, [*lead, *item.children], src, form="list",
                             readings=(reading,), routes_sink=sink)
            if other:
                step = _other_case(step, item.text, item.line, src)
            steps.append(step)
            taken.add(item.line)
            continue
        name, rest = split_head(item.text)
        if (own := step_heading(name)) is not None:  # "- **Step 3: Load** — ..."
            number, name = own[0], own[1] or name
        kind = "numbered list item" if item.ordered else "list item"
        number += shift
        if (tree := nested_choice(item)) is not None:  # a step, then a choice under one of its bullets
            reading = _reading(src, item.line, item.text, f"{kind} read as step-{number} ({name})")
            split = step_then_choice(number, name, rest, item, tree, src, reading, sink)
            shift += len(split) - 1
            after = [s.id for s in split[1:]]
            steps += split
            taken.add(item.line)
            continue
        if (inline := inline_choice(item, rest)) is not None:  # "if x, run `a`; otherwise run `b`": two steps
            choice = _reading(src, item.line, item.text, f"{kind} read as a choice between two branches")
            split = inline_choice_steps(number, name, inline, item, src, choice)
            shift += len(split) - 1
            after = [s.id for s in split]
            steps += split
            taken.add(item.line)
            continue
        if branches_of(item):  # nested bullets that are the branches of a choice: a step each
            choice = _reading(src, item.line, item.text, f"{kind} read as the lead of a choice between the "
                                                         "branches under it")
            split = branch_steps(number, name, item, rest, src, choice)
            shift += len(split) - 1
            after = [s.id for s in split]
            steps += split
            taken.add(item.line)
            continue
        if item.children and (pair := pair_of(item.text, list(item.children))) is not None:
            # "Tally the orders and pull the oven board -- do these two at the same time": two steps
            split = pair_steps(number, pair, item.line, kind, src, sink)
            shift += 1
            steps += [join_branches(split[0], after, src) if after else split[0], split[1]]
            after = []
            taken.add(item.line)
            continue
        if (found := sentence_pair(item.text, item.line, item.children)) is not None:
            # "Kick off `a` on X and `b` on Y at the same time": two steps started together
            split = sentence_pair_steps(number, found, item.line, kind, src, sink)
            shift += 1
            steps += [join_branches(split[0], after, src) if after else split[0], split[1]]
            after = []
            taken.add(item.line)
            continue
        reading = _reading(src, item.line, item.text, f"{kind} read as step-{number} ({name})")
        blocks: list[Block] = ([Para(line=item.line, text=rest)] if rest else []) + list(item.children)
        step = read_step(number, name, item.line, blocks, src, form="list", readings=(reading,), routes_sink=sink)
        steps.append(join_branches(step, after, src) if after else step)
        after = []
        taken.add(item.line)
    return steps


_ONE_SKILL = _rx(r"(?:\*\*|__)([a-z0-9]+(?:-[a-z0-9]+)+)(?:\*\*|__)|`([a-z0-9]+(?:-[a-z0-9]+)+)`")
_LEAD_FOR_EACH = _rx(r"(?i)^\s*for\s+(?:each|every)\s+`?(\w+)`?\s+(?:in|of|from)\s+`?([#\w.-]+(?:\s+\d+)?)`?\s*(?:→|->|=>|,|:)?\s*")
_LEAD_WAIT = _rx(rf"(?i)^\s*(?:wait\s+for|after|once)\s+((?:all\s+(?:of\s+)?)?(?:{STEP_WORD}\s*|#)?\d+(?:\s*(?:,|and|&)\s*(?:{STEP_WORD}\s*|#)?\d+)*)"
                 r"(?:\s+(?:is|are|has|have)\s+(?:done|finished))?\s*(?:,\s*then|,|:|→|->|then)\s*")
_LEAD_IF = _rx(r"(?i)^\s*(?:if|when|only\s+if)\s+(.+?)\s*(?::|,\s*then|\s+then|→|->)\s*(?=[`*_])")
_LEAD_ELSE = _rx(r"(?i)^\s*(?:else|otherwise|if\s+not)\s*(?::|,|→|->)\s*(?=[`*_])")
_TAKES = _rx(r"^\s*(?:←|<-)\s*(.+)$", re.S)


def one_line_step(text: str, line: int) -> tuple[str, list[Block], bool] | None:
    """A list item that is a whole step on one line: lead clauses, the skill in bold or backticks,
    then `← inputs` ("for each student in 1.students → **grade-student** ← name, raw, max", "wait
    for all of 2, then **summarise-grades** ← results (all of 2)", "if 3.failing > 0: **alert-tutor**",
    "else: **publish-grades**"). (name, the step's labelled lines, whether it is an else); None
    when the item is not written so (no skill name right after its leads, or no `←`/lead at all)."""
    rest = text.strip()
    lead: list[Block] = []
    other = False
    while True:
        if (m := _LEAD_FOR_EACH.match(rest)) is not None:
            source = source_of(m.group(2).lstrip("#"), m.group(2)) if re.match(r"#?\d", m.group(2)) else None
            value = f"{m.group(1)} in {source or m.group(2)}"
            lead.append(Bullet(line=line, text=f"for each: {value}", label="for each", value=value))
        elif (m := _LEAD_WAIT.match(rest)) is not None:
            value = re.sub(r"(?i)^all\s+(?:of\s+)?", "", m.group(1))
            lead.append(Bullet(line=line, text=f"depends on: {value}", label="depends on", value=value))
        elif (m := _LEAD_ELSE.match(rest)) is not None:
            other = True
        elif (end := otherwise_lead(rest)) is not None:  # "failing that, `x`", "if it isn't → `x`"
            other, rest = True, rest[end:]
            continue
        elif (m := _LEAD_IF.match(rest)) is not None:
            value = spell_step_refs(m.group(1))
            lead.append(Bullet(line=line, text=f"when: {value}", label="when", value=value))
        else:
            break
        rest = rest[m.end():]
    skill = re.match(r"^\s*(?:the\s+)?" + _ONE_SKILL.pattern, rest)
    if skill is None:
        return None
    name = skill.group(1) or skill.group(2)
    after = rest[skill.end():].strip()
    takes = _TAKES.match(after)
    if not lead and not other and takes is None:
        return None  # "**Extract** — pull the rows": a name and a description, read as before
    blocks: list[Block] = [Bullet(line=line, text=f"skill: `{name}`", label="skill", value=f"`{name}`"), *lead]
    if takes is not None:
        blocks.append(Bullet(line=line, text=f"input: {takes.group(1)}", label="input", value=takes.group(1).strip()))
    elif after:
        blocks.append(Para(line=line, text=after))
    return name, blocks, other


_DASH = re.compile(r"^\s*+(?:(?:[-–—]+|n/?a|tbd|\?)\s*+)?$", re.I)


def _with_unit(header: str, value: str) -> str:
    """A bare number under a header that gives the unit ("Timeout (min)": "5") with that unit."""
    unit = UNIT.search(header.lower())
    return f"{value} {unit.group(1)}" if unit and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value) else value


def is_step_table(table: Table, vocabulary: Vocabulary | None = None) -> bool:
    """A table with a Skill column, or a step/name column beside depends/input/output ones, or
    (given the catalog) a column whose cells name its skills (`spec.table35`)."""
    columns = columns_of(table.header)
    if "skill" in columns or (vocabulary is not None and doer_columns(table, columns, vocabulary)[1] is not None):
        return True
    return ("name" in columns or "number" in columns) and bool({"depends", "input", "output"} & set(columns))


def table_steps(table: Table, src: Source, sink: RouteSink) -> list[StepSpec]:
    """Each row a step: its cells become the step's labelled lines."""
    from orchestrator.spec.prose import policy_header

    columns = columns_of(table.header)
    columns, doer = with_doer(table, columns, src)  # a Done by / Who column of skills (`spec.table35`)
    for at, (header, column) in enumerate(zip(table.header, columns, strict=True)):
        # "Retry / timeout", "If it fails": the policy reader's column; a column of tick boxes (`spec.table35`)
        if column is None and not policy_header(header.lower()) and not failure_header(header) \
                and not tick_column(table, at):
            src.warn(table.line, f"column '{header}' of the steps table is not a step field; its cells are "
                                 "read only for policy", "spec.unread")
    steps: list[StepSpec] = []
    position = 0
    by_name = _row_names(table, columns)  # "from ORDER TALLY": a row by its name (`spec.cell_literals26`)
    labels = _labels(table, columns, doer, src)  # "1", "1a", "2": the rows' own labels (`spec.row_labels43`)
    for line, cells in table.rows:
        cells = tuple(_with_unit(h, v) for h, v in zip(table.header, cells, strict=False))
        if labels is not None:  # "printed (3)": the row labelled 3, step-4
            cells = (cells[0], *(relabel(c, labels) for c in cells[1:]))
        values = {c: v.strip() for c, v in zip(columns, cells, strict=False) if c}
        if "needs" in values:  # "Needs" beside a skill column: step numbers, or what the step takes
            needs = values.pop("needs")
            key = needs_key(needs)
            if not _DASH.match(needs):
                values[key] = f"{values[key]}; {needs}" if values.get(key) else needs
        if doer is not None and (who := person_row(cells, doer, src.vocabulary)) is not None:
            src.warn(line, f"row '{values.get('name', '') or cells[0]}' is done by {who}, a person, and names no "
                           "skill: not a step", "spec.unread")
            continue
        if _summary_row(values, columns):
            _whole_run_row(table, columns, line, cells, values, src)
            continue
        position += 1
        number = position
        raw_number = values.pop("number", "")
        raw_name = values.get("name", "")
        if raw_number and labels is None:
            found = number_of(raw_number.strip(".)# ")) or _step_number(raw_number)
            number = found if found is not None else position
        elif raw_name and (n := _step_number(raw_name)) is not None and "number" not in columns:
            number = n
        name = values.pop("name", "") or values.pop("id", "") or f"Step {number}"
        said_more, other_said = "", False
        if doer is not None:  # "Book transport 🤖 — can go straight away", "**Otherwise** ..." (`spec.table35`)
            name, said_more, other_said = task_parts(name)
        if (own := step_heading(name)) is not None:  # a Step cell "Step 2: Parse"
            number, name = (own[0] if not raw_number else number), own[1] or name
        blocks: list[Block] = []
        when = re.sub(r"(?i)^\s*(?:only\s+)?(?:if|when)\s+", "", values.pop("when", ""))  # "if #3 severity ≥ 8"
        other = _OTHER_CASE.match(when) if when else None
        if other_said and other is None:
            when, other = "otherwise", _OTHER_CASE.match("otherwise")
        if said_more:
            blocks.append(Para(line=line, text=said_more))
        if when and other is None and not _ALWAYS.match(when):  # `#3 severity ≥ 8`
            blocks.append(Bullet(line=line, text=f"when: {when}", label="when", value=spell_step_refs(when)))
        if doer is not None and values.get("input") and (skill := cell_skill(values.get("skill", ""), src.vocabulary)):
            values["input"], renamed = uses_cell(values["input"], skill, src.vocabulary)  # (`spec.table35`)
            if renamed:
                src.warn(line, f"step-{number} ({name}): " + ", ".join(renamed) + f", by what `{skill}` takes; "
                               "check the plan", "spec.reading")
        for key in ("depends", "input"):  # "objects from row 1", "after R2": rows are the steps
            if values.get(key):
                values[key] = _ROW_REF.sub(r"#\1", values[key])
        typed: dict[str, object] = {}
        named: list[FieldSpec] = []
        copied = same_as(values.get("input", ""))  # "same as 3": that row's inputs
        if copied is not None:
            values.pop("input")
        either = whichever_rows(values.get("input", ""))  # "cost from whichever of 3/4 happened" (`spec.sheet_cells27`)
        owned = own_words(values.get("input", ""))  # "date = trip date": the author's words (`spec.sheet_cells27`)
        if values.get("input"):  # `store = Dock St`, `start = 03:30`: values typed in (`spec.cell_literals26`)
            values["input"], typed = split_literals(values["input"])
            values["input"], named = split_named(values["input"], by_name, src.where(line))
            values["input"], shouted = lower_shouted(values["input"])  # ORDERS: `orders` (`spec.sheet_cells27`)
            if shouted:
                src.warn(line, f"step-{number} ({name}): " + ", ".join(f"'{w}'" for w in shouted) + " typed in capitals "
                         "read as " + ", ".join(f"`{w.lower()}`" for w in shouted) + ", the name in lower case; check the plan",
                         "spec.reading")
        for key in ("skill", "depends", "input", "output"):
            if values.get(key):
                label = {"depends": "depends on"}.get(key, key)
                blocks.append(Bullet(line=line, text=f"{label}: {values[key]}", label=label, value=values[key]))
        # cells no structural reader takes (Max Attempts, Owner, ...): the policy reader's (`spec.prose`)
        cells_left = tuple(SpecText(text=v.strip(), line=line, label=" ".join(h.lower().split()), kind="cell")
                           for h, c, v in zip(table.header, columns, cells, strict=False)
                           if (c is None or c == "attempts") and v.strip())
        values.pop("attempts", "")
        for key, value in values.items():
            if key in ("skill", "depends", "input", "output", "notes") or _DASH.match(value):
                continue  # a dash or "n/a" says nothing
            blocks.append(Bullet(line=line, text=f"{key}: {value}", label=key.replace("_", " "), value=value))
        start_said = "the notes say"
        start = start_note(values["notes"]) if values.get("notes") and not values.get("depends") else None
        if start is not None and start[0] != number:  # "starts same time as 1, dont wait" (`spec.sheet_cells27`)
            values["notes"] = start[1]
        if start is None and not values.get("depends"):  # "SAME TIME AS 1 - allergens" in any other cell
            start = next((said for cell in cells_left if (said := start_note(cell.text)) is not None), None)
        if start is None and not values.get("depends") and (aside := aside_start(name)) is not None \
                and aside[0] != number:  # "Mileage (same time as 1, doesnt need it)" (`spec.sheet_cells27`)
            start, name, start_said = (aside[0], ""), aside[1], "its name's bracket says"
        if values.get("notes"):
            blocks.append(Para(line=line, text=values["notes"]))
        reading = _reading(src, line, " | ".join(cells), f"table row read as step-{number} ({name})")
        step = read_step(number, name, line, blocks, src, form="table", readings=(reading,),
                         routes_sink=sink, cells=cells_left)
        if other is not None:
            step = _other_case(step, when, line, src)
        if either:  # said as `name = step-3.cost or step-4.cost`, which `spec.either_input` reads
            step = step.model_copy(update={"texts": (*step.texts, *(SpecText(
                text=f"{k} = " + " or ".join(f"step-{r}'s {w}" for r in rows), line=line, label=None, kind="cell")
                for k, w, rows in either))})
            src.warn(line, f"step-{number} ({name}): " + ", ".join(f"`{k}` from whichever of "
                           + " / ".join(f"step-{r}" for r in rows) + f" ran (its `{w}`)" for k, w, rows in either)
                     + "; check the plan", "spec.reading")
        if owned:  # kept as the row's text: the inputs said in prose take the author's name from it
            step = step.model_copy(update={"texts": (*step.texts, *(SpecText(text=f"{k} = {w}", line=line, label="uses",
                                                                             kind="cell") for k, w in owned))})
        if start is not None and start[0] != number and step.starts_with is None:
            src.warn(line, f"step-{number} ({name}): {start_said} it starts with row {start[0]}: it waits for what "
                           f"step-{start[0]} waits for, not for the row above; check the plan", "spec.reading")
            step = step.model_copy(update={"starts_with": f"step-{start[0]}"})
        if named:
            src.warn(line, f"step-{number} ({name}): " + ", ".join(f"`{f.name}` from {f.source.split('.')[1]}"
                                                                 for f in named if f.source)
                     + " (its row named by the row's name); check the plan", "spec.reading")
            step = step.model_copy(update={"inputs": (*step.inputs, *named)})
        if typed:
            src.warn(line, f"step-{number} ({name}): " + ", ".join(f"'{k} = {v}'" for k, v in typed.items())
                     + " read as the value the step takes (typed into its row); check the plan", "spec.reading")
            step = step.model_copy(update={"input_values": {**step.input_values, **typed}})
        if copied is not None:
            step = copy_inputs(step, steps, copied, line, src)
        steps.append(same_typed(step, steps, src))
    return steps


def _labels(table: Table, columns: list[str | None], doer: int | None, src: Source) -> dict[str, int] | None:
    """The rows' labels in the table's first column to their steps' numbers, when they are not those numbers
    (`spec.row_labels43`), said at the table's line; None when the rows have no such labels."""
    if not columns or columns[0] not in (None, "number"):
        return None
    firsts = []
    for _line, cells in table.rows:
        values = {c: v.strip() for c, v in zip(columns, cells, strict=False) if c}
        if (doer is not None and person_row(cells, doer, src.vocabulary) is not None) or _summary_row(values, columns):
            continue
        firsts.append(cells[0] if cells else "")
    labels = row_labels(firsts, columns[0] == "number")
    if labels is not None:
        src.warn(table.line, f"the rows' labels in column '{table.header[0]}' are not the steps' numbers: "
                             + ", ".join(f"{k} is step-{n}" for k, n in labels.items() if k != str(n))
                             + "; a row named by its label in another row's cells is that step; check the plan",
                 "spec.reading")
    return labels


def with_doer(table: Table, columns: list[str | None], src: Source) -> tuple[list[str | None], int | None]:
    """The columns with a doer column of skills read as the skill column, said at the table's line."""
    read, doer = doer_columns(table, columns, src.vocabulary)
    if doer is not None:
        src.warn(table.line, doer_note(table, doer, read, columns), "spec.reading")
    return read, doer


def _row_names(table: Table, columns: list[str | None]) -> dict[str, str]:
    """Each row's name (lower-cased) to the step id it will have, for rows with a name and a number."""
    names: dict[str, str] = {}
    if "name" not in columns or "number" not in columns:
        return names
    at, nat = columns.index("name"), columns.index("number")
    for _, cells in table.rows:
        name = " ".join(cells[at].split()).lower() if len(cells) > at else ""
        number = number_of(cells[nat].strip(".)# ")) if len(cells) > nat else None
        if name and number is not None and not name.isdigit():
            names[name] = f"step-{number}"
    return names


# the name of a row that sums up the table rather than doing a step: "TOTAL", "Overall", "Whole run"
_SUMMARY = re.compile(r"(?i)^\W*(?:(?:grand\s+|sub-?)?totals?|sum|overall|all\s+(?:steps|rows|of\s+it)|"
                      r"(?:whole|entire|full)\s+(?:run|sheet|table|workflow|job|thing|process)|end[\s-]to[\s-]end|Σ)\W*$")


_ROW_REF = re.compile(r"\b(?:[Rr]ow\s*+#?\s*+|R)(\d+)\b")


def _summary_row(values: dict[str, str], columns: list[str | None]) -> bool:
    """A row that is no step: no skill where the table has a Skill column, and no number where
    it has a number column (else a name that sums up, "TOTAL", "Overall", or none at all)."""
    if "skill" not in columns or values.get("skill", "").strip("-–— "):
        return False
    if "number" in columns:
        return not values.get("number", "").strip("-–—#. ")
    name = values.get("name", "")
    return not name.strip() or _SUMMARY.match(name) is not None


def _whole_run_row(table: Table, columns: list[str | None], line: int, cells: tuple[str, ...] | list[str],
                   values: dict[str, str], src: Source) -> None:
    """A summary row's other cells state limits of the whole run ("must finish inside the 1 h
    window"): each is read as one; a cell that states none is a warning at the row."""
    from orchestrator.spec.phrase import read_phrase
    from orchestrator.spec.prose import record

    name = values.get("name", "").strip() or "the row without a number or skill"
    said = [v.strip() for c, v in zip(columns, cells, strict=False)
            if v.strip() and c not in ("name", "number", "skill") and v.strip().strip("-–— ")]
    read = False
    for text in said:  # only a limit of the whole run: a row of no step gives no step a policy
        phrase = read_phrase(text)
        if phrase.read and phrase.statement.whole_run:
            record(phrase, text, line, src, section="workflow", steps=(), who=f"row '{name}'")
            read = True
    if not read and not _SUMMARY.match(name):
        src.warn(line, f"row '{name}' of the steps table has no number and no skill, so it is not read as a "
                       "step: if it is one, give it its number and skill", "spec.unread")
    elif not read:
        src.warn(line, f"row '{name}' of the steps table is not a step (no number, no skill)"
                       + ("; none of its cells reads as a limit of the whole run: write one as "
                          "'the whole run must finish within 1 h'" if said else "; not read"), "spec.unread")


def _other_case(step: StepSpec, text: str, line: int, src: Source) -> StepSpec:
    """A condition cell "any other case (not #4)", "otherwise": the step runs exactly when the
    condition of the step it names (else of the nearest earlier step with one) was false."""
    named = _OTHER_OF.search(text)
    of = f"step-{named.group(1) or named.group(2)}" if named else None
    where = src.where(line)
    note = (f"runs exactly when the condition of {of} was false" if of
            else "runs exactly when the condition of the step before it was false")
    update: dict[str, object] = {
        "otherwise_where": where, "field_where": {**step.field_where, "when": where},
        "readings": (*step.readings, Reading(what="otherwise", where=where, text=text, note=note)),
    }
    if of:
        update["otherwise_of"] = of
    return step.model_copy(update=update)


def _step_number(text: str) -> int | None:
    sid = step_id(text)
    return int(sid.split("-")[1]) if sid else None


def starts_step(text: str) -> bool:
    """A runbook paragraph that starts a step: it opens with a sequence word, or names a skill
    without opening as a condition or a remark on the step before ("If the mirror is down
    use `backup-mirror`")."""
    t = text.strip()
    if inputs_lead(t) or not_a_step(t) or fallback_only(t):  # "Inputs: ...", a remark, a fallback (`shape_aside`)
        return False
    return bool(prose.SEQUENCE_START.match(t)) or (bool(_SKILLISH.search(t)) and not _GOES_ON.match(t))


def names_skill(text: str) -> bool:
    """The text names something in backticks that looks like a skill or tool (`fetch-mirror`)."""
    return bool(_SKILLISH.search(text))


_GOES_ON = _rx(r"(?i)^(?:if|when|unless|otherwise|either|or|but|also|note|it|its|it's|this|that|these|"
               r"those|in case|should|on failure|on error|failing that|else)\b")


def paragraph_steps(blocks: list[Block], src: Source, sink: RouteSink, taken: set[int]) -> list[StepSpec]:
    """A runbook: each paragraph that starts a step begins one; the paragraphs after it
    (until the next) belong to it; text before the first step is not read."""
    from orchestrator.spec.para_split import (  # it reads `branch_parallel`, which step_prose reads
        joined_beside,
        split_paragraphs,
        started_together,
    )

    groups: list[tuple[Para, list[Block]]] = []
    leads: dict[int, str] = {}  # the paragraph just before each step's paragraph
    previous = ""
    for block in split_paragraphs(blocks, src, starts_step):
        if isinstance(block, Para) and starts_step(block.text):
            leads[len(groups)] = previous
            groups.append((block, []))
        elif groups and not (isinstance(block, Para) and (_CLOSER.match(block.text.strip()) or footer(block.text))):
            groups[-1][1].append(block)
        previous = str(getattr(block, "text", ""))
    steps: list[StepSpec] = []
    number = 0
    for index, (para, rest) in enumerate(groups):
        number += 1
        if "\n" in para.text and (pair := pair_of("", [para, *rest], leads.get(index, ""))) is not None:
            # a labelled list of two skills ("tide:: `read-tide` ...", "crew:: `crew-roster` ..."): two steps
            steps += pair_steps(number, pair, pair.first.line, "labelled list", src, sink, form="paragraph")
            taken.update([para.line, *(b.line for b in rest)])
            number += 1
            continue
        name = prose.name_of_sentence(para.text)
        head = _STEP_LEAD.match(para.text)
        if head is not None and (own := step_heading(head.group(1))) is not None:
            number, name = own[0], own[1] or name  # "**Step 2: Verify.** Check it with ..."
        readings = [_reading(src, para.line, para.text, f"paragraph read as step-{number} ({name})")]
        readings += [_reading(src, b.line, str(getattr(b, "text", "")), f"read as part of step-{number}")
                     for b in rest]
        step = read_step(number, name, para.line, [para, *rest], src, form="paragraph",
                         readings=tuple(readings), routes_sink=sink)
        word = _THEN.match(para.text.strip())
        if word and re.search(r"(?i)\s(?:and|&)\s", word.group(0)):
            word = None  # "Once the slug is ready and the list is clean,": two things, which the data says
        if word and steps and step.depends_where is None:
            # "Then ...", "Once you have the tarball, ...": after the step before it
            together = started_together(steps)  # "Then ..." after two steps started together: after both
            step = step.model_copy(update={
                "depends_on": tuple(together), "depends_where": src.where(para.line),
                "readings": (*step.readings, Reading(what="depends_on", where=src.where(para.line),
                                                     text=word.group(0).strip(),
                                                     note=f"'{word.group(0).strip()}' read as after "
                                                          f"{', '.join(together)}")),
            })
        if steps and step.depends_where is None and step.unordered_where is None and joined_beside(para.text):
            step = step.model_copy(update={  # ", and also have `b` ...": split off a paragraph, beside the step before
                "unordered_where": src.where(para.line),
                "readings": (*step.readings, Reading(what="depends_on", where=src.where(para.line),
                                                     text=para.text[:60], note="does not wait for the step before it "
                                                     "(said together with it), only for the steps whose outputs it reads")),
            })
        _warn_guessed(para, rest, number, src)
        steps.append(step)
        taken.update([para.line, *(b.line for b in rest)])
    return steps


def _warn_guessed(para: Para, rest: list[Block], number: int, src: Source) -> None:
    """A paragraph read as a step for a name shaped like a skill's that no catalog skill or tool
    has: the planner can only guess its skill from its words, so that is said at its line."""
    vocabulary = src.vocabulary
    if not vocabulary.skills:
        return
    texts = [para.text, *(str(getattr(b, "text", "")) for b in rest)]
    named = [m.group(0).strip("`*") for t in texts for m in _SKILLISH.finditer(t)]
    if not named or any(vocabulary.skill_for(n) for n in named):
        return
    shown = ", ".join(f"`{n}`" for n in dict.fromkeys(named))
    src.warn(para.line, f"step-{number}: this paragraph is read as a step because it names {shown}, but no "
                        "catalog skill has that name, so its skill is only guessed from its words: name the "
                        "step's skill in backticks, or, if it is no step (a list of inputs, a remark), "
                        "write it under an Inputs heading or as a note", "spec.anchored")


_THEN = _rx(r"(?i)^(?:then|next|after that|afterwards|finally|lastly|once [^,.]{1,60},|"
            r"when (?:that|this|it) is done,|second(?:ly)?|third(?:ly)?)")


_rx.save()
