"""What the engine reports: run and step status, summaries with metrics, progress events."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from orchestrator.contracts import Violation
from orchestrator.runner import TokenUsage


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class RunStatus(StrEnum):
    PENDING = "pending"  # created, never started
    RUNNING = "running"  # being executed (or interrupted: resume it)
    PAUSED = "paused"  # waiting for approvals
    SUCCEEDED = "succeeded"  # every step ran to an output or was skipped by its own condition
    DEGRADED = "degraded"  # finished, but a fallback stood in for a step (exit 0): `RunSummary.degraded` says where
    FAILED = "failed"
    ESCALATED = "escalated"  # failed in a way a person must look at

    @property
    def finished(self) -> bool:
        return self in (RunStatus.SUCCEEDED, RunStatus.DEGRADED, RunStatus.FAILED, RunStatus.ESCALATED)

    @property
    def ok(self) -> bool:
        """Finished with every step done: succeeded, or degraded by a fallback."""
        return self in (RunStatus.SUCCEEDED, RunStatus.DEGRADED)


class StepStatus(StrEnum):
    PENDING = "pending"  # dependencies not done
    READY = "ready"  # may start; waiting for a concurrency slot
    AWAITING_APPROVAL = "awaiting_approval"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    DEFAULTED = "defaulted"  # recovery exhausted; the fallback's default value is the output
    CONTINUED = "continued"  # failed; `continue` let the run go on without its output
    SKIPPED = "skipped"
    FAILED = "failed"
    ESCALATED = "escalated"
    # Only in summaries of finished runs (the engine's own state never holds them):
    NOT_RUN = "not_run"  # the run ended before the step started (it was pending, ready or at its gate)
    CANCELLED = "cancelled"  # an attempt was under way when the run ended; it was cut short

    @property
    def done(self) -> bool:
        return self in _DONE

    @property
    def has_output(self) -> bool:
        return self in (StepStatus.SUCCEEDED, StepStatus.DEFAULTED)


_DONE = frozenset(
    {
        StepStatus.SUCCEEDED,
        StepStatus.DEFAULTED,
        StepStatus.CONTINUED,
        StepStatus.SKIPPED,
        StepStatus.FAILED,
        StepStatus.ESCALATED,
    }
)


# What a step left unfinished is called once its run has finished.
_SETTLED: dict[StepStatus, StepStatus] = {
    StepStatus.PENDING: StepStatus.NOT_RUN,
    StepStatus.READY: StepStatus.NOT_RUN,
    StepStatus.AWAITING_APPROVAL: StepStatus.NOT_RUN,
    StepStatus.RUNNING: StepStatus.CANCELLED,
}


def _settled(step: Any) -> Any:
    """A step summary (model or its dict) of a finished run, its unfinished status renamed."""
    if isinstance(step, BaseModel):
        status = getattr(step, "status", None)
        if isinstance(status, StepStatus) and status in _SETTLED:
            return step.model_copy(update={"status": _SETTLED[status]})
        return step
    if isinstance(step, dict):
        status = step.get("status")
        if not isinstance(status, StepStatus):
            try:
                status = StepStatus(str(status))
            except ValueError:
                return step
        if status in _SETTLED:
            return {**step, "status": _SETTLED[status]}
    return step


class RunErrorInfo(_Frozen):
    """Why a run did not succeed: where (step or step/attempt), what, and the limit if one ended it."""

    where: str | None = None
    message: str
    limit: str | None = None


class StepSummary(_Frozen):
    """One step of a run with its metrics (DESIGN.md, "Metrics a run reports")."""

    step_id: str
    name: str
    skill: str
    status: StepStatus
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    items: int | None = None  # `for each`: how many items
    items_done: int = 0
    ready_at: float | None = None
    started_at: float | None = None
    finished_at: float | None = None
    duration_s: float | None = None  # first attempt start to finish
    queue_delay_s: float | None = None  # ready to first attempt start
    run_time_s: float = 0.0  # summed attempt durations
    handoff_passed: int = 0
    handoff_failed: int = 0
    violations: tuple[Violation, ...] = ()  # the latest failed check's
    tokens: TokenUsage = TokenUsage()
    error_class: str | None = None
    message: str = ""  # the last failure, or why skipped
    fallback: str | None = None  # the fallback action that applied
    code_sha256: str | None = None  # the regenerated version in use
    approval: str | None = None  # requested | approved | rejected
    isolation: str | None = None  # the sandbox of a script step's latest attempt: bwrap | unshare | none


class DegradedStep(_Frozen):
    """A step a fallback stood in for, in a run that finished `degraded`."""

    step_id: str
    fallback: str  # the fallback action: continue | default | skill
    reason: str  # the failure it stood in for, or what it handed on


class RunTotals(_Frozen):
    steps: int = 0
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    handoff_passed: int = 0
    handoff_failed: int = 0
    tokens: TokenUsage = TokenUsage()
    queue_delay_s: float = 0.0  # summed over steps
    duration_s: float | None = None  # first start to finish (or the last event), pauses included
    active_s: float = 0.0  # time spent executing, pauses excluded


class RunSummary(_Frozen):
    run_id: str
    plan_name: str
    plan_sha256: str
    status: RunStatus
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    error: RunErrorInfo | None = None
    awaiting: tuple[str, ...] = ()  # steps waiting for approval
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)  # step id -> output (steps with one)
    steps: tuple[StepSummary, ...] = ()
    totals: RunTotals = RunTotals()
    compensations: tuple[str, ...] = ()  # "step: finished|failed"
    notes: tuple[str, ...] = ()  # what else people should know (promoted scripts, ...)
    degraded: tuple[DegradedStep, ...] = ()  # the steps a fallback stood in for, and why

    @model_validator(mode="before")
    @classmethod
    def _settle_steps(cls, data: Any) -> Any:
        """In a finished run no step is still pending or running: it was not run, or cut short."""
        if not isinstance(data, dict) or not data.get("steps"):
            return data
        try:
            finished = RunStatus(str(data.get("status"))).finished
        except ValueError:
            return data
        if not finished:
            return data
        return {**data, "steps": tuple(_settled(s) for s in data["steps"])}

    def step(self, step_id: str) -> StepSummary:
        for s in self.steps:
            if s.step_id == step_id:
                return s
        raise KeyError(step_id)


class RunEvent(_Frozen):
    """A progress notice for displays (CLI, MCP progress notifications)."""

    run_id: str
    type: str
    step: str | None = None
    item: int | None = None
    attempt: int | None = None
    message: str = ""
    status: str | None = None  # step_finished / run_finished / run_failing: the status reached
    ts: float = 0.0
    total: int | None = None  # run_started: the steps not done yet; fan_out: the step's items


class ApprovalRequest(_Frozen):
    run_id: str
    step_id: str
    step_name: str
    input: Any = None
    requested_at: float
    timeout_s: float | None = None
    on_timeout: str = "reject"


class ApprovalDecision(_Frozen):
    approved: bool
    by: str | None = None
    comment: str | None = None


# Asked when a gate is reached; None means "no answer now": the run pauses.
Approver = Callable[[ApprovalRequest], Awaitable[ApprovalDecision | None]]
