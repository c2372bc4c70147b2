"""Approval gates: a step that needs a person's yes waits for it, durably.

When a gated step becomes ready the engine records `approval_requested`, then
asks the approver if the caller gave one (the MCP server elicits the answer in
the host). With no approver, or no answer, the gate stays open and the run
pauses once nothing else can proceed; `approve_step` records the decision from
any process and a resume continues. A gate's timeout counts from the recorded
request: reached while waiting on the approver, or found reached at resume, it
decides as the plan says (`on_timeout`).
"""

from __future__ import annotations

import asyncio
from enum import Enum
from typing import Any

from orchestrator.engine.model import ApprovalDecision, ApprovalRequest
from orchestrator.engine.scope import RunScope
from orchestrator.journal.events import ApprovalDecided, ApprovalRequested
from orchestrator.plan.model import PlanStep

POLL_S = 1.0  # how often a waiting gate looks for a decision recorded by another process


class Gate(Enum):
    APPROVED = "approved"
    REJECTED = "rejected"
    PAUSED = "paused"


async def pass_gate(scope: RunScope, step: PlanStep, preview: Any) -> tuple[Gate, str]:
    """Whether `step` may run: (APPROVED | REJECTED | PAUSED, a message)."""
    policy = step.policy.approval
    st = scope.state.steps[step.id]
    if policy is None or not policy.required or st.approval == "approved":
        return Gate.APPROVED, ""
    if st.approval == "rejected":
        return Gate.REJECTED, _rejection(st.approval_comment)
    if st.approval is None:
        scope.recorder.emit(
            ApprovalRequested(ts=scope.now(), step=step.id, timeout_s=policy.timeout_s, on_timeout=policy.on_timeout)
        )
        await scope.recorder.commit()
    requested_at = st.approval_requested_at or scope.now()
    left = None if policy.timeout_s is None else requested_at + policy.timeout_s - scope.now()
    decision: ApprovalDecision | None = None
    timed_out = False
    if left is not None and left <= 0:
        timed_out = True
    elif scope.approver is not None:
        request = ApprovalRequest(
            run_id=scope.run_id, step_id=step.id, step_name=step.name, input=preview,
            requested_at=requested_at, timeout_s=policy.timeout_s, on_timeout=policy.on_timeout,
        )
        decision, timed_out = await _ask(scope, request, left)
        if st.approval in ("approved", "rejected"):  # decided by another process meanwhile
            return (Gate.APPROVED, "") if st.approval == "approved" else (Gate.REJECTED, _rejection(st.approval_comment))
    if timed_out:
        decision = ApprovalDecision(
            approved=policy.on_timeout == "approve",
            by="timeout",
            comment=f"no decision within {policy.timeout_s:g}s: {policy.on_timeout}",
        )
    if decision is None:
        return Gate.PAUSED, "awaiting approval"
    scope.recorder.emit(
        ApprovalDecided(
            ts=scope.now(), step=step.id, approved=decision.approved, by=decision.by,
            comment=decision.comment, timed_out=timed_out,
        )
    )
    await scope.recorder.commit()
    if decision.approved:
        return Gate.APPROVED, ""
    return Gate.REJECTED, _rejection(decision.comment)


def _rejection(comment: str | None) -> str:
    return f"approval rejected: {comment}" if comment else "approval rejected"


async def _ask(scope: RunScope, request: ApprovalRequest, left: float | None) -> tuple[ApprovalDecision | None, bool]:
    """Ask the approver, racing the gate's timeout and a decision recorded by another
    process (`skillweave approve` while a server waits); (decision, timed out)."""
    assert scope.approver is not None
    ask = asyncio.ensure_future(_guarded(scope, request))
    waits: list[asyncio.Future[Any]] = [ask]
    timer = asyncio.ensure_future(scope.clock.sleep(left)) if left is not None else None
    if timer is not None:
        waits.append(timer)
    poll = asyncio.ensure_future(_recorded_elsewhere(scope, request.step_id)) if scope.journal is not None else None
    if poll is not None:
        waits.append(poll)
    try:
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            if not waiting.done():
                waiting.cancel()
    if ask in done:
        return ask.result(), False
    if poll is not None and poll in done:
        return None, False  # already recorded and applied: the caller sees it in the state
    return None, True


async def _recorded_elsewhere(scope: RunScope, step_id: str) -> None:
    """Return once another process has recorded a decision on `step_id` (polls the journal)."""
    assert scope.journal is not None
    while True:
        await asyncio.sleep(POLL_S)  # real time: this watches other processes, not the plan's clock
        for event in scope.journal.events(scope.run_id, after=scope.state.last_seq):
            if isinstance(event, ApprovalDecided) and event.step == step_id:
                scope.state.apply(event)
                return


async def _guarded(scope: RunScope, request: ApprovalRequest) -> ApprovalDecision | None:
    assert scope.approver is not None
    try:
        return await scope.approver(request)
    except asyncio.CancelledError:
        raise
    except Exception:  # the approver seam (a host's elicitation): no answer, the run pauses
        return None
