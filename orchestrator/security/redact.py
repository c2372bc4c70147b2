"""Values an mcp.json took from the environment, hidden wherever they would be recorded.

`${VAR}` in an mcp.json (args, env, headers, url, command, cwd) is usually a secret
(`${GITHUB_TOKEN}`, `${ANTHROPIC_API_KEY}`). The expanded value must reach the
server, but never the run's records: a server's stderr log, the stderr tail and
error messages in the journal, `report.md`, `runs show`, the plan's warnings.
`Redactor` replaces each such value by `${VAR}` (its name, so a reader still sees
what stood there). Values shorter than `MIN_SECRET_CHARS` are left alone: they are
no secret and would blot out ordinary text. Defaults (`${VAR:-default}`) are
written in the file, not taken from the environment, and are not hidden.

`RedactingStream` applies it to a stream that arrives in pieces (a server's
stderr): a value split across two reads is still found, because text is written
only up to a line end, or, in a line longer than `MAX_LINE_CHARS`, up to a point
no secret can straddle.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import SkillweaveError

MIN_SECRET_CHARS = 4
MAX_LINE_CHARS = 64 * 1024


class Redactor(BaseModel):
    """Replaces secret values (value -> the variable it came from) in text."""

    model_config = ConfigDict(frozen=True)

    secrets: dict[str, str] = Field(default_factory=dict, repr=False)

    @classmethod
    def joined(cls, redactors: Iterable[Redactor]) -> Redactor:
        merged: dict[str, str] = {}
        for redactor in redactors:
            merged.update(redactor.secrets)
        return cls(secrets=merged)

    @property
    def empty(self) -> bool:
        return not self.secrets

    @property
    def longest(self) -> int:
        return max((len(v) for v in self.secrets), default=0)

    def redact(self, text: str) -> str:
        for value in sorted(self.secrets, key=len, reverse=True):  # a longer value may hold a shorter one
            if value in text:
                text = text.replace(value, f"${{{self.secrets[value]}}}")
        return text


def secret_from(name: str, value: str, found: dict[str, str] | None) -> None:
    """Note that `value` came from the environment variable `name` (when long enough)."""
    if found is not None and len(value) >= MIN_SECRET_CHARS:
        found.setdefault(value, name)


class _Sink(Protocol):
    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


class RedactingStream:
    """Bytes in (`feed`), redacted text out to `sink`; `close` writes what is left."""

    def __init__(self, redactor: Redactor, sink: _Sink) -> None:
        self._redactor = redactor
        self._sink = sink
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""

    def feed(self, data: bytes) -> None:
        self._pending += self._decoder.decode(data)
        cut = self._pending.rfind("\n") + 1
        if cut == 0 and len(self._pending) > MAX_LINE_CHARS:
            cut = self._safe_cut(len(self._pending) - max(self._redactor.longest - 1, 0))
        if cut > 0:
            self._emit(self._pending[:cut])
            self._pending = self._pending[cut:]

    def close(self) -> None:
        self._pending += self._decoder.decode(b"", final=True)
        if self._pending:
            self._emit(self._pending)
            self._pending = ""

    def _safe_cut(self, cut: int) -> int:
        """`cut`, moved back to the start of any secret that straddles it."""
        text, moved = self._pending, True
        while moved:
            moved = False
            for value in self._redactor.secrets:
                start = text.find(value, max(0, cut - len(value) + 1), cut + len(value) - 1)
                if 0 <= start < cut:
                    cut, moved = start, True
        return cut

    def _emit(self, text: str) -> None:
        self._sink.write(self._redactor.redact(text))
        self._sink.flush()



def redact_error(exc: SkillweaveError, redactor: Redactor) -> None:
    """Replace the secrets in an error about to be raised further (its message and, for an
    MCP server's errors, its stderr tail)."""
    if redactor.empty:
        return
    exc.message = redactor.redact(exc.message)
    exc.args = (exc.message, *exc.args[1:])
    tail = getattr(exc, "stderr_tail", None)
    if isinstance(tail, str):
        exc.stderr_tail = redactor.redact(tail)  # type: ignore[attr-defined]
