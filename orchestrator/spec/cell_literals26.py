"""A value typed into a step's "what it takes" cell: `store = Dock St`, `start = 03:30`.

    | FEED IT                                   |
    | store = Dock St                           |  -> store: "Dock St"        (a name, in capitals)
    | batches from DOUGH SHEET; start = 03:30   |  -> start: "03:30"         (a number or a time)
    | venue = Horniman Museum, date = trip date |  -> venue: "Horniman Museum"; `date = trip date` left

A steps table (markdown, or a sheet pasted as CSV/TSV) says what a step takes in one cell, its
parts split at commas and semicolons. A part `name = value` whose value is written as a value is the
step's literal for that input: a number, a time or a date (it starts with a digit), a quoted text,
or a proper name (its words start with capitals: "Dock St", "Horniman Museum"). A value that names a
step or a row ("from step 1", "(FLOUR CHECK)", "#2") or is in lower-case words ("trip date",
"headcount from step 1") says where the value comes from, so it is left to the readers of sources.
A part that names another row by its name ("totals from ORDER TALLY", "flour_kg = flour in the bin
(FLOUR CHECK)") takes that row's output, the field its words name (`split_named`; the planner picks
the field, `plan.words_field26`), warned. Each literal taken is warned at the row (a guess at what the author typed). A later row that lists
the name alone ("venue, trip date, ...") takes the value typed for it above (`same_typed`), and a cell
"same as 3" the inputs of row 3 (`copy_inputs`), warned.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.fields import split_top
from orchestrator.spec.model import FieldSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(r"^\s*+`?+(?P<name>[A-Za-z_][\w-]{0,60}+)`?+\s*+(?:=|:=)\s*+(?P<value>[^=]{1,120}+)$")
_NUMBERISH = _rx(r"^\d[\d:.,/ -]{0,30}+(?:\s*+[A-Za-z%£$€]{1,6}+)?$")
_QUOTED = _rx(r"^([\"'“‘])(?P<q>[^\"'“”‘’]{1,100}+)[\"'”’]$")
_PROPER = _rx(r"^[A-Z][\w'’.&-]{0,40}+(?:\s++(?:[A-Z0-9][\w'’.&-]{0,40}+|of|the|and|de|la|on|upon)){0,6}+$")
_SOURCE_WORDS = _rx(r"(?i)\b(?:from|step|row|stage|output|input|result|results|whichever|same)\b|#\s*+\d|[()\[\]]")
_NUMBER = _rx(r"^-?\d{1,12}+(?:\.\d{1,12}+)?$")


def _value(text: str) -> Any:
    t = text.strip().rstrip(".")
    if _NUMBER.match(t):
        return float(t) if "." in t else int(t)
    return t


def literal_pair(part: str) -> tuple[str, Any] | None:
    """(name, value) when one part of a cell types a value for a name (module docstring), or None."""
    m = _PAIR.match(part)
    if m is None:
        return None
    raw = m.group("value").strip()
    if (q := _QUOTED.match(raw)) is not None:
        return m.group("name"), q.group("q")
    if _SOURCE_WORDS.search(raw):
        return None
    if _NUMBERISH.match(raw) or _PROPER.match(raw):
        return m.group("name").replace("-", "_"), _value(raw)
    return None


def split_literals(cell: str) -> tuple[str, dict[str, Any]]:
    """The cell without its typed values, and those values by name."""
    kept: list[str] = []
    values: dict[str, Any] = {}
    for part in split_top(cell, ",;"):
        pair = literal_pair(part)
        if pair is None:
            kept.append(part.strip())
        else:
            values[pair[0]] = pair[1]
    return ", ".join(p for p in kept if p), values


_BY_ROW = _rx(r"^\s*+(?:`?+(?P<name>[A-Za-z_]\w{0,60}+)`?+\s*+(?:=|:=)\s*+)?(?P<words>[^()=]{1,80}?)\s*+"
              r"(?:\(\s*+(?P<a>[^()]{1,60}+)\)|\bfrom\s++(?:the\s++)?(?P<b>[^()=]{1,60}+))\s*+$")


def split_named(cell: str, rows: dict[str, str], where: str) -> tuple[str, list[FieldSpec]]:
    """The cell without the parts that take another row's output by that row's name, and the inputs
    those parts give (`rows`: each row's name, lower-cased, to its step id)."""
    kept: list[str] = []
    fields: list[FieldSpec] = []
    for part in split_top(cell, ",;"):
        m = _BY_ROW.match(part)
        sid = rows.get(" ".join((m.group("a") or m.group("b") or "").lower().split())) if m else None
        words = m.group("words").strip() if m else ""
        name = (m.group("name") if m else None) or (words if re.fullmatch(r"[A-Za-z_]\w*+", words) else None)
        if m is None or sid is None or name is None:
            kept.append(part.strip())
            continue
        fields.append(FieldSpec(name=name, required=False, source=f"steps.{sid}.output", description=words,
                                where=where))
    return ", ".join(p for p in kept if p), fields

_SAME_AS = _rx(r"(?i)^\W*+(?:the\s++)?same\s++as\s++(?:(?:step|row|#)\s*+)?(?P<n>\d{1,3}+)\W*+$")


def same_as(cell: str) -> int | None:
    """The row number a takes-cell copies ("same as 3", "same as step 3"), or None."""
    m = _SAME_AS.match(cell)
    return int(m.group("n")) if m else None


def copy_inputs(step: StepSpec, earlier: list[StepSpec], number: int, line: int, src: Source) -> StepSpec:
    """The step given the inputs (sources and typed values) of the earlier row `number`, warned; unchanged
    when there is no such row."""
    row = next((s for s in earlier if s.number == number), None)
    if row is None:
        return step
    src.warn(line, f"{step.id} ({step.name}): 'same as {number}' read as the inputs of {row.id}: "
                   + ", ".join(f"`{f.name}`" for f in row.inputs) + "; check the plan", "spec.reading")
    where = src.where(line)
    return step.model_copy(update={"inputs": (*step.inputs, *(f.model_copy(update={"where": where})
                                                               for f in row.inputs)),
                                   "input_values": {**row.input_values, **step.input_values}})


def same_typed(step: StepSpec, earlier: list[StepSpec], src: Source) -> StepSpec:
    """The step with each name its cell lists alone (no source, no value) given the value an earlier
    row typed for that name, warned; unchanged when there is none."""
    typed: dict[str, Any] = {}
    for other in earlier:
        typed.update({k: v for k, v in other.input_values.items() if k not in typed})
    taken = {f.name: typed[f.name] for f in step.inputs
             if f.source is None and f.name in typed and f.name not in step.input_values}
    if not taken:
        return step
    line = int(step.where.rpartition(":")[2]) if step.where.rpartition(":")[2].isdigit() else 1
    src.warn(line, f"{step.id} ({step.name}): " + ", ".join(f"`{k}`" for k in taken) + " takes the value typed for "
                   "it in an earlier row (" + ", ".join(f"'{v}'" for v in taken.values()) + "); check the plan",
             "spec.reading")
    return step.model_copy(update={"inputs": tuple(f for f in step.inputs if f.name not in taken),
                                   "input_values": {**step.input_values, **taken}})


_rx.save()
