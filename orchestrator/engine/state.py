"""A run's state, rebuilt by folding its journal events in order.

The live engine applies every event it records to the same fold, so a resumed
run (replayed from the journal) and an uninterrupted one see identical state:
which steps and items are done with which outputs, how many attempts, retries
and regenerations each has spent, which code version is current, which
approvals are pending, which compensations ran. `summary()` turns it into the
`RunSummary` the CLI, the MCP server and the reports show.

The fold is also the story reports tell (`orchestrator.report.detail` reads it, and
folds nothing again): each step keeps the events of its rare turns (failed attempts,
retry waits, regenerations, fallbacks, its approval, attempts cut short by the end of
a process), and the run keeps its sessions, the findings sent back, the
compensations, the limit that ended it and the time of its latest event. Those are
appended only on those rare events, so the hot path (attempt started, output stored,
step ready and finished) pays a few attribute stores for it: each item keeps its
latest attempt (when it started, its place among the run's attempts, whether it was
the fallback skill's, and when it stored its output), from which `attempt_spans`
tells every attempt, the successful ones included, without a record per attempt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from orchestrator.contracts import Violation
from orchestrator.engine.model import (
    RunErrorInfo,
    RunStatus,
    RunSummary,
    RunTotals,
    StepStatus,
)
from orchestrator.journal.events import (
    ApprovalDecided,
    ApprovalRequested,
    AttemptFailed,
    AttemptStarted,
    CompensationFailed,
    CompensationFinished,
    CompensationStarted,
    Event,
    FallbackUsed,
    FanOut,
    FeedbackSent,
    HandoffChecked,
    ItemSkipped,
    LimitReached,
    OutputStored,
    Regeneration,
    RegenerationUnavailable,
    RetryScheduled,
    RunCreated,
    RunFailing,
    RunFinished,
    RunPaused,
    RunStarted,
    StepFinished,
    StepReady,
    StepSkipped,
)
from orchestrator.plan.model import Plan
from orchestrator.policy import ErrorClass
from orchestrator.runner import AttemptSummary, StepFailure, TokenUsage

_DEGRADING = frozenset({"continue", "default", "skill"})  # fallbacks that stand in for a step
HISTORY_KEPT = 5  # failed attempts kept per step for regeneration prompts
NO_USAGE = TokenUsage()

OutputLoader = Callable[[str], Any]


def retry_family(error_class: str) -> str:
    """Retries are counted per family: a timeout and a transient failure share one budget."""
    return "transient" if error_class in ("transient", "timeout") else error_class


# what a result says of a sandbox weaker than bubblewrap (orchestrator.sandbox.detect)
_WEAK_ISOLATION = {
    "unshare": "under unshare: namespaces and rlimits, no file-system isolation",
    "none": "WITHOUT isolation (rlimits only)",
}


@dataclass(slots=True)
class ItemState:
    """One execution unit: a plain step (item None) or one `for each` item."""

    attempts: int = 0
    retries: dict[str, int] = field(default_factory=dict)  # error class -> retries used
    has_output: bool = False
    output: Any = None
    skipped: bool = False
    in_flight: int | None = None  # the attempt started and not ended
    interrupted: int = 0  # attempts cut short by the end of a process
    not_before: float | None = None  # a scheduled retry's earliest start
    fallback_skill: str | None = None  # the fallback skill now in use
    last_failure: StepFailure | None = None
    # the item's latest attempt (`attempt_spans`): when it started, its place among the
    # run's attempts, whether the fallback skill made it, its number and end once it
    # stored an output (done_at None: it has not)
    in_flight_since: float = 0.0
    in_flight_n: int = 0
    in_flight_fallback: bool = False
    done_attempt: int | None = None
    done_at: float | None = None


@dataclass(frozen=True, slots=True)
class AttemptSpan:
    """One attempt as a span: when it started and ended, and how (what a timeline draws)."""

    n: int  # its place among the run's attempts, in the order started
    item: int | None
    attempt: int | None
    started_at: float
    ended_at: float | None  # None: still running
    outcome: str  # succeeded | failed | interrupted | running
    error_class: str | None = None
    fallback: bool = False


@dataclass(slots=True)
class StepStory:
    """What reports tell of a step: the events of its rare turns, in order."""

    failed: list[AttemptFailed] = field(default_factory=list)
    retry_waits: list[RetryScheduled] = field(default_factory=list)
    regenerated: list[Regeneration] = field(default_factory=list)
    fallbacks: list[FallbackUsed] = field(default_factory=list)
    approval_asked: ApprovalRequested | None = None
    approval_decided: ApprovalDecided | None = None
    cut_short: list[CutShort] = field(default_factory=list)
    skipped_items: list[int] = field(default_factory=list)  # `for each` items whose `when` was false
    # attempts that ended other than as their item's latest success (failed, cut short,
    # or a success a validator's findings sent back), in the order they ended
    attempts: list[AttemptSpan] = field(default_factory=list)


@dataclass(slots=True)
class StepState:
    step_id: str
    status: StepStatus = StepStatus.PENDING
    items: dict[int | None, ItemState] = field(default_factory=dict)
    item_count: int | None = None
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0  # answers asked for, refused ones included
    code_path: str | None = None  # current regenerated version, relative to the run dir
    code_sha256: str | None = None
    code_versions: int = 0
    entry_sha256: str | None = None  # the skill's script the first regenerated version replaced
    regeneration_unavailable: str | None = None
    ready_at: float | None = None
    started_at: float | None = None
    finished_at: float | None = None
    run_time_s: float = 0.0
    handoff_passed: int = 0
    handoff_failed: int = 0
    violations: tuple[Violation, ...] = ()
    tokens: TokenUsage = NO_USAGE  # frozen: shared until a step spends tokens
    error_class: str | None = None
    message: str = ""
    fallback: str | None = None
    has_output: bool = False
    output: Any = None
    history: list[AttemptSummary] = field(default_factory=list)
    approval: str | None = None  # requested | approved | rejected
    isolation: str | None = None  # the sandbox of the step's latest script attempt
    approval_requested_at: float | None = None
    approval_comment: str | None = None
    feedback_pending: str | None = None  # a validator's findings awaiting a regeneration
    feedback_sent: int = 0  # as a validator: producer re-runs asked for
    story: StepStory | None = None  # made on the step's first rare turn (most steps have none)

    def tell(self) -> StepStory:
        """The step's story, made on first use."""
        if self.story is None:
            self.story = StepStory()
        return self.story

    def item(self, index: int | None) -> ItemState:
        found = self.items.get(index)
        if found is None:
            found = self.items[index] = ItemState()
        return found


@dataclass(frozen=True, slots=True)
class CutShort:
    """An attempt that never ended: its process did (a crash, a SIGKILL); the session that
    started at `resumed_at` found it in flight and ran it again."""

    ts: float  # when it started
    item: int | None
    attempt: int | None
    resumed_at: float


@dataclass(slots=True)
class Session:
    started: float
    last: float
    pid: int
    host: str
    resumed: bool = False
    forced: bool = False


@dataclass(slots=True)
class Compensation:
    """One step's compensation: started, then finished or failed."""

    skill: str
    status: str = "started"  # started | finished | failed
    message: str = ""
    started_at: float | None = None
    ended_at: float | None = None


class RunState:
    """The fold of one run's events. `apply` is the only mutator."""

    def __init__(self, run_id: str, plan: Plan, loader: OutputLoader | None = None) -> None:
        self.run_id = run_id
        self.plan = plan
        self.loader = loader
        self.status = RunStatus.PENDING
        self.inputs: dict[str, Any] = {}
        self.fingerprint: dict[str, str] = {}
        self.plan_sha256 = ""
        self.created_at = 0.0
        self.mcp_config: str | None = None  # the --mcp-config the run was started with
        self.spec_path: str | None = None  # the spec file, absolute, as the run was created
        self.finished_at: float | None = None
        self.steps: dict[str, StepState] = {s.id: StepState(s.id) for s in plan.steps}
        self.plan_steps = {s.id: s for s in plan.steps}
        self.sessions: list[Session] = []
        self.error: RunErrorInfo | None = None
        self.unchecked: tuple[str, ...] = ()  # success checks a finished run could not evaluate (`engine.success_compare`)
        self.failing: RunErrorInfo | None = None
        self.failing_status: RunStatus | None = None
        self.total_attempts = 0
        self.interrupted_attempts = 0  # cut short by the end of a process (a crash, a kill)
        self.total_regenerations = 0
        self.tokens = NO_USAGE
        self.completion_order: list[str] = []
        self.compensations: dict[str, str] = {}  # step -> started | finished | failed
        self.compensated: dict[str, Compensation] = {}  # step -> its compensation, in the order run
        self.feedback: list[FeedbackSent] = []  # validator findings sent back, in order
        self.limit: LimitReached | None = None  # the convergence limit that ended the run
        self.awaiting: tuple[str, ...] = ()
        self.last_seq = 0
        self.output_map: dict[str, Any] = {}  # step id -> output, for steps that have one
        self.gate_wait_s = 0.0  # time spent in sessions waiting at decided gates
        self.last_event_at: float | None = None  # the latest event's time

    @classmethod
    def replay(cls, run_id: str, plan: Plan, events: Iterable[Event], loader: OutputLoader | None = None) -> RunState:
        state = cls(run_id, plan, loader)
        for event in events:
            state.apply(event)
        return state

    # -- the fold --------------------------------------------------------

    def apply(self, e: Event) -> None:
        # events are told apart by exact type (no event class has subclasses): a failed
        # isinstance() against a pydantic class runs its metaclass's Python __instancecheck__
        if e.seq is not None:
            self.last_seq = e.seq
        before = self.last_event_at
        self.last_event_at = e.ts
        if self.sessions and self.status is RunStatus.RUNNING and type(e) is not RunStarted:
            # only a running session's own events extend it: not the next session's start after
            # a crash, nor a decision recorded from outside while the run was paused
            self.sessions[-1].last = e.ts
        st = self.steps.get(e.step) if e.step is not None else None
        if st is not None:
            if type(e) is AttemptStarted:
                it = st.item(e.item)
                if it.done_at is not None:  # run again after a success (findings sent back)
                    st.tell().attempts.append(_ended(it, e.item, it.done_attempt, it.done_at, "succeeded"))
                    it.done_at = None
                it.attempts += 1
                it.in_flight = e.attempt
                it.in_flight_since = e.ts
                it.in_flight_fallback = e.fallback
                it.not_before = None
                st.attempts += 1
                self.total_attempts += 1
                it.in_flight_n = self.total_attempts
                st.status = StepStatus.RUNNING
                if st.started_at is None:
                    st.started_at = e.ts
            elif type(e) is OutputStored:
                it = st.item(e.item)
                if it.in_flight is not None:  # not a fallback's default value
                    it.done_attempt, it.done_at = it.in_flight, e.ts
                    it.in_flight = None
                it.has_output = True
                it.output = self.loader(e.path) if e.path is not None and self.loader else e.output
                st.run_time_s += e.duration_s
                self._spend(st, e.usage)
                if e.isolation is not None:
                    st.isolation = e.isolation
                if e.item is None:
                    st.has_output = True
                    st.output = it.output
            elif type(e) is StepFinished:
                self._finish_step(st, e.status, e.ts, e.message, e.error_class)
            elif type(e) is StepReady:
                if st.ready_at is None:
                    st.ready_at = e.ts
                if not st.status.done:
                    st.status = StepStatus.READY
            elif type(e) is HandoffChecked:
                if e.ok:
                    st.handoff_passed += 1
                else:
                    st.handoff_failed += 1
                    st.violations = tuple(e.violations)
            elif type(e) is AttemptFailed:
                it = st.item(e.item)
                if it.in_flight is not None:
                    st.tell().attempts.append(_ended(it, e.item, it.in_flight, e.ts, "failed", e.error_class))
                    it.in_flight = None
                failure = StepFailure(
                    error_class=ErrorClass(e.error_class),
                    message=e.message,
                    detail=e.detail,
                    kind=e.kind,
                    pointer=e.pointer,
                )
                it.last_failure = failure
                if e.isolation is not None:
                    st.isolation = e.isolation
                st.error_class = e.error_class
                st.message = e.message
                st.run_time_s += e.duration_s
                self._spend(st, e.usage)
                st.history.append(AttemptSummary(attempt=e.attempt or 0, code_sha256=st.code_sha256, failure=failure))
                del st.history[:-HISTORY_KEPT]
                st.tell().failed.append(e)
            elif type(e) is RetryScheduled:
                it = st.item(e.item)
                family = retry_family(e.error_class)
                it.retries[family] = it.retries.get(family, 0) + 1
                it.not_before = e.not_before
                st.retries += 1
                st.tell().retry_waits.append(e)
            elif type(e) is StepSkipped:
                st.status = StepStatus.SKIPPED
                st.message = e.reason
                st.finished_at = e.ts
            elif type(e) is FanOut:
                st.item_count = e.items
            elif type(e) is ApprovalRequested:
                story = st.tell()
                story.approval_asked, story.approval_decided = e, None
                st.approval = "requested"
                st.approval_requested_at = e.ts
                st.status = StepStatus.AWAITING_APPROVAL
            elif type(e) is ApprovalDecided:
                st.tell().approval_decided = e
                if st.approval_requested_at is not None and self.sessions:
                    since = max(st.approval_requested_at, self.sessions[-1].started)
                    self.gate_wait_s += max(0.0, e.ts - since)
                st.approval = "approved" if e.approved else "rejected"
                st.approval_comment = e.comment
                if st.started_at is None:  # ready to run once the gate opened, not before
                    st.ready_at = e.ts
                if st.status is StepStatus.AWAITING_APPROVAL:
                    st.status = StepStatus.READY
                self.awaiting = tuple(a for a in self.awaiting if a != st.step_id)
            elif type(e) is Regeneration:
                st.tell().regenerated.append(e)
                st.regenerations += 1
                self.total_regenerations += 1
                self._spend(st, e.usage)
                if e.code_path is not None:
                    if st.code_versions == 0:
                        st.entry_sha256 = e.entry_sha256
                    st.code_path = e.code_path
                    st.code_sha256 = e.code_sha256
                    st.code_versions += 1
                if e.feedback:
                    st.feedback_pending = None
            elif type(e) is RegenerationUnavailable:
                st.regeneration_unavailable = e.reason
                st.feedback_pending = None
            elif type(e) is FeedbackSent:
                self.feedback.append(e)
                st.feedback_sent += 1
                target = self.steps.get(e.target)
                if target is not None:
                    target.feedback_pending = e.detail
                    target.status = StepStatus.PENDING
                    target.has_output = False
                    target.output = None
                    self.output_map.pop(e.target, None)
                    for it in target.items.values():
                        it.has_output = False
                        it.output = None
                    if e.target in self.completion_order:
                        self.completion_order.remove(e.target)
            elif type(e) is ItemSkipped:
                st.item(e.item).skipped = True
                if e.item is not None:
                    st.tell().skipped_items.append(e.item)
            elif type(e) is FallbackUsed:
                st.tell().fallbacks.append(e)
                st.fallback = e.action
                if e.skill is not None:
                    st.item(e.item).fallback_skill = e.skill
            elif type(e) is LimitReached:
                st.message = e.message
                self.limit = e
            elif type(e) is CompensationStarted:
                self.compensations[st.step_id] = "started"
                self.compensated[st.step_id] = Compensation(skill=e.skill, started_at=e.ts)
            elif type(e) is CompensationFinished or type(e) is CompensationFailed:
                done = "finished" if type(e) is CompensationFinished else "failed"
                self.compensations[st.step_id] = done
                known = self.compensated.setdefault(st.step_id, Compensation(skill=e.skill))
                known.status, known.ended_at = done, e.ts
                known.message = e.message if isinstance(e, CompensationFailed) else ""
            return
        if type(e) is LimitReached:
            self.limit = e
            return
        if type(e) is RunCreated:
            self.inputs = dict(e.inputs)
            self.fingerprint = dict(e.fingerprint)
            self.plan_sha256 = e.plan_sha256
            self.created_at = e.ts
            self.mcp_config = e.mcp_config
            self.spec_path = e.spec_path
        elif type(e) is RunStarted:
            self.status = RunStatus.RUNNING
            self.sessions.append(Session(e.ts, e.ts, e.pid, e.host, e.resumed, e.forced))
            self.awaiting = ()
            for s in self.steps.values():
                # a step ready but not started when the last process ended (a crash, a pause)
                # waited for this session, not in a queue: its queue delay counts from here
                if s.started_at is None and s.ready_at is not None and s.ready_at < e.ts:
                    s.ready_at = e.ts
                for index, it in s.items.items():  # attempts cut short by the end of a process
                    if it.in_flight is not None:  # retried, and not held against the attempt limits
                        story = s.tell()
                        story.cut_short.append(CutShort(it.in_flight_since, index, it.in_flight, e.ts))
                        # it ends, as far as anyone knows, at the last event its process recorded
                        end = max(before, it.in_flight_since) if before is not None else it.in_flight_since
                        story.attempts.append(_ended(it, index, it.in_flight, end, "interrupted"))
                        it.in_flight = None
                        it.interrupted += 1
                        self.interrupted_attempts += 1
        elif type(e) is RunPaused:
            self.status = RunStatus.PAUSED
            self.awaiting = tuple(e.awaiting)
        elif type(e) is RunFailing:
            self.failing = RunErrorInfo(where=e.where, message=e.message, limit=e.limit)
            self.failing_status = RunStatus(e.status)
        elif type(e) is RunFinished:
            self.status = RunStatus(e.status)
            self.finished_at = e.ts
            if e.status not in ("succeeded", "degraded"):
                self.error = RunErrorInfo(where=e.where, message=e.message, limit=e.limit)
            elif "success check at " in e.message:
                self.unchecked = tuple(p for p in e.message.split("; ") if p.startswith("success check at "))

    def _spend(self, st: StepState, usage: TokenUsage) -> None:
        if usage.total:
            st.tokens = st.tokens + usage
            self.tokens = self.tokens + usage

    def _finish_step(self, st: StepState, status: str, ts: float, message: str, error_class: str | None) -> None:
        st.status = StepStatus(status)
        st.finished_at = ts
        if st.status is StepStatus.SUCCEEDED:
            st.message = message  # a note (items left out), never an earlier attempt's failure
        elif message:
            st.message = message
        if error_class:
            st.error_class = error_class
        if st.item_count is not None and st.status.has_output:
            st.output = [
                st.items[i].output for i in range(st.item_count) if i in st.items and st.items[i].has_output
            ]
            st.has_output = True
        if st.status.has_output and st.has_output:
            self.output_map[st.step_id] = st.output
        if st.status is StepStatus.SUCCEEDED:
            self.completion_order.append(st.step_id)

    # -- queries ---------------------------------------------------------

    def outputs(self) -> dict[str, Any]:
        """Step id -> output of the finished steps that have one (the live mapping)."""
        return self.output_map

    def active_time(self, now: float) -> float:
        """Seconds spent executing across sessions; the current one runs until `now`."""
        if not self.sessions:
            return 0.0
        past = sum(s.last - s.started for s in self.sessions[:-1])
        return past + max(0.0, now - self.sessions[-1].started)

    def execution_time(self, now: float) -> float:
        """Active time minus time spent waiting at approval gates: what wall_time_s limits."""
        open_waits = 0.0
        if self.sessions:
            started = self.sessions[-1].started
            for s in self.steps.values():
                if s.approval == "requested" and s.approval_requested_at is not None:
                    open_waits += max(0.0, now - max(s.approval_requested_at, started))
        return self.active_time(now) - self.gate_wait_s - open_waits

    def degraded(self) -> tuple[dict[str, str], ...]:
        """The steps a fallback stood in for (continue, default value, another skill), with why."""
        out: list[dict[str, str]] = []
        for sid, s in self.steps.items():
            if s.fallback in _DEGRADING and s.status.done:
                out.append({"step_id": sid, "fallback": s.fallback, "reason": s.message or "its fallback applied"})
        return tuple(out)

    def pending_approvals(self) -> tuple[str, ...]:
        return tuple(sid for sid, s in self.steps.items() if s.approval == "requested")

    def attempt_spans(self, step_id: str) -> tuple[AttemptSpan, ...]:
        """Every attempt of `step_id` in the order started: those its story kept, then each
        item's latest (its success, or the attempt still running)."""
        st = self.steps[step_id]
        found = list(st.story.attempts) if st.story is not None else []
        for index, it in st.items.items():
            if it.in_flight is not None:
                found.append(_ended(it, index, it.in_flight, None, "running"))
            elif it.done_at is not None:
                found.append(_ended(it, index, it.done_attempt, it.done_at, "succeeded"))
        found.sort(key=lambda span: span.n)
        return tuple(found)

    # -- the report ------------------------------------------------------

    def summary(self, record_status: RunStatus | None = None) -> RunSummary:
        # the step rows go in as dicts: RunSummary validates them all in one call
        rows = [self._step_fields(sid) for sid in self.steps]
        states = self.steps.values()
        last = self.sessions[-1].last if self.sessions else self.created_at
        end = self.finished_at if self.finished_at is not None else last
        totals = RunTotals(
            steps=len(rows),
            succeeded=sum(1 for s in states if s.status.has_output),
            failed=sum(1 for s in states if s.status in (StepStatus.FAILED, StepStatus.ESCALATED, StepStatus.CONTINUED)),
            skipped=sum(1 for s in states if s.status is StepStatus.SKIPPED),
            attempts=self.total_attempts,
            retries=sum(s.retries for s in states),
            regenerations=self.total_regenerations,
            handoff_passed=sum(s.handoff_passed for s in states),
            handoff_failed=sum(s.handoff_failed for s in states),
            tokens=self.tokens,
            queue_delay_s=sum(row.get("queue_delay_s", 0.0) for row in rows),
            duration_s=(end - self.sessions[0].started) if self.sessions else None,
            active_s=sum(s.last - s.started for s in self.sessions),
        )
        return RunSummary.model_validate(
            {
                "run_id": self.run_id,
                "plan_name": self.plan.name,
                "plan_sha256": self.plan_sha256,
                "status": record_status or self.status,
                "created_at": self.created_at,
                "started_at": self.sessions[0].started if self.sessions else None,
                "finished_at": self.finished_at,
                "error": self.error,
                "awaiting": self.pending_approvals() if self.status is RunStatus.PAUSED else (),
                "inputs": self.inputs,
                "outputs": dict(self.output_map),
                "steps": rows,
                "totals": totals,
                "compensations": tuple(f"{sid}: {status}" for sid, status in self.compensations.items()),
                "notes": tuple(
                    f"step {sid}: its script ran {_WEAK_ISOLATION[s.isolation]}"
                    for sid, s in self.steps.items()
                    if s.isolation in _WEAK_ISOLATION
                ) + self.unchecked,
                "degraded": self.degraded(),
            }
        )

    def _step_fields(self, sid: str) -> dict[str, Any]:
        """The step's StepSummary fields, those left at their defaults omitted."""
        s = self.steps[sid]
        step = self.plan_steps[sid]
        fields: dict[str, Any] = {
            "step_id": sid, "name": step.name, "skill": step.skill, "status": s.status,
            "attempts": s.attempts, "ready_at": s.ready_at, "started_at": s.started_at,
            "finished_at": s.finished_at, "run_time_s": s.run_time_s,
        }
        if s.finished_at is not None and s.started_at is not None:
            fields["duration_s"] = s.finished_at - s.started_at
        if s.started_at is not None and s.ready_at is not None:
            fields["queue_delay_s"] = s.started_at - s.ready_at
        # the rest only when set: a model validates each field it is given, and most steps
        # of a run have no retries, items, contracts, tokens, failure or approval
        if s.retries:
            fields["retries"] = s.retries
        if s.regenerations:
            fields["regenerations"] = s.regenerations
        if s.item_count is not None:
            fields["items"] = s.item_count
            fields["items_done"] = sum(
                1 for k, it in s.items.items() if k is not None and (it.has_output or it.skipped)
            )
        if s.handoff_passed:
            fields["handoff_passed"] = s.handoff_passed
        if s.handoff_failed:
            fields["handoff_failed"] = s.handoff_failed
        if s.violations:
            fields["violations"] = s.violations
        if s.tokens.total:
            fields["tokens"] = s.tokens
        if s.error_class is not None and (not s.status.has_output or s.fallback):
            fields["error_class"] = s.error_class
        if s.message:
            fields["message"] = s.message
        for name in ("fallback", "code_sha256", "approval", "isolation"):
            value = getattr(s, name)
            if value is not None:
                fields[name] = value
        return fields


def _ended(
    it: ItemState, item: int | None, attempt: int | None, ended_at: float | None, outcome: str,
    error_class: str | None = None,
) -> AttemptSpan:
    """The span of item `item`'s latest attempt (`it`), ended at `ended_at` with `outcome`."""
    return AttemptSpan(
        n=it.in_flight_n, item=item, attempt=attempt, started_at=it.in_flight_since, ended_at=ended_at,
        outcome=outcome, error_class=error_class, fallback=it.in_flight_fallback,
    )
