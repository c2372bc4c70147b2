"""The `llm` kind: the skill's instructions answered by the model (`orchestrator.llm.runner`).

    skillweave.kind: llm
    skillweave.output-schema: schemas/output.json   # the answer must fit it
"""

from __future__ import annotations

from orchestrator.kinds.model import KindTraits, SkillKind


class LlmKind(SkillKind):
    name = "llm"
    description = "the SKILL.md instructions, answered by the model in the output schema"
    traits = KindTraits(counts_tokens=True)
    runner = "orchestrator.llm.runner:create_runner"


KIND = LlmKind()
