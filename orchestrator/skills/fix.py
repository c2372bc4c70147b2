"""`skills validate --fix`: move unknown top-level keys under `metadata`, as strings.

Only the frontmatter lines of the moved keys and of `metadata` are rewritten; the
other keys keep their text (comments, block scalars) and the body is untouched.
Non-string metadata values are quoted on the way. A key that `metadata` already
has is left where it is and reported.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic, SkillError
from orchestrator.skills.conformance import PROFILE_KEYS
from orchestrator.skills.frontmatter import Entry, parse_frontmatter, read_frontmatter
from orchestrator.skills.model import Profile


class Change(BaseModel):
    model_config = ConfigDict(frozen=True)

    file: str
    line: int | None
    message: str

    def render(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: fixed: {self.message}"


class FixResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    path: Path
    changes: tuple[Change, ...] = ()
    skipped: tuple[Diagnostic, ...] = ()  # what could not be fixed
    text: str  # the new SKILL.md (equal to the old one when nothing changed)

    @property
    def changed(self) -> bool:
        return bool(self.changes)


def as_string(value: Any) -> str:
    """A YAML value as the metadata string that keeps its meaning readable."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, int | float | datetime.date):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def plan_fix(skill_md: Path, profile: Profile = "strict") -> FixResult:
    """Compute the fixed SKILL.md without writing it. Raises SkillError when the
    frontmatter cannot be read at all (nothing can be fixed then)."""
    fm = read_frontmatter(skill_md)
    file = str(skill_md)
    allowed = PROFILE_KEYS[profile]
    metadata = fm.get("metadata")
    if metadata is not None and not metadata.is_mapping and metadata.value is not None:
        skip = Diagnostic(
            file=file,
            line=metadata.line,
            message="'metadata' is not a mapping: fix it by hand first",
            code="fix-skipped",
        )
        return FixResult(path=skill_md, skipped=(skip,), text=fm.text)
    existing: dict[str, str] = {}
    changes: list[Change] = []
    for child in metadata.children if metadata is not None else ():
        existing[child.key] = as_string(child.value)
        if not isinstance(child.value, str):
            changes.append(
                Change(
                    file=file,
                    line=child.line,
                    message=f"quoted metadata '{child.key}' as {existing[child.key]!r}",
                )
            )
    moved: list[Entry] = []
    skipped: list[Diagnostic] = []
    for entry in fm.entries:
        if entry.key in allowed:
            continue
        if entry.key in existing:
            skipped.append(
                Diagnostic(
                    file=file,
                    line=entry.line,
                    message=f"'{entry.key}' is also in metadata: not moved; merge them by hand",
                    code="fix-skipped",
                )
            )
            continue
        existing[entry.key] = as_string(entry.value)
        moved.append(entry)
        changes.append(
            Change(
                file=file,
                line=entry.line,
                message=f"moved '{entry.key}' under metadata as {existing[entry.key]!r}",
            )
        )
    if not changes:
        return FixResult(path=skill_md, skipped=tuple(skipped), text=fm.text)
    text = _rewrite(fm.text, fm.close_line, metadata, moved, existing)
    parse_frontmatter(text, skill_md)  # the rewrite must read back
    return FixResult(path=skill_md, changes=tuple(changes), skipped=tuple(skipped), text=text)


def _metadata_block(values: dict[str, str]) -> list[str]:
    dumped = yaml.safe_dump(
        values, default_flow_style=False, sort_keys=False, allow_unicode=True, width=1_000_000
    )
    return ["metadata:\n", *(f"  {line}\n" for line in dumped.splitlines())]


def _rewrite(
    text: str, close_line: int, metadata: Entry | None, moved: list[Entry], values: dict[str, str]
) -> str:
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()  # 0-based line indexes
    for entry in [*moved, *([metadata] if metadata else [])]:
        drop.update(range(entry.line - 1, entry.end_line - 1))
    block = _metadata_block(values)
    insert_at = metadata.line - 1 if metadata is not None else close_line - 1
    out: list[str] = []
    for index, line in enumerate(lines):
        if index == insert_at:
            out.extend(block)
        if index not in drop:
            out.append(line)
    return "".join(out)


def apply_fix(skill_md: Path, profile: Profile = "strict") -> FixResult:
    """Fix the SKILL.md in place; returns what changed."""
    result = plan_fix(skill_md, profile)
    if result.changed:
        try:
            skill_md.write_text(result.text, encoding="utf-8")
        except OSError as exc:
            raise SkillError(
                Diagnostic(
                    file=str(skill_md),
                    message=f"cannot write the fix: {exc.strerror or exc}",
                    code="unwritable",
                )
            ) from exc
    return result
