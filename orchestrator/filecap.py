"""Reading a file someone else wrote: only a regular file, and never more than its cap.

    read_capped(path, limit, env)   the bytes, or a FileCapError naming the cap
    sha256_file(path), hash_into    content hashes read by blocks (a FIFO or device hashes as its kind)

A spec, a SKILL.md and its schema files, an `--input-file`, an `--llm-replay`
recording and a saved plan are read here. The file is opened with `O_NONBLOCK`
(a FIFO with no writer cannot hang the open), checked with `fstat` on the open
descriptor (a FIFO, a device such as `/dev/zero`, a directory or a socket is
refused, symlinks included, since the check is on what was opened), refused
when larger than its cap, and read by blocks up to the cap plus one byte (a file
that grows while it is read is refused too, never read without end).

`FileCapError` is an `OSError` whose `strerror` says why: every caller already
turns an `OSError` into its own exit-2 error naming the file (`SpecError`,
`SkillError`, `ConfigError`).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path
from typing import Any

_BLOCK = 1 << 16


class FileCapError(OSError):
    """The file is not a regular file, or is larger than the cap."""


def describe_size(size: int) -> str:
    """1048576 -> "1 MiB"; sizes that are not a whole number of KiB/MiB stay in bytes."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _too_large(limit: int, env: str) -> FileCapError:
    return FileCapError(errno.EFBIG, f"larger than the {describe_size(limit)} limit (set {env} to raise it)")


def read_capped(path: Path | str, limit: int, env: str) -> bytes:
    """The whole content of the regular file at `path`, at most `limit` bytes.

    `env` names the variable that raises the cap (quoted in the error). Raises
    FileNotFoundError and the other OSErrors of `open`, or FileCapError."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileCapError(errno.EINVAL, f"{_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise _too_large(limit, env)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_BLOCK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise _too_large(limit, env)
        return b"".join(chunks)
    finally:
        os.close(fd)


def hash_into(digest: Any, path: Path | str) -> None:
    """Feed the file's bytes to `digest` by blocks; a file that is not regular feeds its kind."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            digest.update(f"<{_kind(info.st_mode)}>".encode())
            return
        while chunk := os.read(fd, _BLOCK):
            digest.update(chunk)
    finally:
        os.close(fd)


def sha256_file(path: Path | str) -> str:
    """The file's sha256, read by blocks (see `hash_into`)."""
    digest = hashlib.sha256()
    hash_into(digest, path)
    return digest.hexdigest()
