"""Real runs for report tests: the durable engine with a fake runner and a virtual clock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.engine import create_run, execute_run
from orchestrator.plan.model import Plan
from orchestrator.testing import FakeClock, FakeRunner

Execute = Callable[..., Awaitable[str]]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def execute(settings: Settings, clock: FakeClock) -> Execute:
    """`await execute(plan, runner, inputs=None, **execute_run_kwargs)` -> the run id (journaled)."""

    async def run(plan: Plan, runner: FakeRunner, inputs: Mapping[str, Any] | None = None, **kwargs: Any) -> str:
        run_id = create_run(plan, inputs or {}, settings)
        kwargs.setdefault("clock", clock)
        await execute_run(run_id, settings, runners={runner.kind: runner}, **kwargs)
        return run_id

    return run
