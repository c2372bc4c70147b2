"""Spec warnings the plan makes untrue, left out (round 46).

A steps table's USES cell written as a gather in words ("all the room-volume results together", "every
sorter's counts combined") is warned by the field reader as "not read as a field name": it is no name.
The planner then reads it as meant when the step takes a `For each` step's results gathered
(`plan.fan_gather`, `mapping.SAYS_EVERY`): that warning no longer says what became of the words, and is left out. Only at the
line of a step that gathers, only for a part the gather words read; any other part stays warned.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.errors import Diagnostic
from orchestrator.plan.mapping import SAYS_EVERY
from orchestrator.plan.model import PlanStep

_UNREAD_FIELD = "' is not read as a field name"


def _line(where: str | None) -> int | None:
    tail = (where or "").rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


def drop_read_gathers(warnings: Iterable[Diagnostic], steps: Iterable[PlanStep]) -> list[Diagnostic]:
    """`warnings` without a "not read as a field name" at a gathering step's line whose part says a gather."""
    gathering = {line for s in steps if any(getattr(b, "gather", False) for b in s.inputs.values())
                 and (line := _line(s.where)) is not None}
    kept: list[Diagnostic] = []
    for w in warnings:
        end = w.message.find(_UNREAD_FIELD) if w.code == "spec.field" and w.line in gathering else -1
        if end > 0 and w.message.startswith("'") and SAYS_EVERY.search(w.message[1:end]) is not None:
            continue
        kept.append(w)
    return kept
