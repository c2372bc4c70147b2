"""What a sentence's `PolicyStatement` means for a step's policy: the retry schedule, fallback, timeout.

    retries 3, wait fixed 2s             → RetryPolicy(max_retries=3, delays_s=(2,), jitter=False)
    retries 2, wait 5s then 15s          → RetryPolicy(max_retries=2, delays_s=(5, 15), jitter=False)
    wait exponential, start 2, cap 20    → RetryPolicy(initial_s=2, multiplier=2, max_delay_s=20, jitter=True)
    retries 5, exponential from 30s x2   → RetryPolicy(max_retries=5, initial_s=30, max_delay_s=480): no cap said, none made
    wait fixed 10s, for up to 60s        → RetryPolicy(max_retries=6, delays_s=(10,), budget_s=60)
    wait fixed 10s with jitter           → RetryPolicy(initial_s=10, multiplier=1, max_delay_s=10, jitter=True)
    never retried                        → RetryPolicy(max_retries=0)
    continue with value "unknown" for category → Fallback(DEFAULT, value={"category": "unknown"})
    escalate "page the on-call"          → Fallback(ESCALATE, message="page the on-call")

The schedule is data the engine reads (`RetryPolicy.delay`); nothing here runs.
A wait stated without a count keeps a count of `ASSUMED_RETRIES`, and says so:
the caller warns. A series of waits without a count retries once per wait; a
time budget without a count retries as often as the waits fit in it (the engine
also stops at the budget).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    OnFailure,
    PolicyStatement,
    RetryPolicy,
    Wait,
)

ASSUMED_RETRIES = 3
DEFAULT_CAP_S = 60.0
_MAX_RETRIES = 1000
_LONGEST_WAIT_S = 86_400.0  # a doubling said without a cap is followed up to a day


def _seconds(value: float) -> str:
    return f"{value:g}s"


def assumed_retries(retry: RetryPolicy) -> str:
    """What the plan assumes for a retry said without its count, in figures: "3 retries assumed,
    waiting 1s, 2s, 4s (exponential from 1s, x2, capped at 60s, with jitter: up to those)"."""
    waits = ", ".join(_seconds(retry.delay(n)) for n in range(min(retry.max_retries, 5)))
    waits += ", ..." if retry.max_retries > 5 else ""
    if retry.delays_s:
        how = "as written"
    else:
        how = (f"exponential from {_seconds(retry.initial_s)}, x{retry.multiplier:g}, capped at "
               f"{_seconds(retry.max_delay_s)}" + (", with jitter: up to those" if retry.jitter else ""))
    said = f", waiting {waits} ({how})" if waits else ""
    return (f"{retry.max_retries} retries assumed{said}; write the count to say it "
            f"('retry {retry.max_retries} times ...')")


class Effect(BaseModel):
    """What one statement sets; None where it says nothing."""

    model_config = ConfigDict(frozen=True)

    retry: RetryPolicy | None = None
    retry_assumed: bool = False  # the count was not stated
    attempt_timeout_s: float | None = None
    run_timeout_s: float | None = None
    regenerations: int | None = None
    fallback: Fallback | None = None
    on: ErrorClass | str | None = None  # the class a rule is for; None: the step as a whole


def _schedule(wait: Wait | None) -> dict[str, object]:
    if wait is None:
        return {}
    if wait.kind == "none":
        return {"delays_s": (0.0,), "jitter": False}
    if wait.kind == "sequence":  # the same wait each time ("in a minute, and again a minute after that"): that wait
        said = tuple(wait.seconds)
        return {"delays_s": said[:1] if len(set(said)) == 1 else said, "jitter": False}
    if wait.kind == "fixed":
        seconds = wait.seconds[0] if wait.seconds else 1.0
        if wait.jitter:  # "every 10 s, with jitter": up to 10 s, drawn each time
            return {"initial_s": seconds, "multiplier": 1.0, "max_delay_s": seconds, "jitter": True}
        return {"delays_s": (seconds,), "jitter": False}
    start = wait.start_s if wait.start_s is not None else 1.0
    cap = wait.cap_s if wait.cap_s is not None else max(DEFAULT_CAP_S, start)
    return {"initial_s": min(start, cap), "multiplier": wait.factor or 2.0, "max_delay_s": cap,
            "jitter": True if wait.jitter is None else wait.jitter}


def _fitting(policy: RetryPolicy, budget: float) -> int:
    """How many waits of `policy` (at their longest) fit in `budget` seconds; at least one."""
    spent = 0.0
    for n in range(_MAX_RETRIES):
        spent += policy.delay(n, 1.0)
        if spent > budget:
            return max(n, 1)
    return _MAX_RETRIES


def retry_of(statement: PolicyStatement, *, retry_said: bool = False) -> tuple[RetryPolicy | None, bool]:
    """The retry policy a statement gives, and whether its count was assumed; (None, False) if it gives none."""
    if statement.no_retry:
        return RetryPolicy(max_retries=0), False
    count = statement.retries
    if count is None and statement.max_attempts is not None:
        count = statement.max_attempts - 1
    fields = _schedule(statement.wait)
    if statement.for_up_to_s is not None:
        fields["budget_s"] = statement.for_up_to_s
    assumed = False
    if count is None:
        wait = statement.wait
        if wait is not None and wait.kind == "sequence":
            count = len(wait.seconds)
        elif statement.for_up_to_s is not None:
            count = _fitting(RetryPolicy.model_validate({**fields, "max_retries": 1}), statement.for_up_to_s)
        elif wait is not None or retry_said:
            count, assumed = ASSUMED_RETRIES, True
        else:
            return None, False
    wait = statement.wait
    if (not assumed and wait is not None and wait.kind == "exponential" and wait.cap_s is None
            and wait.start_s is not None and count > 1):  # "retry 5x from 30 s, doubling": no cap was said
        longest = wait.start_s * (wait.factor or 2.0) ** min(count - 1, 64)  # the last wait, as said
        fields["max_delay_s"] = max(float(str(fields["max_delay_s"])), min(longest, _LONGEST_WAIT_S))
    return RetryPolicy.model_validate({**fields, "max_retries": min(count, _MAX_RETRIES)}), assumed


def fallback_of(on_failure: OnFailure | None) -> Fallback | None:
    """The fallback an `OnFailure` names (a step's skill is filled in by the caller)."""
    if on_failure is None:
        return None
    kind = on_failure.kind
    if kind == "fail":
        return Fallback(action=FallbackAction.FAIL)
    if kind == "continue":
        return Fallback(action=FallbackAction.CONTINUE)
    if kind == "continue_with_value":
        value = on_failure.value
        if on_failure.field:  # "mark the score as null": the field, null
            value = {on_failure.field: value}
        return Fallback(action=FallbackAction.DEFAULT, value=value)
    if kind == "use_skill":
        return Fallback(action=FallbackAction.SKILL, skill=on_failure.skill)
    if kind == "use_step":
        return Fallback(action=FallbackAction.SKILL, step=on_failure.step)
    return Fallback(action=FallbackAction.ESCALATE, message=on_failure.message or None)


def _retry_only(statement: PolicyStatement) -> bool:
    return statement.on_failure is None and statement.regenerate is None


def effect_of(statement: PolicyStatement, *, retry_said: bool = False) -> Effect:
    """What `statement` sets on a step, and whether it is a rule for one class of failure."""
    retry, assumed = retry_of(statement, retry_said=retry_said)
    on: ErrorClass | str | None = statement.applies_to
    # a retry "on network errors" is what a step's retry is anyway: transient failures
    if on is ErrorClass.TRANSIENT and _retry_only(statement):
        on = None
    if statement.whole_run:
        return Effect(run_timeout_s=statement.timeout_s)
    return Effect(
        retry=retry,
        retry_assumed=assumed,
        attempt_timeout_s=statement.timeout_s,
        regenerations=statement.regenerate,
        fallback=fallback_of(statement.on_failure),
        on=on,
    )
