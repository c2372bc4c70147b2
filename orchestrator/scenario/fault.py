"""Fault injection for scenario runs: a runner wrapper, its fault book, and a clock.

`FaultRunner` stands in front of a skill kind's real runner: an attempt of a
step with a fault left gets the fault's outcome instead of running; every other
call goes to the real runner, counted in `Activity` while it executes.
`ScenarioClock` lets waits pass at once while no real attempt executes.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence

from orchestrator.errors import SkillweaveError
from orchestrator.kinds import kind_registry
from orchestrator.plan.model import Plan
from orchestrator.policy import ErrorClass
from orchestrator.runner import (
    RunnerContext,
    StepFailure,
    StepOutcome,
    StepRequest,
    StepRunner,
)
from orchestrator.scenario.model import Fault

WAIT_SLICE_S = 0.05  # how often a wait re-checks whether the run went idle


class Activity:
    """How many real step attempts are executing now (the clock's idea of "busy")."""

    def __init__(self) -> None:
        self.running = 0


class ScenarioClock:
    """Real time, except that waits pass at once while nothing else can happen.

    Like `orchestrator.testing.FakeClock`, one driver task wakes sleepers in
    deadline order, jumping the clock to the next deadline once the event loop
    has nothing else to run; unlike it, while a real attempt executes (a
    subprocess, a server call) time is real, so an attempt's timeout means what
    it says. A retry's backoff or the wall-time watchdog thus cost no real time.
    """

    SETTLE_TURNS = 3  # quiet loop turns in a row that count as idle
    BLIND_SPINS = 64  # turns that count as idle where the loop's run queue cannot be seen

    def __init__(self, activity: Activity, seed: int = 0) -> None:
        self._activity = activity
        self._offset = 0.0
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = itertools.count()
        self._driver: asyncio.Task[None] | None = None
        self._random = random.Random(seed)

    def now(self) -> float:
        return time.time() + self._offset

    def random(self) -> float:
        return self._random.random()

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._heap, (self.now() + seconds, next(self._count), fut))
        if self._driver is None or self._driver.done():
            self._driver = loop.create_task(self._drive())
        await fut

    async def aclose(self) -> None:
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
            await asyncio.wait((self._driver,))

    def _next_deadline(self) -> float | None:
        while self._heap and self._heap[0][2].done():
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def _drive(self) -> None:
        while (deadline := self._next_deadline()) is not None:
            left = deadline - self.now()
            if left > 0:
                if not await self._settled():
                    await asyncio.sleep(min(left, WAIT_SLICE_S))
                    continue
                deadline = self._next_deadline()
                if deadline is None:
                    return
                self._offset += max(0.0, deadline - self.now())
            heapq.heappop(self._heap)[2].set_result(None)

    async def _settled(self) -> bool:
        """True once no attempt executes and the loop had nothing else to run for a few turns."""
        ready = getattr(asyncio.get_running_loop(), "_ready", None)  # CPython's run queue
        quiet = spins = 0
        while quiet < self.SETTLE_TURNS:
            await asyncio.sleep(0)
            spins += 1
            if self._activity.running:
                return False
            if ready is None:
                quiet = self.SETTLE_TURNS if spins >= self.BLIND_SPINS else 0
            else:
                quiet = quiet + 1 if len(ready) == 0 else 0
        return True


class FaultBook:
    """The faults of one scenario and how many times each fired."""

    def __init__(self, faults: Sequence[Fault]) -> None:
        self.faults = list(faults)
        self.fired = [0] * len(self.faults)

    def take(self, step_id: str) -> Fault | None:
        for i, fault in enumerate(self.faults):
            if fault.step == step_id and (fault.times is None or self.fired[i] < fault.times):
                self.fired[i] += 1
                return fault
        return None


def injected(fault: Fault) -> StepOutcome:
    """What an attempt hit by `fault` returns."""
    if fault.kind == "returns":
        return StepOutcome(output=fault.value)
    if fault.kind == "bad-output":
        return StepOutcome(output=None)
    trace = "Traceback (most recent call last):\n  File \"main.py\", line 1, in <module>\nRuntimeError: injected fault\n"
    cls, message, kind = {
        "timeout": (ErrorClass.TIMEOUT, "injected fault: the attempt timed out", "timeout"),
        "transient": (ErrorClass.TRANSIENT, "injected fault: the connection was lost", "connection"),
        "crash": (ErrorClass.TRANSIENT, "injected fault: the server crashed", "server_crash"),
        "code-error": (ErrorClass.CODE_ERROR, "injected fault: RuntimeError: injected fault", "exception"),
        "invalid-input": (ErrorClass.INVALID_INPUT, "injected fault: the skill refused its input", "refused"),
        "unrecoverable": (ErrorClass.UNRECOVERABLE, "injected fault: unrecoverable", "unrecoverable"),
    }[fault.kind]
    detail = trace if fault.kind == "code-error" else ""
    failure = StepFailure(error_class=cls, message=message, detail=detail, kind=kind, ambiguous=fault.kind == "timeout")
    return StepOutcome(failure=failure, stderr_tail=detail)


class FaultRunner:
    """A `StepRunner` that plays a scenario's faults, and otherwise calls the real runner."""

    def __init__(self, kind: str, plan: Plan, book: FaultBook, make: Callable[[], StepRunner], activity: Activity):
        self.kind = kind
        self._own_skill = {s.id: s.skill for s in plan.steps}
        self._book = book
        self._make = make
        self._inner: StepRunner | None = None
        self._activity = activity

    async def run(self, request: StepRequest) -> StepOutcome:
        if self._own_skill.get(request.step_id) == request.skill.name:
            fault = self._book.take(request.step_id)
            if fault is not None:
                return injected(fault)
        if self._inner is None:
            try:
                self._inner = self._make()
            except (SkillweaveError, ModuleNotFoundError, KeyError) as exc:
                message = exc.render() if isinstance(exc, SkillweaveError) else f"no {self.kind!r} runner ({exc})"
                return StepOutcome(
                    failure=StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=message, kind="no_runner")
                )
        self._activity.running += 1
        try:
            return await self._inner.run(request)
        finally:
            self._activity.running -= 1

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()


def runner_maker(kind: str, ctx: RunnerContext, given: Mapping[str, StepRunner] | None) -> Callable[[], StepRunner]:
    def make() -> StepRunner:
        if given is not None and kind in given:
            return given[kind]
        registered = kind_registry().get(kind)
        if registered is None:
            raise KeyError(f"no kind {kind!r} is registered")
        return registered.create_runner(ctx)

    return make
