"""Regeneration: a script step's code error handed to the regenerator for a new version.

Each answer is recorded (`regeneration` event) with the code's hash, where the
backend keeps it and its diff against the version it replaces (the local
backend: files of the run directory, see `orchestrator.engine.versions`); a
refused answer is recorded too (with why: `rejected`) and spends the budget all
the same. The step then runs the newest version (its attempts' `code_path`); a
resumed run reuses the recorded version and never asks again.

Regeneration is *unavailable* when no regenerator can be created (no LLM module,
no API key) or when asking raises LLMAuthError (a rejected key) or
ReplayMissError (the --llm-replay recording has no answer): the reason is
recorded once per step (`regeneration_unavailable`), nothing is counted against
the budget, and the fallback applies. Every call returns a `RegenerationOutcome`
saying which of the three happened and why, so the fallback can say it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from orchestrator.engine.backend import RegenerationCall
from orchestrator.engine.scope import RunScope
from orchestrator.journal.events import Regeneration, RegenerationUnavailable
from orchestrator.plan.model import PlanStep
from orchestrator.runner import StepFailure


class RegenerationEnd(Enum):
    STORED = "stored"  # a new version is in use
    REFUSED = "refused"  # the answer was refused; the budget is spent all the same
    UNAVAILABLE = "unavailable"  # nothing could be asked; nothing was spent


@dataclass(frozen=True, slots=True)
class RegenerationOutcome:
    end: RegenerationEnd
    reason: str = ""  # why refused or unavailable

    @property
    def note(self) -> str:
        """What a fallback message says about it: `regeneration refused: ...`."""
        if self.reason.startswith("regeneration"):
            return self.reason
        return f"regeneration {self.end.value}: {self.reason}" if self.reason else f"regeneration {self.end.value}"


def check_regeneration_limits(scope: RunScope, step: PlanStep, item: int | None) -> None:
    limits = scope.plan.limits
    st = scope.state.steps[step.id]
    if st.regenerations >= limits.max_regenerations_per_step:
        raise scope.limit_reached(
            "max_regenerations_per_step",
            f"step {step.id} used its {limits.max_regenerations_per_step} regenerations (limit max_regenerations_per_step)",
            step=step.id,
            item=item,
        )
    if scope.state.total_regenerations >= limits.max_regenerations_total:
        raise scope.limit_reached(
            "max_regenerations_total",
            f"the run used its {limits.max_regenerations_total} regenerations (limit max_regenerations_total)",
            step=step.id,
            item=item,
        )


def record_unavailable(scope: RunScope, step_id: str, item: int | None, reason: str) -> None:
    st = scope.state.steps[step_id]
    if st.regeneration_unavailable != reason or st.feedback_pending is not None:
        scope.emit(RegenerationUnavailable(ts=scope.now(), step=step_id, item=item, reason=reason))


async def regenerate(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, failure: StepFailure | None,
    *, feedback: str | None = None,
) -> RegenerationOutcome:
    """Ask for new code for `step` (see the module docstring for the three outcomes)."""
    problem = await scope.backend.regeneration_problem()
    if problem is not None:
        return await _unavailable(scope, step.id, item, problem)
    check_regeneration_limits(scope, step, item)
    st = scope.state.steps[step.id]
    limits = scope.plan.limits
    call = RegenerationCall(
        step_id=step.id, item=item, attempt=st.item(item).attempts, skill=scope.skill(step.skill),
        version=st.code_versions + 2, code_path=st.code_path, failing_input=payload, failure=failure,
        feedback=feedback, input_schema=step.input_schema or None, output_schema=step.output_schema or None,
        history=tuple(st.history), tokens_left=max(0, limits.max_llm_tokens - scope.state.tokens.total),
    )
    await scope.commit()  # a model call is an outside effect: what led to it is durable first
    reply = await scope.backend.regenerate(call)
    if reply.unavailable is not None:
        return await _unavailable(scope, step.id, item, reply.unavailable)
    attempt = st.item(item).attempts or None
    if reply.code_path is None:
        rejected = reply.rejected or "the answer held no code"
        scope.emit(
            Regeneration(
                ts=scope.now(), step=step.id, item=item, attempt=attempt,
                rejected=rejected, feedback=feedback is not None, usage=reply.usage,
            )
        )
        await scope.commit()
        scope.check_tokens(step.id)
        return RegenerationOutcome(RegenerationEnd.REFUSED, rejected)
    scope.emit(  # the backend kept the version (and its diff) before this names it
        Regeneration(
            ts=scope.now(), step=step.id, item=item, attempt=attempt, code_sha256=reply.code_sha256,
            code_path=reply.code_path, diff_path=reply.diff_path,
            entry_sha256=reply.entry_sha256, feedback=feedback is not None, usage=reply.usage,
        )
    )
    await scope.commit()
    scope.check_tokens(step.id)
    return RegenerationOutcome(RegenerationEnd.STORED)


async def _unavailable(scope: RunScope, step_id: str, item: int | None, reason: str) -> RegenerationOutcome:
    record_unavailable(scope, step_id, item, reason)
    await scope.commit()
    return RegenerationOutcome(RegenerationEnd.UNAVAILABLE, reason)
