"""Turn the spec's `file:line` strings into diagnostics and provenance."""

from __future__ import annotations

from orchestrator.errors import Diagnostic, Severity
from orchestrator.plan.model import Provenance
from orchestrator.spec.source import one_line


def split_where(where: str | None, default_file: str) -> tuple[str, int | None]:
    """`"specs/x.md:12"` -> `("specs/x.md", 12)`; a bare file keeps line None."""
    if not where:
        return default_file, None
    head, sep, tail = where.rpartition(":")
    if sep and tail.isdigit() and head:
        return head, int(tail)
    return where, None


def error_at(where: str | None, default_file: str, message: str, code: str) -> Diagnostic:
    file, line = split_where(where, default_file)
    return Diagnostic(file=file, line=line, message=one_line(message), code=code)


def warning_at(where: str | None, default_file: str, message: str, code: str) -> Diagnostic:
    file, line = split_where(where, default_file)
    return Diagnostic(file=file, line=line, message=one_line(message), code=code, severity=Severity.WARNING)


def from_spec(where: str | None, note: str = "") -> Provenance:
    return Provenance(source="spec", where=where, note=note)


def from_default(note: str) -> Provenance:
    return Provenance(source="default", note=note)


def line_key(diagnostic: Diagnostic) -> tuple[str, int, str]:
    """Sort key: by file, then line, then message (stable output)."""
    return (diagnostic.file, diagnostic.line or 0, diagnostic.message)
