"""Skills nobody on the team wrote: each loads, and each verdict matches the fixtures' README."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import Severity
from orchestrator.kinds import BuiltinKind
from orchestrator.skills import load_skill, validate_skill_folder


def verdicts(root: Path) -> dict[Path, str]:
    """The README's table: skill folder -> verdict (`valid`, `invalid:<why>`, `extension-key`)."""
    rows: dict[Path, str] = {}
    for line in (root / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("repo", "---"):
            continue
        repo, _commit, path, _license, verdict = cells
        rows[root / repo.replace("/", "__") / Path(path).parent.name] = verdict
    return rows


def test_the_readme_table_covers_every_fixture(external_skills: Path) -> None:
    table = verdicts(external_skills)
    on_disk = {p.parent for p in external_skills.glob("*/*/SKILL.md")}
    assert set(table) == on_disk
    assert sorted(set(table.values())) == ["extension-key", "invalid:description-too-long", "valid"]


def test_every_external_skill_loads_as_instructions_only(external_skills: Path) -> None:
    for folder in verdicts(external_skills):
        skill = load_skill(folder)
        assert skill.name == folder.name
        assert skill.kind == BuiltinKind.INSTRUCTIONS
        assert skill.description


def errors(folder: Path, profile: str) -> list[str]:
    return [
        d.message
        for d in validate_skill_folder(folder, profile)  # type: ignore[arg-type]
        if d.severity is Severity.ERROR
    ]


def test_skills_marked_valid_pass_every_profile(external_skills: Path) -> None:
    valid = [f for f, v in verdicts(external_skills).items() if v == "valid"]
    assert len(valid) == 23
    for folder in valid:
        for profile in ("strict", "claude-code", "cursor"):
            assert errors(folder, profile) == [], (folder, profile)


def test_claude_api_is_rejected_for_its_description(external_skills: Path) -> None:
    (folder,) = [
        f for f, v in verdicts(external_skills).items() if v == "invalid:description-too-long"
    ]
    assert folder.name == "claude-api"
    for profile in ("strict", "claude-code", "cursor"):
        assert errors(folder, profile) == ["'description' is 1068 characters; the limit is 1024"]


@pytest.mark.parametrize(
    ("profile", "severity"), [("strict", Severity.ERROR), ("claude-code", Severity.WARNING)]
)
def test_git_cleanup_extension_key_breaks_strict_and_claude_code_accepts_it(
    external_skills: Path, profile: str, severity: Severity
) -> None:
    (folder,) = [f for f, v in verdicts(external_skills).items() if v == "extension-key"]
    assert folder.name == "git-cleanup"
    (finding,) = validate_skill_folder(folder, profile)  # type: ignore[arg-type]
    assert finding.severity is severity
    assert finding.line == 4
    assert "'disable-model-invocation'" in finding.message
    assert "breaks strict" in finding.message
