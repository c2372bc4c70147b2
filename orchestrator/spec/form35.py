"""A form's filled-in example fields read as the run's inputs; a row's starred condition; "and at the same time".

    WEDDING CODE ..... HALE-MORENO                       inputs: each field written with an example value,
    DATE ............. 2027-06-12  (Saturday)            when a line right under the fields says they are
    (fill these three in fresh for every couple)         filled in again for each run
    APIARY: ....Glebe Field....   DATE: ...2027-05-14... inputs: the fields another line names as taken
    The laptop only needs APIARY and DATE off the front  "off the front" / "from the top" of the form
    Customer ........ Dave K.                            no: a written value nothing says is filled in per run

A form's header (`spec.form_fills32.form_fields`) often shows one run's values written in, as an
example, and then says they change: "(fill these in fresh for every couple)", "fill in a new one each
week", or a step takes "date + venue from the top", "Apiary + date from the front". A written field is
then a workflow input, its written value an example only (the input stays required): every field of
the header lines right above a note of filling in per run (three lines at most between), and each field
whose label a clause before "from/off the top/front/header/form/sheet" names. Dots around a written value
("...2027-05-14...") are the form's blank, not the value. The inputs are warned at the first field's line.

    D. ORDER A QUEEN ..... queen-order     ** ONLY if C says any_queenless **   the step's condition
    E. ALL-CLEAR NOTE .... all-clear-note  ** if NOT, i.e. nobody's queenless ** the other branch of D
    Step 2  weigh-in                       (only when 1 says heavy)             the same, in brackets

A row whose only cell after the skill's is set apart (stars, brackets or nothing) and opens with "only
if", "if", "when", "unless" is the step's condition (`spec.heading_condition.clause_said`, an earlier
step named by its row label); one that opens with "if not", "otherwise" or "else" (any punctuation after)
makes the step the other branch of the nearest earlier step with a condition. Warned (`spec.grid-condition`).

    09:00  Pull the vendor sheet       vendor-roster
    09:00  ...and at the SAME time check the weather   forecast-lookup     starts with the row before

A step whose own text opens (after a clock time or a row key) with "and at the same time", "at the same
time", "meanwhile" or "simultaneously", naming no step, starts together with the step before it
(`StepSpec.starts_with`), warned. Each reader is one pass over the steps; patterns anchored and bounded.

    Supplier is Ashdown Queens (always, they're close).   `supplier` <- "Ashdown Queens"
    Courier: Swift Parcel Co.                             `courier` <- "Swift Parcel Co"
    if the supplier is Ashdown Queens, ...                no: not a sentence's opening (a condition)

`opening_value(name, text)`: a sentence of a step's text that opens with a one-word input's name
(capitalised), "is", "=" or ":" (and "always"), then a proper name (one to four capitalised words)
and the sentence's end, a comma or a bracket, gives that input its literal (the planner binds it only
when nothing else gives the input, warned as every value read from words).

    tent_over       "the tent goes up at 40% rain or more"        40
    alarm_above     "the alarm sounds from 8.5 bar and up"          8.5
    tent_over       "the venue says 60"                           no: no "or more" after it

`threshold_value(name, text)`: an input named as a threshold (`<word>_over`, `_above`, `_min`,
`_threshold`, `_at`) whose first word the text says, then within one clause "at", "from", "over" or
"above" a number (a percent sign, and up to two words, after it) and "or more", "or above", "or
higher", "and up": that number is its literal. Two different numbers: nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from orchestrator.spec.cue_notes import cue_labels, skill_of
from orchestrator.spec.form_fills32 import FormField, form_fields
from orchestrator.spec.heading_condition import Said, apply_said, clause_said, step_ref
from orchestrator.spec.model import InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.grid-condition"

# "fill these three in fresh for every couple", "filled in new each week", "change these per run"
_PER_RUN = _rx(r"(?i)(?<![\w-])(?:fill|fills|filled|write|change|changes|update|put)(?![\w-])[^.;\n]{0,40}?"
               r"(?<![\w-])(?:fresh|new|every|each|per)(?![\w-])")
# "date + venue from the top", "only needs APIARY and DATE off the front of this"
_FROM_TOP = _rx(r"(?i)(?<![\w-])(?:from|off|at)[ \t]++the[ \t]++(?:top|front|header|head|form|sheet)(?![\w-])")
_CLAUSE_START = _rx(r"[.;:!?(]|[ \t]{3,}+|\t|--")
_DOTS = _rx(r"^[._ \t]*+(.*?)[._ \t]*+$")
_WORD = _rx(r"[a-z0-9]+")


def _clean(value: str) -> str:
    """The written value without the form's dots around it: "...2027-05-14..." -> "2027-05-14"."""
    m = _DOTS.match(value)
    return (m.group(1) if m else value).strip()


def _label_words(field: FormField) -> str:
    return " ".join(_WORD.findall(re.sub(r"\([^()]*\)", " ", field.label.lower())))


@functools.lru_cache(maxsize=32)
def _named_from_top(text: str) -> frozenset[str]:
    """The clauses (lower case) that name fields as taken from the top or front of the form, once per text."""
    found: list[str] = []
    for line in text.splitlines():
        if len(line) > 400 or (m := _FROM_TOP.search(line)) is None:
            continue
        head = line[:m.start()]
        starts = list(_CLAUSE_START.finditer(head))
        clause = head[starts[-1].end():] if starts else head
        found.append(" " + " ".join(_WORD.findall(clause.lower())) + " ")
    return frozenset(found)


def _per_run_fields(fields: Sequence[FormField], lines: Sequence[str]) -> set[int]:
    """The line numbers of the fields said to be filled in per run by a note right under them."""
    field_lines = sorted({f.line for f in fields})
    out: set[int] = set()
    for at, number in enumerate(field_lines):
        following = field_lines[at + 1] if at + 1 < len(field_lines) else None
        if following is not None and following <= number + 1:
            continue  # not the block's last line
        for n in range(number + 1, min(number + 4, len(lines) + 1)):
            if following is not None and n >= following:
                break
            if _PER_RUN.search(lines[n - 1]):
                block = [number]
                while block[-1] - 1 in field_lines:
                    block.append(block[-1] - 1)
                out.update(block)
                break
    return out


_FILLED = "the form's filled-in fields read as the workflow inputs: "


def read_filled_inputs(src: Source, steps: Sequence[StepSpec]) -> tuple[InputSpec, ...] | None:
    """The workflow inputs of a form's filled-in example fields (module docstring), or None."""
    lines = [int(s.where.rsplit(":", 1)[1]) for s in steps if s.where.rsplit(":", 1)[-1].isdigit()]
    text = "\n".join(src.lines)
    fields = [f for f in form_fields(text, max(lines) if lines else 0)
              if f.kind == "value" and (f.dotted or f.cells > 1) and _clean(f.value)]
    if not fields:
        return None
    per_run = _per_run_fields(fields, src.lines)
    named = _named_from_top(text)
    found: dict[str, InputSpec] = {}
    for f in fields:
        words = _label_words(f)
        if f.name in found or not words or not (f.line in per_run or any(f" {words} " in c for c in named)):
            continue
        example = _clean(f.value)
        found[f.name] = InputSpec(name=f.name, description=f"the form's '{f.label}' (an example: {example})",
                                  where=src.where(f.line))
    if not found:
        return None
    first = min(int(i.where.rsplit(":", 1)[1]) for i in found.values())
    src.warn(first, f"{_FILLED}{', '.join(found)} (the text says they "
                    "are filled in for each run, or taken from the top of the form; the values written there are "
                    "examples, not used); check the plan, or declare them in an Inputs section", "spec.reading")
    return tuple(found.values())


def rename_filled(src: Source, old: str, new: str) -> None:
    """The warning of the form's filled-in inputs naming `new` where it named `old`: a later reader
    (`spec.fill_names30`) gave the input the name its skills read, and the warning says the plan's name."""
    for at, w in enumerate(src.warnings):
        if w.code == "spec.reading" and w.message.startswith(_FILLED):
            names, sep, rest = w.message[len(_FILLED):].partition(" (")
            listed = [new if n == old else n for n in names.split(", ")]
            src.warnings[at] = w.model_copy(update={"message": f"{_FILLED}{', '.join(listed)}{sep}{rest}"})


# the cell set apart after the skill's: "** ONLY if C says x **", "(only when 1 says heavy)", "[if not]"
_SET_APART = _rx(r"^[*_(\[ \t]{0,4}+(?P<c>[^*()\[\]\n]{2,200}+)[*_)\] \t]{0,4}+$")
_ELSE_OPEN = _rx(r"(?i)^(?:if[ \t]++not|otherwise|else)(?![\w-])")
_WIDE = _rx(r"(?<=\S)[ \t]{2,}+(?=\S)")


def _own_line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _skill_row(step: StepSpec, end: int, src: Source) -> int:
    start, skill = _own_line(step), skill_of(step)
    if not start or not skill:
        return 0
    return next((n for n in range(start, min(end, start + 12, len(src.lines) + 1)) if skill in src.line_text(n)), 0)


def read_row_asides(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps whose row's cell after the skill says when they run, read so (module docstring)."""
    if len(steps) < 2 or not any(s.form in ("list", "table", "paragraph") for s in steps):
        return steps
    labels = cue_labels(steps, src)
    starts = [_own_line(s) for s in steps]
    out: list[StepSpec] = []
    latest: StepSpec | None = None
    for index, step in enumerate(steps):
        skill = skill_of(step)
        if step.form in ("list", "table", "paragraph") and starts[index] and skill and not (
                step.when or step.otherwise_where or step.otherwise_of or step.routes or step.approval):
            end = next((n for n in starts[index + 1:] if n > starts[index]), starts[index] + 12)
            row = _skill_row(step, end, src)
            line = src.line_text(row) if row else ""
            at = line.find(skill)
            tail = line[at + len(skill):] if at >= 0 and len(line) <= 400 else ""
            parts = _WIDE.split(tail.strip()) if tail.startswith(("  ", "\t", "`  ")) or tail[:1] in ("`", " ") else []
            m = _SET_APART.match(parts[0]) if len(parts) == 1 and parts[0] else None
            if m is not None:
                cell = m.group("c").strip(" \t_")
                earlier = list(out)

                def named(ref: str, earlier: list[StepSpec] = earlier) -> str | None:
                    return step_ref(ref, earlier, labels)

                said: Said | None
                if _ELSE_OPEN.match(cell):
                    said = Said("otherwise", cell) if latest is not None else None
                else:
                    said = clause_said(cell, named, else_alone=False)
                if said is not None:
                    step = apply_said(step, said, latest, src, row, "the aside after its skill", CODE)
                if said is not None and said.kind != "unread":  # the step reader's "not read" of it: now read
                    src.warnings[:] = [w for w in src.warnings if not (
                        w.line == row and w.code == "spec.condition-not-read"
                        and w.message.startswith(f"{step.id}: the condition"))]
        if step.when:
            latest = step
        out.append(step)
    return out


# "...and at the SAME time check", "09:00  meanwhile, ...", "C) simultaneously pull": an opening that names no step
_OPENER = _rx(r"(?i)^[ \t|*>-]{0,6}+(?:\d{1,2}+[:.]\d{2}+[ \t]++|[A-Z0-9]{1,3}+[.)][ \t]++)?+(?:\.{2,}+|…)?+[ \t]*+"
              r"(?:and[ \t]++|&[ \t]*+)?+(?:at[ \t]++the[ \t]++same[ \t]++time|meanwhile|simultaneously|"
              r"in[ \t]++parallel)(?![\w-])(?![ \t]++(?:as|with|to)(?![\w-]))")


def read_same_time_openers(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps whose text opens with "and at the same time" started with the step before (module docstring)."""
    out = list(steps)
    for index in range(1, len(steps)):
        step = steps[index]
        line = _own_line(step)
        if not line or step.starts_with or step.depends_where is not None or step.depends_on:
            continue
        m = _OPENER.match(src.line_text(line))
        if m is None:
            continue
        before = steps[index - 1]
        where = src.where(line)
        note = f"starts together with {before.id}, not after it"
        src.warn(line, f"{step.id} ({step.name.strip()[:50]}): '{m.group(0).strip()}' is read as: {note}; to say "
                       f"so plainly write `Depends on: ` what {before.id} waits for", "spec.reading")
        out[index] = step.model_copy(update={
            "starts_with": before.id,
            "readings": (*step.readings, Reading(what="depends_on", where=where, text=m.group(0).strip(), note=note))})
    return out


def opening_value(name: str, text: str) -> tuple[str, str] | None:
    """(the proper name, the words) a sentence opening with `name` says it is (module docstring), or None;
    two different values: None."""
    if not name.isalpha() or len(name) > 30 or name.capitalize() not in text:
        return None
    pattern = re.compile(r"(?:^|(?<=[.!?;:*]\s)|(?<=\n))[ \t]*+(" + name.capitalize() + r"[ \t]++(?:is|=)[ \t]++|"
                         + name.capitalize() + r"[ \t]*+[:=][ \t]++)(?:always[ \t]++)?+((?:the[ \t]++)?+[A-Z][\w'&-]{0,30}+"
                         r"(?:[ \t]++(?:[A-Z][\w'&-]{0,30}+|of|and|&)){0,4}+)(?=[ \t]*+(?:[.,;(]|$))", re.MULTILINE)
    found = {m.group(2).rstrip("."): " ".join(m.group(0).split()) for m in pattern.finditer(text)}
    if len(found) != 1:
        return None
    value, words = next(iter(found.items()))
    return value, words


_THRESHOLD_NAME = _rx(r"^([a-z]{2,20}+)(?:_[a-z]{2,20}+)?_(?:over|above|min|threshold|at)$")


def threshold_value(name: str, text: str) -> tuple[int | float, str] | None:
    """(the number, the words) the text gives a threshold input `name` as "N or more" (module docstring), or None."""
    m = _THRESHOLD_NAME.match(name)
    if m is None or m.group(1) not in text.lower():
        return None
    pattern = re.compile(r"(?i)(?<![\w-])" + m.group(1) + r"(?![\w-])[^.;\n]{0,60}?(?<![\w-])(?:at|from|over|above)"
                         r"[ \t]++(\d{1,6}+(?:\.\d{1,4}+)?+)(?:[ \t]*+(?:%|percent))?+(?:[ \t]++[a-z]{1,20}+){0,2}?[ \t]++"
                         r"(?:or[ \t]++(?:more|above|higher|over)|and[ \t]++(?:up|above|over))(?![\w-])")
    found = {g.group(1): " ".join(g.group(0).split()) for g in pattern.finditer(text)}
    if len(found) != 1:
        return None
    raw, words = next(iter(found.items()))
    return (float(raw) if "." in raw else int(raw)), words


_rx.save()
