"""The Skill: one loaded SKILL.md folder, as the planner and the CLI see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.kinds import INSTRUCTIONS, BoundSkill, ParamValue

# Where a skill was found, in catalog search order (DESIGN.md, Planning).
Origin = Literal["bundled", "spec", "dir", "env"]

# Which host's reading of the frontmatter `skills validate` applies.
Profile = Literal["strict", "claude-code", "cursor"]
PROFILES: tuple[Profile, ...] = ("strict", "claude-code", "cursor")

SKILL_FILE = "SKILL.md"


class Skill(BaseModel):
    """A skill folder, parsed and checked.

    `kind` is INSTRUCTIONS when the frontmatter has no `skillweave.*` metadata:
    such a skill is for hosts only and cannot be bound to a workflow step that
    executes. `warnings` holds conformance findings that did not stop loading
    (an over-long description, a host extension key, a missing entry script).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    path: Path  # the skill folder, absolute
    skill_md: Path
    origin: Origin
    kind: str = INSTRUCTIONS  # a registered kind name
    body: str = ""
    body_line: int = 1  # the line of SKILL.md where `body` starts
    entry: str | None = None  # script: relative to `path`
    server: str | None = None  # mcp
    tool: str | None = None  # mcp
    input_schema: dict[str, Any] | None = None  # JSON Schema
    output_schema: dict[str, Any] | None = None  # JSON Schema
    network: bool = False
    timeout_s: float | None = None
    params: dict[str, ParamValue] = {}  # what the kind read from its own keys
    license: str | None = None
    compatibility: str | None = None
    allowed_tools: tuple[str, ...] = ()
    metadata: dict[str, str] = {}
    sha256: str = ""
    warnings: tuple[Diagnostic, ...] = ()

    @property
    def entry_path(self) -> Path | None:
        """The entry script's absolute path (it may not exist yet: the LLM writes it)."""
        return self.path / self.entry if self.entry else None

    def bound(self) -> BoundSkill:
        """What a plan records of this skill."""
        return BoundSkill(
            name=self.name,
            kind=self.kind,
            path=str(self.path),
            origin=self.origin,
            sha256=self.sha256,
            description=self.description,
            entry=self.entry,
            server=self.server,
            tool=self.tool,
            network=self.network,
            timeout_s=self.timeout_s,
            params=self.params,
            input_schema=self.input_schema,
            output_schema=self.output_schema,
        )
