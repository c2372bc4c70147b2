"""Test doubles shipped with the package: a scripted runner, a virtual clock, a regenerator.

    runner = FakeRunner({"fetch": [Fail(ErrorClass.TRANSIENT), {"docs": "..."}]})
    clock = FakeClock()
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)
    assert clock.slept == [1.0]            # the one retry wait, in virtual time

`FakeRunner` plays, per step (or per `step[item]`), a queue of behaviours: a
plain value is the output; `Fail`, `Hang`, `Sleep`, `Call` and `Raise` do what
they say; when the queue is empty it plays its default (echo the input).
`FakeClock` keeps virtual time: a sleep returns as soon as nothing else can run,
with the clock moved to its deadline, so timeouts and backoff cost no real time.
`FakeRegenerator` answers regeneration requests from a queue of code strings.
`fake_plan` builds small plans for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.model import Plan, PlanInput, PlanStep, SpecRef
from orchestrator.policy import ErrorClass, Limits
from orchestrator.runner import (
    RegenerationRequest,
    RegenerationResult,
    StepFailure,
    StepOutcome,
    StepRequest,
    TokenUsage,
)

# -- behaviours -----------------------------------------------------------------


@dataclass(frozen=True)
class Fail:
    error_class: ErrorClass = ErrorClass.CODE_ERROR
    message: str = "fake failure"
    detail: str = ""
    kind: str = ""
    usage: TokenUsage = field(default_factory=TokenUsage)


@dataclass(frozen=True)
class Hang:
    """Never answers (until cancelled by a timeout)."""


@dataclass(frozen=True)
class Sleep:
    seconds: float
    then: Any = None  # the behaviour after the sleep


@dataclass(frozen=True)
class Call:
    fn: Callable[[StepRequest], Any]  # returns an output, a StepOutcome or another behaviour


@dataclass(frozen=True)
class Raise:
    error: BaseException


@dataclass(frozen=True)
class Echo:
    """Answers with the request's input."""


Behaviour = Fail | Hang | Sleep | Call | Raise | Echo | StepOutcome | Any


class FakeRunner:
    """A `StepRunner` playing scripted behaviours; records every request."""

    def __init__(
        self,
        script: Mapping[str, Iterable[Behaviour]] | None = None,
        *,
        default: Behaviour = None,
        clock: Any = None,
        kind: str = "script",
        contained: bool = False,
    ) -> None:
        self.kind = kind
        self._contained = contained
        self.requests: list[StepRequest] = []
        self.closed = False
        self._queues: dict[str, deque[Behaviour]] = {k: deque(v) for k, v in (script or {}).items()}
        self._default: Behaviour = Echo() if default is None else default
        self._clock = clock

    def queue(self, key: str, *behaviours: Behaviour) -> None:
        """Append behaviours for a step id (or `step[item]`)."""
        self._queues.setdefault(key, deque()).extend(behaviours)

    def calls(self, step_id: str) -> list[StepRequest]:
        return [r for r in self.requests if r.step_id == step_id]

    def contained(self, skill: BoundSkill) -> bool:
        """What the runner tells the engine (see `orchestrator.engine.attempt.contained`)."""
        return self._contained

    async def run(self, request: StepRequest) -> StepOutcome:
        self.requests.append(request)
        behaviour = self._next(request)
        return await self._play(behaviour, request)

    async def aclose(self) -> None:
        self.closed = True

    def _next(self, request: StepRequest) -> Behaviour:
        keys = [request.step_id] if request.item_index is None else [f"{request.step_id}[{request.item_index}]", request.step_id]
        for key in keys:
            queue = self._queues.get(key)
            if queue:
                return queue.popleft()
        return self._default

    async def _play(self, b: Behaviour, request: StepRequest) -> StepOutcome:
        if isinstance(b, StepOutcome):
            return b
        if isinstance(b, Echo):
            return StepOutcome(output=request.input)
        if isinstance(b, Fail):
            failure = StepFailure(error_class=b.error_class, message=b.message, detail=b.detail, kind=b.kind)
            return StepOutcome(failure=failure, usage=b.usage)
        if isinstance(b, Hang):
            await asyncio.get_running_loop().create_future()
            raise AssertionError("unreachable")
        if isinstance(b, Sleep):
            if self._clock is not None:
                await self._clock.sleep(b.seconds)
            else:
                await asyncio.sleep(b.seconds)
            return await self._play(Echo() if b.then is None else b.then, request)
        if isinstance(b, Call):
            result = b.fn(request)
            if isinstance(result, (StepOutcome, Fail, Hang, Sleep, Call, Raise, Echo)):
                return await self._play(result, request)
            return StepOutcome(output=result)
        if isinstance(b, Raise):
            raise b.error
        return StepOutcome(output=b)


# -- the clock --------------------------------------------------------------------


class FakeClock:
    """Virtual time. `sleep` returns once every other task is idle, the clock moved to its deadline.

    `slept` lists the sleeps that completed (cancelled ones, such as a timeout
    that did not fire, are left out), in the order they ended.
    """

    IDLE_SPINS = 64  # turns that count as idle where the loop's run queue cannot be seen

    def __init__(self, start: float = 1_700_000_000.0, *, seed: int = 0, jitter: float | None = None) -> None:
        self._now = start
        self.start = start
        self.slept: list[float] = []
        self._heap: list[tuple[float, int, float, asyncio.Future[None]]] = []
        self._count = itertools.count()
        self._driver: asyncio.Task[None] | None = None
        self._random = random.Random(seed)
        self._jitter = jitter

    def now(self) -> float:
        return self._now

    def random(self) -> float:
        return self._jitter if self._jitter is not None else self._random.random()

    @property
    def elapsed(self) -> float:
        return self._now - self.start

    def advance(self, seconds: float) -> None:
        """Move time forward by hand (sleepers due by then wake on their next turn)."""
        self._now += seconds

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            self.slept.append(max(0.0, seconds))
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._heap, (self._now + seconds, next(self._count), seconds, fut))
        if self._driver is None or self._driver.done():
            self._driver = loop.create_task(self._drive())
        await fut

    def _live(self) -> bool:
        while self._heap and self._heap[0][3].done():  # cancelled sleeps
            heapq.heappop(self._heap)
        return bool(self._heap)

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        while self._live():
            await self._idle(loop)
            if not self._live():
                return
            deadline, _, seconds, fut = heapq.heappop(self._heap)
            self._now = max(self._now, deadline)
            self.slept.append(seconds)
            fut.set_result(None)

    async def _idle(self, loop: asyncio.AbstractEventLoop) -> None:
        """Return once no other callback is ready to run (a few turns in a row)."""
        ready = getattr(loop, "_ready", None)  # CPython's run queue; else count turns
        quiet = 0
        spins = 0
        while quiet < 3 and self._live():
            await asyncio.sleep(0)
            spins += 1
            if ready is None:
                quiet = 3 if spins >= self.IDLE_SPINS else 0
            elif len(ready) == 0:
                quiet += 1
            else:
                quiet = 0


# -- the regenerator -------------------------------------------------------------


class FakeRegenerator:
    """Answers from a queue: a string is new code, None a refused answer.

    When the queue is empty each answer is a fresh, numbered version.
    """

    def __init__(self, answers: Iterable[str | RegenerationResult | None] = (), *, usage: TokenUsage | None = None) -> None:
        self._answers: deque[str | RegenerationResult | None] = deque(answers)
        self.requests: list[RegenerationRequest] = []
        self._usage = usage or TokenUsage()

    async def regenerate(self, request: RegenerationRequest) -> RegenerationResult:
        self.requests.append(request)
        answer = self._answers.popleft() if self._answers else f"# fake version {len(self.requests)}\n"
        if isinstance(answer, RegenerationResult):
            return answer
        if answer is None:
            return RegenerationResult(code=None, rejected="the fake refused", usage=self._usage)
        return RegenerationResult(
            code=answer, code_sha256=hashlib.sha256(answer.encode()).hexdigest(), usage=self._usage
        )


# -- plans ------------------------------------------------------------------------


def fake_skill(name: str, kind: str = BuiltinKind.SCRIPT, **fields: Any) -> BoundSkill:
    values: dict[str, Any] = {
        "name": name,
        "kind": kind,
        "path": f"/nonexistent/skills/{name}",
        "origin": "dir",
        "sha256": hashlib.sha256(name.encode()).hexdigest(),
        "entry": "main.py" if kind == BuiltinKind.SCRIPT else None,
    }
    values.update(fields)
    return BoundSkill(**values)


def fake_plan(
    steps: Iterable[PlanStep],
    *,
    skills: Mapping[str, BoundSkill] | None = None,
    inputs: Iterable[PlanInput] = (),
    limits: Limits | None = None,
    name: str = "test-plan",
) -> Plan:
    """A plan of `steps`; skills they name that are not given are fake script skills."""
    step_list = tuple(steps)
    bound = dict(skills or {})
    for s in step_list:
        names = [s.skill]
        if s.policy.fallback.skill:
            names.append(s.policy.fallback.skill)
        if s.policy.compensation:
            names.append(s.policy.compensation)
        for n in names:
            bound.setdefault(n, fake_skill(n))
    from orchestrator.plan.build import seal

    plan = Plan(
        name=name,
        spec=SpecRef(path="<test>", sha256="0" * 64, format="yaml"),
        inputs=tuple(inputs),
        steps=step_list,
        skills=bound,
        limits=limits or Limits(),
    )
    return seal(plan)


__all__ = [
    "Call",
    "Echo",
    "Fail",
    "FakeClock",
    "FakeRegenerator",
    "FakeRunner",
    "Hang",
    "Raise",
    "Sleep",
    "fake_plan",
    "fake_skill",
]
