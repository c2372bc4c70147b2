"""The compiled-plan cache: a spec compiled once is read back while nothing it was compiled from changed.

    compile_cached(path, settings) -> Plan
        `compile.compile_spec(path, settings)`, from the cache when an entry has the key of
        everything that compile reads; a hit imports neither the compile pipeline nor the
        spec readers, the skill catalog or the plan builder
    cache_key(path, settings) -> str | None
        that key, or None when this compile cannot be cached

The key is a sha256 over everything a compile reads, so that a hit gives the plan
(warnings included, they are in `Plan.warnings`) a compile would give:

- the spec's bytes, the path as given, its real path and the working directory;
- its lockfile (`<spec>.lock.json`), or that there is none;
- every file of every catalog folder, in the catalog's search order (the bundled
  skills, the spec's `skills/`, each `--skills-dir`, each `SKILLWEAVE_SKILLS_PATH`
  folder): paths, kinds and content hashes (a missing folder is part of the key);
- the settings, less those no compile reads (the state folder, the LLM recording
  files, `--promote`, `--debug`; the API key only as whether there is one), and
  every `SKILLWEAVE_*` variable but a few that start processes or time them;
- skillweave itself: its version, the interpreter, the size and mtime of every file
  of the `orchestrator` package (as Python decides to reuse bytecode) and the mtime
  of every `sys.path` folder (installed packages: the spec readers' libraries and
  the skill kinds' entry points). A skill kind from another package is keyed by
  its installation, not its source: after editing an editable install's kind in
  place, keep the cache off while you work on it (below), or reinstall it.

A compile that asked the model to break a tie or an MCP server for a tool's
schemas is not stored (`compile_spec(on_ask=...)`): what they answered is not in
the key. Nor is one whose inputs changed while it ran (the key is computed again
after it), nor one whose inputs are too many or too large to hash (more than
`MAX_FILES` files or `MAX_BYTES` bytes), nor a plan whose entry would be larger
than `MAX_ENTRY_BYTES`. Errors are never stored: a broken spec is compiled, and
reported, every time.

The entries live in `$XDG_CACHE_HOME/skillweave/plans/` (`~/.cache/...`), a folder
created 0700 and used only while it is this user's own and private; each entry is
written to a temporary file and renamed into place (a reader sees a whole entry or
none), holds its key and the sha256 of its plan, and is read with a size cap. An
entry that is unreadable, oversized, not a regular file, another user's, of another
format or key, or whose plan does not match its hash, is ignored (and replaced by
the next compile). At most `MAX_ENTRIES` entries are kept (the oldest go first).
SKILLWEAVE_PLAN_CACHE=0 turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from orchestrator import __version__, profiling
from orchestrator.config import Settings
from orchestrator.plan.model import Plan
from orchestrator.resources import skills_dir

ENV = "SKILLWEAVE_PLAN_CACHE"
FORMAT = "skillweave.plan-cache/1"
MAX_FILES = 4096  # files hashed for one key, all folders together
MAX_BYTES = 64 << 20  # bytes hashed for one key
MAX_ENTRY_BYTES = 16 << 20
MAX_ENTRIES = 64
HIT = "compile cache: hit"  # the profile's spans (`--profile`)
MISS = "compile cache: miss, compiled"
# read by no compile: starting or timing processes, where runs are kept, the cache itself
_ENV_IGNORED = frozenset({
    ENV, "SKILLWEAVE_STATE_DIR", "SKILLWEAVE_PROFILE", "SKILLWEAVE_RUN_WARM", "SKILLWEAVE_WARM",
    "SKILLWEAVE_WARM_DIR", "SKILLWEAVE_DOCS_WARM", "SKILLWEAVE_MCP_WARM", "SKILLWEAVE_MCP_PROCESS",
})
_SETTINGS_IGNORED = frozenset({"state_dir", "api_key", "llm_record", "llm_replay", "promote", "debug"})
_PACKAGE = Path(__file__).resolve().parent

__all__ = ["cache_key", "compile_cached"]


class _TooMuch(Exception):
    """More files or bytes than a key may hash: this compile is not cached."""


def enabled() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off", "")


def compile_cached(path: Path, settings: Settings) -> Plan:
    """The plan of the spec at `path`: the cache's, or compiled (and stored when it may be)."""
    with profiling.span("compile cache: the key"):
        key = cache_key(path, settings) if enabled() else None
        folder = _folder() if key is not None else None
    if key is not None and folder is not None:
        with profiling.span("compile cache: read"):
            plan = _read(folder / f"{key}.json", key)
        if plan is not None:
            profiling.add(HIT, time.perf_counter())  # a mark: the read above is its time
            return plan
    with profiling.span(MISS):
        from orchestrator.compile import compile_spec

        asked: list[str] = []
        plan = compile_spec(path, settings, on_ask=asked.append)
        if key is not None and folder is not None and not asked and cache_key(path, settings) == key:
            _write(folder, key, plan)
    return plan


# -- the key --------------------------------------------------------------------------


def cache_key(path: Path, settings: Settings) -> str | None:
    """The sha256 of everything compiling `path` with `settings` reads (module docstring);
    None when the spec cannot be read as a regular file or the inputs are too large."""
    digest = hashlib.sha256()
    budget = _Budget()

    def put(*parts: object) -> None:
        for part in parts:
            digest.update(str(part).encode("utf-8", "surrogateescape") + b"\0")

    put(FORMAT, __version__, sys.version, sys.executable, sys.implementation.cache_tag)
    try:
        put("cwd", os.getcwd())
        spec = Path(path)
        put("spec", spec, os.path.realpath(spec))
        info = os.stat(spec)
        if not stat.S_ISREG(info.st_mode) or info.st_size > settings.caps.spec_bytes:
            return None  # the compile says why
        _hash_file(put, spec, budget)
        lock = spec.with_name(spec.name + ".lock.json")  # `lockfile.lock_path`
        put("lockfile")
        if os.path.lexists(lock):
            _hash_file(put, lock, budget)
        for origin, source in _sources(settings, spec):
            put("source", origin, source, os.path.realpath(source))
            _hash_tree(put, source, budget)
        for part in _code(budget):
            put(part)
    except (OSError, _TooMuch, RecursionError):
        return None
    put("settings", json.dumps(settings.model_dump(mode="json", exclude=set(_SETTINGS_IGNORED)), sort_keys=True))
    put("model", bool(settings.api_key) or settings.llm_replay is not None)
    for name in sorted(os.environ):
        if name.startswith("SKILLWEAVE_") and name not in _ENV_IGNORED:
            put(name, os.environ[name])
    return digest.hexdigest()


def _sources(settings: Settings, spec: Path) -> list[tuple[str, Path]]:
    """The catalog's search folders, in its order (`skills.catalog._sources`)."""
    return [("bundled", skills_dir()), ("spec", spec.parent / "skills"),
            *(("dir", d) for d in settings.skills_dirs), *(("env", d) for d in settings.env_skills_dirs)]


class _Budget:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def take(self, size: int) -> None:
        self.files += 1
        self.grow(size)

    def grow(self, size: int) -> None:
        self.bytes += size
        if self.files > MAX_FILES or self.bytes > MAX_BYTES:
            raise _TooMuch


def _hash_file(put: Callable[..., None], path: Path, budget: _Budget) -> None:
    """The file's kind and, for a regular file, its content's sha256 (opened without blocking:
    a FIFO is never read)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        put("unreadable", exc.errno)
        return
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            put("kind", stat.S_IFMT(info.st_mode))
            return
        budget.take(info.st_size)
        content = hashlib.sha256()
        read = 0
        while chunk := os.read(fd, 1 << 16):
            content.update(chunk)
            read += len(chunk)
            if read > info.st_size:  # it grows while we read: what it grew by counts too
                budget.grow(len(chunk))
        put("file", content.hexdigest())
    finally:
        os.close(fd)


def _hash_tree(put: Callable[..., None], folder: Path, budget: _Budget, depth: int = 0) -> None:
    """Every entry under `folder` (symlinks followed, as the catalog follows them), sorted."""
    if depth > 32:
        raise _TooMuch
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except FileNotFoundError:
        put("missing")
        return
    except NotADirectoryError:
        put("not a folder")
        return
    except OSError as exc:
        put("unlistable", exc.errno)
        return
    for entry in entries:
        if entry.name == "__pycache__":
            continue
        put("entry", entry.name, entry.is_symlink())
        if entry.is_dir():
            budget.take(0)
            _hash_tree(put, Path(entry.path), budget, depth + 1)
        else:
            _hash_file(put, Path(entry.path), budget)


def _code(budget: _Budget) -> Iterator[str]:
    """skillweave's own files (size and mtime) and the installed packages' folders (mtime)."""
    skip = len(str(_PACKAGE)) + 1
    for root, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            full = os.path.join(root, name)
            with contextlib.suppress(OSError):
                info = os.stat(full)
                budget.take(0)
                yield f"{full[skip:]}:{info.st_size}:{info.st_mtime_ns}"
    for entry in sys.path[1:]:  # [0] is the script's folder or the working directory
        with contextlib.suppress(OSError):
            yield f"{entry}:{os.stat(entry).st_mtime_ns}"


# -- the entries ----------------------------------------------------------------------


def _folder() -> Path | None:
    """This user's private folder of cached plans (created 0700), or None when it is not private."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    folder = root / "skillweave" / "plans"
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.parent.mkdir(mode=0o700, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return folder


def _read(path: Path, key: str) -> Plan | None:
    """The entry's plan, or None for anything but a whole, own, matching entry."""
    from orchestrator.journal.plans import decode_plan

    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_size > MAX_ENTRY_BYTES:
            return None
        raw = b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        entry = json.loads(raw) if len(raw) <= MAX_ENTRY_BYTES else None
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key
                or not isinstance(entry.get("plan"), str)
                or hashlib.sha256(entry["plan"].encode()).hexdigest() != entry.get("sha256")):
            return None
        return decode_plan(entry["plan"])
    except Exception:  # any broken entry is a miss, compiled again
        return None


def _write(folder: Path, key: str, plan: Plan) -> None:
    """Store the entry atomically (a temporary file renamed into place); a failure stores nothing."""
    from orchestrator.journal.plans import encode_plan

    text = encode_plan(plan)
    data = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(text.encode()).hexdigest(),
                       "plan": text}).encode()
    if len(data) > MAX_ENTRY_BYTES:
        return
    fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=folder)  # 0600
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, folder / f"{key}.json")
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return
    _trim(folder)


def _trim(folder: Path) -> None:
    """Keep the `MAX_ENTRIES` newest entries."""
    entries: list[tuple[int, str]] = []
    with contextlib.suppress(OSError), os.scandir(folder) as found:
        for entry in found:
            if entry.name.endswith(".json"):
                with contextlib.suppress(OSError):
                    entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    for _, old in sorted(entries)[:-MAX_ENTRIES]:
        with contextlib.suppress(OSError):
            os.unlink(old)
