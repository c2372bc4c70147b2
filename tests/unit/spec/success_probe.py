"""What the spec tests of a run's success check look at: the output properties each check holds, by the step
whose output it checks."""

from __future__ import annotations

from typing import Any


def success_checks(spec: Any) -> dict[str, dict[str, Any]]:
    """{producer: its checked output properties} of the run's success checks."""
    out: dict[str, dict[str, Any]] = {}
    for c in spec.contracts:
        if c.consumer is None and c.constraints.get(""):
            out.setdefault(c.producer, {}).update(c.constraints[""]["properties"])
    return out
