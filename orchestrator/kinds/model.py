"""What a plan records of a skill (`BoundSkill`), and how a skill kind describes itself.

A skill's kind is the name of a registered `SkillKind` object (`orchestrator.kinds`):
"script", "mcp", "llm", "http", or a plug-in's. `KindTraits` are what the engine
and the planner read about a kind, so that neither ever branches on its name.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from orchestrator.contracts import JsonSchema

if TYPE_CHECKING:
    from orchestrator.runner import RunnerContext, StepRunner

# The kind of a skill without `skillweave.*` keys: for hosts only, never run.
INSTRUCTIONS = "instructions"
# Every skillweave key of a SKILL.md's metadata starts with it.
PREFIX = "skillweave."
# The keys every kind has; a kind declares its own besides (`SkillKind.keys`).
COMMON_KEYS: tuple[str, ...] = ("kind", "input-schema", "output-schema", "timeout")


class BuiltinKind(StrEnum):
    """The names of the kinds shipped with skillweave, for code that speaks of one by name
    (the binder's kind words, tests). A skill's `kind` is a plain string: any registered
    kind's name."""

    SCRIPT = "script"
    MCP = "mcp"
    LLM = "llm"
    HTTP = "http"
    INSTRUCTIONS = "instructions"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# A value a kind reads from its own metadata keys and keeps in the plan (`BoundSkill.params`).
ParamValue = str | int | float | bool | None


class BoundSkill(_Frozen):
    """What the plan needs of a skill, fixed at plan time.

    `entry`, `network`, `server` and `tool` are the bound fields kinds share (a script's
    entry; whether it may reach the network; an MCP server's tool); `params` holds what
    any other kind reads from its own metadata keys (an http skill's `url` and `method`).
    """

    name: str
    kind: str  # a registered kind's name, or "instructions"
    path: str  # the skill folder, absolute
    origin: Literal["bundled", "spec", "dir", "env"]
    sha256: str  # over SKILL.md and the files it names
    description: str = ""
    entry: str | None = None  # script: relative entry point
    server: str | None = None  # mcp
    tool: str | None = None  # mcp
    network: bool = False  # script
    timeout_s: float | None = None
    input_schema: JsonSchema | None = None
    output_schema: JsonSchema | None = None
    params: dict[str, ParamValue] = Field(default_factory=dict)

    def param(self, key: str) -> Any:
        return self.params.get(key)

    @model_serializer(mode="wrap")
    def _without_empty_params(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        """No `params` key when there are none: the plans of the kinds that have no params
        keep the JSON (and so the sha256) they had before the key existed."""
        data = handler(self)
        if isinstance(data, dict) and not self.params:
            data.pop("params", None)
        return data


class KindTraits(_Frozen):
    """What the engine and the planner may rely on about a kind's skills. They read these,
    never the kind's name.

    containable      its runner may vouch that an attempt touches nothing outside the run
                     (`ContainedRunner.contained(skill)`: a script under bwrap without
                     network); the engine then need not make the attempt's start durable first
    enforces_timeout its runner times its calls out itself and classifies the timeout; the
                     engine cuts it off only `timeout_margin_s` after the attempt's timeout
    regenerable      a code error is repaired by regenerating the skill's script (the LLM
                     writes a new version); a validator's findings may be sent back to it
    counts_tokens    its attempts spend the run's LLM token budget (told `tokens_left`)
    output_is_text   its runner parsed the output from text (stdout JSON), so the output
                     is storable as it is; any other output is checked before it is stored
    tool_schemas     the schemas it does not declare are its tool's own, asked of its
                     server at plan time
    prepared_at_start its runner is made as the run starts when a step left to run has
                     the kind, and told those steps (`prepare(steps)`) so that it starts
                     in the background what their first attempt would wait for (an MCP
                     server); without it a runner is made at its first attempt
    """

    containable: bool = False
    enforces_timeout: bool = False
    timeout_margin_s: float = Field(default=75.0, ge=0)
    regenerable: bool = False
    counts_tokens: bool = False
    output_is_text: bool = False
    tool_schemas: bool = False
    prepared_at_start: bool = False


class KindFields(_Frozen):
    """What a kind read from its own metadata keys: the bound fields of its skills."""

    entry: str | None = None
    server: str | None = None
    tool: str | None = None
    network: bool = False
    params: dict[str, ParamValue] = Field(default_factory=dict)


@runtime_checkable
class KindMetadata(Protocol):
    """A skill's `skillweave.*` metadata as a kind reads it (given to `SkillKind.read`).

    Keys are named without the prefix (`"entry"` for `skillweave.entry`). A problem is
    reported at the key's line (the metadata block's when the key is absent) and makes
    the skill unusable unless `advisory`.
    """

    folder: Path  # the skill folder

    def has(self, key: str) -> bool: ...

    def text(self, key: str) -> str | None:
        """The key's value as the string it should have been (None when absent)."""
        ...

    def problem(self, key: str | None, message: str, code: str, *, advisory: bool = False) -> None: ...

    def path(self, key: str) -> Path | None:
        """The key's value as a path inside the skill folder (None, with a problem, when it
        is absolute, climbs out with `..` or leads out through a symlink)."""
        ...

    def escape(self, path: Path) -> Path | None:
        """Where `path` really leads when a symlink takes it out of the skill folder, else None."""
        ...

    def cover(self, path: Path) -> None:
        """Count `path` in the skill's hash (a file the skill runs or reads)."""
        ...


class SkillKind:
    """A kind of skill, registered under its `name` through the `skillweave.kinds`
    entry-point group (the built-in kinds go through the same door; see
    `orchestrator.kinds.registry` and docs/kinds.md).

    name         what `skillweave.kind` says
    description  one line for `skills kinds` and docs
    keys         its own `skillweave.*` keys, besides the ones every kind has (kind,
                 input-schema, output-schema, timeout)
    traits       `KindTraits`
    runner       its runner factory as `module:attr`, imported on the first step of
                 the kind in a run: `create_runner(ctx: RunnerContext) -> StepRunner`

    `read(meta)` turns its keys into bound fields (and reports what is wrong with them).
    """

    name: str = ""
    description: str = ""
    keys: tuple[str, ...] = ()
    traits: KindTraits = KindTraits()
    runner: str = ""

    def read(self, meta: KindMetadata) -> KindFields:
        return KindFields()

    def create_runner(self, ctx: RunnerContext) -> StepRunner:
        """The kind's runner for one run (raises SkillweaveError when it cannot start)."""
        from orchestrator.runner import load_factory

        runner: StepRunner = load_factory(self.runner)(ctx)
        return runner

    def __repr__(self) -> str:
        return f"<skill kind {self.name!r}>"
