"""`<spec>.lock.json`: what the model decided about a spec, kept beside it so plans stay offline.

    {"format": 1, "spec": "flow.md", "entries": [
       {"kind": "policy", "sha256": "<of the sentence>", "model": "claude-...",
        "text": "give the mirror a breather before the next go", "where": "flow.md:14",
        "section": "step", "steps": ["step-2"],
        "reading": {...a PolicyStatement...}, "reason": "..."}]}

An entry is keyed by its kind, the sha256 of its text (whitespace collapsed) and
the model that made it, so the same sentence read by two models is two entries.
`kind` says what the entry decides: "policy" (a sentence the grammar could not
read, read by `plan --interpret`), "skill-choice" (which skill a step binds to,
chosen by the model among tied candidates) or "structure" (the step graph the model
read where the rules were in doubt: `plan.structure_reading_lock`; its `text` is the
whole spec and its sha256 is of that text exactly, since the reading cites lines);
each kind's `reading` has its own
shape, checked by the code that uses it. Writing is atomic and the file is
stable (entries sorted), so it diffs well and can be committed with the spec.

A broken lockfile is a ConfigError naming the file (and the line, for bad JSON).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from orchestrator.errors import ConfigError
from orchestrator.filecap import read_capped
from orchestrator.hints import Hint, HintAction

LOCK_FORMAT = 1
LOCK_SUFFIX = ".lock.json"
MAX_LOCK_BYTES = 8 * 1024 * 1024  # a lockfile is a few entries per sentence; refuse anything huge
LockKind = Literal["policy", "skill-choice", "structure"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LockEntry(_Frozen):
    kind: LockKind
    sha256: str  # of the text, whitespace collapsed (`text_sha256`)
    model: str
    text: str
    where: str = ""  # file:line where the text was when it was read
    section: str = ""
    steps: tuple[str, ...] = ()
    reading: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""


class Lockfile(_Frozen):
    format: int = LOCK_FORMAT
    spec: str = ""
    entries: tuple[LockEntry, ...] = ()

    def find(self, kind: LockKind, text: str, model: str | None = None) -> LockEntry | None:
        """The entry for `text`: the one made by `model` when given and present, else the
        first by model name (deterministic whatever the order in the file)."""
        digest = text_sha256(text)
        found = sorted((e for e in self.entries if e.kind == kind and e.sha256 == digest), key=lambda e: e.model)
        if not found:
            return None
        return next((e for e in found if e.model == model), found[0])

    def with_entry(self, entry: LockEntry) -> Lockfile:
        """This lockfile with `entry` added (replacing one with the same kind, text and model)."""
        kept = [e for e in self.entries if (e.kind, e.sha256, e.model) != (entry.kind, entry.sha256, entry.model)]
        return self.model_copy(update={"entries": tuple(sorted([*kept, entry], key=_order))})


def _order(entry: LockEntry) -> tuple[str, str, str, str]:
    return (entry.kind, entry.where, entry.sha256, entry.model)


def text_sha256(text: str) -> str:
    """sha256 of `text` with its whitespace collapsed: re-wrapping a paragraph changes nothing."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def lock_path(spec_path: Path) -> Path:
    """`flow.md` → `flow.md.lock.json`, beside the spec."""
    return spec_path.with_name(spec_path.name + LOCK_SUFFIX)


def load_lock(path: Path) -> Lockfile | None:
    """The lockfile at `path`, or None when there is none."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read the lockfile: {exc.strerror or exc}", where=str(path)) from None
    if size > MAX_LOCK_BYTES:
        raise ConfigError(f"the lockfile is {size} bytes, more than {MAX_LOCK_BYTES}; not read", where=str(path))
    try:
        # a regular file only: a FIFO or /dev/zero has size 0 above, and would hang or never end here
        data = json.loads(read_capped(path, MAX_LOCK_BYTES, "MAX_LOCK_BYTES").decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not JSON: {exc.msg}", where=f"{path}:{exc.lineno}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the lockfile: {exc}", where=str(path)) from None
    if isinstance(data, dict) and data.get("format") not in (None, LOCK_FORMAT):
        raise ConfigError(f"lockfile format {data.get('format')!r} is not {LOCK_FORMAT}; delete it and have the "
                          "model read the sentences again", where=str(path), hint=Hint(action=HintAction.INTERPRET))
    try:
        return Lockfile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = "/".join(str(p) for p in first["loc"])
        raise ConfigError(f"not a skillweave lockfile: {at}: {first['msg']}", where=str(path)) from None


def save_lock(path: Path, lock: Lockfile) -> None:
    """Write `lock` atomically (a temporary file renamed over the old one)."""
    text = json.dumps(lock.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"cannot write the lockfile: {exc.strerror or exc}", where=str(path)) from None
