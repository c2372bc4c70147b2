"""The plan's success checks comparing two values, evaluated once the run's steps are done.

Both the local engine and the Temporal workflow end a run in `Scheduler.execute`, which asks
`evaluate` here (pure: it reads the run's state, no clock, no world, so a replay decides the same).

A check is false, or cannot be decided on values the run has (a field missing from its step's
output, a count of something that is not a list, values of kinds that do not compare): the run
fails, the message naming the check, its line and both values (a refusal is better than a wrong
`succeeded`). A side whose step has no output (skipped by its condition, continued past its
failure, never run) leaves the check not evaluated: said in the run's ending, never passed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from orchestrator.engine.model import StepStatus
from orchestrator.engine.render import resolve_pointer
from orchestrator.engine.state import RunState
from orchestrator.plan.model import COMPARE_SYMBOL, CheckValue, CompareCheck, Plan

_SAY = {"eq": "equal", "ne": "differ from", "lt": "be less than", "gt": "be more than", "ge": "be at least",
        "le": "be at most"}


@dataclass(slots=True)
class Verdict:
    failed: str | None = None  # the first check that failed, said
    not_evaluated: list[str] = field(default_factory=list)


class _Unknown(Exception):
    """A side whose step has no output: the check is not evaluated."""


class _Undecidable(Exception):
    """A side the run's values cannot give (missing field, not a list): the check fails."""


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def _value(side: CheckValue, plan: Plan, state: RunState) -> Any:
    if side.source == "input":
        if side.name not in state.inputs:
            raise _Undecidable(f"the workflow input `{side.name}` was not given")
        value = state.inputs[side.name]
    else:
        sid = side.step or ""
        st = state.steps.get(sid)
        if st is None or not st.status.has_output or not st.has_output:
            status = st.status.value if st is not None else StepStatus.NOT_RUN.value
            raise _Unknown(f"{sid} has no output ({status})")
        output = st.output
        step = plan.step(sid)
        try:
            if step.for_each is not None and side.pointer and isinstance(output, list):
                value = [resolve_pointer(item, side.pointer) for item in output]
            else:
                value = resolve_pointer(output, side.pointer)
        except KeyError:
            raise _Undecidable(f"{sid}'s output has no `{side.pointer.lstrip('/').replace('/', '.')}`") from None
    if side.count:
        if not isinstance(value, (list, dict)):
            raise _Undecidable(f"{side.shown()} counts items of {_show(value)}, which is not a list")
        return len(value)
    return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "null" if value is None else type(value).__name__


def _holds(op: str, left: Any, right: Any) -> bool:
    """Whether `left op right`; raises _Undecidable for values of kinds that do not compare."""
    kinds = (_kind(left), _kind(right))
    if op in ("eq", "ne"):
        if kinds[0] != kinds[1]:
            raise _Undecidable(f"a {kinds[0]} and a {kinds[1]} do not compare")
        return (left == right) is (op == "eq")
    if kinds != ("number", "number") and kinds != ("string", "string"):
        raise _Undecidable(f"a {kinds[0]} and a {kinds[1]} have no order")
    return bool({"lt": left < right, "gt": left > right, "ge": left >= right, "le": left <= right}[op])


def _one(check: CompareCheck, plan: Plan, state: RunState) -> str | None:
    """Why the check fails, None when it holds; raises _Unknown when it cannot be evaluated."""
    head = f"success check at {check.where} ('{check.text}': {check.shown()})"
    try:
        left, right = _value(check.left, plan, state), _value(check.right, plan, state)
    except _Undecidable as exc:
        return f"{head} cannot be decided: {exc}"
    try:
        holds = _holds(check.op, left, right)
    except _Undecidable as exc:
        return f"{head} cannot be decided: {check.left.shown()} is {_show(left)} and {check.right.shown()} " \
               f"is {_show(right)}: {exc}"
    if holds:
        return None
    return (f"{head} failed: {check.left.shown()} is {_show(left)} and {check.right.shown()} is {_show(right)} "
            f"(it should {_SAY[check.op]} it, {COMPARE_SYMBOL[check.op]})")


def evaluate(plan: Plan, state: RunState) -> Verdict:
    """The run's compare checks on its finished state: the first failure, and those not evaluated."""
    verdict = Verdict()
    for check in plan.compare_checks:
        try:
            failed = _one(check, plan, state)
        except _Unknown as exc:
            verdict.not_evaluated.append(f"success check at {check.where} ('{check.text}') not evaluated: {exc}")
            continue
        if failed is not None and verdict.failed is None:
            verdict.failed = failed
    return verdict
