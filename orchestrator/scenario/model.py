"""The scenario models: what a Testing Plan entry asks for, and what its run gave.

The structured form they are read from is described in `orchestrator.scenario`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import UserError

FAULT_KINDS = (
    "timeout", "transient", "crash", "code-error", "invalid-input", "unrecoverable", "bad-output", "returns",
)
RUN_STATUSES = ("succeeded", "degraded", "failed", "escalated", "paused")
STEP_STATUSES = (
    "succeeded", "defaulted", "continued", "skipped", "failed", "escalated", "pending", "awaiting_approval",
    "running", "ready", "not_run", "cancelled",
)
METRICS = ("attempts", "retries", "regenerations", "handoff_passed", "handoff_failed")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FormError(UserError):
    """A scenario's structured form cannot be read."""


class Fault(_Frozen):
    step: str
    kind: str  # one of FAULT_KINDS
    times: int | None = 1  # None: always
    value: Any = None  # for `returns`
    text: str = ""


class Expectation(_Frozen):
    text: str
    check: Literal["run", "limit", "status", "retried", "regenerated", "compensated", "metric", "fallback"]
    step: str | None = None
    metric: str | None = None
    op: str = "="
    value: str | int = ""


class ScenarioCase(_Frozen):
    name: str
    where: str | None = None
    inputs: dict[str, Any] = Field(default_factory=dict)
    faults: tuple[Fault, ...] = ()
    approvals: dict[str, bool] = Field(default_factory=dict)
    expectations: tuple[Expectation, ...] = ()


class CheckResult(_Frozen):
    expectation: str
    ok: bool
    actual: str


class ScenarioResult(_Frozen):
    name: str
    where: str | None = None
    kind: str = "other"
    outcome: Literal["passed", "failed", "skipped", "invalid"]
    reason: str = ""
    run_id: str | None = None
    run_status: str | None = None
    checks: tuple[CheckResult, ...] = ()
    attempts: int = 0
    retries: int = 0
    duration_s: float | None = None  # wall time of the scenario
    state_dir: str | None = None  # kept state directory (`skillweave runs --state-dir`)


class ScenarioReport(_Frozen):
    spec: str
    plan_name: str
    scenarios: tuple[ScenarioResult, ...] = ()
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    invalid: int = 0
