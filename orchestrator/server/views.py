"""Engine summaries and plans turned into what the tools return."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from orchestrator.engine.model import RunStatus, RunSummary
from orchestrator.errors import Diagnostic
from orchestrator.plan.model import Plan
from orchestrator.server.models import Finding, RunBrief, RunView, StepInfo, StepView

# An output longer than this (as JSON) is cut short in a RunView.
OUTPUT_PREVIEW_CHARS = 4000


def report_uri(run_id: str) -> str:
    return f"run://{run_id}/report"


def step_infos(plan: Plan) -> list[StepInfo]:
    return [
        StepInfo(
            id=step.id,
            name=step.name,
            skill=step.skill,
            kind=plan.skills[step.skill].kind if step.skill in plan.skills else "unknown",
            depends_on=list(step.depends_on),
            approval=step.policy.approval is not None and step.policy.approval.required,
        )
        for step in plan.steps
    ]


def _preview(run_id: str, step: str, value: Any) -> Any:
    text = json.dumps(value, default=str)
    if len(text) <= OUTPUT_PREVIEW_CHARS:
        return value
    return f"{text[:OUTPUT_PREVIEW_CHARS]}… ({len(text)} characters; the full output is in {report_uri(run_id)})"


def next_move(summary: RunSummary, executing: bool, elsewhere: int | None = None) -> str:
    run = summary.run_id
    if executing or summary.status is RunStatus.RUNNING:
        if executing:
            return f"The run is executing. Call get_run with run_id {run!r} every few seconds until it is no longer running."
        if elsewhere is not None:
            return (
                f"Another process (pid {elsewhere}: a shell's skillweave, or another server) is executing the run. "
                f"Call get_run with run_id {run!r} every few seconds until it is no longer running; do not resume it."
            )
        return f"The run was interrupted (no process is executing it). Call resume_run with run_id {run!r} to continue it."
    if summary.status is RunStatus.PAUSED and not summary.awaiting:
        return f"Every approval it waited for has been decided. Call resume_run with run_id {run!r} to continue it."
    if summary.status is RunStatus.PAUSED:
        steps = ", ".join(summary.awaiting)
        return (
            f"Steps {steps} wait for a person's approval. Ask the person, then call approve_step with run_id "
            f"{run!r}, the step, and reject=true to refuse."
        )
    if summary.status is RunStatus.PENDING:
        return f"The run has not started. Call resume_run with run_id {run!r} to execute it."
    if summary.status is RunStatus.SUCCEEDED:
        return f"Done. The outputs are below; the full report is the resource {report_uri(run)}."
    if summary.status is RunStatus.DEGRADED:
        steps = ", ".join(d.step_id for d in summary.degraded)
        return (f"Done, degraded: a fallback stood in for {steps} (see degraded). The outputs are below; the "
                f"full report is the resource {report_uri(run)}.")
    return (
        f"The run did not succeed (see error) and cannot be resumed. Read the report at {report_uri(run)}; "
        "after fixing the cause, start a new run with run_workflow."
    )


def run_view(summary: RunSummary, *, executing: bool, elsewhere: int | None = None,
             warnings: Sequence[Diagnostic] = ()) -> RunView:
    """The run for a host agent; `warnings` are the plan's (how the spec was read, where unsure)."""
    error = None
    if summary.error is not None:
        where = f"{summary.error.where}: " if summary.error.where else ""
        error = f"{where}{summary.error.message}"
    return RunView(
        run_id=summary.run_id,
        workflow=summary.plan_name,
        status=summary.status.value,
        finished=summary.status.finished,
        executing=executing,
        awaiting_approval=list(summary.awaiting),
        error=error,
        degraded=[f"{d.step_id}: {d.fallback}: {d.reason}" for d in summary.degraded],
        steps=[
            StepView(
                id=s.step_id,
                name=s.name,
                skill=s.skill,
                status=s.status.value,
                attempts=s.attempts,
                retries=s.retries,
                regenerations=s.regenerations,
                message=s.message,
                approval=s.approval,
            )
            for s in summary.steps
        ],
        outputs={k: _preview(summary.run_id, k, v) for k, v in summary.outputs.items()},
        report_uri=report_uri(summary.run_id),
        next=next_move(summary, executing, elsewhere) + _doubted(summary, warnings),
        spec_warnings=[Finding.of(d) for d in warnings],
    )


def _doubted(summary: RunSummary, warnings: Sequence[Diagnostic]) -> str:
    """A finished run of a spec read with warnings: the agent is told to say so."""
    if not warnings or not summary.status.finished:
        return ""
    return (f" The spec was read with {len(warnings)} warning(s) (spec_warnings): the run did what the plan says, "
            "which may be less than the spec says; tell the person before relying on the outputs.")


def run_brief(summary: RunSummary, *, executing: bool) -> RunBrief:
    return RunBrief(
        run_id=summary.run_id,
        workflow=summary.plan_name,
        status=summary.status.value,
        created_at=summary.created_at,
        finished_at=summary.finished_at,
        awaiting_approval=list(summary.awaiting),
        executing=executing,
    )

