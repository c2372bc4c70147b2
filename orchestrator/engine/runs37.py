"""A step the plan could not give an input its skill reads fails; its author's fallback does not cover it.

    Assign storage   (skill reads `count`; nothing in the plan gives it, warned at plan time)
    "If the location system is down, carry on with ref TEMP-DOCK and status shelved."

The fallback an author writes for a step ("carry on with ...", "go ahead with our standard wording",
"then fall back to the manual sheet") stands for the step's skill failing while the run goes on: an
outage, a crash, a bad answer. A step whose skill reads an input the plan gives nothing (`PlanStep.not_given`,
warned at plan time) does not fail that way: the reading did, and the step is never run. Going on with the
author's value then ends the run `degraded` with an output the author never meant (the stored value, or what
a later step made of it), and the run report calls it a fallback used. So that failure fails the step, the
message saying which input had no value and that the fallback written for the step was not used for it.
A fallback that only goes on without an output (`on error: continue`) is left as written: it invents no value.
"""

from __future__ import annotations

from orchestrator.plan.model import PlanStep, ResolvedPolicy
from orchestrator.policy import Fallback, FallbackAction
from orchestrator.runner import StepFailure

_GOES_ON_WITH = {FallbackAction.DEFAULT: "a value to go on with", FallbackAction.SKILL: "another skill"}


def not_given_recovery(step: PlanStep, failure: StepFailure) -> tuple[ResolvedPolicy, StepFailure]:
    """The recovery of a step that failed for want of an input the plan does not give (module docstring):
    its own, unless its fallback goes on with a value or another skill; then failing, the message saying so."""
    resolved = step.policy_for(failure.error_class)
    said = _GOES_ON_WITH.get(resolved.fallback.action)
    if said is None:
        return resolved, failure
    note = (f"; the step's fallback ({said}) is not used: it stands for the skill failing, and the skill was "
            f"never run, for want of a value the plan could not read from the spec")
    return (resolved.model_copy(update={"fallback": Fallback(action=FallbackAction.FAIL)}),
            failure.model_copy(update={"message": f"{failure.message}{note}"}))
