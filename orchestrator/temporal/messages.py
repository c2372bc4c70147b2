"""What crosses Temporal: the workflow's input and result, activity tasks and replies, decisions.

All of it is frozen pydantic data (or the seam's dataclasses), converted by
`temporalio.contrib.pydantic`'s converter; payloads over the blob threshold go
out of band (`orchestrator.temporal.codec`).

    RunInput ──► workflow `skillweave.run` ──► RunHistory (events + files)
                   │ query  `history(after)` ──► RunHistory (what happened so far)
                   │ update `approve(Decision)` ◄── skillweave approve
                   ├─ activity `skillweave.attempt`     (AttemptTask ──► StepOutcome)
                   ├─ activity `skillweave.regenerate`  (RegenerationTask ──► RegenerationReply)
                   ├─ local activity `skillweave.probe` (ProbeTask ──► ProbeReply)
                   └─ child workflow `skillweave.items` (ItemsInput ──► ItemsResult), big `for each`
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.engine.backend import ItemOutcome, LimitHit, RegenerationCall
from orchestrator.journal.events import Event, RunCreated
from orchestrator.plan.model import Plan
from orchestrator.runner import StepRequest

WORKFLOW = "skillweave.run"
ITEMS_WORKFLOW = "skillweave.items"
ATTEMPT = "skillweave.attempt"
REGENERATE = "skillweave.regenerate"
PROBE = "skillweave.probe"
QUERY_HISTORY = "history"
UPDATE_APPROVE = "approve"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RunOptions(_Frozen):
    """What a run asks of the workers beyond its plan: the per-run settings of `skillweave run`.

    Paths are read on the workers (the same path on every machine, or a shared folder)."""

    mcp_config: str | None = None
    llm_replay: str | None = None
    llm_record: str | None = None
    model: str | None = None
    require_isolation: bool | None = None
    heartbeat_timeout_s: float = 30.0  # a worker silent this long has lost its attempt: it runs elsewhere
    items_per_child: int = 1000  # a `for each` of more items runs as child workflows of this many each


class RunInput(_Frozen):
    run_id: str
    plan: Plan
    created: RunCreated  # the run's first event, made by the client as `create_run` makes it
    options: RunOptions = RunOptions()
    prior: RunHistory | None = None  # resuming a cancelled run: what its last execution recorded


class RunHistory(_Frozen):
    """A run as the workflow recorded it: its events and the files they name (code, diffs, stderr)."""

    events: tuple[Event, ...] = ()
    files: dict[str, str] = Field(default_factory=dict)
    total: int = 0  # how many events the run has (a query asked from an offset gets the rest)


class Decision(_Frozen):
    step: str
    approved: bool
    by: str | None = None
    comment: str | None = None


class AttemptTask(_Frozen):
    plan_name: str
    options: RunOptions
    request: StepRequest  # without run_dir and script_override: the worker fills them in
    code_path: str | None = None  # the regenerated version to run, relative to the run
    code: str | None = None  # and its text


class RegenerationTask(_Frozen):
    run_id: str
    plan_name: str
    options: RunOptions
    call: RegenerationCall
    code: str | None = None  # the version in use (`call.code_path`), when regenerated earlier


class ProbeTask(_Frozen):
    run_id: str
    plan_name: str
    options: RunOptions
    what: Literal["runner", "regenerator"]
    kind: str = ""  # the skill kind, for a runner


class ProbeReply(_Frozen):
    problem: str | None = None  # why it cannot be had
    timeout_margin_s: float | None = None  # a runner that times itself out: how long past its timeout


class ItemsInput(_Frozen):
    """A part of one `for each` step's items, run by a child workflow (see `Backend.run_items`)."""

    run_id: str
    plan: Plan
    step_id: str
    items: tuple[tuple[int, Any], ...]  # (item, input) of the items to run
    state: RunHistory  # the parent's events so far (budgets, attempts, code versions) and files
    options: RunOptions = RunOptions()


class ItemsResult(_Frozen):
    events: tuple[Event, ...] = ()  # what the child recorded, for the parent to fold and record
    files: dict[str, str] = Field(default_factory=dict)  # the files it added (code versions, stderr)
    results: tuple[ItemOutcome, ...] = ()
    limit: LimitHit | None = None


RunInput.model_rebuild()
