"""What a plan records of a skill (`BoundSkill`), and how a skill kind describes itself.

A skill's kind is the name of a registered `SkillKind` object (`orchestrator.kinds`):
"script", "mcp", "llm", "http", or a plug-in's. `KindTraits` are what the engine
and the planner read about a kind, so that neither ever branches on its name.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from orchestrator.contracts import JsonSchema

# The kind of a skill without `skillweave.*` keys: for hosts only, never run.
INSTRUCTIONS = "instructions"


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
