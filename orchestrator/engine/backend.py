"""The execution-backend seam: what decides a run apart from what makes it happen.

    decision side (deterministic)                       a backend (acts, remembers)
    ─────────────────────────────                       ───────────────────────────
    scheduler     ready steps, skips, conditions,       record / commit / soon ──► journal, or history
                  fan-out and fan-in, wall time          now / sleep / random   ──► clock, or durable timers
    recovery      retries, fallbacks, feedback,          runner_problem         ──► can a runner be had?
                  contracts, limits, slots               attempt(StepRequest)   ──► a runner, timed out
    regeneration  budgets, what to record                regenerate(...)        ──► the model, code files
    approval      gates, timeouts, pauses                await_approval(...)    ──► approver, other processes
    compensation  which, in which order, retries         keep_stderr(...)       ──► the run's files
                                                         run_items(...)         ──► a big `for each`, in parts
                      │
                  RunScope(plan, state, backend)  ◄── the fold of the recorded events (`state`)

The decision side is the scheduler, `recovery`, `regeneration`, `approval` and
`compensation`, over a `RunScope`. It is deterministic: given the same plan,
inputs and the same answers from its backend, it makes the same calls in the
same order and records the same events. It does no I/O, reads no wall clock,
draws no random number and starts no timer except through its backend; it
iterates no set or dict whose order could differ between two processes. So one
decision code runs unchanged in a local process (`orchestrator.engine.local`:
asyncio, the SQLite journal) and as a Temporal workflow, whose replays must
repeat every decision exactly (`orchestrator.temporal`).

The contract a backend keeps:

- `record(event)` keeps an event the decision side has already folded into the
  run's state; events are kept in the order recorded. `await commit()` returns
  once every recorded event is durable; the decision side calls it before any
  effect outside the run that relies on them (asking a person, the model, a
  compensation) and before reporting a pause or an end. `soon()`: durable
  shortly, no wait. `next_step()`: a hint that the caller goes on to another
  step without yielding (a local backend may write at once). A backend whose
  history is durable by construction makes all four cheap no-ops but `record`.
- `now()`, `sleep(seconds)`, `random()`: the only time and chance the decision
  side sees. A sleep is a durable timer where the backend has them.
- `origin()`: who executes this session (pid, host) for `run_started`.
- `runner_problem(skill)`: None when an attempt of `skill` can be made, else why
  not (the steps fail as unrecoverable before any attempt starts).
- `run_dir`: where this process's runners find the run's files (the decision
  side puts it in each `StepRequest`, as data), or None where the backend makes
  attempts elsewhere and fills it in there.
- `attempt(request, code_path)`: make one attempt (or compensation) and return
  its outcome, never raising for a failure of the step: a runner error, a
  timeout (the attempt's own, `request.timeout_s`, enforced by the backend) or a
  lost worker comes back as a classified `StepFailure`. `code_path` names the
  regenerated version to run (relative to the run; the request's
  `script_override` when the backend has a `run_dir`). The `attempt_started`
  event is recorded before the call; the backend makes it durable before the
  runner acts unless the attempt is contained (see
  `orchestrator.engine.attempt.contained`). The idempotency key is
  `request.idempotency_key`: the same (run, step, attempt) always. Cancelling
  the caller (the run is ending) cancels the attempt, and the caller sees
  `asyncio.CancelledError`, whatever the backend.
- `keep_stderr(...)`: keep a failed attempt's stderr tail; returns where (for
  the `attempt_failed` event), or None.
- `regeneration_problem()`, `regenerate(call)`: whether the model can be asked;
  ask it for a new version of a script step's code and keep the code where
  later attempts find it (their `code_path`). Never raises: a refused
  answer and an unavailable model are answers too (`RegenerationReply`).
- `await_approval(request, left)`: the answer to a gate, racing its timeout
  (`left` seconds, None: none) and decisions recorded by others; returns at once
  with no answer when nobody can be asked now (the run then pauses).
- `items_per_part`, `run_items(step_id, items)`: a backend whose history must
  stay bounded (Temporal) runs a `for each` of more than `items_per_part` items
  in parts, one after the other, each by the same decision code elsewhere (a
  child workflow); the caller folds and records what a part recorded. None:
  every item runs in this scope (the local backend).

Everything crossing the seam is data nobody mutates (the frozen models of
`orchestrator.runner`, `orchestrator.journal.events` and the dataclasses below),
so a backend may ship it to another process or machine. An attempt's message
is the runner's own `StepRequest`: a step costs one model, not two.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from orchestrator.contracts import JsonSchema
from orchestrator.engine.model import ApprovalDecision, ApprovalRequest
from orchestrator.journal.events import ApprovalDecided, Event
from orchestrator.kinds import BoundSkill
from orchestrator.runner import AttemptSummary, StepFailure, StepOutcome, StepRequest, TokenUsage

if TYPE_CHECKING:  # a path is data the decision side passes on, never opens
    from pathlib import Path

_NO_USAGE = TokenUsage()
CANCEL_GRACE_S = 10.0  # real seconds a runner gets to wind down after a timeout


@dataclass(slots=True)
class RegenerationCall:
    """A request for a new version of a script step's code."""

    step_id: str
    item: int | None
    attempt: int  # the attempts of the unit so far
    skill: BoundSkill
    version: int  # the number the new version gets (the skill's own entry is 1)
    code_path: str | None  # the version in use, None: the skill's entry (or none: write a first one)
    failing_input: Any = None
    failure: StepFailure | None = None
    feedback: str | None = None
    input_schema: JsonSchema | None = None
    output_schema: JsonSchema | None = None
    history: tuple[AttemptSummary, ...] = ()
    tokens_left: int | None = None


@dataclass(slots=True)
class RegenerationReply:
    """What came of a regeneration: new code kept (code_path set), refused, or unavailable."""

    code_sha256: str | None = None
    code_path: str | None = None  # where the backend keeps it, relative to the run
    diff_path: str | None = None
    entry_sha256: str | None = None  # the skill's own script, when the version was made
    rejected: str | None = None  # the answer was refused: why
    unavailable: str | None = None  # the model could not be asked: why (nothing spent)
    usage: TokenUsage = _NO_USAGE
    code: str | None = None  # the new version itself (a backend without shared files ships it to attempts)
    diff: str | None = None  # and its diff against the version it replaces


@dataclass(slots=True)
class ApprovalWait:
    """How a wait at a gate ended: an answer, the timeout, a decision made elsewhere, or nothing."""

    decision: ApprovalDecision | None = None
    timed_out: bool = False
    elsewhere: ApprovalDecided | None = None  # already recorded by another process: fold it, record nothing


@dataclass(slots=True)
class ItemOutcome:
    """How one `for each` item run elsewhere ended (`Backend.run_items`)."""

    item: int
    status: str  # a StepStatus value: succeeded, defaulted, continued, failed or escalated
    output: Any = None
    failure: StepFailure | None = None
    attempt: int | None = None


@dataclass(slots=True)
class LimitHit:
    """A convergence limit reached while items ran elsewhere (recorded there already)."""

    limit: str
    message: str
    where: str | None = None


@dataclass(slots=True)
class PartOutcome:
    """What running a part of a `for each` step's items elsewhere gave."""

    events: tuple[Event, ...] = ()  # what it recorded, in order, for the caller to fold and record
    items: tuple[ItemOutcome, ...] = ()  # in the order they ended, up to the first that failed the step
    limit: LimitHit | None = None


class Backend(Protocol):
    """What the decision side needs from the world (see the module docstring)."""

    items_per_part: int | None  # a `for each` of more items runs in parts (`run_items`); None: never

    def record(self, event: Event) -> None: ...

    def commit(self) -> Awaitable[None]: ...

    def soon(self) -> None: ...

    def next_step(self) -> None: ...

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> Awaitable[None]: ...

    def random(self) -> float: ...

    def origin(self) -> tuple[int, str]: ...

    async def runner_problem(self, skill: BoundSkill) -> str | None: ...

    @property
    def run_dir(self) -> Path | None: ...

    def attempt(self, request: StepRequest, code_path: str | None) -> Awaitable[StepOutcome]: ...

    def keep_stderr(self, step_id: str, item: int | None, attempt: int, text: str) -> str | None: ...

    async def regeneration_problem(self) -> str | None: ...

    async def regenerate(self, call: RegenerationCall) -> RegenerationReply: ...

    async def await_approval(self, request: ApprovalRequest, left: float | None) -> ApprovalWait: ...

    async def run_items(self, step_id: str, items: Sequence[tuple[int, Any]]) -> PartOutcome: ...
