"""A paper form's header fields, several to a line, read as the run's inputs and the steps' fixed values.

    Customer ........ (off the booking)             Tel ........................
    Engineer ........ Dave K.   (always Dave for services)
    Race day: ______________   Venue: ______________
    Rx ref ........ [from eRx]                Patient weight (kg) ....... [from eRx]

A form's header holds fields in columns: a label, a dotted leader (dots, even one, set apart by
spaces) or a colon, then what goes there. Columns are parted by three spaces or more (or a tab); a
cell that is only a bracket is the note of the field before it. Each field is one of:

- filled in from elsewhere: its value is a bracket saying where it comes from, "(off the booking)",
  "[from eRx]", "(from reception)", "[per order]": a workflow input, always;
- blank (underscores or dots only): a workflow input when a step's text names its label's words
  ("tide-gauge (venue, race day)" for "Race day: ____"); a blank no step names (Tel, Checker, a
  signature) is a field for a person, not an input;
- written ("Dave K.", "14 (always 14 for paeds)", "Autumn Frostbite"): no input; a step whose skill reads
  the field's name (`engineer` for "Engineer", `days` for "Days' supply") that nothing else gives takes
  that value as its literal (`form_value`, used by the planner), warned. Only a field written with a
  dotted leader or in a line of two fields or more is such a value ("Owner: sam" alone is prose).

An input's name is its label made into a name, units in brackets kept: "Patient weight (kg)" ->
`patient_weight_kg`, "Days' supply" -> `days_supply`. Only lines before the last step are read, and
only when the spec declares its inputs no other way (`spec.markdown`). Inputs read are warned at their
first line with the names and how to declare them. The fields are found once per text (cached), one
pass over its lines; patterns are anchored and bounded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from orchestrator.spec.inputs38 import bracket_name
from orchestrator.spec.model import InputSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CELLS = _rx(r"[ \t]{3,}+|\t")
# `Label ..... value`, `Label . value`, `Label: value`, `Label ....` (nothing after)
_LEADER = _rx(r"^([A-Za-z][A-Za-z0-9 ()/&'’.-]{0,40}?)[ \t]++\.(?:[ \t]?+\.){0,60}+(?:[ \t]++(.{1,200}+))?+$")
_COLON = _rx(r"^([A-Za-z][A-Za-z0-9 ()/&'’.-]{0,40}?)[ \t]*+:(?:[ \t]++(.{1,200}+))?+$")
_SOURCE = _rx(r"(?i)^[(\[][ \t]*+(?:from|off|per|via|filled[ \t]++in|given|supplied|taken[ \t]++from|comes?[ \t]++from)"
              r"\b[^()\[\]\n]{0,160}+[)\]]$")
_BLANK = _rx(r"^[_./ \t-]*+$")
_NOTE = _rx(r"^(.{0,200}?)[ \t]*+\(([^()\n]{0,160}+)\)?+$")
_NUMBER = _rx(r"^-?\d{1,9}+(?:\.\d{1,6}+)?+$")
_WORD = _rx(r"[a-z0-9]+")
_A_NAME = _rx(r"^[a-z][a-z0-9]{0,30}+(?:_[a-z0-9]{1,30}+){0,6}+$")


@dataclass(frozen=True)
class FormField:
    """One field of a form's header: its label, name, what is written there and how."""

    label: str
    name: str
    kind: str  # "source" (filled in from elsewhere), "blank", "value"
    value: str
    note: str
    line: int
    dotted: bool  # written with a dotted leader
    cells: int  # fields on its line


def field_name(label: str) -> str:
    """The label made into a name, the words in brackets kept: "Patient weight (kg)" -> patient_weight_kg."""
    return "_".join(_WORD.findall(label.lower().replace("'", "").replace("’", "")))[:60]


def _cells(text: str) -> list[str]:
    cells: list[str] = []
    for part in _CELLS.split(text.strip()):
        part = part.strip()
        if not part:
            continue
        if cells and part.startswith("(") and not _SOURCE.match(part):
            cells[-1] = f"{cells[-1]} {part}"  # "Dave K.   (always Dave ...)": the note of the field before
        else:
            cells.append(part)
    return cells


def _field(cell: str) -> tuple[str, str, bool] | None:
    """(label, what follows, dotted) of one cell, or None when it is no field."""
    m = _LEADER.match(cell)
    dotted = m is not None
    if m is None:
        m = _COLON.match(cell)
    if m is None:
        return None
    label = m.group(1).strip().rstrip(".").strip()
    if not label or len(label.split()) > 5 or not any(c.isalpha() for c in label):
        return None
    return label, (m.group(2) or "").strip(), dotted


@functools.lru_cache(maxsize=32)
def form_fields(text: str, end: int) -> tuple[FormField, ...]:
    """The header fields of the lines before line `end` (module docstring), once per text."""
    out: list[FormField] = []
    for i, raw in enumerate(text.splitlines()[:max(end, 0)], 1):
        if raw.count("|") >= 2 or raw.lstrip().startswith(("#", "-", "*", "`")):
            continue  # a grid's row, a heading, a bullet: no header
        cells = _cells(raw)
        parsed = [_field(c) for c in cells]
        if not cells or any(p is None for p in parsed):
            continue
        fields = [p for p in parsed if p is not None]
        if len(fields) == 1 and not fields[0][2] and not _BLANK.match(fields[0][1] or "_") \
                and not _SOURCE.match(fields[0][1]):
            continue  # "Owner: sam" alone: a sentence's label, no form
        for label, rest, dotted in fields:
            name = field_name(label)
            if not name:
                continue
            if _SOURCE.match(rest):
                out.append(FormField(label, name, "source", "", rest[1:-1].strip(), i, dotted, len(fields)))
            elif _BLANK.match(rest) and (rest or dotted):
                out.append(FormField(label, name, "blank", "", "", i, dotted, len(fields)))
            elif rest:
                m = _NOTE.match(rest)
                value, note = (m.group(1).strip(), m.group(2).strip()) if m and m.group(1).strip() else (rest, "")
                out.append(FormField(label, name, "value", value, note, i, dotted, len(fields)))
    return tuple(out)


def _names_label(field: FormField, texts: Sequence[str]) -> bool:
    """Whether a step's text names the field's label other than as a field ("Checker ......", "Race day:")."""
    words = " ".join(_WORD.findall(re.sub(r"\([^()]*\)", " ", field.label.lower())))
    if not words:
        return False
    pattern = re.compile(r"(?<![a-z0-9_-])" + re.escape(words).replace(r"\ ", r"[ \t]+")
                         + r"(?![a-z0-9_-]|[ \t]*+:|[ \t]++\.|\.\.)")
    return any(pattern.search(t) for t in texts)


def _last_step_line(steps: Sequence[StepSpec]) -> int:
    lines = [int(s.where.rsplit(":", 1)[1]) for s in steps if s.where.rsplit(":", 1)[-1].isdigit()]
    return max(lines) if lines else 0


def read_form_inputs(src: Source, steps: Sequence[StepSpec]) -> tuple[InputSpec, ...] | None:
    """The workflow inputs of a form's header fields (module docstring), or None when it has none."""
    fields = form_fields("\n".join(src.lines), _last_step_line(steps))
    if not any(f.kind == "source" or f.cells > 1 for f in fields):
        return None  # no form's header: one blank alone is `spec.input_blocks24`'s
    texts = [" ".join([s.name, s.description, *(t.text for t in s.texts)]).lower() for s in steps]
    found: dict[str, InputSpec] = {}
    lines: list[int] = []
    for f in fields:
        if f.name in found or not (f.kind == "source" or (f.kind == "blank" and _names_label(f, texts))):
            continue
        said = f"'{f.label}'" + (f" ({f.note})" if f.note else "")
        found[f.name] = InputSpec(name=f.name, description=f"the form's {said}", where=src.where(f.line))
        lines.append(f.line)
    if not found:
        return None
    src.warn(lines[0], f"the form's fields on lines {lines[0]}-{lines[-1]} read as the workflow inputs: "
                       f"{', '.join(found)} (filled in from elsewhere, or left blank and named by a step); check the "
                       "plan, or declare them in an Inputs section", "spec.reading")
    return tuple(found.values())


# a skill's list of what it is given, in brackets after its name: "flag-plan (course + laps from [3], warning 10:55)"
_ARGS = _rx(r"(?<![\w-])[a-z0-9]++(?:-[a-z0-9]++)++`?+[ \t]*+\(([^()\n]{1,300}+)\)")
_ARG_VALUE = _rx(r"^[ \t]*+(?:the[ \t]++)?+([A-Za-z][A-Za-z0-9_]{0,40}+)[ \t]*+[:=]?+[ \t]*+"
                 r"(\d{1,2}+:\d{2}+|-?\d{1,9}+(?:\.\d{1,6}+)?+)[ \t]*+$")
_PARTS = _rx(r"[,;]")


def arg_value(name: str, text: str) -> tuple[int | float | str, str] | None:
    """(the value, the words) a bracketed list after a skill's name gives `name` as `name value` ("warning 10:55",
    "laps 3"), or None; two different values: None."""
    found: dict[str, tuple[int | float | str, str]] = {}
    for m in _ARGS.finditer(text):
        for part in _PARTS.split(m.group(1)):
            if (v := _ARG_VALUE.match(part)) is not None and v.group(1).lower() == name.lower():
                raw = v.group(2)
                found.setdefault(raw, (raw if ":" in raw else _value(raw), " ".join(part.split())))
    return next(iter(found.values())) if len(found) == 1 else None


def _value(raw: str) -> int | float | str:
    if _NUMBER.match(raw):
        return float(raw) if "." in raw else int(raw)
    return raw


def form_value(name: str, text: str, end: int) -> tuple[int | float | str, FormField] | None:
    """(the value, its field) a form's header writes for a skill input `name` (module docstring), or None:
    the field's name is `name`, or its label's first or last word is; a name two fields give: None."""
    hits = [f for f in form_fields(text, end) if f.kind == "value" and (f.dotted or f.cells > 1)
            and not _A_NAME.match(f.value)  # "Sailing date .... sail_date": an input's name (`input_blocks24`)
            and bracket_name(f.label, f.value) is None  # "DAY THEY WANT .... (wanted_day)": one too (`inputs38`)
            and (f.name == name or f.name.split("_")[0] == name or f.name.split("_")[-1] == name)]
    if len({f.value for f in hits}) != 1:
        return None
    return _value(hits[0].value), hits[0]


def form_value_said(name: str, text: str, step_wheres: Sequence[str]) -> tuple[int | float | str, str] | None:
    """(the value, the words) a form's header writes for `name` (`form_value`), read in the lines before the last
    step's, or None."""
    lines = [int(w.rsplit(":", 1)[1]) for w in step_wheres if w.rsplit(":", 1)[-1].isdigit()]
    found = form_value(name, text, max(lines) if lines else 0)
    if found is None:
        return None
    value, field = found
    return value, f"{field.label} ... {field.value} (the form's line {field.line})"


_rx.save()
