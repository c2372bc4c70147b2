"""The events of a run's journal: every state change, as frozen data.

The journal is append-only; replaying a run's events in order (`seq`) rebuilds
its state (`orchestrator.engine.state`). Every event carries the time it was
recorded (`ts`, epoch seconds from the engine's clock) and, where it concerns
one, the step, the `for each` item and the attempt.

    run_created            plan name and hash, inputs, skill fingerprint
    run_started            a process began (or resumed) executing the run
    step_ready             all dependencies done; queue delay starts
    step_skipped           `when` was false, or an input came from a skipped step
    approval_requested     a gate was reached
    approval_decided       approved or rejected (by a person, an approver, a timeout)
    run_paused             nothing left to do but wait for approvals
    attempt_started        one execution of a step (item), with its idempotency key
    handoff_checked        an input or output contract check, with its violations
    attempt_failed         classified failure of an attempt
    retry_scheduled        the wait before the next attempt
    regeneration           a new code version (hash, file, diff), or a refused answer
    regeneration_unavailable  no regenerator could be created (reason)
    feedback_sent          a validator's findings sent back to its producer
    output_stored          an attempt's output, inline or as a file of the run dir
    fan_out                a `for each` step's list was resolved: how many items
    item_skipped           a `for each` item whose `when` was false
    fallback_used          recovery exhausted: the fallback that applied
    step_finished          the step's final status
    limit_reached          a convergence limit ended the run
    compensation_started / compensation_finished / compensation_failed
    run_failing            the run failed: compensations follow
    run_finished           final status and error
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import from_json

from orchestrator.contracts import Violation
from orchestrator.runner import TokenUsage


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    ts: float
    step: str | None = None
    item: int | None = None
    attempt: int | None = None
    seq: int | None = None  # set when read back from the journal


class RunCreated(_Event):
    type: Literal["run_created"] = "run_created"
    plan_name: str
    plan_sha256: str
    inputs: dict[str, Any] = Field(default_factory=dict)
    fingerprint: dict[str, str] = Field(default_factory=dict)  # spec/skill name -> content hash
    mcp_config: str | None = None  # the --mcp-config the run was started with (absolute): resume's default
    spec_path: str | None = None  # the spec file, absolute: a resume from another directory finds it


class RunStarted(_Event):
    type: Literal["run_started"] = "run_started"
    pid: int
    host: str
    resumed: bool = False
    forced: bool = False


class StepReady(_Event):
    type: Literal["step_ready"] = "step_ready"


class StepSkipped(_Event):
    type: Literal["step_skipped"] = "step_skipped"
    reason: str


class ApprovalRequested(_Event):
    type: Literal["approval_requested"] = "approval_requested"
    timeout_s: float | None = None
    on_timeout: Literal["approve", "reject", "skip"] = "reject"


class ApprovalDecided(_Event):
    type: Literal["approval_decided"] = "approval_decided"
    approved: bool
    by: str | None = None
    comment: str | None = None
    timed_out: bool = False


class RunPaused(_Event):
    type: Literal["run_paused"] = "run_paused"
    awaiting: tuple[str, ...] = ()


class AttemptStarted(_Event):
    type: Literal["attempt_started"] = "attempt_started"
    idempotency_key: str
    skill: str
    code_sha256: str | None = None
    fallback: bool = False  # an attempt of the fallback skill


class HandoffChecked(_Event):
    type: Literal["handoff_checked"] = "handoff_checked"
    direction: Literal["input", "output"]
    ok: bool
    violations: tuple[Violation, ...] = ()


class AttemptFailed(_Event):
    type: Literal["attempt_failed"] = "attempt_failed"
    error_class: str
    message: str
    detail: str = ""
    kind: str = ""
    pointer: str | None = None
    duration_s: float = 0.0
    usage: TokenUsage = TokenUsage()
    stderr_path: str | None = None
    isolation: str | None = None  # a script attempt's sandbox: bwrap | unshare | none


class RetryScheduled(_Event):
    type: Literal["retry_scheduled"] = "retry_scheduled"
    delay_s: float
    not_before: float
    error_class: str


class Regeneration(_Event):
    type: Literal["regeneration"] = "regeneration"
    code_sha256: str | None = None
    code_path: str | None = None  # relative to the run dir
    diff_path: str | None = None
    rejected: str | None = None
    entry_sha256: str | None = None  # the skill's own script when the version was made (for --promote)
    feedback: bool = False
    usage: TokenUsage = TokenUsage()


class RegenerationUnavailable(_Event):
    type: Literal["regeneration_unavailable"] = "regeneration_unavailable"
    reason: str


class FeedbackSent(_Event):
    type: Literal["feedback_sent"] = "feedback_sent"
    target: str
    detail: str


class OutputStored(_Event):
    type: Literal["output_stored"] = "output_stored"
    output: Any = None  # inline when small
    path: str | None = None  # relative to the run dir when large
    size: int = 0
    sha256: str = ""
    duration_s: float = 0.0
    usage: TokenUsage = TokenUsage()
    isolation: str | None = None  # a script attempt's sandbox: bwrap | unshare | none


class FanOut(_Event):
    type: Literal["fan_out"] = "fan_out"
    items: int


class ItemSkipped(_Event):
    type: Literal["item_skipped"] = "item_skipped"


class FallbackUsed(_Event):
    type: Literal["fallback_used"] = "fallback_used"
    action: str
    skill: str | None = None
    reason: str = ""


class StepFinished(_Event):
    type: Literal["step_finished"] = "step_finished"
    status: Literal["succeeded", "failed", "continued", "defaulted", "escalated"]
    message: str = ""
    error_class: str | None = None


class LimitReached(_Event):
    type: Literal["limit_reached"] = "limit_reached"
    limit: str
    message: str


class CompensationStarted(_Event):
    type: Literal["compensation_started"] = "compensation_started"
    skill: str


class CompensationFinished(_Event):
    type: Literal["compensation_finished"] = "compensation_finished"
    skill: str


class CompensationFailed(_Event):
    type: Literal["compensation_failed"] = "compensation_failed"
    skill: str
    message: str


class RunFailing(_Event):
    type: Literal["run_failing"] = "run_failing"
    status: Literal["failed", "escalated"]
    where: str | None = None
    message: str
    limit: str | None = None


class RunFinished(_Event):
    type: Literal["run_finished"] = "run_finished"
    status: Literal["succeeded", "degraded", "failed", "escalated"]
    where: str | None = None
    message: str = ""
    limit: str | None = None


Event = Annotated[
    RunCreated
    | RunStarted
    | StepReady
    | StepSkipped
    | ApprovalRequested
    | ApprovalDecided
    | RunPaused
    | AttemptStarted
    | HandoffChecked
    | AttemptFailed
    | RetryScheduled
    | Regeneration
    | RegenerationUnavailable
    | FeedbackSent
    | OutputStored
    | FanOut
    | ItemSkipped
    | FallbackUsed
    | StepFinished
    | LimitReached
    | CompensationStarted
    | CompensationFinished
    | CompensationFailed
    | RunFailing
    | RunFinished,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)

def parse_event(data: str | bytes, seq: int | None = None) -> Event:
    """An event from its stored JSON, numbered `seq`.

    The number goes into the parsed document before validation: a `model_copy`
    of the frozen event afterwards took half the time of reading a journal.
    ValueError (ValidationError among them) for what is not an event.
    """
    if seq is None:
        return EVENT_ADAPTER.validate_json(data)
    raw = from_json(data)
    if isinstance(raw, dict):
        raw["seq"] = seq
    return EVENT_ADAPTER.validate_python(raw)
