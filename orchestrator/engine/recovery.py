"""One unit of work (a step, or one `for each` item) from first attempt to final result.

    check input contract ─ fail ──────────────────────────────► fallback
    attempt ─ ok ─ check output contract ─ ok ─► output stored
       │                  └─ fail: a code error ─┐
       └─ fail ────────────────────────────────────┤
    policy_for(error class):                       ▼
      validator with feedback, code error   → send findings back to the producer
      transient, retries left, within budget → wait (explicit delays, or backoff + jitter) → attempt
      code error, regenerations left        → new code from the regenerator → attempt
      otherwise                             → fallback: fail | escalate | continue | default | skill

Every decision is recorded before it takes effect; a resumed unit starts from the
recorded counts (attempts, retries, regenerations, the current code version,
the fallback skill in use), so budgets hold across crashes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import Enum
from typing import Any

from orchestrator.contracts import Violation, empty_value, render_violations
from orchestrator.engine.carry import carried_value
from orchestrator.engine.model import StepStatus
from orchestrator.engine.regeneration import RegenerationEnd, record_unavailable, regenerate
from orchestrator.engine.runs37 import not_given_recovery
from orchestrator.engine.scope import RunScope
from orchestrator.engine.state import retry_family
from orchestrator.ids import idempotency_key
from orchestrator.journal.events import (
    AttemptFailed,
    AttemptStarted,
    FallbackUsed,
    FeedbackSent,
    HandoffChecked,
    OutputStored,
    RetryScheduled,
)
from orchestrator.jsonsafe import storable_problem
from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import Plan, PlanStep, ResolvedPolicy
from orchestrator.policy import ErrorClass, FallbackAction, RetryPolicy
from orchestrator.runner import StepFailure, StepRequest, TokenUsage

_NO_USAGE = TokenUsage()


@dataclass(frozen=True, slots=True)
class UnitResult:
    status: StepStatus  # SUCCEEDED, DEFAULTED, CONTINUED, FAILED or ESCALATED
    output: Any = None
    failure: StepFailure | None = None
    attempt: int | None = None
    feedback_target: str | None = None  # set: re-run this producer, then this unit again
    note: str = ""  # for a step that succeeded: what people should know (items left out)


class _Next(Enum):
    RETRY = "retry"
    FEEDBACK = "feedback"
    FALLBACK = "fallback"


# -- the unit ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tried:
    """What one attempt gave: an output, or a failure (attempt None: none was started)."""

    output: Any = None
    failure: StepFailure | None = None
    attempt: int | None = None
    duration_s: float = 0.0
    usage: TokenUsage = _NO_USAGE
    code_sha256: str | None = None
    isolation: str | None = None


async def run_unit(scope: RunScope, step: PlanStep, item: int | None, payload: Any) -> UnitResult:
    """Execute one unit to its final result (see the module docstring)."""
    st = scope.state.steps[step.id]
    it = st.item(item)
    if it.has_output:
        return UnitResult(StepStatus.SUCCEEDED, it.output)
    if it.fallback_skill is not None:  # resumed after the fallback skill was chosen
        return await _run_fallback_skill(scope, step, item, payload, it.fallback_skill)
    if it.attempts == 0 and step.not_given:  # the skill reads it, the plan gives it nothing: no silent success
        missing = [n for n in step.not_given if not isinstance(payload, dict) or n not in payload]
        if missing:
            failure = StepFailure(
                error_class=ErrorClass.INVALID_INPUT,
                message=f"input `{missing[0]}` has no value: skill {step.skill}'s instructions say it reads it, and "
                "nothing in the plan gives it (warned at plan time); the step is not run without it",
                kind="input_not_given",
                pointer=f"/{missing[0]}",
            )
            resolved, failure = not_given_recovery(step, failure)  # no fallback value for it (`engine.runs37`)
            return await fallback(scope, step, item, payload, failure, resolved=resolved)
    if it.attempts == 0 and step.input_schema:
        violations = scope.contracts.check(step.input_schema, payload)
        scope.emit(
            HandoffChecked(
                ts=scope.now(), step=step.id, item=item, direction="input", ok=not violations, violations=violations
            )
        )
        if violations:
            failure = StepFailure(
                error_class=ErrorClass.INVALID_INPUT,
                message=f"input breaks its contract: {violations[0].render()}",
                detail=render_violations(violations),
                kind="input_contract",
                pointer=violations[0].pointer,
            )
            return await fallback(scope, step, item, payload, failure)
    skill = scope.skill(step.skill)
    while True:
        if item is None and st.feedback_pending is not None:
            await regenerate(scope, step, item, payload, None, feedback=st.feedback_pending)
        tried = await _attempt(scope, step, item, payload, skill)
        if tried.failure is None:
            store_output(scope, step, item, tried)
            scope.soon()
            return UnitResult(StepStatus.SUCCEEDED, tried.output, attempt=tried.attempt)
        decision, note = await _recover(scope, step, item, payload, tried, skill)
        if decision is _Next.FEEDBACK:
            assert step.policy.feedback is not None
            return UnitResult(StepStatus.PENDING, feedback_target=step.policy.feedback.target_step)
        if decision is _Next.FALLBACK:
            failure = tried.failure
            if note:  # why regeneration did not help: it ends up in the step's and the run's message
                failure = failure.model_copy(update={"message": f"{failure.message} ({note})"})
            return await fallback(scope, step, item, payload, failure, tried.attempt)


def path_fields(plan: Plan, step: PlanStep) -> tuple[str, ...]:
    """The step's input fields that take a path workflow input (`format: path`) whole."""
    paths = {i.name for i in plan.inputs if i.schema_.get("format") == "path"}
    if not paths:
        return ()
    return tuple(name for name, b in step.inputs.items()
                 if b.source == "input" and b.name in paths and not b.pointer)


def _tokens_left(scope: RunScope) -> int:
    return max(0, scope.plan.limits.max_llm_tokens - scope.state.tokens.total)


def _check_output(scope: RunScope, step: PlanStep, item: int | None, attempt: int | None, value: Any) -> tuple[Violation, ...]:
    """Check `value` against the step's output contract, recording the handoff check."""
    violations = scope.contracts.check(step.output_schema, value)
    scope.emit(
        HandoffChecked(
            ts=scope.now(), step=step.id, item=item, attempt=attempt, direction="output",
            ok=not violations, violations=violations,
        )
    )
    return violations


def store_output(scope: RunScope, step: PlanStep, item: int | None, tried: _Tried) -> None:
    scope.emit(
        OutputStored(
            ts=scope.now(), step=step.id, item=item, attempt=tried.attempt,
            duration_s=tried.duration_s, usage=tried.usage, output=tried.output, isolation=tried.isolation,
        )
    )


def _timeouts(scope: RunScope, step: PlanStep, skill: BoundSkill) -> tuple[float | None, float | None]:
    """(this attempt's timeout, what is left of the step's own timeout)."""
    attempt_timeout = step.policy.attempt_timeout_s or skill.timeout_s
    step_timeout = step.policy.step_timeout_s
    if step_timeout is None:
        return attempt_timeout, None
    started = scope.state.steps[step.id].started_at
    left = step_timeout - (scope.now() - started) if started is not None else step_timeout
    if attempt_timeout is None or left < attempt_timeout:
        return left, left
    return attempt_timeout, left


def _step_timeout(step: PlanStep) -> StepFailure:
    return StepFailure(
        error_class=ErrorClass.TIMEOUT,
        message=f"step timed out: its {step.policy.step_timeout_s or 0:g}s are spent",
        kind="step_timeout",
    )


async def _attempt(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, skill: BoundSkill, *, fallback: bool = False
) -> _Tried:
    st = scope.state.steps[step.id]
    it = st.item(item)
    if it.not_before is not None and it.not_before > scope.now():  # a retry wait cut short by a crash
        await scope.sleep(it.not_before - scope.now())
    timeout, step_left = _timeouts(scope, step, skill)
    if step_left is not None and step_left <= 0:
        return _Tried(failure=_step_timeout(step))
    known = scope.runner_problems  # asked once per kind; the common case needs no await
    problem = known[skill.kind] if skill.kind in known else await scope.runner_problem(skill)
    if problem is not None:
        return _Tried(failure=StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=problem, kind="no_runner"))
    traits = scope.traits(skill.kind)
    code_path = None if fallback else st.code_path
    code_sha = None if fallback else st.code_sha256
    async with scope.slot(skill):
        # inside the slot: attempts that waited for one count those that ran meanwhile
        scope.check_attempt_limits(step.id, item)
        attempt = it.attempts + 1
        key = idempotency_key(scope.run_id, step.id, attempt, item)
        started = scope.now()
        scope.emit(
            AttemptStarted(
                ts=started, step=step.id, item=item, attempt=attempt, idempotency_key=key,
                skill=skill.name, code_sha256=code_sha, fallback=fallback,
            )
        )
        run_dir = scope.backend.run_dir
        request = StepRequest(
            run_id=scope.run_id, step_id=step.id, attempt=attempt, idempotency_key=key, skill=skill,
            input=payload, timeout_s=timeout, item_index=item,
            script_override=run_dir / code_path if code_path and run_dir is not None else None,
            run_dir=run_dir, output_schema=step.output_schema or None,
            tokens_left=_tokens_left(scope) if traits.counts_tokens else None,
            paths=path_fields(scope.plan, step),
        )
        try:  # the backend makes the start durable first unless the attempt is contained
            outcome = await scope.backend.attempt(request, code_path)
        except asyncio.CancelledError:
            scope.emit(
                AttemptFailed(
                    ts=scope.now(), step=step.id, item=item, attempt=attempt,
                    error_class=ErrorClass.TRANSIENT.value, message="cancelled: the run is ending",
                    kind="cancelled", duration_s=scope.now() - started,
                )
            )
            raise
    duration = outcome.duration_s or (scope.now() - started)
    failure = outcome.failure
    if failure is not None and failure.timed_out and step_left is not None and timeout == step_left:
        failure = _step_timeout(step)
    if failure is None and not traits.output_is_text:  # output parsed from text is storable as it is
        problem = storable_problem(outcome.output)
        if problem is not None:
            failure = StepFailure(
                error_class=ErrorClass.CODE_ERROR, message=f"output cannot be stored as JSON: {problem}",
                kind="output_contract",
            )
    if failure is None and step.output_schema:
        violations = _check_output(scope, step, item, attempt, outcome.output)
        if violations:
            failure = StepFailure(
                error_class=ErrorClass.CODE_ERROR,
                message=f"output breaks its contract: {violations[0].render()}",
                detail=render_violations(violations),
                kind="output_contract",
                pointer=violations[0].pointer,
            )
    isolation = outcome.meta.get("isolation") if outcome.meta else None
    if failure is None:
        return _Tried(
            output=outcome.output, attempt=attempt, duration_s=duration, usage=outcome.usage, code_sha256=code_sha,
            isolation=isolation,
        )
    stderr_path = None
    if outcome.stderr_tail:
        stderr_path = scope.backend.keep_stderr(step.id, item, attempt, outcome.stderr_tail)
    scope.emit(
        AttemptFailed(
            ts=scope.now(), step=step.id, item=item, attempt=attempt, error_class=failure.error_class.value,
            message=failure.message, detail=failure.detail, kind=failure.kind, pointer=failure.pointer,
            duration_s=duration, usage=outcome.usage, stderr_path=stderr_path, isolation=isolation,
        )
    )
    scope.soon()  # a failure that leads nowhere else at once (an item left out) is durable too
    scope.check_tokens(step.id)
    return _Tried(failure=failure, attempt=attempt, duration_s=duration, usage=outcome.usage, code_sha256=code_sha)


# -- deciding what follows a failure ------------------------------------------


async def _recover(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, tried: _Tried, skill: BoundSkill
) -> tuple[_Next, str | None]:
    """What follows a failed attempt, and (for a fallback) why regeneration did not help."""
    failure = tried.failure
    assert failure is not None
    if failure.kind in ("step_timeout", "no_runner"):
        return _Next.FALLBACK, None
    st = scope.state.steps[step.id]
    it = st.item(item)
    if failure.error_class is ErrorClass.TIMEOUT and tried.code_sha256 is not None:
        # regenerated code that runs out of time most likely loops: running it again would
        # only time out again, so it is treated as the code error it is (regenerated anew)
        failure = failure.model_copy(
            update={"error_class": ErrorClass.CODE_ERROR, "message": f"the regenerated script timed out ({failure.message})"}
        )
    resolved = step.policy_for(failure.error_class)
    sent, note = await _send_feedback(scope, step, item, failure)
    if sent:
        return _Next.FEEDBACK, None
    used = it.retries.get(retry_family(failure.error_class.value), 0)
    if used < resolved.retry.max_retries and _within_budget(scope, step, resolved.retry, used):
        await _wait_before_retry(scope, step.id, item, tried.attempt, resolved.retry, used, failure)
        return _Next.RETRY, None
    budget = resolved.regenerations
    if failure.missing_code:
        budget = max(budget, 1)  # a skill without its script gets a first version, budget or not
    if budget > 0 and scope.traits(skill.kind).regenerable:
        async with scope.lock("regenerate:" + step.id):
            if st.code_sha256 != tried.code_sha256:  # another item already brought new code
                return _Next.RETRY, None
            while st.regenerations < budget:
                outcome = await regenerate(scope, step, item, payload, failure)
                if outcome.end is RegenerationEnd.STORED:
                    return _Next.RETRY, None
                note = outcome.note
                if outcome.end is RegenerationEnd.UNAVAILABLE:
                    break
    return _Next.FALLBACK, note


def _within_budget(scope: RunScope, step: PlanStep, retry: RetryPolicy, used: int) -> bool:
    """Whether the next wait still ends inside the retry's time budget ("for up to a minute"),
    counted from the step's start; without a budget, always."""
    if retry.budget_s is None:
        return True
    started = scope.state.steps[step.id].started_at
    if started is None:
        return True
    return scope.now() - started + retry.delay(used, 0.0) <= retry.budget_s


async def _wait_before_retry(
    scope: RunScope, step_id: str, item: int | None, attempt: int | None, retry: RetryPolicy, used: int,
    failure: StepFailure,
) -> None:
    """Record the wait before retry number `used` (committed first), then wait it out."""
    delay = max(0.0, retry.delay(used, scope.random()))
    now = scope.now()
    scope.emit(
        RetryScheduled(
            ts=now, step=step_id, item=item, attempt=attempt, delay_s=delay,
            not_before=now + delay, error_class=failure.error_class.value,
        )
    )
    await scope.commit()
    if delay > 0:
        await scope.sleep(delay)


async def _send_feedback(
    scope: RunScope, step: PlanStep, item: int | None, failure: StepFailure
) -> tuple[bool, str | None]:
    """A validator's code error goes back to its producer while the bound allows.

    Returns whether it was sent, and why not when regeneration is unavailable.
    """
    policy = step.policy.feedback
    if policy is None or item is not None or failure.error_class is not ErrorClass.CODE_ERROR:
        return False, None
    st = scope.state.steps[step.id]
    if 1 + st.feedback_sent >= policy.max_attempts:
        return False, None
    target = scope.plan.skill_of(policy.target_step)
    if not scope.traits(target.kind).regenerable:
        return False, None
    problem = await scope.backend.regeneration_problem()
    if problem is not None:
        record_unavailable(scope, policy.target_step, None, problem)
        return False, f"the findings could not go back to step {policy.target_step}: {problem}"
    scope.emit(
        FeedbackSent(ts=scope.now(), step=step.id, target=policy.target_step, detail=_findings(failure))
    )
    await scope.commit()
    return True, None


def _findings(failure: StepFailure) -> str:
    return failure.message if not failure.detail else f"{failure.message}\n{failure.detail}"


# -- fallbacks ----------------------------------------------------------------


async def fallback(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, failure: StepFailure,
    attempt: int | None = None, *, resolved: ResolvedPolicy | None = None,
) -> UnitResult:
    """Apply the fallback for `failure` (recovery is exhausted)."""
    chosen = (resolved or step.policy_for(failure.error_class)).fallback
    action = chosen.action
    if action is FallbackAction.FAIL and step.policy.on_error == "continue":
        action = FallbackAction.CONTINUE
    if action is FallbackAction.ESCALATE and chosen.message:  # who the spec says to tell, with the failure
        failure = failure.model_copy(update={"message": f"{failure.message}; escalated: {chosen.message}"})
    scope.emit(
        FallbackUsed(
            ts=scope.now(), step=step.id, item=item, attempt=attempt, action=action.value,
            skill=chosen.skill if action is FallbackAction.SKILL else None, reason=failure.message,
        )
    )
    scope.soon()
    if action is FallbackAction.DEFAULT:
        value = chosen.value if chosen.value is not None else empty_value(step.output_schema)
        if chosen.carry:  # parts taken from earlier data ("to_withdraw = all the candidates' barcodes")
            try:
                value, carried = carried_value(chosen, value, scope.renderer.inputs, scope.state.outputs())
            except KeyError as exc:
                missing = StepFailure(error_class=ErrorClass.UNRECOVERABLE, kind="no_value",
                                      message=f"the fallback's value to go on with could not be read: {exc.args[0]} "
                                              f"(after: {failure.message})")
                return _final(step, missing, attempt)
            failure = failure.model_copy(update={"message": f"{failure.message}; {carried}"})
        if (chosen.value is not None or chosen.carry) and step.output_schema:  # checked as an output is
            violations = _check_output(scope, step, item, attempt, value)
            if violations:
                broken = StepFailure(
                    error_class=ErrorClass.UNRECOVERABLE,
                    message=f"the fallback's default value breaks the output contract: {violations[0].render()} "
                            f"(after: {failure.message})",
                    detail=render_violations(violations), kind="output_contract", pointer=violations[0].pointer,
                )
                return _final(step, broken, attempt)
        store_output(scope, step, item, _Tried(output=value, attempt=attempt))
        scope.soon()
        return UnitResult(StepStatus.DEFAULTED, value, failure=failure, attempt=attempt)
    if action is FallbackAction.SKILL:
        if chosen.skill is None or chosen.skill not in scope.plan.skills:
            missing = StepFailure(
                error_class=ErrorClass.UNRECOVERABLE,
                message=f"fallback skill {chosen.skill!r} is not bound in the plan",
                kind="no_skill",
            )
            return _final(step, missing, attempt)
        return await _run_fallback_skill(scope, step, item, payload, chosen.skill)
    if action is FallbackAction.CONTINUE:
        return UnitResult(StepStatus.CONTINUED, failure=failure, attempt=attempt)
    if action is FallbackAction.ESCALATE:
        return UnitResult(StepStatus.ESCALATED, failure=failure, attempt=attempt)
    return UnitResult(StepStatus.FAILED, failure=failure, attempt=attempt)


def _final(step: PlanStep, failure: StepFailure, attempt: int | None) -> UnitResult:
    status = StepStatus.CONTINUED if step.policy.on_error == "continue" else StepStatus.FAILED
    return UnitResult(status, failure=failure, attempt=attempt)


async def _run_fallback_skill(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, skill_name: str
) -> UnitResult:
    """Run another skill with the same input: transient retries only, then the step fails."""
    skill = scope.skill(skill_name)
    it = scope.state.steps[step.id].item(item)
    while True:
        tried = await _attempt(scope, step, item, payload, skill, fallback=True)
        if tried.failure is None:
            store_output(scope, step, item, tried)
            scope.soon()
            return UnitResult(StepStatus.SUCCEEDED, tried.output, attempt=tried.attempt)
        failure = tried.failure
        retry = step.policy_for(failure.error_class).retry
        used = it.retries.get(retry_family(failure.error_class.value), 0)
        if failure.kind in ("step_timeout", "no_runner") or used >= retry.max_retries:
            return _final(step, failure, tried.attempt)
        await _wait_before_retry(scope, step.id, item, tried.attempt, retry, used, failure)
