"""Files a script leaves in its work directory, collected without following links.

Which files: when the output is an object with an `artifacts` list (paths
relative to the work directory, or objects with a `path`), those; otherwise
every regular file. Either way at most `max_artifact_bytes` in total and
`MAX_ARTIFACT_FILES` files. Every path is opened component by component with
`O_NOFOLLOW` beneath a descriptor of the work directory, so a symlink (or a
directory swapped for one) can never lead outside it: symlinks are skipped and
reported in the notes, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from orchestrator.sandbox.model import SandboxArtifact

ARTIFACTS_KEY = "artifacts"
MAX_ARTIFACT_FILES = 1000
_CHUNK = 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_GONE = -1  # the work directory's descriptor when the directory is gone (it was empty)


def listed_paths(output: Any) -> list[str] | None:
    """The paths the output names under `artifacts`, or None to take every file."""
    if not isinstance(output, dict):
        return None
    listed = output.get(ARTIFACTS_KEY)
    if not isinstance(listed, list):
        return None
    paths: list[str] = []
    for item in listed:
        if isinstance(item, str):
            paths.append(item)
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            paths.append(item["path"])
    return paths


def _clean(rel: str) -> str | None:
    """A normalised relative path, or None when it points outside."""
    pure = PurePosixPath(rel)
    if pure.is_absolute() or not rel.strip():
        return None
    parts = [p for p in pure.parts if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def _open_beneath(root_fd: int, rel: str) -> int:
    """Open `rel` under `root_fd`, refusing a symlink at every step (ELOOP/ENOTDIR)."""
    parts = rel.split("/")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return os.open(parts[-1], _FILE_FLAGS, dir_fd=fd)
    finally:
        os.close(fd)


class _Collector:
    def __init__(self, root_fd: int, max_bytes: int, copy_to: Path | None) -> None:
        self.root_fd = root_fd
        self.budget = max_bytes
        self.copy_to = copy_to
        self.found: dict[str, SandboxArtifact] = {}
        self.notes: list[str] = []

    def _full(self) -> bool:
        if len(self.found) >= MAX_ARTIFACT_FILES:
            self.notes.append(f"artifacts stopped at {MAX_ARTIFACT_FILES} files")
            return True
        return False

    def take(self, rel: str, fd: int) -> None:
        """Record the open file `fd` as artifact `rel` (closes fd)."""
        try:
            info = os.fstat(fd)
        except OSError:
            os.close(fd)
            return
        if stat.S_ISDIR(info.st_mode):
            self.walk(rel, fd)
            return
        with os.fdopen(fd, "rb", closefd=True) as f:
            if not stat.S_ISREG(info.st_mode):
                self.notes.append(f"artifact {rel} skipped: not a regular file")
            elif rel in self.found or self._full():
                pass
            elif info.st_size > self.budget:
                self.notes.append(f"artifact {rel} skipped: over the artifact size cap")
            else:
                self.found[rel] = self._copy(rel, f, info.st_size)
                self.budget -= self.found[rel].size

    def _copy(self, rel: str, f: BinaryIO, limit: int) -> SandboxArtifact:
        """Hash (and copy) at most `limit` bytes: the size seen when it was opened."""
        digest = hashlib.sha256()
        size = 0
        with contextlib.ExitStack() as stack:
            out = None
            if self.copy_to is not None:
                target = self.copy_to / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                out = stack.enter_context(open(target, "wb"))
            while size < limit and (chunk := f.read(min(_CHUNK, limit - size))):
                size += len(chunk)
                digest.update(chunk)
                if out is not None:
                    out.write(chunk)
        return SandboxArtifact(path=rel, size=size, sha256=digest.hexdigest())

    def walk(self, base: str, dir_fd: int) -> None:
        """Every regular file below the open directory `dir_fd` (closes it)."""
        try:
            for rel in sorted(_files(dir_fd, base, self.notes)):
                if self._full():
                    return
                self.open_and_take(rel)
        finally:
            os.close(dir_fd)

    def open_and_take(self, rel: str) -> None:
        try:
            if self.root_fd == _GONE:
                raise FileNotFoundError(errno.ENOENT, "no such file")
            fd = _open_beneath(self.root_fd, rel)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                self.notes.append(f"artifact {rel} skipped: a symlink, not followed")
            elif exc.errno == errno.ENOENT:
                self.notes.append(f"artifact {rel} skipped: no such file")
            else:
                self.notes.append(f"artifact {rel} skipped: {exc.strerror}")
            return
        self.take(rel, fd)


def _files(dir_fd: int, base: str, notes: list[str]) -> Iterator[str]:
    """Relative paths of regular files below `dir_fd`; symlinks noted, not entered."""
    prefix = f"{base}/" if base else ""
    for dirpath, dirnames, filenames, fd in os.fwalk(".", dir_fd=dir_fd, follow_symlinks=False):
        here = "" if dirpath == "." else dirpath[2:] + "/"
        for name in [*dirnames, *filenames]:
            try:
                info = os.lstat(name, dir_fd=fd)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                notes.append(f"artifact {prefix}{here}{name} skipped: a symlink, not followed")
            elif stat.S_ISREG(info.st_mode):
                yield f"{prefix}{here}{name}"


def collect_artifacts(
    workdir: Path, output: Any, *, max_bytes: int, copy_to: Path | None = None
) -> tuple[tuple[SandboxArtifact, ...], tuple[str, ...]]:
    """Artifacts of one attempt, and notes on what was skipped and why.

    A work directory that is gone was empty (see `SpawnResult.workdir_removed`):
    the files the output names are reported missing.
    """
    try:
        root_fd = os.open(workdir, _DIR_FLAGS)
    except FileNotFoundError:
        root_fd = _GONE
    collector = _Collector(root_fd, max_bytes, copy_to)
    try:
        listed = listed_paths(output)
        if listed is None and root_fd != _GONE:
            collector.walk("", os.dup(root_fd))
        for item in listed or ():
            rel = _clean(item)
            if rel is None:
                collector.notes.append(f"artifact {item!r} skipped: outside the work directory")
            else:
                collector.open_and_take(rel)
    finally:
        if root_fd != _GONE:
            os.close(root_fd)
    return tuple(collector.found.values()), tuple(collector.notes)
