"""The seams of the engine: how a step is executed and how failed code is regenerated.

Each skill kind (`script`, `mcp`, `llm`) registers a `StepRunner`; the engine
never branches on kind. A `Regenerator` (the LLM repair loop) is asked for a new
script version when a script step fails with a code error and budget remains.
Both exchange only the models below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.plan.model import BoundSkill, JsonSchema
from orchestrator.policy import ErrorClass


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)


class TokenUsage(_Frozen):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_read_tokens + self.cache_write_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
        )


class StepFailure(_Frozen):
    """Why an attempt failed, classified; `detail` feeds reports and repair prompts."""

    error_class: ErrorClass
    message: str  # one line for people
    detail: str = ""  # stderr tail, traceback, server text (truncated)
    kind: str = ""  # finer cause: "exception", "exit", "timeout", "resource", "output_contract", "setup", "mcp_tool_error", ...
    pointer: str | None = None  # JSON pointer of a contract violation
    ambiguous: bool = False  # the effect may have happened (sent, then timed out)


class StepRequest(_Frozen):
    run_id: str
    step_id: str
    attempt: int  # 1-based, counted across retries and regenerations
    idempotency_key: str
    skill: BoundSkill
    input: Any
    timeout_s: float | None = None
    item_index: int | None = None  # for `for each` branches
    script_override: Path | None = None  # a regenerated script to run instead of the skill's entry
    run_dir: Path | None = None  # where a runner may keep files (logs, stderr, artifacts)
    output_schema: JsonSchema | None = None  # for llm steps, which must answer in it


class Artifact(_Frozen):
    path: str  # relative to the attempt's work directory
    size: int
    sha256: str


class StepOutcome(_Frozen):
    output: Any = None
    failure: StepFailure | None = None
    usage: TokenUsage = TokenUsage()
    artifacts: tuple[Artifact, ...] = ()
    stderr_tail: str = ""
    duration_s: float = 0.0
    meta: dict[str, str] = Field(default_factory=dict)  # e.g. isolation=bwrap, server=docs

    @property
    def ok(self) -> bool:
        return self.failure is None


@runtime_checkable
class StepRunner(Protocol):
    """Executes one attempt of one step. Must not raise for step failures: return them."""

    kind: str

    async def run(self, request: StepRequest) -> StepOutcome: ...

    async def aclose(self) -> None: ...


class AttemptSummary(_Frozen):
    attempt: int
    code_sha256: str | None = None
    failure: StepFailure


class RegenerationRequest(_Frozen):
    run_id: str
    step_id: str
    attempt: int
    skill: BoundSkill
    instructions: str  # the SKILL.md body
    current_code: str | None  # None: write a first version
    current_path: str | None = None  # the entry's relative path, for diffs
    failing_input: Any = None
    failure: StepFailure | None = None
    feedback: str | None = None  # a validator step's findings sent back
    input_schema: JsonSchema | None = None
    output_schema: JsonSchema | None = None
    history: tuple[AttemptSummary, ...] = ()
    tokens_left: int | None = None


class RegenerationResult(_Frozen):
    code: str | None  # None when the model's answer was refused (did not parse or compile)
    code_sha256: str | None = None
    diff: str = ""
    rejected: str | None = None  # why the answer was refused
    usage: TokenUsage = TokenUsage()


class Regenerator(Protocol):
    async def regenerate(self, request: RegenerationRequest) -> RegenerationResult: ...

