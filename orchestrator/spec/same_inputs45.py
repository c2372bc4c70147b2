"""A step whose text says it takes the same inputs as an earlier one: that step's fixed values are its own too (round 45).

    b) CAT -> feline-dose-calc ... (strength_mg_ml = 10)
    c) DOG -> canine-dose-calc, same inputs as (b) incl. the 10 mg/ml.     strength_mg_ml = 10 as well
    3. Re-run `score-b` with the same inputs as step 2                     step 2's values
    - `pack-eu`, same settings as 2a                                        the values of the item labelled 2a

"same inputs as X", "the same inputs/settings/values/parameters as X", X the earlier step's number ("step 2",
"2") or its item label ("(b)", "b)", "2a"): each value the earlier step's text fixes (`input_values`) that this
step does not fix itself is this step's as well, warned at its line. Where each input comes from otherwise
(workflow inputs, outputs) is the planner's as ever, by the skill's own names. A label no earlier item has,
or "the same as before" with no step named, is left alone; so is "same input file as ..." (one input named).

"same paper", "the same `region`" (round 47): "same" before one name that an earlier step's text fixes a value
for (`input_values`, e.g. 'paper is always "Daily Post"') gives this step that value too, the nearest earlier
step's, warned at its line; a name no earlier step fixes ("same day") is left alone.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SAME = _rx(r"(?i)(?<![\w-])(?:the[ \t]++)?same[ \t]++(?:inputs|settings|values|parameters|params|args|arguments)[ \t]++"
            r"as[ \t]++(?:(?:step|item|row)[ \t]++)?(?:\((?P<b>[a-z]|\d{1,2}+[a-z]?+)\)|(?P<p>[a-z])\)|"
            r"(?P<n>\d{1,2}+[a-z]?+)(?![\w-]|\.\d))")
# "same paper", "the same `region`": one name after "same" (round 47)
_SAME_NAME = _rx(r"(?i)(?<![\w-])same[ \t]++`?+([a-z][a-z0-9]*+(?:_[a-z0-9]++)*+)`?+(?![\w-])")
# the label an item's line opens with: "b)", "(b)", "2a.", "3)"
_ITEM_LABEL = _rx(r"^[ \t]*+\(?(?P<label>[a-z]|\d{1,2}+[a-z]?+)[.)][ \t]")


def _label(step: StepSpec, src: Source) -> str | None:
    tail = step.where.rpartition(":")[2]
    m = _ITEM_LABEL.match(src.line_text(int(tail))) if tail.isdigit() else None
    return m.group("label").lower() if m else None


def read_same_inputs(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each that says it takes the same inputs as an earlier one given its fixed values (module docstring)."""
    out: list[StepSpec] = []
    for i, step in enumerate(steps):
        m = next((f for t in (*(t.text for t in step.texts), step.description) if (f := _SAME.search(t))), None)
        if m is None:
            out.append(_same_name(step, out[:i], src))
            continue
        said = (m.group("b") or m.group("p") or m.group("n")).lower()
        found = [s for s in out[:i] if _label(s, src) == said] or \
            ([s for s in out[:i] if str(s.number) == said] if said.isdigit() else [])
        given = {k: v for k, v in found[0].input_values.items() if k not in step.input_values} \
            if len(found) == 1 else {}
        if not given:
            out.append(step)
            continue
        line = int(step.where.rpartition(":")[2]) if step.where.rpartition(":")[2].isdigit() else 1
        values = ", ".join(f"{k} = {v!r}" for k, v in given.items())
        src.warn(line, f"{step.id} ({step.name}): '{m.group(0).strip()}' read as taking the values {found[0].id} "
                       f"fixes too: {values}; check the plan", "spec.reading")
        reading = Reading(what="input", where=step.where, text=m.group(0).strip(),
                          note=f"fixed values {values} (those of {found[0].id}, the step's own, no workflow input)")
        out.append(step.model_copy(update={"input_values": {**step.input_values, **given},
                                           "readings": (*step.readings, reading)}))
    return out


def _same_name(step: StepSpec, before: list[StepSpec], src: Source) -> StepSpec:
    """The step given the value the nearest earlier step fixes for a name its text says "same" before."""
    given: dict[str, object] = {}
    said: list[str] = []
    for text in (*(t.text for t in step.texts), step.description):
        for m in _SAME_NAME.finditer(text):
            name = m.group(1)
            if name in step.input_values or name in given:
                continue
            earlier = next((s for s in reversed(before) if name in s.input_values), None)
            if earlier is not None:
                given[name] = earlier.input_values[name]
                said.append(f"'{m.group(0).strip()}' ({earlier.id})")
    if not given:
        return step
    line = int(step.where.rpartition(":")[2]) if step.where.rpartition(":")[2].isdigit() else 1
    values = ", ".join(f"{k} = {v!r}" for k, v in given.items())
    src.warn(line, f"{step.id} ({step.name}): {', '.join(said)} read as the value an earlier step fixes: {values}; "
                   "check the plan", "spec.reading")
    reading = Reading(what="input", where=step.where, text=", ".join(said),
                      note=f"fixed values {values} (an earlier step's, said 'same'; the step's own, no workflow input)")
    return step.model_copy(update={"input_values": {**step.input_values, **given},
                                   "readings": (*step.readings, reading)})


_rx.save()
