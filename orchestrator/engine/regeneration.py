"""Regeneration: a script step's code error handed to the regenerator for a new version.

Each answer is recorded (`regeneration` event) with the code's hash, the file
it was written to in the run directory and its diff against the version it
replaces; a refused answer is recorded too (with why: `rejected`) and spends the
budget all the same. The step then runs the newest version
(`StepRequest.script_override`); a resumed run reuses the recorded version and
never asks again.

Regeneration is *unavailable* when no regenerator can be created (no LLM module,
no API key) or when asking raises LLMAuthError (a rejected key) or
ReplayMissError (the --llm-replay recording has no answer): the reason is
recorded once per step (`regeneration_unavailable`), nothing is counted against
the budget, and the fallback applies. Every call returns a `RegenerationOutcome`
saying which of the three happened and why, so the fallback can say it too.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from orchestrator.engine.runtime import UnavailableError
from orchestrator.engine.scope import RunScope
from orchestrator.errors import LLMAuthError, ReplayMissError, SkillweaveError
from orchestrator.journal.events import Regeneration, RegenerationUnavailable
from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import PlanStep
from orchestrator.runner import RegenerationRequest, RegenerationResult, StepFailure


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
        scope.recorder.emit(RegenerationUnavailable(ts=scope.now(), step=step_id, item=item, reason=reason))


def _instructions(skill: BoundSkill) -> str:
    """The SKILL.md body, without its frontmatter."""
    try:
        text = (Path(skill.path) / "SKILL.md").read_text(encoding="utf-8")
    except OSError:
        return skill.description
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            return text[end + 4 :].lstrip("\n")
    return text


def _current_code(scope: RunScope, step: PlanStep, skill: BoundSkill) -> str | None:
    st = scope.state.steps[step.id]
    path = scope.run_dir / st.code_path if st.code_path else (Path(skill.path) / skill.entry if skill.entry else None)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


async def regenerate(
    scope: RunScope, step: PlanStep, item: int | None, payload: Any, failure: StepFailure | None,
    *, feedback: str | None = None,
) -> RegenerationOutcome:
    """Ask for new code for `step` (see the module docstring for the three outcomes)."""
    try:
        regenerator = scope.regenerators.get()
    except UnavailableError as exc:
        return await _unavailable(scope, step.id, item, str(exc))
    check_regeneration_limits(scope, step, item)
    st = scope.state.steps[step.id]
    skill = scope.skill(step.skill)
    current = _current_code(scope, step, skill)
    limits = scope.plan.limits
    request = RegenerationRequest(
        run_id=scope.run_id, step_id=step.id, attempt=st.item(item).attempts, skill=skill,
        instructions=_instructions(skill), current_code=current, current_path=skill.entry,
        failing_input=payload, failure=failure, feedback=feedback,
        input_schema=step.input_schema or None, output_schema=step.output_schema or None,
        history=tuple(st.history), tokens_left=max(0, limits.max_llm_tokens - scope.state.tokens.total),
    )
    await scope.recorder.commit()  # a model call is an outside effect: what led to it is durable first
    try:
        result = await regenerator.regenerate(request)
    except (LLMAuthError, ReplayMissError) as exc:
        return await _unavailable(scope, step.id, item, f"regeneration is unavailable: {exc.explain(where=False)}")
    except SkillweaveError as exc:  # the step and attempt are named by the event already
        result = RegenerationResult(code=None, rejected=exc.message)
    except Exception as exc:  # a regenerator's bug: a refused regeneration, not a run left running
        result = RegenerationResult(code=None, rejected=f"the regenerator failed: {type(exc).__name__}: {exc}")
    attempt = st.item(item).attempts or None
    if not result.code:
        rejected = result.rejected or "the answer held no code"
        scope.recorder.emit(
            Regeneration(
                ts=scope.now(), step=step.id, item=item, attempt=attempt,
                rejected=rejected, feedback=feedback is not None, usage=result.usage,
            )
        )
        await scope.recorder.commit()
        scope.check_tokens(step.id)
        return RegenerationOutcome(RegenerationEnd.REFUSED, rejected)
    sha = result.code_sha256 or hashlib.sha256(result.code.encode()).hexdigest()
    name = Path(skill.entry).name if skill.entry else "main.py"
    folder = f"code/{step.id}/v{st.code_versions + 2}-{sha[:12]}"
    diff = result.diff or "".join(
        difflib.unified_diff(
            (current or "").splitlines(keepends=True), result.code.splitlines(keepends=True),
            fromfile=f"a/{skill.entry or name}", tofile=f"b/{skill.entry or name}",
        )
    )
    entry_file = Path(skill.path) / skill.entry if skill.entry else None
    entry_sha = (
        hashlib.sha256(entry_file.read_bytes()).hexdigest() if entry_file is not None and entry_file.is_file() else None
    )
    scope.write_file(f"{folder}/{name}", result.code.encode())
    scope.write_file(f"{folder}/{name}.diff", diff.encode())
    scope.recorder.emit(
        Regeneration(
            ts=scope.now(), step=step.id, item=item, attempt=attempt, code_sha256=sha,
            code_path=f"{folder}/{name}", diff_path=f"{folder}/{name}.diff",
            entry_sha256=entry_sha, feedback=feedback is not None, usage=result.usage,
        )
    )
    await scope.recorder.commit()
    scope.check_tokens(step.id)
    return RegenerationOutcome(RegenerationEnd.STORED)


async def _unavailable(scope: RunScope, step_id: str, item: int | None, reason: str) -> RegenerationOutcome:
    record_unavailable(scope, step_id, item, reason)
    await scope.recorder.commit()
    return RegenerationOutcome(RegenerationEnd.UNAVAILABLE, reason)
