"""Files a script leaves in its work directory, collected without following links.

Which files: when the output is an object with an `artifacts` list (paths
relative to the work directory, or objects with a `path`), those; otherwise
every regular file. Either way at most `max_artifact_bytes` in total and
`MAX_ARTIFACT_FILES` files. Every path is opened component by component with
`O_NOFOLLOW` beneath a descriptor of the work directory, so a symlink (or a
directory swapped for one) can never lead outside it: symlinks are skipped and
reported in the notes, never followed.

Bounded whatever the script left: a flood is the attempt's failure
(`resource_limit`), said in one line, and nothing is collected from it:

- an output that lists more than `MAX_ARTIFACT_FILES` paths;
- a work directory of more than `MAX_ARTIFACT_ENTRIES` files and folders (when
  every file is collected: the walk stops there);
- folders nested deeper than `MAX_ARTIFACT_DEPTH` (the walk is iterative and
  never recurses, so a 3000-level tree costs no Python stack);
- more than `ARTIFACT_TIME_S` seconds of collecting.

Skipped files are noted, at most `MAX_NOTES` of them one by one. The caller
runs `collect_artifacts` in a worker thread (it blocks on the disk) and may
stop it early with `stop`.

A copy that cannot be written (a full disk) removes what it wrote of that file
and raises the `OSError`, naming the file: it is the host's problem, not the
script's, and a partial copy is never listed.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import threading
import time
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from pydantic import BaseModel, ConfigDict

from orchestrator.sandbox.model import FailureKind, SandboxArtifact, SandboxFailure

ARTIFACTS_KEY = "artifacts"
MAX_ARTIFACT_FILES = 1000
MAX_ARTIFACT_ENTRIES = 20_000  # files and folders a walk of the work directory visits
MAX_ARTIFACT_DEPTH = 64  # folders below the work directory
ARTIFACT_TIME_S = 30.0
MAX_NOTES = 20
_CHUNK = 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_GONE = -1  # the work directory's descriptor when the directory is gone (it was empty)


class Collected(BaseModel):
    """What came of collecting: the artifacts, notes on what was skipped, or a flood."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifacts: tuple[SandboxArtifact, ...] = ()
    notes: tuple[str, ...] = ()
    failure: SandboxFailure | None = None


class _Flood(Exception):
    """Collecting stops: the work directory or the output is past a bound."""


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
    def __init__(
        self,
        root_fd: int,
        max_bytes: int,
        copy_to: Path | None,
        deadline: float,
        stop: threading.Event | None,
    ) -> None:
        self.root_fd = root_fd
        self.budget = max_bytes
        self.copy_to = copy_to
        self.deadline = deadline
        self.stop = stop
        self.found: dict[str, SandboxArtifact] = {}
        self.notes: list[str] = []
        self.unsaid = 0  # notes past MAX_NOTES
        self.stopped_at_cap = False

    def note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)
        else:
            self.unsaid += 1

    def check(self) -> None:
        """Raise `_Flood` past the time bound; return quietly when told to stop."""
        if time.monotonic() > self.deadline:
            raise _Flood(f"collecting artifacts took longer than {ARTIFACT_TIME_S:g} s")

    def stopping(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def _full(self) -> bool:
        if len(self.found) >= MAX_ARTIFACT_FILES:
            if not self.stopped_at_cap:
                self.note(f"artifacts stopped at {MAX_ARTIFACT_FILES} files")
                self.stopped_at_cap = True
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
            for name in self.walk(fd, rel):
                if self._full() or self.stopping():
                    return
                self.open_and_take(name)
            return
        with os.fdopen(fd, "rb", closefd=True) as f:
            if not stat.S_ISREG(info.st_mode):
                self.note(f"artifact {rel} skipped: not a regular file")
            elif rel in self.found or self._full():
                pass
            elif info.st_size > self.budget:
                self.note(f"artifact {rel} skipped: over the artifact size cap")
            else:
                self.found[rel] = self._copy(rel, f, info.st_size)
                self.budget -= self.found[rel].size

    def _copy(self, rel: str, f: BinaryIO, limit: int) -> SandboxArtifact:
        """Hash (and copy) at most `limit` bytes: the size seen when it was opened.

        A copy that cannot be written is removed, and the error raised.
        """
        digest = hashlib.sha256()
        size = 0
        target = None if self.copy_to is None else self.copy_to / rel
        try:
            with contextlib.ExitStack() as stack:
                out = None
                if target is not None:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    out = stack.enter_context(open(target, "wb"))
                while size < limit and (chunk := f.read(min(_CHUNK, limit - size))):
                    size += len(chunk)
                    digest.update(chunk)
                    if out is not None:
                        out.write(chunk)
                    self.check()
        except OSError as exc:
            if target is not None:
                with contextlib.suppress(OSError):
                    target.unlink()
                if exc.filename is None:
                    exc.filename = str(target)
            raise
        return SandboxArtifact(path=rel, size=size, sha256=digest.hexdigest())

    def walk(self, dir_fd: int, base: str) -> list[str]:
        """Relative paths of the regular files below the open directory `dir_fd` (closes
        it), sorted; symlinks noted, never entered. Iterative and bounded (see module)."""
        files: list[str] = []
        seen = 0
        todo: list[tuple[int, str, int]] = [(dir_fd, base, 0)]  # (open directory, path, depth)
        try:
            while todo:
                fd, here, depth = todo.pop()
                prefix = f"{here}/" if here else ""
                try:
                    with os.scandir(fd) as entries:
                        for entry in entries:
                            seen += 1
                            if seen > MAX_ARTIFACT_ENTRIES:
                                raise _Flood(
                                    f"the work directory holds more than {MAX_ARTIFACT_ENTRIES:,} "
                                    "files and folders; list the files to keep under `artifacts`"
                                )
                            if seen % 256 == 0:
                                self.check()
                            rel = prefix + entry.name
                            try:
                                info = entry.stat(follow_symlinks=False)
                            except OSError:
                                continue
                            if stat.S_ISLNK(info.st_mode):
                                self.note(f"artifact {rel} skipped: a symlink, not followed")
                            elif stat.S_ISREG(info.st_mode):
                                files.append(rel)
                            elif stat.S_ISDIR(info.st_mode):
                                if depth + 1 > MAX_ARTIFACT_DEPTH:
                                    raise _Flood(
                                        f"the work directory nests folders deeper than "
                                        f"{MAX_ARTIFACT_DEPTH} levels (below {rel[:120]!r}…)"
                                    )
                                try:
                                    sub = os.open(entry.name, _DIR_FLAGS, dir_fd=fd)
                                except OSError:
                                    self.note(f"artifact {rel} skipped: cannot be opened")
                                    continue
                                todo.append((sub, rel, depth + 1))
                finally:
                    os.close(fd)
                if self.stopping():
                    break
        finally:
            for fd, _, _ in todo:
                os.close(fd)
        return sorted(files)

    def open_and_take(self, rel: str) -> None:
        self.check()
        try:
            if self.root_fd == _GONE:
                raise FileNotFoundError(errno.ENOENT, "no such file")
            fd = _open_beneath(self.root_fd, rel)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                self.note(f"artifact {rel} skipped: a symlink, not followed")
            elif exc.errno == errno.ENOENT:
                self.note(f"artifact {rel} skipped: no such file")
            else:
                self.note(f"artifact {rel} skipped: {exc.strerror}")
            return
        self.take(rel, fd)


def collect_artifacts(
    workdir: Path,
    output: Any,
    *,
    max_bytes: int,
    copy_to: Path | None = None,
    time_s: float = ARTIFACT_TIME_S,
    stop: threading.Event | None = None,
) -> Collected:
    """Artifacts of one attempt, notes on what was skipped and why, or the flood that
    stopped it (then no artifact: a partial set would look complete).

    A work directory that is gone was empty (see `SpawnResult.workdir_removed`):
    the files the output names are reported missing. Raises `OSError` when a copy
    into `copy_to` cannot be written (see the module).
    """
    listed = listed_paths(output)
    if listed is not None and len(listed) > MAX_ARTIFACT_FILES:
        message = (
            f"the output lists {len(listed):,} artifacts; at most {MAX_ARTIFACT_FILES:,} "
            "are collected"
        )
        return Collected(failure=SandboxFailure(kind=FailureKind.RESOURCE_LIMIT, message=message))
    try:
        root_fd = os.open(workdir, _DIR_FLAGS)
    except FileNotFoundError:
        root_fd = _GONE
    collector = _Collector(root_fd, max_bytes, copy_to, time.monotonic() + time_s, stop)
    try:
        if listed is None and root_fd != _GONE:
            collector.take("", os.dup(root_fd))
        for item in listed or ():
            if collector.stopping():
                break
            rel = _clean(item)
            if rel is None:
                collector.note(f"artifact {item!r} skipped: outside the work directory")
            elif rel.count("/") >= MAX_ARTIFACT_DEPTH:
                collector.note(f"artifact {rel[:120]!r}… skipped: nested too deep")
            else:
                collector.open_and_take(rel)
    except _Flood as flood:
        failure = SandboxFailure(kind=FailureKind.RESOURCE_LIMIT, message=str(flood))
        return Collected(failure=failure)
    finally:
        if root_fd != _GONE:
            os.close(root_fd)
    notes = collector.notes
    if collector.unsaid:
        notes.append(f"{collector.unsaid:,} more artifact notes left out")
    return Collected(artifacts=tuple(collector.found.values()), notes=tuple(notes))
