"""The local backend: one process, asyncio, the SQLite journal (or none), the run directory.

`LocalBackend` implements the seam (`orchestrator.engine.backend`) with the
pieces a process has at hand: the `Recorder` (group commits to the journal),
a `Clock`, the runners of the run (`RunnerSet`), the regenerator, the run
directory for code versions and stderr logs, and an optional approver that a
host asks (the MCP server's elicitation) while another process may record the
decision in the journal (`skillweave approve`).

`local_scope` is the one place a run's scope is assembled, for `execute_run`
(journal on) and `run_in_memory` (journal off) alike; on the way out it commits
what is queued and closes the runners and the run's LLM client. When an
OpenTelemetry exporter is configured, the scope's backend is this one seen by
the tracer (`orchestrator.telemetry.scope.observe`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.engine import approval as approval_rules
from orchestrator.engine.attempt import call_runner, contained
from orchestrator.engine.backend import (
    ApprovalWait,
    PartOutcome,
    RegenerationCall,
    RegenerationReply,
)
from orchestrator.engine.clock import Clock
from orchestrator.engine.model import ApprovalDecision, ApprovalRequest, Approver, RunEvent
from orchestrator.engine.recorder import Recorder
from orchestrator.engine.runtime import RegeneratorSource, RunnerSet, UnavailableError
from orchestrator.engine.scope import RunScope
from orchestrator.engine.state import RunState
from orchestrator.engine.versions import make_version
from orchestrator.journal.events import ApprovalDecided, Event
from orchestrator.journal.store import Journal, write_file_atomically
from orchestrator.kinds import BoundSkill, KindTraits
from orchestrator.plan.model import Plan
from orchestrator.runner import Regenerator, RunnerContext, StepOutcome, StepRequest, StepRunner
from orchestrator.telemetry.scope import observe, within_run


class LocalBackend:
    """The seam's local implementation (see the module docstring)."""

    record: Callable[[Event], None]
    commit: Callable[[], Awaitable[None]]
    soon: Callable[[], None]
    next_step: Callable[[], None]
    now: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    random: Callable[[], float]

    def __init__(
        self,
        *,
        run_id: str,
        state: RunState,
        recorder: Recorder,
        clock: Clock,
        runners: RunnerSet,
        regenerators: RegeneratorSource,
        run_dir: Path,
        journal: Journal | None = None,
        approver: Approver | None = None,
    ) -> None:
        self.run_id = run_id
        self.run_dir = run_dir
        self._state = state
        self._recorder = recorder
        self._clock = clock
        self._runners = runners
        self._regenerators = regenerators
        self._journal = journal
        self._approver = approver
        self._contained: dict[str, bool] = {}  # skill -> its runner said so (asked once a run)
        # bound once: the engine calls these for every event and attempt
        self.record = recorder.record
        self.commit = recorder.commit
        self.soon = recorder.soon
        self.next_step = recorder.next_step
        self.now = clock.now
        self.sleep = clock.sleep
        self.random = clock.random

    items_per_part: int | None = None  # every `for each` item runs in this process

    def origin(self) -> tuple[int, str]:
        return os.getpid(), socket.gethostname()

    async def run_items(self, step_id: str, items: Sequence[tuple[int, Any]]) -> PartOutcome:
        raise NotImplementedError("the local backend runs every item itself (items_per_part is None)")

    # -- attempts --------------------------------------------------------

    async def runner_problem(self, skill: BoundSkill) -> str | None:
        try:
            self._runners.get(skill.kind)
        except UnavailableError as exc:
            return str(exc)
        return None

    def attempt(self, request: StepRequest, code_path: str | None) -> Awaitable[StepOutcome]:
        """The attempt's runner call (`request` names the run dir and the code to run already)."""
        skill = request.skill
        runner = self._runners.get(skill.kind)  # made when runner_problem asked
        traits = self._runners.traits(skill.kind)
        known = self._contained.get(skill.name)
        if known is None:  # asked once a run: the runner's answer does not change within it
            known = self._contained[skill.name] = contained(traits, runner, skill)
        if known:
            self.soon()  # durable within FLUSH_DELAY_S, or with the next effect's commit
            return call_runner(self.sleep, runner, request, request.timeout_s, traits)
        return self._committed_first(runner, request, traits)

    async def _committed_first(self, runner: StepRunner, request: StepRequest, traits: KindTraits) -> StepOutcome:
        await self.commit()  # before the effect, with every output it may read
        return await call_runner(self.sleep, runner, request, request.timeout_s, traits)

    def keep_stderr(self, step_id: str, item: int | None, attempt: int, text: str) -> str | None:
        if self._journal is None:
            return None
        suffix = f".{item}" if item is not None else ""
        path = f"logs/{step_id}{suffix}-{attempt}.stderr"
        self._write(path, text.encode())
        return path

    def _write(self, relative: str, data: bytes) -> None:
        write_file_atomically(self.run_dir / relative, data)

    # -- regeneration ----------------------------------------------------

    async def regeneration_problem(self) -> str | None:
        try:
            self._regenerators.get()
        except UnavailableError as exc:
            return str(exc)
        return None

    async def regenerate(self, call: RegenerationCall) -> RegenerationReply:
        try:
            regenerator = self._regenerators.get()
        except UnavailableError as exc:
            return RegenerationReply(unavailable=str(exc))
        return await make_version(regenerator, call, self.run_id, self.run_dir, self._write)

    # -- approvals -------------------------------------------------------

    async def await_approval(self, request: ApprovalRequest, left: float | None) -> ApprovalWait:
        """Ask the approver, racing the gate's timeout and a decision recorded by another
        process (`skillweave approve` while a server waits). No approver: no answer."""
        if self._approver is None:
            return ApprovalWait()
        ask = asyncio.ensure_future(self._ask(request))
        waits: list[asyncio.Future[Any]] = [ask]
        timer = asyncio.ensure_future(self.sleep(left)) if left is not None else None
        if timer is not None:
            waits.append(timer)
        poll = asyncio.ensure_future(self._recorded_elsewhere(request.step_id)) if self._journal is not None else None
        if poll is not None:
            waits.append(poll)
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                if not waiting.done():
                    waiting.cancel()
        if ask in done:
            return ApprovalWait(decision=ask.result())
        if poll is not None and poll in done:
            return ApprovalWait(elsewhere=poll.result())
        return ApprovalWait(timed_out=True)

    async def _ask(self, request: ApprovalRequest) -> ApprovalDecision | None:
        assert self._approver is not None
        try:
            return await self._approver(request)
        except asyncio.CancelledError:
            raise
        except Exception:  # the approver seam (a host's elicitation): no answer, the run pauses
            return None

    async def _recorded_elsewhere(self, step_id: str) -> ApprovalDecided:
        """A decision on `step_id` another process has recorded (polls the journal)."""
        assert self._journal is not None
        while True:
            # real time: this watches other processes, not the plan's clock
            await asyncio.sleep(approval_rules.POLL_S)
            for event in self._journal.events(self.run_id, after=self._state.last_seq):
                if isinstance(event, ApprovalDecided) and event.step == step_id:
                    return event


@contextlib.asynccontextmanager
async def local_scope(
    plan: Plan,
    state: RunState,
    settings: Settings,
    run_dir: Path,
    clock: Clock,
    *,
    journal: Journal | None = None,
    runners: Mapping[str, StepRunner] | None = None,
    regenerator: Regenerator | None = None,
    approver: Approver | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
    llm_client: object | None = None,
) -> AsyncIterator[RunScope]:
    """The scope of one execution of `state`'s run on the local backend (see the module docstring)."""
    run_id = state.run_id
    ctx = RunnerContext(settings=settings, plan=plan, run_id=run_id, run_dir=run_dir, llm_client=llm_client)
    runner_set = RunnerSet(ctx, runners)
    recorder = Recorder(run_id, state, journal, on_event)
    backend = LocalBackend(
        run_id=run_id, state=state, recorder=recorder, clock=clock, runners=runner_set,
        regenerators=RegeneratorSource(ctx, regenerator), run_dir=run_dir, journal=journal, approver=approver,
    )
    try:
        try:
            async with observe(backend, state, run_dir) as observed:  # backend itself unless traced
                with within_run(observed):  # MCP servers start while the first steps go
                    runner_set.prepare(plan, done={sid for sid, st in state.steps.items() if st.status.done})
                yield RunScope(plan=plan, run_id=run_id, state=state, backend=observed, traits=runner_set.traits)
        except BaseException:
            with contextlib.suppress(Exception):  # the first error is the one to report
                recorder.flush()
            raise
        recorder.flush()
    finally:
        try:
            await runner_set.aclose()
        finally:
            await ctx.aclose()  # the run's shared LLM client, if a runner or the regenerator made one
