"""Several workflow inputs named on one fill-in line of a form's block (`spec.input_blocks24` reads the block).

    box office figures ......... sold / comps / scanned        three inputs, one label
    Crew on board ............... officers, ratings (counts)   two inputs; the bracket is their note
    Patient ____ name_first & name_last                        (any of `/`, `,`, `&`, "and" between them)

A dotted leader (or a colon label) followed by two to eight names, each written as a name (lower case
letters, digits and underscores), is one input per name, in the order written; the label is each one's
description. A value rather than names ("north / south" is still names: the block's warning names every
input read, so such a guess is seen), a word the form uses for a state ("yes / no", "open / closed") or
a name said twice is not read.

A label in the same place whose value is written and said to be fixed is the steps' literal, not an input:

    CALL LIST (fixed this run, don't ask for it): Jo, Dev, Mika, Sam, Ruth
    Home port ........ Leith   (always)

The note (in brackets, before or after the value) must say so: "fixed", "always", "constant", "don't ask",
"not an input". The value is a list when commas part it, else the text. A step whose own text names the
label's words ("call list above") takes it under the label's name (`call_list`), warned at the label's
line; a fixed label no step names is warned as not taken. Patterns are anchored and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.inputs38 import unquote
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LIST = _rx(r"^([a-z][a-z0-9_]{0,60}+(?:[ \t]*+(?:/|,|&|\band\b)[ \t]*+[a-z][a-z0-9_]{0,60}+){1,7}+)"
            r"(?:[ \t]++\(([^()\n]{0,200}+)\)?+)?+[ \t]*+[.;]?+$")
_WORD = _rx(r"[a-z][a-z0-9_]*+")


def names_listed(rest: str, not_names: frozenset[str]) -> tuple[list[str], str | None] | None:
    """(the names, the bracket's note) of a fill-in line's `rest` naming two or more inputs, or None."""
    m = _LIST.match(rest.strip())
    if m is None:
        return None
    names = [n for n in _WORD.findall(m.group(1)) if n != "and"]  # the line matched: words and separators
    if len(names) < 2 or len(set(names)) != len(names) or any(n in not_names for n in names):
        return None
    return names, m.group(2)


# `LABEL (note): value`, `Label ..... value (note)`, `Label: value (note)`
_LABELLED = _rx(r"^[ \t]{0,8}+([A-Za-z][A-Za-z '’-]{0,40}?)[ \t]*+(?:\(([^()\n]{1,120}+)\))?+[ \t]*+"
                r"(?::|(?:\.[ \t]?+){3,}+)[ \t]*+([^()\n]{1,200}?)[ \t]*+(?:\(([^()\n]{1,120}+)\))?+[ \t]*+$")
_FIXED = _rx(r"(?i)\b(?:fixed|always|constant|do(?:n['’]?+t|\s++not)\s++ask|not\s++(?:an?\s++)?+input)\b")


def fixed_labels(src: Source, end: int) -> list[tuple[str, str, object, int]]:
    """(name, label, value, line) of each label before line `end` whose value is said to be fixed."""
    out: list[tuple[str, str, object, int]] = []
    for i, raw in enumerate(src.lines[:max(end, 0)], 1):
        m = _LABELLED.match(raw.rstrip())
        if m is None or not _FIXED.search(f"{m.group(2) or ''} {m.group(4) or ''}"):
            continue
        label, text = m.group(1).strip(), unquote(m.group(3).strip().rstrip("."))  # '"Dunmore Hill"': its text
        name = "_".join(re.findall(r"[a-z0-9]+", label.lower()))
        if not name or not text:
            continue
        parts = [p.strip() for p in text.split(",")]
        out.append((name, label, parts if len(parts) > 1 and all(parts) else text, i))
    return out


def with_block_literals(steps: Sequence[StepSpec], src: Source, step_wheres: Sequence[str]) -> list[StepSpec]:
    """Each step whose text names a fixed label's words given that label's value as its literal (module doc)."""
    firsts = [int(w.rsplit(":", 1)[1]) for w in step_wheres if w.rsplit(":", 1)[-1].isdigit()]
    out = list(steps)
    for name, label, value, line in fixed_labels(src, min(firsts) - 1 if firsts else 0):
        words = label.lower()
        taken = []
        for k, step in enumerate(out):
            text = " ".join([step.description, *(t.text for t in step.texts)]).lower()
            if name in step.input_values or (words not in text and name not in text):
                continue
            note = f"{name} = {value!r} (the fixed '{label}' of line {line})"
            reading = Reading(what="input", where=step.where, text=note, note=note + " (the step's own, no workflow input)")
            out[k] = step.model_copy(update={"input_values": {**step.input_values, name: value},
                                             "readings": (*step.readings, reading)})
            taken.append(step.id)
        if taken:
            src.warn(line, f"'{label}' is read as a fixed value, not a workflow input: {name} = {value!r} for "
                           f"{', '.join(taken)} (the steps that name it); check the plan", "spec.reading")
        else:
            src.warn(line, f"'{label}' is said to be fixed ({value!r}) but no step names it, so no step takes it",
                     "spec.reading")
    return out


_rx.save()
