"""A list step whose nested bullets are the branches of a choice, read as one step per branch.

    - **Bump**: branches on the `breaking` count            the lead: names the choice
      - breaking > 0 → `bump` with `current` and `part: major`      a branch: its label is its condition
      - anything else → `bump` with `current` and `part: minor`     the other side of the branch before
      - either way, retry once after 5s.                            said of every branch

Two or more nested bullets that each name a skill after a label and an arrow (the form of
`sections.branch_item`) make the item a choice: each branch is a step named after the item
and its label ("Bump (breaking > 0)"), its text the branch line and the bullets under it,
plus every nested bullet that is not a branch (said "either way"). A `key: value` in
backticks in a branch line (`part: major`) is a constant input of that branch's step. The
label becomes the condition once the inputs are known (`sections.place_branches`); "anything
else", "otherwise" makes the branch the other side of the one before.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sections import Unit, branch_item, branch_step
from orchestrator.spec.source import Source
from orchestrator.spec.step import read_step

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CONSTANT = _rx(r"`\s*([A-Za-z_]\w*)\s*(?::|=)\s*([^`\s][^`]{0,80}?)\s*`")


def branches_of(item: Bullet) -> list[tuple[Bullet, str, str]]:
    """The nested bullets of `item` that are branches: (bullet, label, the rest); [] when fewer than two."""
    found = [(b, *read) for b in item.children if isinstance(b, Bullet) and (read := branch_item(b)) is not None]
    return found if len(found) >= 2 else []


def constants(text: str) -> dict[str, Any]:
    """`part: major`, `dry_run=true` in backticks: constant inputs (a number or true/false as such)."""
    out: dict[str, Any] = {}
    for name, raw in _CONSTANT.findall(text):
        value: Any = raw.strip().strip("\"'")
        if re.fullmatch(r"-?\d+", value):
            value = int(value)
        elif re.fullmatch(r"-?\d+\.\d+", value):
            value = float(value)
        elif value.lower() in ("true", "false"):
            value = value.lower() == "true"
        out[name] = value
    return out


def branch_steps(number: int, name: str, item: Bullet, lead: str, src: Source,
                 reading: Reading) -> list[StepSpec]:
    """The steps of a list item that is a choice, numbered from `number` (see the module doc)."""
    found = branches_of(item)
    branch_lines = {b.line for b, _, _ in found}
    shared: list[Block] = [b for b in item.children if b.line not in branch_lines]
    steps: list[StepSpec] = []
    for position, (bullet, label, rest) in enumerate(found):
        label = label.strip(" *_")
        step_name = f"{name} ({label})"
        note = Reading(what="step", where=src.where(bullet.line), text=" ".join(bullet.text.split())[:160],
                       note=f"branch '{label}' of '{name}' read as step-{number + position} ({step_name})")
        readings = (reading, note) if lead.strip() else (note,)
        blocks: list[Block] = [Para(line=bullet.line, text=rest), *bullet.children, *shared]
        step = read_step(number + position, step_name, bullet.line, blocks, src, form="list", readings=readings)
        given = constants(rest)
        if given:
            step = step.model_copy(update={
                "input_values": {**step.input_values, **given},
                "readings": (*step.readings, Reading(
                    what="input", where=src.where(bullet.line), text=", ".join(f"{k}: {v}" for k, v in given.items()),
                    note=f"constant inputs of the branch: {', '.join(f'{k} = {v!r}' for k, v in given.items())}"))})
        unit = Unit(blocks=blocks, branch=label)
        step = branch_step(step, unit, [s for s in steps if any(r.what == "branch" for r in s.readings)], src)
        steps.append(step)
    return steps


_rx.save()
