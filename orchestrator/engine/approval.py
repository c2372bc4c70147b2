"""Approval gates: a step that needs a person's yes waits for it, durably.

When a gated step becomes ready the engine records `approval_requested`, then
asks the approver if the caller gave one (the MCP server elicits the answer in
the host). With no approver, or no answer, the gate stays open and the run
pauses once nothing else can proceed; `approve_step` records the decision from
any process and a resume continues. A gate's timeout counts from the recorded
request: reached while waiting on the approver, or found reached at resume, it
decides as the plan says (`on_timeout`: approve, reject, or skip: the step is skipped and
the steps after it run on without its output). Waiting is the backend's
(`Backend.await_approval`); what a wait's end means is decided here.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from orchestrator.engine.model import ApprovalDecision, ApprovalRequest
from orchestrator.engine.scope import RunScope
from orchestrator.engine.state import RunState
from orchestrator.errors import NotFoundError, UserError
from orchestrator.hints import Hint, HintAction
from orchestrator.journal.events import ApprovalDecided, ApprovalRequested
from orchestrator.plan.model import PlanStep

POLL_S = 1.0  # how often the local backend, waiting at a gate, looks for a decision another process recorded


class Gate(Enum):
    APPROVED = "approved"
    REJECTED = "rejected"
    PAUSED = "paused"
    SKIPPED = "skipped"  # no decision in time, and the plan says silence skips the step


async def pass_gate(scope: RunScope, step: PlanStep, preview: Any) -> tuple[Gate, str]:
    """Whether `step` may run: (APPROVED | REJECTED | PAUSED | SKIPPED, a message)."""
    policy = step.policy.approval
    st = scope.state.steps[step.id]
    if policy is None or not policy.required or st.approval == "approved":
        return Gate.APPROVED, ""
    if st.approval == "rejected":
        decided = st.story.approval_decided if st.story is not None else None
        if policy.on_timeout == "skip" and decided is not None and decided.timed_out:  # decided, then stopped
            return Gate.SKIPPED, f"no approval within {policy.timeout_s:g}s: skipped, as its approval says"
        return Gate.REJECTED, _rejection(st.approval_comment)
    if st.approval is None:
        scope.emit(
            ApprovalRequested(ts=scope.now(), step=step.id, timeout_s=policy.timeout_s, on_timeout=policy.on_timeout)
        )
        await scope.commit()
    requested_at = st.approval_requested_at or scope.now()
    left = None if policy.timeout_s is None else requested_at + policy.timeout_s - scope.now()
    decision: ApprovalDecision | None = None
    timed_out = False
    if left is not None and left <= 0:
        timed_out = True
    else:
        request = ApprovalRequest(
            run_id=scope.run_id, step_id=step.id, step_name=step.name, input=preview,
            requested_at=requested_at, timeout_s=policy.timeout_s, on_timeout=policy.on_timeout,
        )
        wait = await scope.backend.await_approval(request, left)
        if wait.elsewhere is not None:
            scope.state.apply(wait.elsewhere)  # recorded already, by another process
        if st.approval in ("approved", "rejected"):  # decided by another process meanwhile
            return (Gate.APPROVED, "") if st.approval == "approved" else (Gate.REJECTED, _rejection(st.approval_comment))
        decision, timed_out = wait.decision, wait.timed_out
    if timed_out:
        decision = ApprovalDecision(
            approved=policy.on_timeout == "approve",
            by="timeout",
            comment=f"no decision within {policy.timeout_s:g}s: {policy.on_timeout}",
        )
    if decision is None:
        return Gate.PAUSED, "awaiting approval"
    scope.emit(
        ApprovalDecided(
            ts=scope.now(), step=step.id, approved=decision.approved, by=decision.by,
            comment=decision.comment, timed_out=timed_out,
        )
    )
    await scope.commit()
    if decision.approved:
        return Gate.APPROVED, ""
    if timed_out and policy.on_timeout == "skip":
        return Gate.SKIPPED, f"no approval within {policy.timeout_s:g}s: skipped, as its approval says"
    return Gate.REJECTED, _rejection(decision.comment)


def _rejection(comment: str | None) -> str:
    return f"approval rejected: {comment}" if comment else "approval rejected"


def next_gate_deadline(state: RunState) -> float | None:
    """When the first open gate with a timeout times out (None: no open gate has one).

    A backend that waits for decisions itself (the Temporal workflow) sleeps until
    then at most, and executes the run again: the gate then decides by its policy.
    """
    deadlines = [
        s.approval_requested_at + gate.timeout_s
        for sid, s in state.steps.items()
        if s.approval == "requested"
        and s.approval_requested_at is not None
        and (gate := state.plan_steps[sid].policy.approval) is not None
        and gate.timeout_s is not None
    ]
    return min(deadlines) if deadlines else None


def check_decision(state: RunState, step_id: str, now: float) -> None:
    """Refuse a decision on `step_id` at `now` unless it waits at its gate and the gate has not timed out.

    NotFoundError for an unknown step; UserError for a finished run, a step not
    waiting, or a gate past its timeout (its policy decides it, `on_timeout`).
    """
    run_id = state.run_id
    if step_id not in state.steps:
        raise NotFoundError(f"run {run_id} has no step {step_id!r}", where=f"{run_id}/{step_id}")
    if state.status.finished:
        raise UserError(f"run {run_id} already {state.status.value}", where=run_id)
    if state.steps[step_id].approval != "requested":
        pending = ", ".join(state.pending_approvals()) or "none"
        raise UserError(f"step {step_id} is not awaiting approval (awaiting: {pending})", where=f"{run_id}/{step_id}")
    gate = state.plan_steps[step_id].policy.approval
    requested_at = state.steps[step_id].approval_requested_at
    if gate is None or gate.timeout_s is None or requested_at is None or now < requested_at + gate.timeout_s:
        return
    raise UserError(
        f"step {step_id}'s approval timed out {now - requested_at - gate.timeout_s:.0f}s ago "
        f"(timeout {gate.timeout_s:g}s): its policy decides ({gate.on_timeout}) when the run resumes",
        where=f"{run_id}/{step_id}", hint=Hint(action=HintAction.RESUME, run_id=run_id),
    )
