"""What a report holds: frozen models whose JSON keys are a stable, documented interface.

`skillweave runs show RUN_ID --format json` prints a `RunReport`; `skillweave
runs --json` prints a `History`. Keys are only ever added (with a default),
never renamed or removed; `format` changes if that promise is ever broken.

    RunReport
      format                 1
      run_id plan_name plan_sha256 spec_path status
      created_at started_at finished_at      epoch seconds (null: not yet)
      error                  {where, message, limit} | null   why the run did not succeed
      limit                  {limit, message, step, ts} | null the convergence limit that ended it
      awaiting               step ids waiting for approval (a paused run)
      inputs outputs         the workflow inputs; step id -> output (steps that have one)
      sessions               [{started_at, pid, host, resumed, forced}] one per process that ran it
      metrics                RunMetrics (below)
      steps                  [StepReport] in plan order
      feedback               [{ts, from_step, to_step, detail}] validator findings sent back
      compensations          [{step, skill, status, message, started_at, ended_at}] in the order run
      mermaid                the plan's graph, nodes coloured by step status
      notes                  anything else a person should know
      spec_warnings          [{file, line, severity, code, message, hint?}] the plan's warnings: the places
                             where skillweave was not sure it read the spec as its author meant
      last_event_at          epoch seconds of the run's latest event (null: none)

    StepReport
      step_id name skill kind depends_on status message error_class
      metrics                StepMetrics (below)
      failed_attempts        [{ts, item, attempt, error_class, kind, message, detail, pointer,
                               duration_s, stderr_path, stderr_tail}]
      retries                [{ts, item, attempt, error_class, delay_s}] the waits scheduled
      regenerations          [{ts, item, attempt, code_sha256, code_path, diff_path, diff,
                               rejected, feedback, tokens}]
      regeneration_unavailable  why no code could be regenerated, or null
      violations             [{pointer, expected, actual, message}] the last failed contract check
      fallbacks              [{ts, item, attempt, action, skill, reason}]
      approval               {requested_at, timeout_s, on_timeout, decided_at, approved, by,
                               comment, timed_out} | null
      skipped_items          `for each` items whose `when` was false
      interrupted_attempts   [{ts, item, attempt, resumed_at}] attempts cut short by the end of their
                             process (a crash, a kill), found by the session that resumed the run
      ready_at started_at finished_at   epoch seconds (null: not yet)
      feedback_to            the producer a validator sends its findings back to, or null
      attempts               [{item, attempt, started_at, ended_at, outcome, error_class, fallback}]
                             every attempt in the order started; outcome succeeded | failed |
                             interrupted (its process ended first; ended_at: its last event) |
                             running (ended_at null)

    StepMetrics: attempts retries regenerations items items_done duration_s run_time_s
      queue_delay_s handoff_passed handoff_failed tokens{input,output,cache_read,cache_write,total}
      interrupted
    RunMetrics: steps succeeded failed skipped attempts retries regenerations retry_burden
      duration_s active_s queue_delay_total_s queue_delay_mean_s queue_delay_max_s
      handoff_passed handoff_failed handoff_accuracy tokens interrupted cancelled not_run

    History
      format state_dir limit
      runs                   [RunListing: run_id plan_name status created_at started_at finished_at
                              duration_s steps steps_succeeded attempts retries regenerations
                              handoff_failed error]
      metrics                HistoryMetrics: runs finished succeeded failed in_progress success_rate
                              attempts retries retry_burden queue_delay_mean_s queue_delay_p95_s
                              queue_delay_samples handoff_passed handoff_failed handoff_accuracy
                              tokens

    Trends (`skillweave runs --stats --json`)
      format state_dir by plan since    by: day | plan-version; plan: the --plan or null;
                                        since: epoch seconds or null
      buckets                [TrendBucket: key plan_name plan_sha256 first_at last_at metrics]
                             oldest first; key: the UTC day (YYYY-MM-DD) or the plan's
                             sha256 (first 12); metrics: HistoryMetrics of its runs
      metrics                HistoryMetrics over every run selected

Definitions (`orchestrator.report.metrics`): a retry is a wait scheduled before
another attempt; retry burden = retries / attempts; queue delay = a step's first
`step_ready` to its first `attempt_started`; handoff accuracy = passed checks /
all checks (input and output contracts); success rate = succeeded runs /
finished runs. A ratio with nothing to divide by is null. In a finished run, a step
cut short by the run's end is `cancelled` and one never reached is `not_run`: neither
counts as `failed` (it did not fail itself; the step that did, or the limit, is the
run's `error`), and `steps` = succeeded + failed + skipped + cancelled + not_run.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.contracts import Violation
from orchestrator.engine.model import RunErrorInfo
from orchestrator.errors import Diagnostic

REPORT_FORMAT = 1


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Tokens(_Frozen):
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total: int = 0


class StepMetrics(_Frozen):
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    items: int | None = None  # `for each`: how many items
    items_done: int = 0
    duration_s: float | None = None  # first attempt start to finish
    run_time_s: float = 0.0  # summed attempt durations
    queue_delay_s: float | None = None  # ready to first attempt start
    handoff_passed: int = 0
    handoff_failed: int = 0
    tokens: Tokens = Tokens()
    interrupted: int = 0  # attempts cut short by the end of their process (counted in attempts)


class RunMetrics(_Frozen):
    steps: int = 0
    succeeded: int = 0  # with an output (succeeded or defaulted)
    failed: int = 0  # failed, escalated or continued
    skipped: int = 0
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    retry_burden: float | None = None  # retries per attempt
    duration_s: float | None = None  # first start to finish, pauses included
    active_s: float = 0.0  # executing, pauses excluded
    queue_delay_total_s: float = 0.0
    queue_delay_mean_s: float | None = None
    queue_delay_max_s: float | None = None
    handoff_passed: int = 0
    handoff_failed: int = 0
    handoff_accuracy: float | None = None
    tokens: Tokens = Tokens()
    interrupted: int = 0  # attempts cut short by the end of their process (counted in attempts)
    cancelled: int = 0  # cut short by the end of the run (not counted as failed)
    not_run: int = 0  # never reached before the run ended


class AttemptRecord(_Frozen):
    """One attempt of a step (or of one `for each` item): when it ran and how it ended."""

    item: int | None = None
    attempt: int | None = None
    started_at: float
    ended_at: float | None = None  # null: still running
    outcome: str  # succeeded | failed | interrupted | running
    error_class: str | None = None
    fallback: bool = False  # an attempt of the fallback skill


class FailedAttempt(_Frozen):
    ts: float
    item: int | None = None
    attempt: int | None = None
    error_class: str
    kind: str = ""
    message: str
    detail: str = ""
    pointer: str | None = None
    duration_s: float = 0.0
    stderr_path: str | None = None  # relative to the run directory
    stderr_tail: str = ""


class InterruptedAttempt(_Frozen):
    """An attempt that never ended: its process did (a crash, a SIGKILL); resuming ran it again."""

    ts: float  # when it started
    item: int | None = None
    attempt: int | None = None
    resumed_at: float  # the start of the session that found it cut short


class RetryWait(_Frozen):
    ts: float
    item: int | None = None
    attempt: int | None = None  # the attempt that failed
    error_class: str
    delay_s: float


class RegenerationRecord(_Frozen):
    ts: float
    item: int | None = None
    attempt: int | None = None  # the failed attempt it answers
    code_sha256: str | None = None
    code_path: str | None = None
    diff_path: str | None = None
    diff: str = ""
    rejected: str | None = None  # why the answer was refused (no new version)
    feedback: bool = False  # asked for by a validator's findings
    tokens: Tokens = Tokens()


class FallbackRecord(_Frozen):
    ts: float
    item: int | None = None
    attempt: int | None = None
    action: str
    skill: str | None = None
    reason: str = ""


class ApprovalRecord(_Frozen):
    requested_at: float | None = None
    timeout_s: float | None = None
    on_timeout: str | None = None
    decided_at: float | None = None
    approved: bool | None = None  # null: still waiting
    by: str | None = None
    comment: str | None = None
    timed_out: bool = False


class FeedbackRecord(_Frozen):
    ts: float
    from_step: str  # the validator
    to_step: str  # the producer regenerated with the findings
    detail: str = ""


class CompensationRecord(_Frozen):
    step: str
    skill: str
    status: str  # started | finished | failed
    message: str = ""
    started_at: float | None = None
    ended_at: float | None = None


class LimitRecord(_Frozen):
    limit: str
    message: str
    step: str | None = None
    ts: float


class SessionRecord(_Frozen):
    started_at: float
    pid: int
    host: str
    resumed: bool = False
    forced: bool = False


class StepReport(_Frozen):
    step_id: str
    name: str
    skill: str
    kind: str = ""
    depends_on: tuple[str, ...] = ()
    status: str
    message: str = ""
    error_class: str | None = None
    metrics: StepMetrics = StepMetrics()
    failed_attempts: tuple[FailedAttempt, ...] = ()
    retries: tuple[RetryWait, ...] = ()
    regenerations: tuple[RegenerationRecord, ...] = ()
    regeneration_unavailable: str | None = None
    violations: tuple[Violation, ...] = ()
    fallbacks: tuple[FallbackRecord, ...] = ()
    approval: ApprovalRecord | None = None
    skipped_items: tuple[int, ...] = ()
    interrupted_attempts: tuple[InterruptedAttempt, ...] = ()
    ready_at: float | None = None
    started_at: float | None = None
    finished_at: float | None = None
    feedback_to: str | None = None
    attempts: tuple[AttemptRecord, ...] = ()

    @property
    def eventful(self) -> bool:
        """Whether there is more to say about the step than its table row."""
        return bool(
            self.failed_attempts
            or self.interrupted_attempts
            or self.retries
            or self.regenerations
            or self.regeneration_unavailable
            or self.fallbacks
            or self.approval
            or self.violations
            or (self.status == "skipped" and self.message)
        )


class RunReport(_Frozen):
    format: int = REPORT_FORMAT
    run_id: str
    plan_name: str
    plan_sha256: str
    spec_path: str = ""
    status: str
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    error: RunErrorInfo | None = None  # the engine's own model of why a run did not succeed
    limit: LimitRecord | None = None
    awaiting: tuple[str, ...] = ()
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)
    sessions: tuple[SessionRecord, ...] = ()
    metrics: RunMetrics = RunMetrics()
    steps: tuple[StepReport, ...] = ()
    feedback: tuple[FeedbackRecord, ...] = ()
    compensations: tuple[CompensationRecord, ...] = ()
    mermaid: str = ""
    notes: tuple[str, ...] = ()
    degraded: tuple[str, ...] = ()  # a degraded run: "step: fallback: why" for each step a fallback stood in for
    artifacts: tuple[str, ...] = ()  # files the steps' scripts wrote, relative to the run directory (`artifacts/<step>/...`)
    last_event_at: float | None = None
    spec_warnings: tuple[Diagnostic, ...] = ()  # the plan's warnings: how the spec was read, where unsure

    def step(self, step_id: str) -> StepReport:
        for s in self.steps:
            if s.step_id == step_id:
                return s
        raise KeyError(step_id)


class RunListing(_Frozen):
    """One row of `skillweave runs`."""

    run_id: str
    plan_name: str
    status: str
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    duration_s: float | None = None
    steps: int = 0
    steps_succeeded: int = 0
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    handoff_failed: int = 0
    error: str | None = None  # `where: message [limit]`


class HistoryMetrics(_Frozen):
    runs: int = 0
    finished: int = 0  # succeeded, degraded, failed or escalated
    succeeded: int = 0
    failed: int = 0  # failed or escalated
    in_progress: int = 0  # pending, running (or interrupted) or paused
    success_rate: float | None = None  # succeeded / finished
    attempts: int = 0
    retries: int = 0
    retry_burden: float | None = None  # retries / attempts
    queue_delay_mean_s: float | None = None  # over every step that started, all runs
    queue_delay_p95_s: float | None = None  # nearest rank
    queue_delay_samples: int = 0
    handoff_passed: int = 0
    handoff_failed: int = 0
    handoff_accuracy: float | None = None
    tokens: Tokens = Tokens()
    degraded: int = 0  # finished, a fallback standing in for a step (neither succeeded nor failed)


class History(_Frozen):
    format: int = REPORT_FORMAT
    state_dir: str
    limit: int
    runs: tuple[RunListing, ...] = ()
    metrics: HistoryMetrics = HistoryMetrics()


class TrendBucket(_Frozen):
    """The runs of one day (UTC) or of one plan version, and their metrics."""

    key: str
    plan_name: str | None = None  # by plan version: the plan's name
    plan_sha256: str | None = None  # by plan version: the whole hash
    first_at: float  # the first run's creation
    last_at: float  # the last run's creation
    metrics: HistoryMetrics = HistoryMetrics()


class Trends(_Frozen):
    format: int = REPORT_FORMAT
    state_dir: str
    by: str  # day | plan-version
    plan: str | None = None
    since: float | None = None
    buckets: tuple[TrendBucket, ...] = ()
    metrics: HistoryMetrics = HistoryMetrics()
