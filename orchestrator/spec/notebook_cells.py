"""Notebook code cells under one heading, each calling a skill: a step per cell, in order.

A notebook exported to markdown often runs two skills under one heading:

    ## 1. Load readings and calibration
    ```python
    In [2]:
    readings = run_skill("parse-readings", raw_readings=raw_readings)
    ```
    ```python
    In [3]:
    cal = run_skill("load-calibration", calibration_text=calibration_text)
    ```

Each cell whose code calls a skill by its quoted name (`run_skill("x", ...)`, a call whose first
argument is a skill-shaped name) starts a step; what follows it up to the next such cell (its
`Out [n]` block, a remark) belongs to it, and what comes before the first goes with the first.
The first cell is the heading's step; each later one is a step after it in the spec, numbered
after the headings' steps so that "Step 2" still means the second heading. A later cell depends
on the earlier cells of the heading whose result its code uses (the name the earlier call's
result was assigned to, or `Out[n]` of the earlier `In [n]`); one that uses none runs beside the
first, after what the first runs after. Both are readings in the plan with their lines.
"""

from __future__ import annotations

import re

from orchestrator.spec.blocks import Block, Fence
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.step import CODE_CALL

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASSIGNED = _rx(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*[A-Za-z_][\w.]*\([ \t]*[\"'][a-z0-9]+(?:-[a-z0-9]+)+[\"']",
                re.M)
_CELL_NUMBER = _rx(r"^[ \t]*In[ \t]*\[[ \t]*(\d+)[ \t]*\][ \t]*:", re.M)
_NOT_CODE = _rx(r"'[^'\n]*'|\"[^\"\n]*\"|#[^\n]*")  # strings and comments


def _calls(block: Block) -> list[str]:
    return CODE_CALL.findall(block.content) if isinstance(block, Fence) else []


def cell_units(blocks: list[Block]) -> list[list[Block]] | None:
    """The blocks cut at each code cell that calls a skill (module docstring); None when fewer
    than two cells call skills, or they all call the same one."""
    calling = [i for i, b in enumerate(blocks) if _calls(b)]
    if len(calling) < 2 or len({name for i in calling for name in _calls(blocks[i])}) < 2:
        return None
    starts = [0, *calling[1:]]
    return [blocks[a:b] for a, b in zip(starts, [*starts[1:], len(blocks)], strict=True)]


def cell_skill(unit: list[Block]) -> str:
    """The skill the unit's calling cell names first."""
    return str(_calls(_cell(unit))[0])


def _cell(unit: list[Block]) -> Fence:
    return next(b for b in unit if isinstance(b, Fence) and _calls(b))


def uses_result(earlier: list[Block], later: list[Block]) -> str | None:
    """How the later cell's code uses the earlier cell's result: the name it was assigned to,
    or `Out[n]`; None when it does not."""
    first, code = _cell(earlier).content, _NOT_CODE.sub(" ", _cell(later).content)
    own = set(_ASSIGNED.findall(_cell(later).content))
    for name in map(str, _ASSIGNED.findall(first)):
        if name not in own and re.search(rf"(?<![\w.]){re.escape(name)}\b(?!\s*=[^=])", code):
            return name
    number = _CELL_NUMBER.search(first)
    if number is not None and re.search(rf"\bOut\s*\[\s*{number.group(1)}\s*\]", code):
        return f"Out[{number.group(1)}]"
    return None


def cell_dependencies(step: StepSpec, unit: list[Block], cells: list[tuple[StepSpec, list[Block]]],
                      before: str | None, src: Source) -> StepSpec:
    """A later cell's step (`unit`) after the heading's earlier `cells` whose result it uses, or
    beside the first (after `before`, the step before the heading; a root when there is none)."""
    where = src.where(_cell(unit).line)
    used = [(s.id, said) for s, blocks in cells if (said := uses_result(blocks, unit)) is not None]
    if used:
        ids = tuple(sid for sid, _ in used)
        note = "its code uses " + ", ".join(f"`{said}` (the result of {sid})" for sid, said in used)
    else:
        first = cells[0][0]
        ids = first.depends_on if first.depends_on or first.depends_where is not None else \
            ((before,) if before else ())
        note = (f"its code uses no result of {', '.join(s.id for s, _ in cells)}: it runs beside "
                f"{first.id}" + (f", after {', '.join(ids)}" if ids else ", at the start"))
    call = next(line for line in _cell(unit).content.splitlines() if CODE_CALL.search(line))
    reading = Reading(what="depends_on", where=where, text=call.strip()[:160], note=note)
    return step.model_copy(update={"depends_on": ids, "depends_where": where,
                                   "readings": (*step.readings, reading)})


_rx.save()
