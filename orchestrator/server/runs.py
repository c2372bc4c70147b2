"""Runs the server executes: each in a background task, watched by zero or more tool calls.

A tool call never executes a run in its own task. It starts (or joins) the
run's `Execution`, which lives in the server's task group, and waits for it up
to a limit. So a host that times a call out, or cancels it, only stops
*watching*: the run goes on and `get_run` sees it. When the server stops, the
task group cancels the executions; the engine records the cancellation in the
journal, so every run is left resumable.

While a call waits, it watches the execution: the engine's events reach it on a
memory stream (it turns them into progress notifications), and a client that
can be asked mid-call lends an asker that puts an approval gate to the person.
Without an asker a gate gets no answer and the run pauses.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from orchestrator.config import Settings
from orchestrator.engine.model import ApprovalDecision, ApprovalRequest, RunEvent, RunSummary
from orchestrator.errors import SkillweaveError
from orchestrator.journal.session import JournalSession
from orchestrator.runner import StepRunner
from orchestrator.server.wording import render_error

logger = logging.getLogger(__name__)

Asker = Callable[[ApprovalRequest], Awaitable[ApprovalDecision | None]]

# Events buffered per watcher before the oldest are dropped (progress is advisory).
EVENT_BUFFER = 1000


class Execution:
    """One background execution (a start or a resume) of one run."""

    def __init__(self, run_id: str, *, force: bool = False) -> None:
        self.run_id = run_id
        self.force = force  # resume even if the spec or a skill changed (execute_run's `force`)
        self.done = anyio.Event()
        self.began = anyio.Event()  # the engine announced the run (it passed the resume checks), or it ended
        self.summary: RunSummary | None = None
        self.error: str | None = None  # `where: message` when execute_run raised
        self.failure: SkillweaveError | None = None  # what execute_run raised, when it was ours
        self._watchers: list[MemoryObjectSendStream[RunEvent]] = []
        self._askers: list[Asker] = []
        self._questions: list[tuple[Asker, anyio.CancelScope]] = []  # in flight, and whose call asks it
        self.asking = 0  # questions put to a person right now
        self._settled = anyio.Event()  # set whenever no question is pending
        self._settled.set()

    def publish(self, event: RunEvent) -> None:
        """The engine's (synchronous) event callback: hand the event to every watcher."""
        self.began.set()
        for stream in list(self._watchers):
            try:
                stream.send_nowait(event)
            except anyio.WouldBlock:
                logger.debug("a watcher of run %s is behind; dropping an event", self.run_id)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._watchers.remove(stream)

    async def approve(self, request: ApprovalRequest) -> ApprovalDecision | None:
        """The engine's approver: the latest waiting caller that can ask a person, if any."""
        if not self._askers:
            return None
        asker = self._askers[-1]
        self.asking += 1
        if self.asking == 1:
            self._settled = anyio.Event()
        try:
            with anyio.CancelScope() as scope:  # withdrawn when the call that asks it ends (watched)
                question = (asker, scope)
                self._questions.append(question)
                try:
                    return await asker(request)
                finally:
                    self._questions.remove(question)
            return None  # withdrawn: no decision, so the run pauses at the gate
        finally:
            self.asking -= 1
            if self.asking == 0:
                self._settled.set()

    async def wait(self, limit_s: float) -> None:
        """Until the execution ends, or `limit_s` has passed and no person is being asked
        (a question in progress is never cut off by the limit; it has its own timeout)."""
        with anyio.move_on_after(limit_s):
            await self.done.wait()
        while not self.done.is_set() and self.asking:
            async with anyio.create_task_group() as group:

                async def end_on_done() -> None:
                    await self.done.wait()
                    group.cancel_scope.cancel()

                group.start_soon(end_on_done)
                await self._settled.wait()
                group.cancel_scope.cancel()

    @asynccontextmanager
    async def watched(self, asker: Asker | None = None) -> AsyncIterator[MemoryObjectReceiveStream[RunEvent]]:
        """Watch the execution: its events arrive on the stream until the block exits;
        `asker` (if given) answers approval gates meanwhile."""
        send, receive = anyio.create_memory_object_stream[RunEvent](EVENT_BUFFER)
        self._watchers.append(send)
        if asker is not None:
            self._askers.append(asker)
        try:
            yield receive
        finally:
            if send in self._watchers:
                self._watchers.remove(send)
            if asker is not None and asker in self._askers:
                self._askers.remove(asker)
            for owner, scope in list(self._questions):
                if owner is asker:
                    scope.cancel()
            send.close()


class RunRegistry:
    """The executions in flight in this server process, keyed by run id."""

    def __init__(self, settings: Settings, runners: Mapping[str, StepRunner] | None = None) -> None:
        self._settings = settings
        self._runners = runners  # None: each kind's built-in runner (tests pass fakes)
        self._active: dict[str, Execution] = {}
        self._group: TaskGroup | None = None
        self._journals: JournalSession | None = None  # one journal connection for every execution

    @asynccontextmanager
    async def running(self) -> AsyncIterator[RunRegistry]:
        """Own the task group for the server's lifetime; cancel what is left at exit."""
        self._journals = JournalSession()
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                try:
                    yield self
                finally:
                    self._group = None
                    group.cancel_scope.cancel()
        finally:
            journals, self._journals = self._journals, None
            journals.close()

    async def stop(self) -> None:
        """Cancel every execution and wait until each has recorded how it ended."""
        executions = list(self._active.values())
        if self._group is not None:
            self._group.cancel_scope.cancel()
        for execution in executions:
            await execution.done.wait()

    def active(self, run_id: str) -> Execution | None:
        return self._active.get(run_id)

    @property
    def active_ids(self) -> list[str]:
        return list(self._active)

    def start(self, run_id: str, *, force: bool = False) -> Execution:
        """Execute (or resume) `run_id` in the background; join it if already executing.
        `force` resumes a run whose spec or skills changed since it started."""
        existing = self._active.get(run_id)
        if existing is not None:
            return existing
        if self._group is None:
            raise RuntimeError("the run registry is not running (server lifespan not entered)")
        execution = Execution(run_id, force=force)
        self._active[run_id] = execution
        self._group.start_soon(self._execute, execution, name=f"run {run_id}")
        return execution

    async def _execute(self, execution: Execution) -> None:
        from orchestrator.engine import execute_run, journal_session

        try:
            with journal_session(self._journals):
                execution.summary = await execute_run(
                    execution.run_id,
                    self._settings,
                    runners=self._runners,
                    approver=execution.approve,
                    on_event=execution.publish,
                    force=execution.force,
                )
        except SkillweaveError as exc:
            execution.failure = exc
            execution.error = render_error(exc)
        except Exception as exc:  # the server's edge: a run's crash must not take the server down
            logger.exception("run %s crashed", execution.run_id)
            execution.error = f"internal error: {type(exc).__name__}: {exc} (a skillweave bug)"
        else:
            await anyio.to_thread.run_sync(self._save_report, execution.run_id)
        finally:
            self._active.pop(execution.run_id, None)
            execution.began.set()
            execution.done.set()

    def _save_report(self, run_id: str) -> None:
        """`report.md` in the run directory, as `skillweave run` leaves it; never fatal."""
        from orchestrator.report import write_report

        try:
            write_report(run_id, self._settings)
        except Exception:  # the server's edge: a report that cannot be written must not end the run
            logger.exception("run %s: the report could not be written", run_id)
