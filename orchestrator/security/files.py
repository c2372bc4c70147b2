"""Private files: written atomically with mode 0600; read only when nobody else can change them."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from orchestrator.errors import ConfigError

PRIVATE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700


def write_private(path: Path, data: bytes, *, private_dir: bool = False) -> None:
    """Replace `path` with `data` in one step, mode 0600 from its first byte. The folder is
    made if missing (0700 when `private_dir`, else as usual)."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=PRIVATE_DIR_MODE if private_dir else 0o777)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mkstemp: 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, PRIVATE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_private(path: Path, what: str, *, readable_by_others: bool = True) -> bytes | None:
    """The bytes of `path`, or None when it does not exist. ConfigError when it is not a
    regular file, belongs to another user, or others may write it (or read it, unless
    `readable_by_others`): what such a file says cannot be relied on, or is not secret."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(f"the {what} is a symbolic link; keep it as a plain file", where=str(path)) from None
        raise ConfigError(f"cannot read the {what}: {exc.strerror or exc}", where=str(path)) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"the {what} is not a regular file; remove it", where=str(path))
        if info.st_uid != os.geteuid():
            raise ConfigError(f"the {what} belongs to another user; remove it", where=str(path))
        others = 0o022 if readable_by_others else 0o077
        if info.st_mode & others:
            raise ConfigError(
                f"the {what} is open to other users (mode {stat.S_IMODE(info.st_mode):o}); "
                f"run `chmod 600 {path}` or remove it",
                where=str(path),
            )
        return handle.read()
