"""Registering skillweave with an agent host: its skills and its MCP server entry.

Every file we touch follows one rule: merge, never clobber. A JSON config file is
read, our entry is deep-merged into it (every key we do not set is kept, a key
we set inside our own entry is updated), and it is written back only when it
changed, after copying the old file to `<name>.bak` (or `.bak.1`, `.bak.2`, ...).
A file that is not valid JSON is refused, never overwritten. Skill files are
copied one by one: an identical file is left alone, a different one is backed
up before it is replaced, files of ours that are not in the bundle are kept.

`plan_install` computes every change without writing anything (`--dry-run`
prints its diff); `apply_install` writes it.

The entry is stdio by default (the host starts `skillweave serve`; no token is
needed, the host owns the pipes). With an `HttpEntry` it points the host at a
running `skillweave serve --transport http` instead: its URL and an
`Authorization: Bearer <token>` header, since that server always requires its
token. Switching transport replaces the keys of the other one in our entry. A
config file made to hold the token is created 0600; the token never appears in
a diff (`***`).

    host    scope    MCP server entry                      skills
    claude  project  ./.mcp.json  mcpServers.skillweave    ./.claude/skills/<name>/
    claude  user     ~/.claude.json  mcpServers.skillweave ~/.claude/skills/<name>/
    cursor  project  ./.cursor/mcp.json  mcpServers...     ./.cursor/skills/<name>/
    cursor  user     ~/.cursor/mcp.json  mcpServers...     ~/.cursor/skills/<name>/
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import ConfigError

Host = Literal["claude", "cursor"]
Scope = Literal["project", "user"]
SERVER_KEY = "skillweave"
BINARY_PREVIEW = "(binary file)"


class ServerCommand(BaseModel):
    """How a host starts the server: `skillweave serve` (a path when not on PATH)."""

    model_config = ConfigDict(frozen=True)

    command: str
    args: tuple[str, ...] = ("serve",)


class HttpEntry(BaseModel):
    """A running `skillweave serve --transport http`: where, and the token it requires."""

    model_config = ConfigDict(frozen=True)

    url: str
    token: str = Field(repr=False)


class FileChange(BaseModel):
    """One file's content before and after; `before` is None for a new file."""

    model_config = ConfigDict(frozen=True)

    path: Path
    before: bytes | None = Field(repr=False)  # contents stay out of reprs (an entry may hold a token)
    after: bytes = Field(repr=False)
    mode: int | None = None  # for a new file: the permission bits to give it (a bundled file's)
    hidden: tuple[str, ...] = Field(default=(), repr=False)  # secrets the diff shows as ***

    @property
    def created(self) -> bool:
        return self.before is None

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        if not self.changed:
            return ""
        try:
            old = [] if self.before is None else self.before.decode().splitlines(keepends=True)
            new = self.after.decode().splitlines(keepends=True)
        except UnicodeDecodeError:
            return f"--- {self.path}\n+++ {self.path}\n{BINARY_PREVIEW}\n"
        lines = difflib.unified_diff(
            old, new, fromfile="/dev/null" if self.created else str(self.path), tofile=str(self.path)
        )
        text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        for secret in self.hidden:
            text = text.replace(secret, "***")
        return text


class InstallPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    host: Host
    scope: Scope
    config_file: Path  # where the MCP server entry goes
    skills_dir: Path
    command: ServerCommand
    changes: tuple[FileChange, ...]
    http: HttpEntry | None = None  # the entry points at a running HTTP server (else stdio)

    @property
    def pending(self) -> tuple[FileChange, ...]:
        return tuple(c for c in self.changes if c.changed)


# JSON merging ------------------------------------------------------------------------


def merge_json(base: Any, patch: Any) -> Any:
    """Deep-merge `patch` into `base`: objects merge key by key (base's other keys kept),
    anything else in `patch` replaces the value at that place."""
    if isinstance(base, dict) and isinstance(patch, dict):
        merged = dict(base)
        for key, value in patch.items():
            merged[key] = merge_json(base[key], value) if key in base else value
        return merged
    return patch


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in `path`; None when there is no file. ConfigError (file:line)
    when it is not UTF-8, not valid JSON or not an object: such a file is never overwritten."""
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError("not UTF-8 text; fix or move the file, skillweave will not overwrite it",
                          where=str(path)) from None
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", where=str(path)) from None
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"not valid JSON ({exc.msg}); fix or move the file, skillweave will not overwrite it",
            where=f"{path}:{exc.lineno}",
        ) from exc
    if not isinstance(value, dict):
        raise ConfigError("the file holds JSON but not an object; skillweave will not overwrite it", where=str(path))
    return value


def json_change(
    path: Path, patch: Mapping[str, Any], *, drop: tuple[str, ...] = (), hidden: tuple[str, ...] = ()
) -> FileChange:
    """The change merging `patch` into the JSON object in `path`; `drop`: dotted keys to
    remove first (the other transport's keys in our entry); `hidden`: secrets the patch
    holds (a new file is then made 0600, and its diff shows them as ***)."""
    existing = read_json_object(path)
    for key, value in patch.items():
        if isinstance(value, dict) and existing is not None and key in existing \
                and not isinstance(existing[key], dict):
            kind = type(existing[key]).__name__ if existing[key] is not None else "null"
            raise ConfigError(f"`{key}` is a {kind}, not an object; fix or move the file, skillweave "
                              "will not overwrite it", where=str(path))
    before = path.read_bytes() if path.exists() else None
    base = _without(existing or {}, drop)
    merged = merge_json(base, dict(patch))
    if existing is not None and merged == existing and before is not None:
        return FileChange(path=path, before=before, after=before)  # nothing to do: keep its formatting
    after = (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode()
    return FileChange(path=path, before=before, after=after, mode=0o600 if hidden else None, hidden=hidden)


def _without(value: dict[str, Any], dotted: tuple[str, ...]) -> dict[str, Any]:
    """A copy of `value` without the keys at the dotted paths (absent ones ignored)."""
    result: dict[str, Any] = json.loads(json.dumps(value))
    for path in dotted:
        *parents, last = path.split(".")
        node: Any = result
        for key in parents:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(last, None)
    return result


# Skills --------------------------------------------------------------------------------


def skill_changes(bundle: Path, target: Path) -> list[FileChange]:
    """One change per file of each bundled skill folder (names starting `_`/`.` skipped)."""
    changes: list[FileChange] = []
    for folder in sorted(p for p in bundle.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if not (folder / "SKILL.md").is_file():
            continue
        for source in sorted(p for p in folder.rglob("*") if p.is_file()):
            relative = source.relative_to(bundle)
            if any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
                continue
            dest = target / relative
            changes.append(
                FileChange(path=dest, before=dest.read_bytes() if dest.exists() else None, after=source.read_bytes(),
                           mode=source.stat().st_mode & 0o777 & ~_umask())
            )
    return changes


# Hosts ---------------------------------------------------------------------------------


def server_command() -> ServerCommand:
    """`skillweave` when that name on PATH is the running program; else the running
    program's full path (a virtualenv the host's PATH does not know)."""
    running = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if running is not None and running.name == "skillweave":
        on_path = shutil.which("skillweave")
        if on_path is None or Path(on_path).resolve() != running.resolve():
            return ServerCommand(command=str(running.resolve()))
    return ServerCommand(command="skillweave")


STDIO_KEYS = ("command", "args")
HTTP_KEYS = ("url", "headers")


def server_entry(host: Host, command: ServerCommand, http: HttpEntry | None = None) -> dict[str, Any]:
    if http is not None:
        entry: dict[str, Any] = {"url": http.url, "headers": {"Authorization": f"Bearer {http.token}"}}
        return {"type": "http", **entry} if host == "claude" else entry
    entry = {"command": command.command, "args": list(command.args)}
    if host == "claude":
        entry = {"type": "stdio", **entry}
    return entry


def locations(host: Host, scope: Scope, project: Path, home: Path) -> tuple[Path, Path]:
    """(the MCP config file, the skills folder) for a host and scope."""
    if host == "claude":
        if scope == "project":
            return project / ".mcp.json", project / ".claude" / "skills"
        return home / ".claude.json", home / ".claude" / "skills"
    if scope == "project":
        return project / ".cursor" / "mcp.json", project / ".cursor" / "skills"
    return home / ".cursor" / "mcp.json", home / ".cursor" / "skills"


def plan_install(
    host: Host,
    scope: Scope,
    *,
    project: Path,
    home: Path,
    bundle: Path,
    command: ServerCommand,
    http: HttpEntry | None = None,
) -> InstallPlan:
    """Every file change installing for `host` would make; nothing is written."""
    config_file, skills_dir = locations(host, scope, project, home)
    other = STDIO_KEYS if http is not None else HTTP_KEYS
    config = json_change(
        config_file,
        {"mcpServers": {SERVER_KEY: server_entry(host, command, http)}},
        drop=tuple(f"mcpServers.{SERVER_KEY}.{key}" for key in other),
        hidden=(http.token,) if http is not None else (),
    )
    return InstallPlan(
        host=host,
        scope=scope,
        config_file=config_file,
        skills_dir=skills_dir,
        command=command,
        changes=(config, *skill_changes(bundle, skills_dir)),
        http=http,
    )


def backup_path(path: Path) -> Path:
    candidate = path.with_name(path.name + ".bak")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak.{n}")
        n += 1
    return candidate


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _default_mode() -> int:
    """The mode `open()` would give a new file: 0o666 less the umask."""
    return 0o666 & ~_umask()


def write_atomic(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `path` with `data` in one step. A symlinked file (a dotfiles manager's
    `~/.claude.json`) is written through: its target changes, the link stays. An existing
    file keeps its mode; a new one gets `mode`, else the usual 0o666 less the umask."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else (mode if mode is not None else _default_mode())
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def apply_install(plan: InstallPlan) -> list[Path]:
    """Write the plan's changes; returns the backups made of files it changed."""
    backups: list[Path] = []
    for change in plan.pending:
        if change.before is not None:
            backup = backup_path(change.path)
            shutil.copy2(change.path, backup)
            backups.append(backup)
        write_atomic(change.path, change.after, mode=change.mode)
    return backups
