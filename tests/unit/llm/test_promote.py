"""--promote: a repaired script goes back into its skill only when the original is unchanged."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.llm.promote import promote_script


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_repaired_script_replaces_the_original(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "main.py").write_text("old\n")
    target = promote_script(tmp_path, "scripts/main.py", "new\n", original_sha256=sha("old\n"))
    assert target.read_text() == "new\n"
    assert [p.name for p in (tmp_path / "scripts").iterdir()] == ["main.py"]


def test_a_script_edited_since_the_run_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("edited by someone\n")
    with pytest.raises(ConfigError, match="changed since the run read it"):
        promote_script(tmp_path, "main.py", "new\n", original_sha256=sha("old\n"))
    assert (tmp_path / "main.py").read_text() == "edited by someone\n"


def test_a_first_version_is_written_where_the_entry_says(tmp_path: Path) -> None:
    target = promote_script(tmp_path, "scripts/main.py", "first\n")
    assert target == (tmp_path / "scripts" / "main.py").resolve()
    assert target.read_text() == "first\n"


def test_an_entry_outside_the_skill_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="outside the skill folder"):
        promote_script(tmp_path / "skill", "../evil.py", "x\n")
