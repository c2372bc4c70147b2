"""A stdio server is tied to our life with setpriv --pdeathsig only where that works here."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.mcp_client import transport


@pytest.fixture(autouse=True)
def fresh_probe() -> Iterator[None]:
    transport.pdeathsig_prefix.cache_clear()
    yield
    transport.pdeathsig_prefix.cache_clear()


def fake_setpriv(tmp_path: Path, status: int) -> str:
    path = tmp_path / "setpriv"
    path.write_text(f"#!/bin/sh\nexit {status}\n")
    path.chmod(0o755)
    return str(path)


def test_a_setpriv_without_pdeathsig_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = fake_setpriv(tmp_path, 1)  # util-linux before 2.33: "unrecognized option"
    monkeypatch.setattr(transport.shutil, "which", lambda name: old if name == "setpriv" else None)
    assert transport.pdeathsig_prefix() == ()


def test_a_working_setpriv_is_the_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = fake_setpriv(tmp_path, 0)
    monkeypatch.setattr(transport.shutil, "which", lambda name: good if name == "setpriv" else None)
    assert transport.pdeathsig_prefix() == (good, "--pdeathsig", "KILL", "--")


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="no setpriv on this host")
def test_this_hosts_setpriv_is_probed_for_real() -> None:
    assert transport.pdeathsig_prefix()[1:] == ("--pdeathsig", "KILL", "--")
