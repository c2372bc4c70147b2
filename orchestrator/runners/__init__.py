"""Step runners built into the package, one module per skill kind.

Each module offers `create_runner(ctx: RunnerContext) -> StepRunner`, named by
its kind (`orchestrator.kinds`, `SkillKind.runner`); the engine imports it the
first time a plan needs that kind. `script` lives here; `mcp` and `llm` live beside their
clients (`orchestrator.mcp_client.runner`, `orchestrator.llm.runner`).
"""
