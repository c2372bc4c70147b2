"""The stdio session spawns its server before importing the SDK, and cleans up when that fails."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from orchestrator.mcp_client import stdio
from orchestrator.mcp_client.config import load_mcp_config
from orchestrator.mcp_client.transport import SessionFiles, process_gone


def test_the_inherited_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp.client.stdio import get_default_environment

    monkeypatch.setenv("HOME", "/home/someone")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("SHELL", "() { :; }; echo no")  # a shell function: never inherited
    monkeypatch.setenv("SECRET_TOKEN", "s3cret")
    monkeypatch.delenv("LOGNAME", raising=False)
    assert stdio.default_environment() == get_default_environment()
    assert "SECRET_TOKEN" not in stdio.default_environment()


async def test_the_server_is_spawned_before_the_sdk_import_and_killed_when_it_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = SessionFiles(stderr=tmp_path / "docs.stderr.log", pidfile=tmp_path / "docs.pid")
    seen: dict[str, Any] = {}

    def failing_import(*names: str) -> list[Any]:
        seen["pidfile"] = files.pidfile.exists() or _appears(files.pidfile)
        raise ImportError("no SDK here")

    monkeypatch.setattr(stdio, "import_lean", failing_import)
    server = load_mcp_config(None, env={"SKILLWEAVE_DOCS_WARM": "0"}).server("docs")
    with pytest.raises(ImportError, match="no SDK here"):
        async with stdio.open_stdio(server, files):
            pytest.fail("the session opened without the SDK")
    assert seen["pidfile"] is True  # the server was running while we imported
    pid = int(files.pidfile.read_text().strip())
    async with asyncio.timeout(20):
        while not process_gone(pid):
            await asyncio.sleep(0.02)


def _appears(path: Path) -> bool:
    """The wrapper writes the pid file as it starts: wait for it (bounded)."""
    import time

    deadline = time.monotonic() + 20
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
