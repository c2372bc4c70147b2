"""Workflow inputs the spec declares that no step reads.

An author lists what they hand the run ("- rota: the weekly rota", a YAML `inputs:` key); when
no step's input, template, condition, loop or approval reads the name, a run still asks for it
(a required input) and passes it nowhere. That is said at the input's line, with what to do: the
name a step reads under another spelling, or a line to remove. Read once over the plan's steps,
linear in their size.
"""

from __future__ import annotations

from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import Plan
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_REF = _rx(r"""(?<![\w.])inputs(?:\.([A-Za-z_]\w*+)|\[[ \t]*+['"]([^'"]{1,80}+)['"][ \t]*+\])""")


def _read(value: Any, out: set[str]) -> None:
    """The input names `value` (a step dumped as data) reads: bindings and `inputs.x` references."""
    if isinstance(value, dict):
        if value.get("source") == "input" and isinstance(value.get("name"), str):
            out.add(value["name"])
        for v in value.values():
            _read(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _read(v, out)
    elif isinstance(value, str) and "inputs" in value:
        out.update(a or b for a, b in _REF.findall(value))


def unused_inputs(plan: Plan, path: str) -> list[Diagnostic]:
    """A warning at each declared input no step reads (module docstring)."""
    if not plan.inputs:
        return []
    used: set[str] = set()
    for step in plan.steps:
        _read(step.model_dump(include={"inputs", "for_each", "when", "policy", "routes", "route_on"}), used)
    found: list[Diagnostic] = []
    for item in plan.inputs:
        if item.name in used:
            continue
        found.append(warning_at(item.where, path, f"input `{item.name}` is declared but no step reads it: a run "
                                f"still takes it and passes it to no step. Name it in the step that needs it "
                                f"(`{item.name} (workflow input)` on its Input line), or remove the line",
                                "plan.input-unused"))
    return found


_rx.save()
