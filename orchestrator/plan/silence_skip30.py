"""A step its approval's silence skips is a step that may not run (thirtieth round).

    c) ... CHIEF MUST OK IT FIRST -- wait up to 2 hrs for answer. No answer = do not order, skip it.
         -> approval: required, timeout 7200s -> skip   (`spec.silence_words30`, `engine.approval`)
    d) engine-log-line -> ..., order_t from (c), put 0 if (c) did not happen.
         -> order_t read from step-3 may be missing: optional, or a plan error that names it

An approval that times out into `skip` ends its step as a false condition does: the steps after it
run without its output. The flow checks (`plan.flow_checks`) take such a step as one that may be
skipped, so a later step that requires one of its outputs and runs anyway is reported at plan time,
never found starved two hours into a run. Read from the plan's policy only (no text).
"""

from __future__ import annotations

from orchestrator.plan.model import PlanStep


def silence_skip_why(step: PlanStep) -> str | None:
    """Why `step` may be skipped by its approval's silence ("is skipped when nobody approves it within
    7200s"), or None when its approval (if any) never skips it."""
    gate = step.policy.approval
    if gate is None or not gate.required or gate.on_timeout != "skip" or gate.timeout_s is None:
        return None
    return f"is skipped when nobody approves it within {gate.timeout_s:g}s (its approval says so)"
