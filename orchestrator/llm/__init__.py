"""The LLM: one client per run, the prompts, the repair loop and the `llm` skill kind.

    client    LLM: the anthropic SDK with forced tool answers and token accounting
    prompts   PromptTemplates: renders prompts/*.md.j2 (StrictUndefined)
    record    record/replay transports (--llm-record / --llm-replay)
    repair    create_regenerator: the engine's Regenerator (write or repair a script)
    runner    create_runner: the `llm` skill kind
    chooser   choose_skill (the planner's tie-breaker) and route (LLM routing steps)
    promote   promote_script: write a repaired script back into its skill (--promote)

Importing this package imports neither `anthropic` nor the client: the engine
asks for `create_llm` only when a run first needs the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from orchestrator.llm.client import LLM
    from orchestrator.runner import RunnerContext

__all__ = ["create_llm"]


def create_llm(ctx: RunnerContext) -> LLM:
    """The run's one client (`orchestrator.runner.LLM_FACTORY`), honouring --llm-record/--llm-replay.

    With neither set it writes nothing.
    """
    from orchestrator.llm.client import LLM

    return LLM(ctx.settings)
