"""The spec's success checks comparing two values, placed on the plan's steps and inputs.

A side the spec reader gave a step (`spec.success_compare31`) takes the first of its candidate
names that the step's output declares (any when it declares none); a side that named no step
takes the one step whose output declares a candidate. A side that cannot be placed (no such
step, several, an unknown input, a name the step's output does not have) leaves the check out
of the plan, warned at its line: never checked against a guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import CheckValue, CompareCheck, PlanInput, PlanStep
from orchestrator.plan.schema import properties_of
from orchestrator.spec.model import CompareCheckSpec, CompareValueSpec, WorkflowSpec

CODE = "plan.success-compare"
SPEC_CODE = "spec.success"


def _pointer(field: str) -> str:
    return "/" + field.replace(".", "/") if field else ""


def _place(side: CompareValueSpec, steps: Sequence[PlanStep], inputs: set[str]) -> CheckValue | str:
    """The side as a plan value, or why it cannot be placed."""
    if side.input is not None:
        if side.input not in inputs:
            return f"'{side.said}' names the workflow input `{side.input}`, which the plan does not have"
        return CheckValue(source="input", name=side.input, count=side.count, said=side.said)
    if side.step is not None:
        step = next((s for s in steps if s.id == side.step), None)
        if step is None:
            return f"'{side.said}' names {side.step}, which is not a step of the plan"
        props = properties_of(step.output_schema)
        if not side.candidates:
            return CheckValue(source="step", step=step.id, count=side.count, said=side.said)
        field = next((c for c in side.candidates if c in props or c.split(".")[0] in props), None)
        if field is None and props:
            return (f"'{side.said}': {step.id}'s output has no field among {', '.join(side.candidates)} "
                    f"(it gives {', '.join(sorted(props))})")
        return CheckValue(source="step", step=step.id, pointer=_pointer(field or side.candidates[0]), count=side.count,
                          said=side.said)
    for name in side.candidates:
        having = [s for s in steps if name in properties_of(s.output_schema)]
        if len(having) == 1:
            return CheckValue(source="step", step=having[0].id, pointer=_pointer(name), count=side.count, said=side.said)
        if len(having) > 1:
            return f"'{side.said}': `{name}` is an output of {', '.join(s.id for s in having)}; name the step"
    if len(side.candidates) == 1 and side.candidates[0] in inputs:
        return CheckValue(source="input", name=side.candidates[0], count=side.count, said=side.said)
    return f"'{side.said}' is not an output of any step ({', '.join(side.candidates) or 'no name'})"


def place_compares(spec: WorkflowSpec, steps: Sequence[PlanStep], inputs: Sequence[PlanInput]
                   ) -> tuple[tuple[CompareCheck, ...], list[Diagnostic], set[tuple[int | None, str]]]:
    """The plan's compare checks, a warning for each that could not be placed, and the spec's success
    warnings they replace ((line, message): those whose every comparison was placed; the reading is warned
    in their stead)."""
    names = {i.name for i in inputs}
    placed: list[CompareCheck] = []
    warnings: list[Diagnostic] = []
    groups: dict[tuple[str, str], list[bool]] = {}
    readings: dict[tuple[str, str], str] = {}
    check: CompareCheckSpec
    for check in spec.compares:
        key = (check.where, check.warned)
        readings[key] = check.reading
        left, right = _place(check.left, steps, names), _place(check.right, steps, names)
        problems = [p for p in (left, right) if isinstance(p, str)]
        if problems or not isinstance(left, CheckValue) or not isinstance(right, CheckValue):
            groups.setdefault(key, []).append(False)
            warnings.append(warning_at(check.where, spec.path, f"success check '{check.text}' is not checked: "
                                       f"{'; '.join(problems)}", CODE))
            continue
        groups.setdefault(key, []).append(True)
        placed.append(CompareCheck(left=left, op=check.op, right=right, text=check.text, where=check.where))
    replaced: set[tuple[int | None, str]] = set()
    for (where, warned), fine in groups.items():
        if all(fine) and warned:
            read = warning_at(where, spec.path, readings[(where, warned)], SPEC_CODE)
            replaced.add((read.line, warned))
            warnings.append(read)
    return tuple(placed), warnings, replaced


