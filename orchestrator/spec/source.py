"""The text being compiled and the findings about it, each with its line.

A `Source` is made once per parse and collects errors (the spec cannot be used)
and warnings (text that was kept but not understood), and the policy sentences
read outside the structured fields (`readings`, `unread`; see `spec.prose`).
Nothing here is global: every parser function receives the `Source` it reports into.
"""

from __future__ import annotations

from typing import Any

from orchestrator.errors import Diagnostic, Severity, SpecError
from orchestrator.hints import Hint
from orchestrator.spec.vocabulary import EMPTY, Vocabulary
from orchestrator.spec.warn_trim import trim

MAX_MESSAGE = 400  # characters; a message quotes spec text, which may be a whole paragraph


def one_line(message: str) -> str:
    """A diagnostic is one line: quoted multi-line text is joined, a huge quote is cut in its middle."""
    if "\n" in message or "\r" in message:
        message = " ".join(part.strip() for part in message.splitlines() if part.strip())
    return trim(message, MAX_MESSAGE)  # the quoted text is cut in its middle, never the verdict (`spec.warn_trim`)


class Source:
    """One spec text with its path and the diagnostics found so far."""

    def __init__(self, text: str, path: str, vocabulary: Vocabulary = EMPTY) -> None:
        self.text = text
        self.path = path
        self.vocabulary = vocabulary  # the catalog's skill and tool names (`spec.vocabulary`); empty: none known
        self.anchored = True  # a markdown spec the rules fail on may be read anchored on its skills (`spec.anchored`)
        self.lines = text.splitlines()
        self.code: list[str] = []  # a script's own lines once `text` became its comments (`spec.script_runbook`)
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.readings: list[Any] = []  # spec.model.SentenceReading
        self.unread: list[Any] = []  # spec.model.UnreadSentence

    def where(self, line: int) -> str:
        """`file:line` for a 1-based line."""
        return f"{self.path}:{line}"

    def line_text(self, line: int) -> str:
        """The raw text of a 1-based line ("" past the end)."""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def error(self, line: int, message: str, code: str = "spec.error") -> None:
        self.errors.append(
            Diagnostic(file=self.path, line=max(line, 1), message=one_line(message), code=code)
        )

    def warn(self, line: int, message: str, code: str = "spec.unread", hint: Hint | None = None) -> None:
        self.warnings.append(
            Diagnostic(
                file=self.path,
                line=max(line, 1),
                message=one_line(message),
                severity=Severity.WARNING,
                code=code,
                hint=hint,
            )
        )

    def raise_if_errors(self) -> None:
        if self.errors:
            ordered = sorted(self.errors, key=lambda d: (d.line or 0, d.message))
            raise SpecError(ordered)

    def sorted_warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(sorted(self.warnings, key=lambda d: (d.line or 0, d.message)))
