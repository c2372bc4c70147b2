"""The seams of the engine: how a step is executed and how failed code is regenerated.

Each skill kind (`orchestrator.kinds`: script, mcp, llm, http, a plug-in's) names
the factory of its `StepRunner`; the engine never branches on kind, it reads the
kind's `KindTraits`. A `Regenerator` (the LLM repair loop) is asked for a new
script version when a script step fails with a code error and budget remains.
Both exchange only the models below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.config import Settings
from orchestrator.contracts import JsonSchema
from orchestrator.kinds import BoundSkill
from orchestrator.policy import ErrorClass

if TYPE_CHECKING:  # the runner seam sits below the plan: it only carries one
    from orchestrator.plan.model import Plan

# `create_regenerator(ctx: RunnerContext) -> Regenerator`, imported on the first regeneration.
REGENERATOR_FACTORY = "orchestrator.llm.repair:create_regenerator"
# `create_llm(ctx: RunnerContext) -> object`: the run's one LLM client, shared by the
# llm runner and the regenerator (token accounting, record/replay).
LLM_FACTORY = "orchestrator.llm:create_llm"


def load_factory(spec: str) -> Callable[..., Any]:
    """Import `module:attr`. Raises ModuleNotFoundError when the kind is not built in."""
    module_name, _, attr = spec.partition(":")
    factory: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
    return factory


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

    @property
    def timed_out(self) -> bool:
        """The attempt ran out of its own time (not the step's)."""
        return self.kind == "timeout"

    @property
    def missing_code(self) -> bool:
        """The skill has no script yet: the regenerator writes its first version."""
        return self.kind == "missing_code"


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
    compensation: bool = False  # the undo of step_id's completed work, not the step itself
    tokens_left: int | None = None  # of the run's LLM token budget (llm steps; None: not counted)
    # input fields that hold a host file or folder (a `format: path` workflow input): a script sees
    # each read-only under /inputs/<field>, its value the path in there; other kinds get the host path
    paths: tuple[str, ...] = ()


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


@runtime_checkable
class ContainedRunner(Protocol):
    """A runner that can vouch that an attempt touches nothing outside its run (asked only
    for the kinds whose `KindTraits.containable` is set; see `orchestrator.engine.recovery`)."""

    def contained(self, skill: BoundSkill) -> bool: ...


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



class RunnerContext:
    """What a runner or regenerator factory gets: one per run.

    `llm()` creates the run's LLM client on first use (so a run that never needs
    the model never imports `anthropic`) and hands the same one to every caller;
    `aclose()` closes it at the end of the run. Tests may pass `llm_client` to
    inject a fake (which stays the caller's to close).
    """

    def __init__(
        self,
        *,
        settings: Settings,
        plan: Plan,
        run_id: str,
        run_dir: Path,
        llm_client: object | None = None,
    ) -> None:
        self.settings = settings
        self.plan = plan
        self.run_id = run_id
        self.run_dir = run_dir
        self._llm = llm_client
        self._llm_made = False

    def llm(self) -> object:
        if self._llm is None:
            self._llm = load_factory(LLM_FACTORY)(self)
            self._llm_made = True
        return self._llm

    async def aclose(self) -> None:
        """Close the LLM client `llm()` created, if it did (idempotent)."""
        if not self._llm_made:
            return
        client, self._llm, self._llm_made = self._llm, None, False
        close = getattr(client, "aclose", None)
        if close is not None:
            await close()
