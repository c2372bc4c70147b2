"""Inputs the reader made itself, from names a later step's text writes, that the text then gives otherwise.

    C) OT COST - overtime-costing. ..., crew_count = B's total, day_hours 11.
        -> `crew_count` is step 2's `total` and `day_hours` the literal 11: neither is a workflow input

When a spec declares no inputs, the planner takes as inputs the names the steps read that no step
outputs (`plan.dataflow.derived_inputs`), before the step's own words are read for where each value
comes from. When those words then give the name from an earlier step ("crew_count = B's total",
"gaps_to_fill = how many are MISSING from B") or as a literal, no step reads the input: a run would
still require it of the caller (an invented required input). Such an input is dropped, and said (a
warning naming each one), when no step's binding, condition, approval or loop reads it. Inputs the
author declared, in any way, are never dropped here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.spec.model import InputSpec

_INPUT_REF = re.compile(r"inputs\.([A-Za-z_]\w*+)")


def _used(flows: Iterable[Any]) -> set[str]:
    used: set[str] = set()
    for flow in flows:
        for binding in flow.bindings.values():
            if binding.source == "input" and binding.name:
                used.add(binding.name)
            if binding.template:
                used.update(_INPUT_REF.findall(binding.template))
        said = " ".join([str(flow.when or ""), repr(flow.approval), repr(flow.for_each)])
        used.update(_INPUT_REF.findall(said))
        used.update(re.findall(r"[A-Za-z_]\w*+", repr(flow.for_each)) if flow.for_each is not None else ())
    return used


def unread_dropped(inputs: tuple[InputSpec, ...], derived: Sequence[InputSpec], flows: Iterable[Any],
                   found: list[Diagnostic], path: str) -> tuple[InputSpec, ...]:
    """`inputs` without those of `derived` (the reader's own) that no step of `flows` reads; each dropped
    one is said in `found`."""
    mine = {i.name for i in derived}
    used = _used(flows)
    dropped = [i for i in inputs if i.name in mine and i.name not in used]
    for item in dropped:
        found.append(warning_at(item.where, path, f"input `{item.name}` was read from a step's text, which then "
                                "gives it from an earlier step or as a value: it is no workflow input (declare it "
                                "in an Inputs section if the run is to be given it)", "derived-inputs"))
    return tuple(i for i in inputs if i not in dropped)
