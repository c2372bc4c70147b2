"""Turn one run's journal into a `RunReport`: the metrics, and the story of each step.

The engine's summary gives each step's status and counters; the events give
what a person needs to understand a failure: every failed attempt (class,
message, stderr tail), the waits before retries, the code versions a
regeneration produced with their diffs, the fallbacks, the approvals, the
compensations, and the limit that ended the run.
"""

from __future__ import annotations

from collections import defaultdict

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
    FeedbackSent,
    ItemSkipped,
    LimitReached,
    OutputStored,
    Regeneration,
    RegenerationUnavailable,
    RetryScheduled,
    RunStarted,
)
from orchestrator.report.mermaid import render_mermaid
from orchestrator.report.metrics import run_metrics, step_metrics, tokens_of
from orchestrator.report.model import (
    ApprovalRecord,
    CompensationRecord,
    ErrorRecord,
    FailedAttempt,
    FallbackRecord,
    FeedbackRecord,
    InterruptedAttempt,
    LimitRecord,
    RegenerationRecord,
    RetryWait,
    RunReport,
    SessionRecord,
    StepReport,
)
from orchestrator.report.source import DIFF_CHARS, TAIL_CHARS, RunSource, clip
from orchestrator.report.spans import attempt_spans


class _StepStory:
    """What the events say about one step, collected in order."""

    def __init__(self) -> None:
        self.failed: list[FailedAttempt] = []
        self.interrupted: list[InterruptedAttempt] = []
        self.retries: list[RetryWait] = []
        self.regenerations: list[RegenerationRecord] = []
        self.unavailable: str | None = None
        self.fallbacks: list[FallbackRecord] = []
        self.approval: ApprovalRecord | None = None
        self.skipped_items: list[int] = []


class _Collector:
    def __init__(self, source: RunSource) -> None:
        self.source = source
        self.steps: dict[str, _StepStory] = defaultdict(_StepStory)
        self.sessions: list[SessionRecord] = []
        self.feedback: list[FeedbackRecord] = []
        self.compensations: dict[str, CompensationRecord] = {}
        self.limit: LimitRecord | None = None
        # (step, item) -> the attempt started and not ended yet: (its start, its number)
        self.in_flight: dict[tuple[str, int | None], tuple[float, int | None]] = {}

    def collect(self, events: tuple[Event, ...]) -> None:
        for e in events:
            if isinstance(e, RunStarted):
                self.sessions.append(
                    SessionRecord(started_at=e.ts, pid=e.pid, host=e.host, resumed=e.resumed, forced=e.forced)
                )
                # what was in flight when the last process ended never will end: it was cut short
                for (step, item), (ts, attempt) in self.in_flight.items():
                    self.steps[step].interrupted.append(
                        InterruptedAttempt(ts=ts, item=item, attempt=attempt, resumed_at=e.ts)
                    )
                self.in_flight.clear()
            elif isinstance(e, LimitReached):
                self.limit = LimitRecord(limit=e.limit, message=e.message, step=e.step, ts=e.ts)
            elif e.step is not None:
                self._step_event(e.step, e)

    def _step_event(self, step: str, e: Event) -> None:
        story = self.steps[step]
        if isinstance(e, AttemptStarted):
            self.in_flight[(step, e.item)] = (e.ts, e.attempt)
        elif isinstance(e, OutputStored):
            self.in_flight.pop((step, e.item), None)
        elif isinstance(e, AttemptFailed):
            self.in_flight.pop((step, e.item), None)
            story.failed.append(
                FailedAttempt(
                    ts=e.ts, item=e.item, attempt=e.attempt, error_class=e.error_class, kind=e.kind,
                    message=e.message, detail=clip(e.detail, TAIL_CHARS), pointer=e.pointer,
                    duration_s=e.duration_s, stderr_path=e.stderr_path,
                    stderr_tail=self.source.read_file(e.stderr_path, TAIL_CHARS),
                )
            )
        elif isinstance(e, RetryScheduled):
            story.retries.append(
                RetryWait(ts=e.ts, item=e.item, attempt=e.attempt, error_class=e.error_class, delay_s=e.delay_s)
            )
        elif isinstance(e, Regeneration):
            story.regenerations.append(
                RegenerationRecord(
                    ts=e.ts, item=e.item, attempt=e.attempt, code_sha256=e.code_sha256, code_path=e.code_path,
                    diff_path=e.diff_path, diff=self.source.read_file(e.diff_path, DIFF_CHARS, tail=False),
                    rejected=e.rejected, feedback=e.feedback, tokens=tokens_of(e.usage),
                )
            )
        elif isinstance(e, RegenerationUnavailable):
            story.unavailable = e.reason
        elif isinstance(e, FallbackUsed):
            story.fallbacks.append(
                FallbackRecord(ts=e.ts, item=e.item, attempt=e.attempt, action=e.action, skill=e.skill, reason=e.reason)
            )
        elif isinstance(e, ApprovalRequested):
            story.approval = ApprovalRecord(requested_at=e.ts, timeout_s=e.timeout_s, on_timeout=e.on_timeout)
        elif isinstance(e, ApprovalDecided):
            base = story.approval or ApprovalRecord()
            story.approval = base.model_copy(
                update={
                    "decided_at": e.ts, "approved": e.approved, "by": e.by, "comment": e.comment,
                    "timed_out": e.timed_out,
                }
            )
        elif isinstance(e, ItemSkipped) and e.item is not None:
            story.skipped_items.append(e.item)
        elif isinstance(e, FeedbackSent):
            self.feedback.append(FeedbackRecord(ts=e.ts, from_step=step, to_step=e.target, detail=e.detail))
        elif isinstance(e, CompensationStarted):
            self.compensations[step] = CompensationRecord(step=step, skill=e.skill, status="started", started_at=e.ts)
        elif isinstance(e, (CompensationFinished, CompensationFailed)):
            known = self.compensations.get(step) or CompensationRecord(step=step, skill=e.skill, status="started")
            status = "finished" if isinstance(e, CompensationFinished) else "failed"
            message = e.message if isinstance(e, CompensationFailed) else ""
            self.compensations[step] = known.model_copy(update={"status": status, "message": message, "ended_at": e.ts})


def build_run_report(source: RunSource) -> RunReport:
    summary = source.summary
    plan = source.plan
    collector = _Collector(source)
    collector.collect(source.events)
    spans = attempt_spans(source.events)
    steps: list[StepReport] = []
    for s in summary.steps:
        story = collector.steps.get(s.step_id) or _StepStory()
        plan_step = plan.step(s.step_id)
        metrics = step_metrics(s)
        if story.interrupted:
            metrics = metrics.model_copy(update={"interrupted": len(story.interrupted)})
        skill = plan.skills.get(s.skill)
        steps.append(
            StepReport(
                step_id=s.step_id,
                name=s.name,
                skill=s.skill,
                kind=skill.kind.value if skill is not None else "",
                depends_on=plan_step.depends_on,
                status=s.status.value,
                message=s.message,
                error_class=s.error_class,
                ready_at=s.ready_at,
                started_at=s.started_at,
                finished_at=s.finished_at,
                feedback_to=plan_step.policy.feedback.target_step if plan_step.policy.feedback else None,
                metrics=metrics,
                attempts=spans.get(s.step_id, ()),
                failed_attempts=tuple(story.failed),
                interrupted_attempts=tuple(story.interrupted),
                retries=tuple(story.retries),
                regenerations=tuple(story.regenerations),
                regeneration_unavailable=story.unavailable,
                violations=s.violations if s.handoff_failed else (),
                fallbacks=tuple(story.fallbacks),
                approval=story.approval,
                skipped_items=tuple(story.skipped_items),
            )
        )
    error = summary.error
    return RunReport(
        run_id=summary.run_id,
        plan_name=summary.plan_name,
        plan_sha256=summary.plan_sha256,
        spec_path=plan.spec.path,
        status=summary.status.value,
        created_at=summary.created_at,
        started_at=summary.started_at,
        finished_at=summary.finished_at,
        error=ErrorRecord(where=error.where, message=error.message, limit=error.limit) if error else None,
        limit=collector.limit,
        awaiting=summary.awaiting,
        inputs=summary.inputs,
        outputs=summary.outputs,
        sessions=tuple(collector.sessions),
        last_event_at=source.events[-1].ts if source.events else None,
        metrics=run_metrics(summary).model_copy(update={"interrupted": sum(s.metrics.interrupted for s in steps)}),
        steps=tuple(steps),
        feedback=tuple(collector.feedback),
        compensations=tuple(collector.compensations.values()),
        mermaid=render_mermaid(plan, {s.step_id: s.status.value for s in summary.steps}),
        notes=summary.notes,
    )
