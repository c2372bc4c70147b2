"""In-process server fixtures: a copy of the test project, fake step runners, a client factory."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from orchestrator.config import load_settings
from orchestrator.runner import StepRequest, StepRunner
from orchestrator.server import ServerConfig, build_server
from orchestrator.testing import Call, FakeRunner

PROJECT = Path(__file__).resolve().parents[2] / "e2e" / "data" / "server-project"


def play(request: StepRequest) -> dict[str, Any]:
    """What the two test skills compute, without a sandbox."""
    data = request.input
    if request.skill.name == "count-words":
        return {"text": data["text"], "words": len(str(data["text"]).split())}
    return {"shouted": f"{str(data['text']).upper()} ({data['words']} words)"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    return root


@pytest.fixture
def runner() -> FakeRunner:
    return FakeRunner(default=Call(play))


ClientFactory = Callable[..., AbstractAsyncContextManager[Client]]


@pytest.fixture
def connect(project: Path, runner: FakeRunner) -> ClientFactory:
    """`async with connect(mode=..., elicitation_callback=...) as client:` a fresh server each time."""

    @asynccontextmanager
    async def factory(
        *,
        elicit_timeout_s: float = 30.0,
        wait_limit_s: float = 30.0,
        runner_: StepRunner | None = None,
        extra_roots: tuple[Path, ...] = (),
        **client: Any,
    ) -> AsyncIterator[Client]:
        config = ServerConfig(
            settings=load_settings(env={}, state_dir=project / ".skillweave", require_trust=True),
            root=project,
            extra_roots=extra_roots,
            elicit_timeout_s=elicit_timeout_s,
            wait_limit_s=wait_limit_s,
        )
        server = build_server(config, runners={"script": runner_ or runner})
        async with Client(server, **client) as connected:
            yield connected

    return factory
