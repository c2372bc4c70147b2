"""An approval whose condition names the step's own output: a gate the plan cannot hold.

    Step 4 `catering-order` (outputs order_ref, total_gbp):
    "if the total comes out over £9,000 I'll need your ok before it's placed"
        -> `total` is step-4's own `total_gbp`, known only once step-4 has run (and placed the order)

An approval holds a step before it runs (`engine.approval`); its condition is read then, on what the run
has so far. A condition on a value only the step itself gives (its quote, its total) cannot be read
before the step, and the plan has no gate between a step's work and what it does with it. So when no
workflow input, earlier output or item field is named (the planner tried those first) and the
condition's one compared subject is a word of exactly one of the step's own outputs, `own_output`
says which: the planner then asks on every run (never acting unasked where its author wanted to be asked)
and warns why, and how to be asked only when the condition holds (split the step).
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.condition import read_condition


def own_output(when: str, own: Iterable[str]) -> tuple[str, str] | None:
    """(the step's own output the condition names, the condition with that name) or None (module docstring)."""
    read = read_condition(when)
    if read is None or read.expression is not None or len(read.clauses) != 1:
        return None
    clause = read.clauses[0]
    if clause.kind != "compare" or clause.step is not None or clause.other or not clause.subject:
        return None
    from orchestrator.plan.gate_output27 import (
        _without_verb,  # "the total comes out (over 9,000)": the total
    )

    words = {w.lower() for w in (_without_verb(clause.subject) or clause.subject)}
    if not words:
        return None
    found = [name for name in sorted(set(own)) if words <= set(name.lower().split("_"))]
    if len(found) != 1:
        return None
    value = clause.value if not isinstance(clause.value, str) else repr(clause.value)
    return found[0], f"{found[0]} {clause.op} {value}"
