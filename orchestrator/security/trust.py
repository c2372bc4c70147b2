"""The per-user trust store: the mcp.json files the MCP server may start commands from.

An `mcp.json` names commands to start (and URLs to send headers to). Run from a
shell (`skillweave run`), that is the person's own act. Reached through
`skillweave serve`, it may be a file any client wrote, so the server starts
nothing from it (and expands none of its `${VAR}`) until the person has trusted
it with `skillweave trust PATH`. A record is the file's real path and the SHA-256
of its content: a file changed since (another hash) is untrusted again, and
`--revoke` removes the record. The bundled servers need no trust.

Where: `$SKILLWEAVE_TRUST_FILE`, else `$XDG_CONFIG_HOME/skillweave/trust.json`,
else `~/.config/skillweave/trust.json`. The file is JSON (`{"version": 1,
"trusted": [{"path", "sha256", "trusted_at"}]}`), mode 0600 (its folder 0700 when
made), replaced atomically under a lock. A store another user could write is
refused: its records could be forged.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.errors import ConfigError
from orchestrator.hints import Hint, HintAction
from orchestrator.security.files import read_private, write_private

ENV_TRUST_FILE = "SKILLWEAVE_TRUST_FILE"
STORE_NAME = "trust.json"
WHAT = "trust store"

Verdict = Literal["trusted", "changed", "unknown"]


class UntrustedConfigError(ConfigError):
    """An mcp.json reached through the server is not trusted (or changed since it was)."""


class TrustRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    path: str  # the real path of the file, when trusted
    sha256: str  # of its bytes
    trusted_at: str  # UTC, ISO 8601


class _StoreFile(BaseModel):
    model_config = ConfigDict(extra="ignore")

    version: Literal[1] = 1
    trusted: list[TrustRecord] = []


def store_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get(ENV_TRUST_FILE):
        return Path(env[ENV_TRUST_FILE]).expanduser()
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "skillweave" / STORE_NAME


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def real_path(path: Path) -> str:
    return os.path.realpath(path.expanduser())


class TrustStore:
    """The records in one store file (`store_path()` by default)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else store_path()

    def records(self) -> list[TrustRecord]:
        data = read_private(self.path, WHAT)
        if data is None:
            return []
        try:
            return _StoreFile.model_validate(json.loads(data)).trusted
        except (ValueError, ValidationError):
            raise ConfigError(
                f"the {WHAT} is not one skillweave wrote; fix or remove it (every file is then untrusted)",
                where=str(self.path),
            ) from None

    def verdict(self, path: Path, data: bytes) -> Verdict:
        """Whether `data`, read from `path`, is what was trusted there."""
        where, digest = real_path(path), sha256_of(data)
        found = [r for r in self.records() if r.path == where]
        if any(r.sha256 == digest for r in found):
            return "trusted"
        return "changed" if found else "unknown"

    def add(self, path: Path) -> TrustRecord:
        """Trust the current content of `path` (replacing an older record of it)."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read the file: {exc.strerror or exc}", where=str(path)) from None
        record = TrustRecord(
            path=real_path(path),
            sha256=sha256_of(data),
            trusted_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        with self._locked():
            kept = [r for r in self.records() if r.path != record.path]
            self._write([*kept, record])
        return record

    def revoke(self, path: Path) -> list[TrustRecord]:
        """Remove the records of `path` (as given, or where it leads); those removed."""
        names = {real_path(path), os.path.abspath(path.expanduser())}
        with self._locked():
            records = self.records()
            removed = [r for r in records if r.path in names]
            if removed:
                self._write([r for r in records if r.path not in names])
        return removed

    def _write(self, records: list[TrustRecord]) -> None:
        text = json.dumps(_StoreFile(trusted=records).model_dump(mode="json"), indent=2) + "\n"
        write_private(self.path, text.encode(), private_dir=True)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer at a time (a lock file beside the store)."""
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, mode=0o700)
        lock = self.path.with_name(f".{self.path.name}.lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def untrusted_message(path: Path, verdict: Verdict, actions: list[str]) -> str:
    """Why the server starts nothing from `path`, what it would do, and how to allow it."""
    state = (
        "changed since you trusted it" if verdict == "changed" else "not trusted"
    )
    would = "; ".join(actions) if actions else "nothing yet (it lists no servers)"
    return f"this mcp.json is {state}, so the server starts no command from it; it would start: {would}"


def trust_hint(path: Path) -> Hint:
    """What to do about an untrusted mcp.json: trust it, if you wrote or reviewed it."""
    return Hint(action=HintAction.TRUST, name=str(path))
