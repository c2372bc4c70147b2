"""What the decision side of one run shares: plan, state, backend; limits and slots.

`RunScope` is built once per execution of a run (by a backend: the local one in
`orchestrator.engine.local`, the Temporal workflow) and passed to the scheduler,
the recovery loop, the approval gates and the compensations. It holds no policy
of its own; it offers the small operations they all need: the time, recording
(folded into the state, then handed to the backend), limits, concurrency slots,
and `traits(kind)`: what the decision side may rely on about a skill's kind
(`orchestrator.kinds.KindTraits`; it never reads the kind's name). Everything that
acts goes through `backend` (`orchestrator.engine.backend`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from orchestrator.contracts import ContractChecker
from orchestrator.engine.backend import Backend
from orchestrator.engine.graph import plan_graph
from orchestrator.engine.model import RunStatus
from orchestrator.engine.render import Renderer
from orchestrator.engine.state import RunState
from orchestrator.errors import LimitExceededError, RunError
from orchestrator.journal.events import Event, LimitReached
from orchestrator.kinds import BoundSkill, KindTraits, kind_registry
from orchestrator.plan.model import Plan, PlanStep


class RunAbortedError(RunError):
    """Raised out of a step to end the run: failed or escalated, with where and why."""

    code = "run_aborted"

    def __init__(self, status: RunStatus, message: str, *, where: str | None = None, limit: str | None = None):
        super().__init__(message, where=where)
        self.status = status
        self.limit = limit


class Slot:
    """Semaphores taken in a fixed order (so two slots never deadlock), released in reverse."""

    __slots__ = ("_sems",)

    def __init__(self, sems: tuple[asyncio.Semaphore, ...]) -> None:
        self._sems = sems

    async def __aenter__(self) -> None:
        taken: list[asyncio.Semaphore] = []
        try:
            for sem in self._sems:
                await sem.acquire()
                taken.append(sem)
        except BaseException:
            for sem in reversed(taken):
                sem.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        for sem in reversed(self._sems):
            sem.release()


class RunScope:
    """The decision side's view of one run; `backend` does and remembers (see there)."""

    def __init__(
        self,
        *,
        plan: Plan,
        run_id: str,
        state: RunState,
        backend: Backend,
        contracts: ContractChecker | None = None,
        renderer: Renderer | None = None,
        traits: Callable[[str], KindTraits] | None = None,
    ) -> None:
        self.plan = plan
        self.run_id = run_id
        self.state = state
        self.backend = backend
        self.contracts = contracts or ContractChecker()
        self.renderer = renderer or Renderer(plan, state.inputs)
        # what the decision side may rely on about a skill's kind (never its name)
        self.traits: Callable[[str], KindTraits] = traits or kind_registry().traits
        self._steps = plan_graph(plan).steps
        self._apply = state.apply
        self._record = backend.record
        # the backend's own, bound once: called for every event and attempt
        self.now: Callable[[], float] = backend.now
        self.sleep: Callable[[float], Awaitable[None]] = backend.sleep
        self.random: Callable[[], float] = backend.random
        self.commit: Callable[[], Awaitable[None]] = backend.commit
        self.soon: Callable[[], None] = backend.soon
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._slot_of: dict[str, Slot] = {}
        self.runner_problems: dict[str, str | None] = {}  # skill kind -> why no runner (None: one is there)

    # -- basics ----------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Fold `event` into the run's state and hand it to the backend to record."""
        self._apply(event)
        self._record(event)

    def step(self, step_id: str) -> PlanStep:
        return self._steps[step_id]

    def skill(self, name: str) -> BoundSkill:
        return self.plan.skills[name]

    def lock(self, name: str) -> asyncio.Lock:
        found = self._locks.get(name)
        if found is None:
            found = self._locks[name] = asyncio.Lock()
        return found

    async def runner_problem(self, skill: BoundSkill) -> str | None:
        """Why no runner can make an attempt of `skill` (None: one can); asked once per kind."""
        kind = skill.kind
        if kind in self.runner_problems:
            return self.runner_problems[kind]
        problem = self.runner_problems[kind] = await self.backend.runner_problem(skill)
        return problem

    # -- limits ----------------------------------------------------------

    def limit_reached(self, limit: str, message: str, *, step: str | None = None, item: int | None = None) -> LimitExceededError:
        """Record that `limit` ends the run; returns the error to raise."""
        self.emit(LimitReached(ts=self.now(), step=step, item=item, limit=limit, message=message))
        return LimitExceededError(limit, message, where=step)

    def check_attempt_limits(self, step_id: str, item: int | None) -> None:
        limits = self.plan.limits
        st = self.state.steps[step_id]
        it = st.item(item)
        used = it.attempts - it.interrupted  # an attempt a crash cut short is retried for free
        if used >= limits.max_attempts_per_step:
            raise self.limit_reached(
                "max_attempts_per_step",
                f"step {step_id} used its {limits.max_attempts_per_step} attempts (limit max_attempts_per_step)",
                step=step_id,
                item=item,
            )
        if self.state.total_attempts - self.state.interrupted_attempts >= limits.max_total_attempts:
            raise self.limit_reached(
                "max_total_attempts",
                f"the run used its {limits.max_total_attempts} attempts (limit max_total_attempts)",
                step=step_id,
                item=item,
            )
        self.check_tokens(step_id)

    def check_tokens(self, step_id: str | None = None) -> None:
        limit = self.plan.limits.max_llm_tokens
        if self.state.tokens.total > limit:
            raise self.limit_reached(
                "max_llm_tokens",
                f"the run spent {self.state.tokens.total} LLM tokens, over its {limit} (limit max_llm_tokens)",
                step=step_id,
            )

    # -- concurrency -----------------------------------------------------

    def _slot(self, key: str, size: int) -> asyncio.Semaphore:
        found = self._slots.get(key)
        if found is None:
            found = self._slots[key] = asyncio.Semaphore(size)
        return found

    def slot(self, skill: BoundSkill) -> Slot:
        """A concurrency slot for one attempt: per server, per skill, then global (fixed order)."""
        found = self._slot_of.get(skill.name)
        if found is None:
            limits = self.plan.limits
            sems: list[asyncio.Semaphore] = []
            if skill.server:
                sems.append(self._slot("server:" + skill.server, limits.per_server_concurrency))
            if limits.per_skill_concurrency:
                sems.append(self._slot("skill:" + skill.name, limits.per_skill_concurrency))
            sems.append(self._slot("*", limits.concurrency))
            found = self._slot_of[skill.name] = Slot(tuple(sems))
        return found
