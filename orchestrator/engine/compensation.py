"""Compensations (the saga): when a run fails, undo what its completed steps did.

The compensation skills of the steps that succeeded run one at a time in the
reverse order of completion. Each gets `{step, input, output}` of the step it
compensates (a script compensation also finds the step's artifacts in its work
directory, and what it leaves there becomes the step's artifacts once it
succeeds) and an idempotency key of its own, is retried as a transient failure
(the step's retry policy, else `COMPENSATION_RETRY`), and its end is recorded. A
failing compensation is logged and the rest still run. A crash while
compensating is resumed: the compensations recorded as ended are not run again.
"""

from __future__ import annotations

from typing import Any

from orchestrator.engine.render import RenderError
from orchestrator.engine.scope import RunScope
from orchestrator.journal.events import (
    CompensationFailed,
    CompensationFinished,
    CompensationStarted,
)
from orchestrator.plan.model import PlanStep
from orchestrator.policy import RetryPolicy
from orchestrator.runner import StepRequest

COMPENSATION_RETRY = RetryPolicy(max_retries=2, initial_s=1.0, multiplier=2.0, max_delay_s=10.0)


def step_input(scope: RunScope, step: PlanStep) -> Any:
    """The input the step ran with, rendered again (a `for each` step: one per item)."""
    outputs = scope.state.outputs()
    try:
        if step.for_each is None:
            return scope.renderer.step_input(step, outputs)
        return [scope.renderer.step_input(step, outputs, item) for item in scope.renderer.items(step, outputs)]
    except RenderError:
        return None


async def compensate(scope: RunScope) -> None:
    state = scope.state
    for step_id in reversed(list(state.completion_order)):
        step = scope.step(step_id)
        name = step.policy.compensation
        if not name or state.compensations.get(step_id) in ("finished", "failed"):
            continue
        scope.emit(CompensationStarted(ts=scope.now(), step=step_id, skill=name))
        await scope.commit()
        error = await _run_one(scope, step, name)
        if error is None:
            scope.emit(CompensationFinished(ts=scope.now(), step=step_id, skill=name))
        else:
            scope.emit(CompensationFailed(ts=scope.now(), step=step_id, skill=name, message=error))
        await scope.commit()


async def _run_one(scope: RunScope, step: PlanStep, name: str) -> str | None:
    """Run one compensation with its retries; None when it succeeded, else why not."""
    skill = scope.plan.skills.get(name)
    if skill is None:
        return f"compensation skill {name!r} is not bound in the plan"
    problem = await scope.runner_problem(skill)
    if problem is not None:
        return problem
    payload = {"step": step.id, "input": step_input(scope, step), "output": scope.state.steps[step.id].output}
    retry = step.policy.retry if step.policy.retry.max_retries else COMPENSATION_RETRY
    timeout = skill.timeout_s
    attempt = 0
    while True:
        attempt += 1
        request = StepRequest(
            run_id=scope.run_id, step_id=step.id, attempt=attempt,
            idempotency_key=f"{scope.run_id}:{step.id}:compensate:{attempt}", skill=skill,
            input=payload, timeout_s=timeout, run_dir=scope.backend.run_dir, compensation=True,
        )
        async with scope.slot(skill):
            outcome = await scope.backend.attempt(request, None)
        if outcome.failure is None:
            return None
        if attempt > retry.max_retries:
            return f"{outcome.failure.error_class.value}: {outcome.failure.message}"
        await scope.sleep(max(0.0, retry.delay(attempt - 1, scope.random())))
