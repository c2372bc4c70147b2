"""Path confinement: every path a tool is given resolves inside the server's roots.

The server's roots are its own: its working directory, or the folders given with
`--root DIR` (repeatable) or `SKILLWEAVE_SERVE_ROOTS`; relative paths resolve
against the first. A client may declare roots (`roots/list`): they can only
narrow the server's (a path must then lie inside a server root *and* a client
root), never widen them, so a client declaring `file:///` reaches no more than
one declaring nothing. A client that declares no local folder narrows nothing.

A path is resolved, symlinks and `..` included, and accepted only when its real
path lies inside the roots; anything else is refused with a `PathRefusedError`
naming the path and the roots. What a spec brings along is held to the same rule
(`beside_spec`): the `skills/` folder beside it, every symlink inside that
folder, and the `mcp.json` beside it must each resolve inside the roots, or the
spec is refused. The client is asked for its roots only when every path already
lies inside the server's: on a 2026-07-28 connection by returning the question
(`InputRequiredResult`), on an older one by a `roots/list` request mid-call.

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
    """A path given to a tool (or one a spec brings along) lies outside the server's roots,
    or outside the roots the client declared (`client`: those, when they refused it)."""

    def __init__(
        self,
        raw: str,
        roots: Sequence[Path],
        *,
        real: Path | None = None,
        client: Sequence[Path] | None = None,
    ) -> None:
        listed = ", ".join(str(r) for r in roots) or "(none)"
        what = "the path is" if real is None else f"it leads to {real}, which is"
        if client is None:
            message = (
                f"refused: {what} outside the server's roots ({listed}); move the file inside the "
                "project, or start the server with --root for its folder (a client's roots cannot widen them)"
            )
        else:
            declared = ", ".join(str(r) for r in client)
            message = (
                f"refused: {what} outside the roots the client declared ({declared}), "
                f"which narrow the server's ({listed})"
            )
        super().__init__(message, where=raw)
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
    """The folders a server may read and write: its own roots, narrowed by the client's."""

    model_config = ConfigDict(frozen=True)

    base: Path  # the first root; relative paths resolve against it
    extra: tuple[Path, ...] = ()  # the server's other roots (--root, SKILLWEAVE_SERVE_ROOTS)
    client: tuple[Path, ...] | None = None  # the client's local roots, when it declared some

    @classmethod
    def of(cls, base: Path, extra: Iterable[Path] = ()) -> RootSet:
        resolved = base.resolve()
        others = tuple(dict.fromkeys(p.resolve() for p in extra if p.resolve() != resolved))
        return cls(base=resolved, extra=others)

    def narrowed(self, client_uris: Iterable[str]) -> RootSet:
        """These roots, narrowed to the client's local roots; unchanged when it declares none."""
        declared = tuple(dict.fromkeys(p.resolve() for p in map(root_from_uri, client_uris) if p is not None))
        return self.model_copy(update={"client": declared or None})

    @property
    def folders(self) -> tuple[Path, ...]:
        """The server's own roots."""
        return (self.base, *self.extra)

    def resolve(self, raw: str) -> Path:
        """The real path of `raw` (relative to the first root), not yet checked."""
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.base / path
        return path.resolve()

    def _refusal(self, raw: str, real: Path, *, shown: Path | None) -> PathRefusedError | None:
        """Why `real` may not be touched, or None when it lies inside the roots."""
        if not _inside(real, self.folders):
            return PathRefusedError(raw, self.folders, real=shown)
        if self.client is not None and not _inside(real, self.client):
            return PathRefusedError(raw, self.folders, real=shown, client=self.client)
        return None

    def contains(self, raw: str) -> bool:
        real = self.resolve(raw)
        return self._refusal(raw, real, shown=None) is None

    def confine(self, raw: str) -> Path:
        """The real path of `raw` when it lies inside the roots; else PathRefusedError."""
        if not raw.strip():
            raise UserError("an empty path was given", where="path")
        real = self.resolve(raw)
        refused = self._refusal(raw, real, shown=None)
        if refused is not None:
            raise refused
        return real

    def confine_all(self, found: Iterable[Path]) -> None:
        """PathRefusedError, naming the path and where it leads, for the first of `found`
        (paths the server reached without being given them) resolving outside the roots."""
        for path in found:
            real = self.resolve(str(path))
            refused = self._refusal(str(path), real, shown=real)
            if refused is not None:
                raise refused


def _inside(real: Path, roots: Iterable[Path]) -> bool:
    return any(real == root or real.is_relative_to(root) for root in roots)
