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
    """Remove an attempt directory, even one whose folders the script locked (chmod 000)
    or nested thousands deep (see `remove_tree`)."""
    if remove_if_empty(root):  # the usual case: the script left nothing behind
        return
    remove_tree(root)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(root: Path) -> None:
    """Remove `root` and everything below it, best effort, without recursion.

    Descends through directory descriptors (`openat`, never a full path, so no
    PATH_MAX) holding one at a time and a stack of names, and climbs back with
    `..`: only for a tree no process can change any more (the attempt's
    processes are gone). Each folder is listed once; locked ones are opened up
    first (chmod 0700); what cannot be removed is left, never retried forever.
    """
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError:
        shutil.rmtree(root, ignore_errors=True)  # not a directory, or gone
        return
    pending: list[list[str]] = [_clear(fd)]  # per level: its subfolders still to remove
    names: list[str] = []  # the folders descended into, below root
    try:
        while True:
            if pending[-1]:
                name = pending[-1].pop()
                with contextlib.suppress(OSError):
                    os.chmod(name, stat.S_IRWXU, dir_fd=fd)
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    continue  # left behind
                os.close(fd)
                fd = child
                names.append(name)
                pending.append(_clear(fd))
                continue
            if not names:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            pending.pop()
            with contextlib.suppress(OSError):
                os.rmdir(names.pop(), dir_fd=fd)
    except OSError:
        pass  # `..` failed: leave the rest
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(root)


def _clear(dir_fd: int) -> list[str]:
    """Unlink every non-folder in the open directory; its subfolders' names."""
    folders: list[str] = []
    try:
        with os.scandir(dir_fd) as entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
                    else:
                        os.unlink(entry.name, dir_fd=dir_fd)
                except OSError:
                    continue
    except OSError:
        pass
    return folders


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
