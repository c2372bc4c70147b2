"""Check a skill folder: Agent Skills conformance under a host profile, and our own keys.

`inspect_skill` does the work once; `validate_skill_folder` judges the findings
under a profile (`skills validate`), and the catalog judges them leniently
(a skill that hosts load also loads here; only our own broken keys stop it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from orchestrator.errors import Diagnostic, Severity, SkillError
from orchestrator.skills.conformance import ALL_PROFILES, Finding, check_spec
from orchestrator.skills.extension import Extension, read_extension
from orchestrator.skills.frontmatter import Frontmatter, read_frontmatter
from orchestrator.skills.model import PROFILES, SKILL_FILE, Profile


@dataclass(frozen=True, slots=True)
class Inspection:
    folder: Path
    skill_md: Path
    frontmatter: Frontmatter
    extension: Extension
    findings: tuple[Finding, ...]


def skill_file(folder: Path) -> Path:
    """The folder's SKILL.md. Raises SkillError when there is none."""
    path = folder / SKILL_FILE
    if path.is_file():
        return path
    if path.is_symlink():  # a link to a file that is gone (or to a directory)
        target = os.readlink(path)
        raise SkillError(
            Diagnostic(
                file=str(path),
                message=f"{SKILL_FILE} is a symlink to {target}, which is not a readable file",
                code="no-skill-md",
            )
        )
    if folder.is_dir():
        for other in folder.iterdir():
            if other.name.lower() == SKILL_FILE.lower() and other.is_file():
                raise SkillError(
                    Diagnostic(
                        file=str(other),
                        line=None,
                        message=f"the file must be named {SKILL_FILE}",
                        code="file-name",
                    )
                )
    raise SkillError(
        Diagnostic(file=str(folder), message=f"no {SKILL_FILE} in this folder", code="no-skill-md")
    )


def inspect_skill(folder: Path, max_bytes: int | None = None) -> Inspection:
    """Parse a skill folder and collect every finding. Raises SkillError when the
    SKILL.md is missing or its frontmatter cannot be read at all. `max_bytes` caps
    SKILL.md and each schema file (default: SKILLWEAVE_MAX_SPEC_BYTES, 1 MiB)."""
    skill_md = skill_file(folder)
    fm = read_frontmatter(skill_md, max_bytes)
    ext = read_extension(fm, folder, max_bytes)
    findings = [*check_spec(fm, folder), *ext.findings]
    return Inspection(
        folder=folder, skill_md=skill_md, frontmatter=fm, extension=ext, findings=tuple(findings)
    )


def judge(finding: Finding, skill_md: Path, profile: Profile | None) -> Diagnostic:
    """A finding as a diagnostic under `profile`; None means loading for a catalog,
    where only our own keys are errors (hosts load the rest as it is)."""
    if finding.advisory:
        severity = Severity.WARNING
    elif finding.ours:
        severity = Severity.ERROR
    elif profile is None or profile not in finding.breaks:
        severity = Severity.WARNING
    else:
        severity = Severity.ERROR
    message = finding.message
    if (
        not finding.ours
        and finding.breaks
        and finding.breaks != ALL_PROFILES
        and "breaks" not in message
    ):
        others = [p for p in PROFILES if p not in finding.breaks]
        message += f" (breaks {', '.join(sorted(finding.breaks))}; {', '.join(others)} accept it)"
    return Diagnostic(
        file=str(finding.file or skill_md),
        line=finding.line,
        message=message,
        severity=severity,
        code=finding.code,
        hint=finding.hint,
    )


def judge_all(inspection: Inspection, profile: Profile | None) -> list[Diagnostic]:
    diagnostics = [judge(f, inspection.skill_md, profile) for f in inspection.findings]
    return sorted(diagnostics, key=lambda d: (d.file, d.line or 0))


def validate_skill_folder(folder: Path, profile: Profile = "strict") -> list[Diagnostic]:
    """Every finding about the skill in `folder`, judged under `profile`.

    Never raises for a broken skill: an unreadable SKILL.md is one error diagnostic.
    """
    try:
        inspection = inspect_skill(folder)
    except SkillError as exc:
        return list(exc.diagnostics)
    return judge_all(inspection, profile)
