"""Path confinement: every path a tool is given resolves inside the server's roots.

The roots are the server's working directory plus the roots the client
declares (`roots/list`). A path is resolved against the working directory,
symlinks and `..` included, and accepted only when the real path lies inside
one root; anything else is refused with a `PathRefusedError` naming the path and
the roots. The client is asked for its roots only when a path falls outside the
working directory: on a 2026-07-28 connection by returning the question
(`InputRequiredResult`), on an older one by a `roots/list` request mid-call.

This module imports nothing from `mcp`: the server asks for roots through the
`RootsSource` it is given and hands the answer (file URIs) to `RootSet`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import UserError


class PathRefusedError(UserError):
    """A path given to a tool lies outside the server's roots."""

    def __init__(self, raw: str, roots: Sequence[Path]) -> None:
        listed = ", ".join(str(r) for r in roots) or "(none)"
        super().__init__(
            f"refused: the path is outside the server's roots ({listed}); "
            "move the file inside the project or declare its folder as a root in the client",
            where=raw,
        )
        self.path = raw
        self.roots = tuple(roots)


def root_from_uri(uri: str) -> Path | None:
    """The local folder of a `file://` root URI; None for any other scheme or host."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    return Path(path) if path.startswith("/") else None


class RootSet(BaseModel):
    """The folders a server may read and write: its working directory first."""

    model_config = ConfigDict(frozen=True)

    base: Path  # the working directory; relative paths resolve against it
    extra: tuple[Path, ...] = ()  # the client's roots

    @classmethod
    def of(cls, base: Path, client_uris: Iterable[str] = ()) -> RootSet:
        extra = tuple(p for p in (root_from_uri(u) for u in client_uris) if p is not None)
        return cls(base=base.resolve(), extra=tuple(p.resolve() for p in extra))

    @property
    def folders(self) -> tuple[Path, ...]:
        return (self.base, *self.extra)

    def resolve(self, raw: str) -> Path:
        """The real path of `raw` (relative to the working directory), not yet checked."""
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.base / path
        return path.resolve()

    def contains(self, raw: str) -> bool:
        real = self.resolve(raw)
        return any(real == root or real.is_relative_to(root) for root in self.folders)

    def confine(self, raw: str) -> Path:
        """The real path of `raw` when it lies inside a root; else PathRefusedError."""
        if not raw.strip():
            raise UserError("an empty path was given", where="path")
        if not self.contains(raw):
            raise PathRefusedError(raw, self.folders)
        return self.resolve(raw)
