"""What every part of one run's execution shares: plan, state, recorder, clock, runners.

`RunScope` is built once per `execute_run` and passed to the scheduler, the
recovery loop, the approval gates and the compensations. It holds no policy of
its own; it offers the small operations they all need: the time, recording,
limits, concurrency slots, and the files of the run directory.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from orchestrator.contracts import ContractChecker
from orchestrator.engine.clock import Clock
from orchestrator.engine.graph import plan_graph
from orchestrator.engine.model import Approver, RunStatus
from orchestrator.engine.recorder import Recorder
from orchestrator.engine.render import Renderer
from orchestrator.engine.runtime import RegeneratorSource, RunnerSet
from orchestrator.engine.state import RunState
from orchestrator.errors import LimitExceededError, RunError
from orchestrator.journal.events import LimitReached
from orchestrator.journal.store import Journal, write_file_atomically
from orchestrator.kinds import BoundSkill
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


@dataclass
class RunScope:
    plan: Plan
    run_id: str
    state: RunState
    recorder: Recorder
    clock: Clock
    contracts: ContractChecker
    renderer: Renderer
    runners: RunnerSet
    regenerators: RegeneratorSource
    run_dir: Path
    journal: Journal | None = None
    approver: Approver | None = None
    _slots: dict[str, asyncio.Semaphore] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _slot_of: dict[str, Slot] = field(default_factory=dict)
    contained_skills: dict[str, bool] = field(default_factory=dict)  # skill -> its runner said so (recovery)

    def __post_init__(self) -> None:
        self._steps = plan_graph(self.plan).steps

    # -- basics ----------------------------------------------------------

    def now(self) -> float:
        return self.clock.now()

    def step(self, step_id: str) -> PlanStep:
        return self._steps[step_id]

    def skill(self, name: str) -> BoundSkill:
        return self.plan.skills[name]

    def lock(self, name: str) -> asyncio.Lock:
        found = self._locks.get(name)
        if found is None:
            found = self._locks[name] = asyncio.Lock()
        return found

    # -- limits ----------------------------------------------------------

    def limit_reached(self, limit: str, message: str, *, step: str | None = None, item: int | None = None) -> LimitExceededError:
        """Record that `limit` ends the run; returns the error to raise."""
        self.recorder.emit(LimitReached(ts=self.now(), step=step, item=item, limit=limit, message=message))
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

    # -- run directory ---------------------------------------------------

    def write_file(self, relative: str, data: bytes) -> Path:
        path = self.run_dir / relative
        write_file_atomically(path, data)
        return path
