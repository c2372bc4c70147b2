"""The engine's source of time and randomness (Temporal's `workflow.now()`/`random()`).

The engine reads time, sleeps and draws jitter only through a `Clock`, so tests
run recovery paths in virtual time (`orchestrator.testing.FakeClock`).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    def random(self) -> float:
        """A number in [0, 1) for jitter."""
        ...


class SystemClock:
    """Real time, real sleeps."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def random(self) -> float:
        return self._random.random()
