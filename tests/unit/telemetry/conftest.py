"""Telemetry kept in memory for a test (`telemetry_kit.Kept`), a state directory and a virtual clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from telemetry_kit import Kept

from orchestrator import telemetry
from orchestrator.config import Settings
from orchestrator.telemetry.setup import build
from orchestrator.testing import FakeClock


@pytest.fixture
def kept() -> Iterator[Kept]:
    exporter = InMemorySpanExporter()
    reader = InMemoryMetricReader()
    made = build([SimpleSpanProcessor(exporter)], [reader])
    with telemetry.use(made):
        yield Kept(made, exporter, reader)
    made.shutdown()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
