"""Recording events for the local backend: committed to the journal in groups.

`record` queues an event the engine has folded into the run's state (`emit`
folds and queues); `await commit()` returns when
every event emitted so far is durable. The first commit of a turn of the event
loop writes at once, in its caller; the commits requested after it in the same
turn share one transaction at the start of the next turn (group commit), so a
fan-out of 64 ready steps costs two writes, not 64. A task that goes on to the
next step of a chain without a trip through the loop (the scheduler's choice)
calls `next_step()`: when it wrote the turn's commit, no other task has run
since, so there is nothing to share, and its next commit writes at once too.
Events are always written in the order they were emitted, so a durable event
implies every earlier one is durable too. A write that fails leaves its events
queued: nothing is skipped, the next commit tries them again (after a timed
write failed, so does the next `soon()`, which raises if it fails too: a run of
contained steps learns of a full disk at its next step, not at its end). A listener
(`on_event`: the progress display, the MCP server's notifications) hears of an
event only once it is durable, so nothing it shows can be undone by a SIGKILL;
without a journal it hears of each event at once.

The rule the engine keeps: an event is durable before any effect outside the run
that relies on it. `await commit()` comes before a runner with outside effects
is called (an MCP tool, a model call: the attempt_started that announces it, and
with it every output the attempt may read), before a regenerated version is
used, before an approval is asked, a compensation run, or a run reported paused
or finished. What changes nothing outside the run needs no commit of its own:
`soon()` queues it for the next transaction, at most `FLUSH_DELAY_S` later. That
is a step's output, and the start of a contained attempt (a script under bwrap
without network; see `attempt.contained`), which may run on outputs not yet
durable. A SIGKILL in between loses only work that nothing outside the run saw:
it runs again on resume, as the same attempt, and nothing recorded as completed
is lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from time import monotonic

from orchestrator.engine.model import RunEvent
from orchestrator.engine.state import RunState
from orchestrator.journal.events import Event
from orchestrator.journal.store import Journal

EventSink = Callable[[RunEvent], None]
FLUSH_DELAY_S = 0.05


def describe(event: Event) -> str:
    """A one-line message for progress displays."""
    data = event.__dict__
    if event.type == "retry_scheduled":  # its error class alone would read "timeout: "
        after = f" after {data['error_class']}" if data.get("error_class") else ""
        return f"retry in {data['delay_s']:.2f}s{after}"
    for key in ("message", "reason", "error_class", "status", "action"):
        value = data.get(key)
        if value:
            text = str(value)
            if key == "error_class":
                text = f"{value}: {data.get('message', '')}"
            return text.splitlines()[0] if text else ""
    if event.type == "regeneration":
        return f"new code {str(data.get('code_sha256') or '')[:12]}" if data.get("code_path") else "refused"
    return ""


class Recorder:
    def __init__(
        self,
        run_id: str,
        state: RunState,
        journal: Journal | None,
        on_event: EventSink | None = None,
    ) -> None:
        self.run_id = run_id
        self.state = state
        self._journal = journal
        self._on_event = on_event
        self._buffer: list[Event] = []
        self._waiters: list[asyncio.Future[None]] = []
        self._scheduled = False
        self._deferred: asyncio.TimerHandle | None = None
        self._due = 0.0  # when the pending timer should fire (time.monotonic)
        self._timer_failed = False  # the timer's write failed: the next soon() writes, or raises
        self._turn_busy = False  # a commit was written in this turn of the loop
        self._turn_end_pending = False  # a callback will clear _turn_busy at the next turn
        self._turn_writer: asyncio.Task[object] | None = None  # the task that wrote in this turn
        # the first write claims the run: it fails if another process started it meanwhile
        self._claim_after: int | None = state.last_seq

    @property
    def durable(self) -> bool:
        return self._journal is not None

    def emit(self, event: Event) -> None:
        """Fold `event` into the run's state and record it."""
        self.state.apply(event)
        self.record(event)

    def record(self, event: Event) -> None:
        """Queue `event`, already folded into the state, for the next commit."""
        if self._journal is not None:
            self._buffer.append(event)  # announced to the listener once it is durable (_write)
        elif self._on_event is not None:
            self._announce(event)

    def _announce(self, event: Event) -> None:
        assert self._on_event is not None
        self._on_event(
            RunEvent(
                run_id=self.run_id,
                type=event.type,
                step=event.step,
                item=event.item,
                attempt=event.attempt,
                message=describe(event),
                status=getattr(event, "status", None),
                ts=event.ts,
                total=(sum(1 for s in self.state.steps.values() if not s.status.done) if event.type == "run_started"
                       else event.__dict__.get("items")),
            )
        )

    async def commit(self) -> None:
        """Return once every event emitted so far is durable.

        The first commit of a loop turn writes at once, in the caller (a chain of
        steps pays no round trip through the event loop); commits requested later
        in the same turn wait for one shared transaction at the start of the next
        turn (a fan-out of 64 steps costs two writes, not 64).
        """
        if self._journal is None or not self._buffer:
            return
        loop = asyncio.get_running_loop()
        if not self._turn_busy:
            self._turn_busy = True
            self._turn_writer = asyncio.current_task()
            if not self._turn_end_pending:
                self._turn_end_pending = True
                loop.call_soon(self._end_turn)
            self._write()
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        await waiter

    def soon(self) -> None:
        """Commit what is queued within FLUSH_DELAY_S, or sooner with the next commit.

        One timer serves many calls: a pending timer fires no later than a new one
        would, and finds nothing to do when a commit came first.
        """
        if self._journal is None or not self._buffer:
            return
        deferred = self._deferred
        if deferred is not None:
            # overdue: tasks that never wait (contained steps with instant answers) can
            # keep the loop from turning, and with it the timer from firing
            if monotonic() >= self._due:
                deferred.cancel()
                self._deferred = None
                self._write()
            return
        if self._timer_failed:  # nobody waited for that write: its error reaches this caller
            self._write()
            return
        self._due = monotonic() + FLUSH_DELAY_S
        self._deferred = asyncio.get_running_loop().call_later(FLUSH_DELAY_S, self._on_timer)

    def next_step(self) -> None:
        """The calling task goes on to another step without yielding to the loop.

        If this task wrote the turn's commit, its next commit writes at once, as the
        first of a turn does: no other task has run since, so none could join it.
        """
        if self._turn_busy and asyncio.current_task() is self._turn_writer:
            self._turn_busy = False

    def _end_turn(self) -> None:
        self._turn_end_pending = False
        self._turn_busy = False
        self._turn_writer = None

    def _on_timer(self) -> None:
        self._deferred = None
        if self._buffer and self._waiters:
            self._flush()
        elif self._buffer:
            try:
                self._write()
            except Exception:  # kept queued; the next soon() or commit() tries again and raises
                self._timer_failed = True

    def _flush(self) -> None:
        self._scheduled = False
        waiters, self._waiters = self._waiters, []
        try:
            self._write()
        except Exception as exc:  # handed to every waiter, which re-raises it
            for w in waiters:
                if not w.done():
                    w.set_exception(exc)
            return
        for w in waiters:
            if not w.done():
                w.set_result(None)

    def flush(self) -> None:
        """Commit what is queued, now (synchronously); the pending timer is dropped."""
        if self._deferred is not None:
            self._deferred.cancel()
            self._deferred = None
        self._write()

    def _write(self) -> None:
        if self._journal is None or not self._buffer:
            return
        events, self._buffer = self._buffer, []
        try:
            self._journal.append(self.run_id, events, unless_started_after=self._claim_after)
        except BaseException:
            self._buffer[:0] = events  # nothing was written: the next commit tries them again
            raise
        self._claim_after = None
        self._timer_failed = False
        if self._on_event is not None:
            for event in events:
                self._announce(event)
