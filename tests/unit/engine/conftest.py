"""Helpers for engine tests: a state dir per test, a virtual clock, one call to run a plan."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunSummary, create_run, execute_run
from orchestrator.journal import Journal
from orchestrator.journal.events import Event
from orchestrator.plan.model import Plan
from orchestrator.testing import FakeClock, FakeRunner

Execute = Callable[..., Awaitable[RunSummary]]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def execute(settings: Settings, clock: FakeClock) -> Execute:
    """`await execute(plan, runner, inputs={}, **execute_run_kwargs)`: create and run a plan."""

    async def run(plan: Plan, runner: FakeRunner, inputs: Mapping[str, Any] | None = None, **kwargs: Any) -> RunSummary:
        run_id = create_run(plan, inputs or {}, settings)
        kwargs.setdefault("clock", clock)
        return await execute_run(run_id, settings, runners={runner.kind: runner}, **kwargs)

    return run


@pytest.fixture
def events(settings: Settings) -> Callable[[str], list[Event]]:
    """`events(run_id)`: the run's journal, in order."""

    def read(run_id: str) -> list[Event]:
        with Journal(settings.state_dir) as journal:
            return journal.events(run_id)

    return read
