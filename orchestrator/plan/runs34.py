"""A condition that compares a value with a workflow input named before the inputs were all known.

Authors name the value a step's result is held against by its input's name: `Only if: accuracy >=
`min_accuracy``, `run when score > threshold` with `threshold` listed as a run input in prose, a YAML
`when: total <= budget_limit`. When the condition is read before the plan knows all its inputs (inputs
said in prose after the fact, or taken from what the steps read), the name is read as the text
'min_accuracy' and the run fails comparing a number with a text. Once the plan's inputs are known, a text
compared by an ordering operator (`<`, `<=`, `>`, `>=`) that is exactly a workflow input's name is that
input (`inputs.min_accuracy`); the warning that said it was read as text goes. Equality with a text
(`status == 'ready'`) is left alone: a text is a fine value to be equal to.
"""

from __future__ import annotations

import re

from orchestrator.plan.model import Plan, PlanStep

# an ordering operator, then a quoted word: `>= 'min_accuracy'`
_ORDERED_TEXT = re.compile(r"(<=|>=|<|>) '([A-Za-z_][A-Za-z0-9_]*)'")


def _placed(expression: str | None, names: frozenset[str], placed: set[str]) -> str | None:
    """`expression` with each ordered text that names a workflow input as that input."""
    if not expression or "'" not in expression:
        return expression

    def one(m: re.Match[str]) -> str:
        if m[2] not in names:
            return m[0]
        placed.add(m[2])
        return f"{m[1]} inputs.{m[2]}"

    return _ORDERED_TEXT.sub(one, expression)


def _step(step: PlanStep, names: frozenset[str], placed: set[str]) -> PlanStep:
    update: dict[str, object] = {}
    when = _placed(step.when, names, placed)
    if when != step.when:
        update["when"] = when
    approval = step.policy.approval
    if approval is not None and approval.when:
        gate = _placed(approval.when, names, placed)
        if gate != approval.when:
            update["policy"] = step.policy.model_copy(update={"approval": approval.model_copy(update={"when": gate})})
    return step.model_copy(update=update) if update else step


def input_comparands(plan: Plan) -> Plan:
    """`plan` with each condition's ordered text that names a workflow input read as that input."""
    names = frozenset(i.name for i in plan.inputs)
    if not names:
        return plan
    placed: set[str] = set()
    steps = tuple(_step(s, names, placed) for s in plan.steps)
    if not placed:
        return plan
    stale = tuple(f"`{n}` names no workflow input or earlier output" for n in placed)
    warnings = tuple(w for w in plan.warnings if not any(s in w.message for s in stale))
    return plan.model_copy(update={"steps": steps, "warnings": warnings})
