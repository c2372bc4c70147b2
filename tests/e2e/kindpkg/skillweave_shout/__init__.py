"""A third-party skill kind, as a plug-in package would ship one: `skillweave.kind: shout`.

    skillweave.kind: shout
    skillweave.suffix: "!"      # appended to the shouted text (default: none)

The step's output is {"text": <its input's text, upper-cased, with the suffix>}. The
kind is registered by this package's entry point (see its .dist-info beside it):

    [skillweave.kinds]
    shout = skillweave_shout:KIND
"""

from __future__ import annotations

from orchestrator.kinds import KindFields, KindMetadata, KindTraits, SkillKind
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepFailure, StepOutcome, StepRequest


class ShoutKind(SkillKind):
    name = "shout"
    description = "upper-cases its input's text (a test plug-in)"
    keys = ("suffix",)
    traits = KindTraits()
    runner = "skillweave_shout:create_runner"

    def read(self, meta: KindMetadata) -> KindFields:
        suffix = meta.text("suffix") or ""
        if len(suffix) > 3:
            meta.problem("suffix", f"'skillweave.suffix' is at most 3 characters, not '{suffix}'", "suffix")
        return KindFields(params={"suffix": suffix})


class ShoutRunner:
    kind = "shout"

    async def run(self, request: StepRequest) -> StepOutcome:
        text = request.input.get("text") if isinstance(request.input, dict) else None
        if not isinstance(text, str):
            return StepOutcome(failure=StepFailure(error_class=ErrorClass.INVALID_INPUT, message="no text to shout"))
        return StepOutcome(output={"text": text.upper() + str(request.skill.param("suffix") or "")})

    async def aclose(self) -> None:
        pass


def create_runner(ctx: RunnerContext) -> ShoutRunner:
    return ShoutRunner()


KIND = ShoutKind()
