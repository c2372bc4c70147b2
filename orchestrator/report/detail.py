"""Turn one run into a `RunReport`: the metrics, and the story of each step.

The engine's summary gives each step's status and counters; the engine's own fold of
the journal (`orchestrator.engine.state.RunState`, the state a resumed run replays)
keeps what a person needs to understand a failure, and this module only words it:
every attempt as a span and every failed one (class, message, stderr tail), the waits before retries, the
code versions a regeneration produced with their diffs, the fallbacks, the
approvals, the compensations, and the limit that ended the run. Nothing here folds
the events a second time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orchestrator.engine.state import RunState, StepState, StepStory
from orchestrator.report.mermaid import render_mermaid
from orchestrator.report.metrics import run_metrics, step_metrics, tokens_of
from orchestrator.report.model import (
    ApprovalRecord,
    AttemptRecord,
    CompensationRecord,
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

_UNTOLD = StepStory()


def _approval(st: StepStory) -> ApprovalRecord | None:
    asked, decided = st.approval_asked, st.approval_decided
    if asked is None and decided is None:
        return None
    record = ApprovalRecord()
    if asked is not None:
        record = ApprovalRecord(requested_at=asked.ts, timeout_s=asked.timeout_s, on_timeout=asked.on_timeout)
    if decided is not None:
        record = record.model_copy(update={
            "decided_at": decided.ts, "approved": decided.approved, "by": decided.by, "comment": decided.comment,
            "timed_out": decided.timed_out,
        })
    return record


def _story(source: RunSource, step: StepState) -> dict[str, Any]:
    """The StepReport fields the step's rare turns fill (none: their defaults)."""
    st = step.story or _UNTOLD
    return {
        "failed_attempts": tuple(
            FailedAttempt(
                ts=e.ts, item=e.item, attempt=e.attempt, error_class=e.error_class, kind=e.kind,
                message=e.message, detail=clip(e.detail, TAIL_CHARS), pointer=e.pointer,
                duration_s=e.duration_s, stderr_path=e.stderr_path,
                stderr_tail=source.read_file(e.stderr_path, TAIL_CHARS),
            )
            for e in st.failed
        ),
        "interrupted_attempts": tuple(
            InterruptedAttempt(ts=c.ts, item=c.item, attempt=c.attempt, resumed_at=c.resumed_at) for c in st.cut_short
        ),
        "retries": tuple(
            RetryWait(ts=e.ts, item=e.item, attempt=e.attempt, error_class=e.error_class, delay_s=e.delay_s)
            for e in st.retry_waits
        ),
        "regenerations": tuple(
            RegenerationRecord(
                ts=e.ts, item=e.item, attempt=e.attempt, code_sha256=e.code_sha256, code_path=e.code_path,
                diff_path=e.diff_path, diff=source.read_file(e.diff_path, DIFF_CHARS, tail=False),
                rejected=e.rejected, feedback=e.feedback, tokens=tokens_of(e.usage),
            )
            for e in st.regenerated
        ),
        "regeneration_unavailable": step.regeneration_unavailable,
        "fallbacks": tuple(
            FallbackRecord(ts=e.ts, item=e.item, attempt=e.attempt, action=e.action, skill=e.skill, reason=e.reason)
            for e in st.fallbacks
        ),
        "approval": _approval(st),
        "skipped_items": tuple(st.skipped_items),
    }


def _attempts(state: RunState, step_id: str) -> tuple[AttemptRecord, ...]:
    return tuple(
        AttemptRecord(item=a.item, attempt=a.attempt, started_at=a.started_at, ended_at=a.ended_at,
                      outcome=a.outcome, error_class=a.error_class, fallback=a.fallback)
        for a in state.attempt_spans(step_id)
    )


def _run_story(state: RunState) -> dict[str, Any]:
    """The RunReport fields the run's own rare turns fill."""
    limit = state.limit
    return {
        "limit": LimitRecord(limit=limit.limit, message=limit.message, step=limit.step, ts=limit.ts) if limit else None,
        "sessions": tuple(
            SessionRecord(started_at=s.started, pid=s.pid, host=s.host, resumed=s.resumed, forced=s.forced)
            for s in state.sessions
        ),
        "feedback": tuple(
            FeedbackRecord(ts=e.ts, from_step=e.step or "", to_step=e.target, detail=e.detail) for e in state.feedback
        ),
        "compensations": tuple(
            CompensationRecord(step=step, skill=c.skill, status=c.status, message=c.message, started_at=c.started_at,
                               ended_at=c.ended_at)
            for step, c in state.compensated.items()
        ),
    }


def build_run_report(source: RunSource) -> RunReport:
    summary = source.summary
    plan = source.plan
    state = source.state
    steps: list[StepReport] = []
    for s in summary.steps:
        st = state.steps[s.step_id]
        plan_step = plan.step(s.step_id)
        metrics = step_metrics(s)
        if st.story is not None and st.story.cut_short:
            metrics = metrics.model_copy(update={"interrupted": len(st.story.cut_short)})
        skill = plan.skills.get(s.skill)
        steps.append(
            StepReport(
                step_id=s.step_id,
                name=s.name,
                skill=s.skill,
                kind=skill.kind if skill is not None else "",
                depends_on=plan_step.depends_on,
                status=s.status.value,
                message=s.message,
                error_class=s.error_class,
                ready_at=s.ready_at,
                started_at=s.started_at,
                finished_at=s.finished_at,
                feedback_to=plan_step.policy.feedback.target_step if plan_step.policy.feedback else None,
                metrics=metrics,
                attempts=_attempts(state, s.step_id),
                violations=s.violations if s.handoff_failed else (),
                **_story(source, st),
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
        error=error,
        awaiting=summary.awaiting,
        inputs=summary.inputs,
        outputs=summary.outputs,
        last_event_at=state.last_event_at,
        metrics=run_metrics(summary).model_copy(update={"interrupted": sum(s.metrics.interrupted for s in steps)}),
        steps=tuple(steps),
        mermaid=render_mermaid(plan, {s.step_id: s.status.value for s in summary.steps}),
        notes=summary.notes,
        degraded=tuple(f"{d.step_id}: {d.fallback}: {d.reason}" for d in summary.degraded),
        artifacts=artifact_files(source.run_dir),
        spec_warnings=plan.warnings,
        **_run_story(state),
    )


ARTIFACTS_LISTED = 500  # a report lists at most this many of a run's artifact files


def artifact_files(run_dir: Path) -> tuple[str, ...]:
    """The files under `<run_dir>/artifacts/`, relative to the run directory, sorted (at most ARTIFACTS_LISTED)."""
    folder = run_dir / "artifacts"
    if not folder.is_dir():
        return ()
    found: list[str] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(run_dir)
        if path.is_file() and not path.is_symlink() and not any(p.endswith(".compensation") for p in relative.parts):
            found.append(relative.as_posix())
            if len(found) >= ARTIFACTS_LISTED:
                break
    return tuple(found)
