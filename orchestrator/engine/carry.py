"""The value a DEFAULT fallback goes on with when part of it is carried from earlier data
(`policy.Carried`, read and checked by `plan.carry_ref31`): pure, on the decision side of the
engine, shared by the local scheduler and the Temporal workflow."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orchestrator.policy import Fallback


def _at(document: Any, pointer: str) -> Any:
    value = document
    for part in [p for p in pointer.split("/") if p]:
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise KeyError(pointer)
    return value


def carried_value(fallback: Fallback, base: Any, inputs: Mapping[str, Any],
                  outputs: Mapping[str, Any]) -> tuple[Any, str]:
    """The output a DEFAULT fallback goes on with: `base` with each carried part read from the run's
    outputs and inputs, and what was carried from where. KeyError (with why) when a part is not there."""
    value = dict(base) if isinstance(base, dict) else base
    said: list[str] = []
    for c in fallback.carry:
        if c.input is not None:
            if c.input not in inputs:
                raise KeyError(f"workflow input {c.input} was not given")
            found = _at(inputs[c.input], c.pointer)
        elif c.step is not None:
            if c.step not in outputs:
                raise KeyError(f"{c.step} has no output")
            found = _at(outputs[c.step], c.pointer)
        else:
            raise KeyError(f"'{c.said}' names no step's output nor workflow input")
        if c.each:
            if not isinstance(found, list):
                raise KeyError(f"{c.described()} is not a list")
            found = [_at(one, c.each) for one in found]
        value = {**(value if isinstance(value, dict) else {}), c.field: found} if c.field else found
        said.append(f"{c.field or 'the output'} carried from {c.described()}")
    return value, "; ".join(said)
