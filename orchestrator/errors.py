"""The whole skillweave exception tree, in one place.

    SkillweaveError                  every error we raise on purpose: code, where, hint; exit 1
    ├── UserError                    the user's input is wrong: exit 2, never retried
    │   ├── SpecError                a workflow spec cannot be read (file:line)
    │   ├── SkillError               a SKILL.md or its files are broken (file:line)
    │   ├── PlanError                static checks failed (cycles, unknown skills, ...)
    │   ├── ConfigError              settings, mcp.json, workflow input values
    │   ├── NotFoundError            a run, step or file named by the caller
    │   └── ResumeError              a run cannot be resumed (finished, changed, held)
    ├── RunError                     a run could not go on: exit 1
    │   ├── LimitExceededError       a convergence limit was reached (names the limit)
    │   ├── RunAbortedError          a step's failure ends the run (engine.scope; internal)
    │   ├── UnavailableError         a kind's runner or the regenerator cannot be had (engine.runtime)
    │   └── RenderError              a step's input or condition cannot be rendered (engine.render)
    ├── JournalError                 the journal cannot be used (busy, full, damaged)
    ├── IsolationError               the sandbox cannot give the isolation demanded
    ├── LLMError                     the model could not be reached or answered badly
    │   ├── LLMAuthError             missing or rejected API key: exit 2
    │   └── ReplayMissError          the replay recording has no answer for a request
    └── McpError                     an MCP server misbehaved (start, protocol, tool)

Every error carries `code` (a stable, machine-readable name: `config_error`, ...),
`where` (`file:line` for inputs, `step/attempt` for runs, `inputs.NAME` for a workflow
input), an optional `hint` (`orchestrator.hints.Hint`: what to do next, as data) and an
optional `setting` (the `Settings` field a bad value came from, e.g. `skills_dirs`,
which the CLI names as its flag and the server as its start-up choice). `render()` is the neutral
`where: message`; only the CLI and the MCP server catch broadly, and each words the
hint its own way (a command line, a tool call) and maps the class to an exit code
(`exit_code`, as drawn above; tests/unit/test_errors.py holds the two together).
Whether a failure may be retried is data (`ErrorClass` on step failures), never an
isinstance guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from orchestrator.hints import Hint


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Diagnostic(BaseModel):
    """One finding about an input file, printed as `file:line: severity: message`."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int | None = None
    message: str
    severity: Severity = Severity.ERROR
    code: str = "error"
    hint: Hint | None = None

    @model_serializer(mode="wrap")
    def _without_no_hint(self, handler: SerializerFunctionWrapHandler) -> Any:
        """No `hint` key when there is none: plans keep the JSON (and so the sha256) of
        their warnings they had before the key existed."""
        data = handler(self)
        if isinstance(data, dict) and self.hint is None:
            data.pop("hint", None)
        return data

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def render(self) -> str:
        if self.severity is Severity.ERROR:
            return f"{self.where}: {self.message}"
        return f"{self.where}: {self.severity.value}: {self.message}"


class SkillweaveError(Exception):
    """Base of every error skillweave raises on purpose."""

    exit_code = 1
    code = "error"

    def __init__(
        self, message: str, *, where: str | None = None, hint: Hint | None = None, setting: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint
        self.setting = setting  # the Settings field the bad value came from ("skills_dirs", ...)

    def render(self) -> str:
        """`where: message`, without the hint (each front end words that its own way)."""
        return f"{self.where}: {self.message}" if self.where else self.message

    def explain(self, *, where: bool = True) -> str:
        """The error with its hint in words that name no front end: what the journal and the
        reports keep (a step's failure, why regeneration was unavailable)."""
        from orchestrator.hints import attach, plain

        return attach(self.render() if where else self.message, self.hint, plain)


class UserError(SkillweaveError):
    exit_code = 2
    code = "user_error"


class _DiagnosticsError(UserError):
    """A user error that carries one or more file:line diagnostics."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | Diagnostic) -> None:
        diags = [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        if not diags:
            raise ValueError("an error needs at least one diagnostic")
        first = diags[0]
        super().__init__(first.message, where=first.where, hint=first.hint)
        self.diagnostics: Sequence[Diagnostic] = diags

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class SpecError(_DiagnosticsError):
    code = "spec_error"


class SkillError(_DiagnosticsError):
    code = "skill_error"


class PlanError(_DiagnosticsError):
    code = "plan_error"


class ConfigError(UserError):
    code = "config_error"


class NotFoundError(UserError):
    code = "not_found"


class ResumeError(UserError):
    code = "cannot_resume"


class RunError(SkillweaveError):
    exit_code = 1
    code = "run_error"


class LimitExceededError(RunError):
    code = "limit_exceeded"

    def __init__(self, limit: str, message: str, *, where: str | None = None) -> None:
        super().__init__(message, where=where)
        self.limit = limit


class JournalError(SkillweaveError):
    """The journal database cannot be used. `reason`: busy (another process holds its
    lock), full (its disk is full) or damaged (anything else SQLite says)."""

    code = "journal_error"

    def __init__(self, message: str, *, reason: str, where: str | None = None, hint: Hint | None = None) -> None:
        super().__init__(message, where=where, hint=hint)
        self.reason = reason


class IsolationError(SkillweaveError):
    exit_code = 1
    code = "isolation_error"


class LLMError(SkillweaveError):
    """`transient` is true for failures that may pass on a later try (429, 529, 5xx, connection)."""

    exit_code = 1
    code = "llm_error"

    def __init__(
        self, message: str, *, where: str | None = None, transient: bool = False, hint: Hint | None = None
    ) -> None:
        super().__init__(message, where=where, hint=hint)
        self.transient = transient


class LLMAuthError(LLMError):
    exit_code = 2
    code = "llm_auth"


class ReplayMissError(LLMError):
    code = "replay_miss"


class McpError(SkillweaveError):
    exit_code = 1
    code = "mcp_error"
