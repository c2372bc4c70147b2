"""The skill catalog: every skill the planner may bind, found in a fixed search order.

Order (DESIGN.md, Planning): the bundled skills, then `skills/` beside the spec,
then each `--skills-dir`, then each folder of `SKILLWEAVE_SKILLS_PATH`. A search
folder holds one skill folder per child (or is itself a skill folder); children
whose names start with `_` or `.` are not skills. A later skill may not shadow an
earlier one of the same name: both paths are reported and asking for the name is
an error. A broken skill is reported in `problems`, and becomes an error only
when something asks for it by name.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.errors import Diagnostic, NotFoundError, Severity, SkillError
from orchestrator.filecap import hash_into
from orchestrator.resources import skills_dir
from orchestrator.skills.conformance import split_tools
from orchestrator.skills.extension import metadata_text
from orchestrator.skills.frontmatter import Frontmatter
from orchestrator.skills.model import SKILL_FILE, Origin, Skill
from orchestrator.skills.validate import inspect_skill, judge_all


def load_skill(folder: Path, origin: Origin = "dir", max_bytes: int | None = None) -> Skill:
    """Load the skill in `folder`. Raises SkillError (file:line diagnostics) when it
    cannot be used: no SKILL.md, unreadable frontmatter, or broken `skillweave.*` keys.
    Agent Skills conformance problems that hosts tolerate become `Skill.warnings`."""
    folder = folder.resolve()
    inspection = inspect_skill(folder, max_bytes)
    diagnostics = judge_all(inspection, None)
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise SkillError(errors)
    fm, ext = inspection.frontmatter, inspection.extension
    metadata = fm.get("metadata")
    return Skill(
        name=_str(_value(fm, "name")) or folder.name,
        description=_str(_value(fm, "description")) or "",
        path=folder,
        skill_md=inspection.skill_md,
        origin=origin,
        kind=ext.kind,
        body=fm.body,
        body_line=fm.body_line,
        entry=ext.entry,
        server=ext.server,
        tool=ext.tool,
        input_schema=ext.input_schema,
        output_schema=ext.output_schema,
        network=ext.network,
        timeout_s=ext.timeout_s,
        params=ext.params,
        license=_str(_value(fm, "license")),
        compatibility=_str(_value(fm, "compatibility")),
        allowed_tools=split_tools(_value(fm, "allowed-tools")),
        metadata={c.key: metadata_text(c) for c in metadata.children} if metadata else {},
        sha256=_hash(folder, [inspection.skill_md, *ext.files]),
        warnings=tuple(diagnostics),
    )


def _value(fm: Frontmatter, key: str) -> Any:
    entry = fm.get(key)
    return None if entry is None else entry.value


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _hash(folder: Path, files: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        hash_into(digest, path)  # by blocks: a FIFO or a device is never read
        digest.update(b"\0")
    return digest.hexdigest()


class Catalog:
    """The skills found, by name, in search order; immutable once built."""

    __slots__ = ("_by_name", "_refused", "_skills", "problems")

    def __init__(
        self,
        skills: Iterable[Skill] = (),
        problems: Iterable[Diagnostic] = (),
        refused: Mapping[str, tuple[Diagnostic, ...]] | None = None,
    ) -> None:
        self._skills = tuple(skills)
        self._by_name = {s.name: s for s in self._skills}
        self._refused = dict(refused or {})
        self.problems: tuple[Diagnostic, ...] = tuple(problems)

    @property
    def skills(self) -> tuple[Skill, ...]:
        return self._skills

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def get(self, name: str) -> Skill:
        """The skill called `name`. Raises SkillError when it is broken or shadowed,
        NotFoundError (with the nearest names) when there is none."""
        if name in self._refused:
            raise SkillError(self._refused[name])
        skill = self._by_name.get(name)
        if skill is not None:
            return skill
        near = difflib.get_close_matches(name, list(self._by_name), n=3, cutoff=0.5)
        hint = (
            f"; did you mean {', '.join(near)}?"
            if near
            else f"; known skills: {', '.join(sorted(self._by_name)) or 'none'}"
        )
        raise NotFoundError(f"unknown skill '{name}'{hint}")

    def __iter__(self) -> Iterator[Skill]:
        return iter(self._skills)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._skills)


def skill_folders(source: Path) -> list[Path]:
    """The skill folders of one search folder: itself if it has a SKILL.md, else its
    children that do (children named `_x` or `.x` are skipped)."""
    if (source / SKILL_FILE).is_file():
        return [source]
    folders = []
    for child in sorted(_listing(source)):
        if child.name.startswith(("_", ".")) or not child.is_dir():
            continue
        if any(f.name.lower() == SKILL_FILE.lower() for f in _listing(child)):
            folders.append(child)
    return folders


def _listing(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []  # unreadable: nothing to load from it


def _sources(settings: Settings, spec_path: Path | None) -> list[tuple[Path, Origin]]:
    sources: list[tuple[Path, Origin]] = [(skills_dir(), "bundled")]
    if spec_path is not None:
        sources.append((spec_path.parent / "skills", "spec"))
    sources += [(d, "dir") for d in settings.skills_dirs]
    sources += [(d, "env") for d in settings.env_skills_dirs]
    return sources


def load_catalog(settings: Settings, spec_path: Path | None = None) -> Catalog:
    """Build the catalog from the bundled skills, the spec's `skills/`, each
    `--skills-dir` and `SKILLWEAVE_SKILLS_PATH`, in that order.

    Raises NotFoundError when a `--skills-dir` does not exist. Broken and shadowing
    skills are reported in `Catalog.problems`, not raised.
    """
    found: dict[str, Skill] = {}
    problems: list[Diagnostic] = []
    refused: dict[str, tuple[Diagnostic, ...]] = {}
    searched: set[Path] = set()
    for source, origin in _sources(settings, spec_path):
        if not source.is_dir():
            if origin == "dir":
                raise NotFoundError("no such folder", where=str(source), setting="skills_dirs")
            if origin == "env":
                problems.append(
                    Diagnostic(
                        file=str(source),
                        message="SKILLWEAVE_SKILLS_PATH names a missing folder",
                        severity=Severity.WARNING,
                        code="missing-dir",
                    )
                )
            continue
        if source.resolve() in searched:
            continue
        searched.add(source.resolve())
        for folder in skill_folders(source):
            try:
                skill = load_skill(folder, origin, settings.caps.spec_bytes)
            except SkillError as exc:
                problems.extend(exc.diagnostics)
                refused.setdefault(folder.name, tuple(exc.diagnostics))
                continue
            earlier = found.get(skill.name)
            if earlier is None:
                found[skill.name] = skill
            elif earlier.sha256 != skill.sha256:
                clash = Diagnostic(
                    file=str(skill.skill_md),
                    message=(
                        f"skill '{skill.name}' ({skill.origin}) would shadow the {earlier.origin} skill of the "
                        f"same name at {earlier.skill_md}; rename one of them"
                    ),
                    code="shadowed",
                )
                problems.append(clash)
                refused[skill.name] = (clash,)
    return Catalog(found.values(), problems, refused)
