"""What the MCP tools return: frozen models, published as each tool's outputSchema.

The tools return these as structured content (and the same JSON as text, for
hosts that read only text). Field descriptions become the schema's descriptions,
which is what a host agent reads to understand the result.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import Diagnostic


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class SkillInfo(_Out):
    name: str
    kind: str = Field(description="script | mcp | llm | instructions (instructions-only skills are for hosts)")
    origin: str = Field(description="bundled | spec | dir | env: where the catalog found it")
    description: str
    path: str = Field(description="the skill folder")
    uri: str = Field(description="resource URI of its SKILL.md")


class SkillList(_Out):
    skills: list[SkillInfo]
    problems: list[str] = Field(
        default_factory=list, description="skills that could not be loaded, as `file:line: message`"
    )


class Finding(_Out):
    """One diagnostic about the spec, with where it points."""

    file: str
    line: int | None = None
    severity: Literal["error", "warning"] = "error"
    message: str = Field(description="what is wrong, and what to do about it when there is something")
    rendered: str = Field(description="`file:line: message`, as the CLI prints it")

    @classmethod
    def of(cls, diagnostic: Diagnostic) -> Finding:
        from orchestrator.hints import attach
        from orchestrator.server.wording import render_diagnostic, say

        return cls(
            file=diagnostic.file,
            line=diagnostic.line,
            severity=diagnostic.severity.value,
            message=attach(diagnostic.message, diagnostic.hint, say),
            rendered=render_diagnostic(diagnostic),
        )


class StepInfo(_Out):
    id: str
    name: str
    skill: str
    kind: str
    depends_on: list[str] = Field(default_factory=list)
    approval: bool = Field(default=False, description="the step waits for a person's approval")


class Validation(_Out):
    ok: bool = Field(description="true: the spec compiles and passes the static checks")
    spec: str = Field(description="the spec's path")
    name: str = Field(description="the workflow's name")
    steps: list[StepInfo]
    inputs: list[str] = Field(default_factory=list, description="the workflow inputs run_workflow takes")
    warnings: list[Finding] = Field(default_factory=list)
    plan_sha256: str = ""


class PlanDocument(_Out):
    spec: str
    name: str
    format: Literal["json", "mermaid", "text"]
    steps: list[StepInfo]
    plan_sha256: str
    rendered: str = Field(description="the plan in the requested format")
    written_to: str | None = Field(default=None, description="the file the plan was saved to, if any")
    warnings: list[Finding] = Field(default_factory=list)


class StepView(_Out):
    id: str
    name: str
    skill: str
    status: str = Field(description="pending | ready | awaiting_approval | running | succeeded | defaulted | continued | skipped | failed | escalated")
    attempts: int = 0
    retries: int = 0
    regenerations: int = 0
    message: str = Field(default="", description="the last failure, or why the step was skipped")
    approval: str | None = Field(default=None, description="requested | approved | rejected")


class RunView(_Out):
    """A run as a host agent needs it: status, steps, what awaits approval, what to do next."""

    run_id: str
    workflow: str
    status: str = Field(description="pending | running | paused | succeeded | degraded | failed | escalated")
    finished: bool
    executing: bool = Field(description="this server is executing the run right now")
    awaiting_approval: list[str] = Field(default_factory=list, description="step ids waiting for approve_step")
    error: str | None = Field(default=None, description="why the run did not succeed, as `where: message`")
    degraded: list[str] = Field(default_factory=list, description="a degraded run: each step a fallback stood in "
                                                                   "for, as `step: fallback: why`")
    steps: list[StepView] = Field(default_factory=list)
    outputs: dict[str, Any] = Field(
        default_factory=dict, description="step id -> output; large outputs are cut short (read the report)"
    )
    report_uri: str = Field(description="resource URI of the run's report")
    next: str = Field(description="what to do now")
    spec_warnings: list[Finding] = Field(
        default_factory=list, description="where the spec may say more than the plan does (the plan's warnings): "
                                          "the run did what the plan says; tell the person before relying on it")


class RunBrief(_Out):
    run_id: str
    workflow: str
    status: str
    created_at: float = Field(description="epoch seconds")
    finished_at: float | None = None
    awaiting_approval: list[str] = Field(default_factory=list)
    executing: bool = False


class RunList(_Out):
    runs: list[RunBrief] = Field(description="newest first")
