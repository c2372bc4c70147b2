"""Path confinement: every path a tool is given resolves inside the server's roots.

The roots are the server's working directory plus the roots the client
declares (`roots/list`). A path is resolved against the working directory,
symlinks and `..` included, and accepted only when the real path lies inside
one root; anything else is refused with a `PathRefusedError` naming the path and
the roots. What a spec brings along is held to the same rule (`beside_spec`): the
`skills/` folder beside it, every symlink inside that folder, and the `mcp.json`
beside it must each resolve inside the roots, or the spec is refused. The client
is asked for its roots only when a path falls outside the working directory: on a
2026-07-28 connection by returning the question (`InputRequiredResult`), on an
older one by a `roots/list` request mid-call.

This module imports nothing from `mcp`: the server asks for roots through the
`RootsSource` it is given and hands the answer (file URIs) to `RootSet`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import UserError

SKILLS_BESIDE_SPEC = "skills"
MCP_CONFIG_BESIDE_SPEC = "mcp.json"


class PathRefusedError(UserError):
    """A path given to a tool (or one a spec brings along) lies outside the server's roots."""

    def __init__(self, raw: str, roots: Sequence[Path], *, real: Path | None = None) -> None:
        listed = ", ".join(str(r) for r in roots) or "(none)"
        what = "the path is" if real is None else f"it leads to {real}, which is"
        super().__init__(
            f"refused: {what} outside the server's roots ({listed}); "
            "move the file inside the project or declare its folder as a root in the client",
            where=raw,
        )
        self.path = raw
        self.roots = tuple(roots)


def beside_spec(spec: Path) -> list[Path]:
    """What the server reads because of where `spec` lies, as found (not resolved): the
    `skills/` folder beside it, each symlink inside that folder, and the `mcp.json`
    beside it; only those that exist (a dangling link counts)."""
    found: list[Path] = []
    try:
        folder = spec.parent / SKILLS_BESIDE_SPEC
        if folder.is_symlink() or folder.exists():
            found.append(folder)
        if folder.is_dir():
            for top, dirs, files in os.walk(folder):  # does not descend into linked folders
                found += [Path(top) / name for name in [*dirs, *files] if (Path(top) / name).is_symlink()]
        config = spec.parent / MCP_CONFIG_BESIDE_SPEC
        if config.is_symlink() or config.exists():
            found.append(config)
    except OSError:  # unreadable: the catalog and the compiler will not read it either
        pass
    return found


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

    def confine_all(self, found: Iterable[Path]) -> None:
        """PathRefusedError, naming the path and where it leads, for the first of `found`
        (paths the server reached without being given them) resolving outside the roots."""
        for path in found:
            if not self.contains(str(path)):
                raise PathRefusedError(str(path), self.folders, real=self.resolve(str(path)))
