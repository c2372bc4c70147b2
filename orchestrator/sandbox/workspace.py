"""The per-attempt directory: `work/` (the script's cwd, artifacts) and `tmp/`."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

PREFIX = "skillweave-"
ENTRY_BYTES = 4096  # what each file or folder counts for at least (its inode, a block)


def make_attempt(
    parent: Path | None, uid: int | None = None, *, private_tmp: bool = False
) -> tuple[Path, Path, Path | None]:
    """Create a fresh attempt directory; returns (root, work, tmp).

    With `private_tmp` (bwrap gives the script its own tmpfs /tmp) the work
    directory is the root itself: one directory to make and remove, which on a
    journaling file system is a measurable part of a sandboxed start.
    With `uid` (the per-run uid when running as root) the directories are
    handed to that uid so the script can write there and nowhere else.
    """
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
    if private_tmp:
        made = [root]
        work, tmp = root, None
    else:
        work, tmp = root / "work", root / "tmp"
        made = [work, tmp]
        for path in made:
            path.mkdir(mode=0o700)
    if uid is not None:
        for path in made:
            os.chown(path, uid, uid)
        if not private_tmp:  # the uid passes through (mkdtemp made it 0700) to its own folders
            os.chmod(root, 0o711)
    return root, work, tmp


def seed(work: Path, source: Path, uid: int | None) -> None:
    """Copy `source`'s files into the work directory (symlinks as links), owned by `uid` if given."""
    shutil.copytree(source, work, symlinks=True, dirs_exist_ok=True)
    if uid is None:
        return
    for folder, dirs, files in os.walk(work):
        for name in (*dirs, *files):
            os.chown(os.path.join(folder, name), uid, uid, follow_symlinks=False)


def remove_if_empty(path: Path) -> bool:
    """Remove `path` if it is an empty directory; True when it is gone (now or before)."""
    try:
        os.rmdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def remove_attempt(root: Path) -> None:
    """Remove an attempt directory, even one whose folders the script locked (chmod 000)."""
    if remove_if_empty(root):  # the usual case: the script left nothing behind
        return
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, stat.S_IRWXU)
    shutil.rmtree(root, ignore_errors=True)


def used_bytes(root: Path, stop_above: int) -> int:
    """Bytes under `root` (disk blocks, at least `ENTRY_BYTES` an entry), up to past `stop_above`.

    The walk ends as soon as the sum passes `stop_above`, so it visits at most
    `stop_above / ENTRY_BYTES` entries however many files a script made.
    Symlinks count as entries and are never followed.
    """
    total = 0
    todo = [str(root)]
    while todo:
        try:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    total += max(info.st_blocks * 512, ENTRY_BYTES)
                    if total > stop_above:
                        return total
                    if stat.S_ISDIR(info.st_mode):
                        todo.append(entry.path)
        except OSError:  # gone, or locked by the script (chmod 000): counts what it saw
            continue
    return total
