"""The whole skillweave exception tree, in one place.

    SkillweaveError                  every error we raise on purpose; has `where`
    ├── UserError                    the user's input is wrong: exit 2, never retried
    │   ├── SpecError                a workflow spec cannot be read (file:line)
    │   ├── SkillError               a SKILL.md or its files are broken (file:line)
    │   ├── PlanError                static checks failed (cycles, unknown skills, ...)
    │   ├── ConfigError              settings, mcp.json, --input values
    │   └── NotFoundError            a run, step or file named on the command line
    ├── RunError                     a run could not finish: exit 1
    │   ├── StepError                a step failed for good (step/attempt, error class)
    │   ├── LimitExceededError       a convergence limit was reached (names the limit)
    │   └── ResumeError              a run cannot be resumed (changed plan, finished)
    ├── IsolationError               the sandbox cannot give the isolation demanded
    ├── LLMError                     the model could not be reached or answered badly
    │   ├── LLMAuthError             missing or rejected API key
    │   └── ReplayMissError          --llm-replay has no answer for a request
    └── McpError                     an MCP server misbehaved (start, protocol, tool)

`where` is `file:line` for inputs and `step/attempt` for runs. Only the CLI and
the MCP server catch broadly; they print `where: message` and map the class to
an exit code (`exit_code`). Whether a failure may be retried is data
(`ErrorClass` on step failures), never an isinstance guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


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

    def __init__(self, message: str, *, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def render(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class UserError(SkillweaveError):
    exit_code = 2


class _DiagnosticsError(UserError):
    """A user error that carries one or more file:line diagnostics."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | Diagnostic) -> None:
        diags = [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        if not diags:
            raise ValueError("an error needs at least one diagnostic")
        first = diags[0]
        super().__init__(first.message, where=first.where)
        self.diagnostics: Sequence[Diagnostic] = diags

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class SpecError(_DiagnosticsError):
    pass


class SkillError(_DiagnosticsError):
    pass


class PlanError(_DiagnosticsError):
    pass


class ConfigError(UserError):
    pass


class NotFoundError(UserError):
    pass


class RunError(SkillweaveError):
    exit_code = 1


class StepError(RunError):
    def __init__(self, message: str, *, step: str, attempt: int | None = None) -> None:
        where = f"{step}/{attempt}" if attempt is not None else step
        super().__init__(message, where=where)
        self.step = step
        self.attempt = attempt


class LimitExceededError(RunError):
    def __init__(self, limit: str, message: str, *, where: str | None = None) -> None:
        super().__init__(message, where=where)
        self.limit = limit


class ResumeError(RunError):
    exit_code = 2


class IsolationError(SkillweaveError):
    exit_code = 1


class LLMError(SkillweaveError):
    """`transient` is true for failures that may pass on a later try (429, 529, 5xx, connection)."""

    exit_code = 1

    def __init__(self, message: str, *, where: str | None = None, transient: bool = False) -> None:
        super().__init__(message, where=where)
        self.transient = transient


class LLMAuthError(LLMError):
    exit_code = 2


class ReplayMissError(LLMError):
    pass


class McpError(SkillweaveError):
    exit_code = 1
