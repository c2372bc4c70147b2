"""`serve --root` and SKILLWEAVE_SERVE_ROOTS: the server's own roots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from orchestrator.cli.serve_cmd import ENV_ROOTS, server_roots
from orchestrator.errors import NotFoundError


def test_without_roots_the_working_directory_is_the_only_root() -> None:
    assert server_roots((), env={}) == (Path.cwd(),)


def test_root_flags_are_the_roots_in_order(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert server_roots((tmp_path / "b", tmp_path / "a"), env={}) == ((tmp_path / "b").resolve(), (tmp_path / "a").resolve())


def test_the_environment_gives_roots_when_no_flag_does(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    env = {ENV_ROOTS: f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}"}
    assert server_roots((), env=env) == ((tmp_path / "a").resolve(), (tmp_path / "b").resolve())
    assert server_roots((tmp_path / "b",), env=env) == ((tmp_path / "b").resolve(),)


def test_a_root_that_is_not_a_folder_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError) as info:
        server_roots((tmp_path / "nope",), env={})
    assert info.value.message == f"--root {tmp_path / 'nope'}: no such folder"
    with pytest.raises(NotFoundError, match=ENV_ROOTS):
        server_roots((), env={ENV_ROOTS: str(tmp_path / "nope")})
