"""`skillweave install` against what users already have: a symlinked ~/.claude.json, a
broken `mcpServers`, and the permissions of the files it creates."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


def install(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, "install", *args], cwd=project, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(home)}, check=False)


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "home").mkdir()
    (tmp_path / "project").mkdir()
    return tmp_path / "project", tmp_path / "home"


def test_user_install_writes_through_a_symlinked_claude_json(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    target = tmp_path / "dotfiles" / "claude.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"mcpServers": {"mine": {"command": "y"}}, "theme": "dark"}))
    (home / ".claude.json").symlink_to(target)
    for _ in range(2):  # and again: idempotent, the link still there
        result = install(project, home, "claude", "--scope", "user")
        assert result.returncode == 0, result.stderr
        assert (home / ".claude.json").is_symlink()
    data = json.loads(target.read_text())
    assert set(data["mcpServers"]) == {"mine", "skillweave"} and data["theme"] == "dark"


def test_created_files_are_readable_by_others_like_any_file(dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    result = install(project, home, "cursor")
    assert result.returncode == 0, result.stderr
    created = [project / ".cursor" / "mcp.json", *(project / ".cursor" / "skills").rglob("*.md")]
    umask = os.umask(0)
    os.umask(umask)
    for path in created:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path


def test_a_list_mcp_servers_is_refused_and_left_alone(dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    config = project / ".mcp.json"
    config.write_text('{"mcpServers": [{"name": "db"}]}\n')
    result = install(project, home, "claude")
    assert result.returncode == 2
    assert result.stderr.strip() == (f"{config}: `mcpServers` is a list, not an object; fix or move the file, "
                                     "skillweave will not overwrite it")
    assert config.read_text() == '{"mcpServers": [{"name": "db"}]}\n'
