"""The HTTP server's token: given, kept in the state directory (0600), or made once."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.security.token import obtain, token_file


def test_a_token_is_made_once_and_kept_in_a_0600_file(tmp_path: Path) -> None:
    first = obtain(tmp_path / "state")
    again = obtain(tmp_path / "state")
    assert first.made and not again.made
    assert first.value == again.value and len(first.value) >= 40
    assert first.file == token_file(tmp_path / "state")
    assert stat.S_IMODE(first.file.stat().st_mode) == 0o600
    assert first.file.read_text().strip() == first.value


def test_two_state_directories_get_different_tokens(tmp_path: Path) -> None:
    assert obtain(tmp_path / "a").value != obtain(tmp_path / "b").value


def test_a_given_token_is_used_and_written_for_install_to_find(tmp_path: Path) -> None:
    obtain(tmp_path)
    given = obtain(tmp_path, "my-own-token")
    assert given.value == "my-own-token" and not given.made
    assert obtain(tmp_path).value == "my-own-token"


def test_a_token_file_others_can_read_is_refused(tmp_path: Path) -> None:
    made = obtain(tmp_path)
    made.file.chmod(0o644)
    with pytest.raises(ConfigError) as info:
        obtain(tmp_path)
    assert info.value.where == str(made.file)
    assert "chmod 600" in info.value.message


def test_a_token_file_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("planted\n")
    token_file(tmp_path).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match="symbolic link"):
        obtain(tmp_path)
