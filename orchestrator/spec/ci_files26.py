"""CI pipeline files read as specs: their variables as inputs, their fan-out wrappers as loops.

    variables:
      DB_NAME: "orders"              # the workflow input `db_name` (default "orders")
    probe:
      parallel:
        for_each: list.snapshots     # a loop over list's `snapshots`, one run per item
      with: {snapshot: $ITEM}        # the loop's item

`env_style_inputs`: a workflow input declared in an environment's spelling (`DB_NAME`,
`RETENTION_DAYS`: capitals, digits and underscores) and given to a step's input of its name in
lower case (`db_name: $DB_NAME`) is that input (`db_name`); it is renamed, each reference to it with it, and a warning says so at its line. A
name whose lower case is already another input's stays as written (warned). `looped_wrapper`:
a fan-out wrapper (`parallel:`, `strategy:`) holding a loop key (`for_each`, `foreach`, `each`,
`items`...) rather than a `matrix:` is that loop. `loop_item_in_capitals`: in a step that loops,
`$ITEM` (the loop variable's name in capitals, as CI tools spell theirs) is the loop's item.
"""

from __future__ import annotations

import re

from yaml.nodes import Node

from orchestrator.spec.model import FieldSpec, InputSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

_ENV_NAME = _rx(r"^[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)*+$")
_LOOP_KEYS = ("for_each", "foreach", "each", "items", "with_items", "loop", "over", "in")


def looped_wrapper(own: dict[str, tuple[Node, Node]]) -> tuple[str, Node] | None:
    """(key, value) of the loop key inside a fan-out wrapper (module docstring), else None."""
    if "matrix" in own:
        return None
    for key in _LOOP_KEYS:
        if key in own:
            return key, own[key][1]
    return None


def _renames(inputs: tuple[InputSpec, ...], steps: tuple[StepSpec, ...]) -> dict[str, str]:
    taken = {i.name for i in inputs}
    out: dict[str, str] = {}
    for spec in inputs:
        lower = spec.name.lower()
        read = any(f.name == lower and f.source == f"inputs.{spec.name}" for s in steps for f in s.inputs)
        fits = read and _ENV_NAME.match(spec.name) is not None and any(c.isalpha() for c in spec.name)
        if fits and lower not in taken and lower not in out.values():
            out[spec.name] = lower
    return out


def _swap(text: str | None, renames: dict[str, str]) -> str | None:
    if not text:
        return text
    for old, new in renames.items():
        text = re.sub(rf"\binputs\.{re.escape(old)}\b", f"inputs.{new}", text)
    return text


def _field(f: FieldSpec, renames: dict[str, str]) -> FieldSpec:
    return f.model_copy(update={"source": _swap(f.source, renames)}) if f.source else f


def env_style_inputs(inputs: tuple[InputSpec, ...] | None, steps: tuple[StepSpec, ...], src: Source) -> tuple[
        tuple[InputSpec, ...] | None, tuple[StepSpec, ...]]:
    """The inputs and steps with environment-style input names in lower case (module docstring)."""
    if not inputs:
        return inputs, steps
    renames = _renames(inputs, steps)
    names = {i.name for i in inputs}
    for spec in inputs:
        if _ENV_NAME.match(spec.name) and spec.name not in renames and spec.name.lower() in names and any(
                f.name == spec.name.lower() and f.source == f"inputs.{spec.name}" for s in steps for f in s.inputs):
            src.warn(_line(spec.where), f"the input {spec.name} is kept as written: {spec.name.lower()} is already "
                                        "another input", "spec.inputs")
    if not renames:
        return inputs, steps
    new_inputs = []
    for spec in inputs:
        if spec.name in renames:
            src.warn(_line(spec.where), f"the input {spec.name} is written as an environment variable: it is read as "
                                        f"the input `{renames[spec.name]}` (give it under that name)", "spec.inputs")
            spec = spec.model_copy(update={"name": renames[spec.name]})
        new_inputs.append(spec)
    new_steps = []
    for step in steps:
        new_steps.append(step.model_copy(update={
            "inputs": tuple(_field(f, renames) for f in step.inputs),
            "when": _swap(step.when, renames),
            "for_each": _swap(step.for_each, renames),
        }))
    return tuple(new_inputs), tuple(new_steps)


def _line(where: str) -> int:
    at = where.rsplit(":", 1)[-1]
    return int(at) if at.isdigit() else 1


def loop_item_in_capitals(name: str, for_each: str | None) -> str | None:
    """The loop's variable for `$ITEM` (its name in capitals) in a step that loops, else None."""
    if not for_each or not _ENV_NAME.match(name):
        return None
    var = for_each.split(" in ", 1)[0].strip()
    return var if var and var.lower() == name.lower() else None


_rx.save()
