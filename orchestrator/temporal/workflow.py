"""The skillweave workflow: the engine's decision code, unchanged, as a Temporal workflow.

    RunInput ─► fold the run's first events ─► Scheduler(RunScope(plan, state, TemporalBackend)).execute()
                   ▲                                   │ paused at a gate
                   └── an `approve` update, or the ────┘ (wait; a gate's timeout is a durable timer)
                       gate's timeout, then execute again (as `skillweave resume` does)

It returns the run's `RunHistory` (its events and the files they name) and
answers the `history` query with what happened so far, from any event on. The
`approve` update records a decision on a gate that waits for one; its
validator refuses what `approve_step` refuses, with the same words.

Determinism: the workflow's code and the decision code behind the seam read
time, chance and the world only through `TemporalBackend`; the engine's modules,
pydantic and jinja2 are passed through the sandbox (they hold no state that a
replay could see differ). A change to the decision code that changes the calls
a recorded run makes breaks its replay: tests replay recorded histories
(`tests/e2e/temporal/histories/`), and a deliberate change is patched
(`workflow.patched`) or deployed under a new worker build (see docs/temporal.md).
"""

from __future__ import annotations

import asyncio
import contextlib

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from orchestrator.engine.approval import check_decision, next_gate_deadline
    from orchestrator.engine.backend import ItemOutcome, LimitHit
    from orchestrator.engine.model import RunStatus
    from orchestrator.engine.recovery import UnitResult, run_unit
    from orchestrator.engine.scheduler import Scheduler, gather_units
    from orchestrator.engine.scope import RunScope
    from orchestrator.engine.state import RunState
    from orchestrator.errors import LimitExceededError, SkillweaveError
    from orchestrator.journal.events import ApprovalDecided, Event
    from orchestrator.temporal.backend import TemporalBackend
    from orchestrator.temporal.messages import (
        ITEMS_WORKFLOW,
        QUERY_HISTORY,
        UPDATE_APPROVE,
        WORKFLOW,
        Decision,
        ItemsInput,
        ItemsResult,
        RunHistory,
        RunInput,
    )

# Past this many history events a paused run continues as a new execution
# (same workflow id, its events carried over), before Temporal's limits near.
CONTINUE_AS_NEW_EVENTS = 10_000


@workflow.defn(name=WORKFLOW)
class RunWorkflow:
    def __init__(self) -> None:
        self._events: list[Event] = []
        self._files: dict[str, str] = {}
        self._state: RunState | None = None
        self._decided = False

    @workflow.run
    async def run(self, task: RunInput) -> RunHistory:
        plan = task.plan
        state = self._state = RunState(task.run_id, plan)
        first = task.prior.events if task.prior is not None else (task.created,)
        for event in first:
            state.apply(event)
        self._events.extend(first)
        if task.prior is not None:
            self._files.update(task.prior.files)
        backend = TemporalBackend(task.run_id, plan, task.options, self._events, self._files)
        scope = RunScope(plan=plan, run_id=task.run_id, state=state, backend=backend)
        while True:
            await Scheduler(scope).execute()
            if state.status is not RunStatus.PAUSED:
                break
            await self._await_decisions(state)
            info = workflow.info()
            if info.is_continue_as_new_suggested() or info.get_current_history_length() > CONTINUE_AS_NEW_EVENTS:
                workflow.continue_as_new(task.model_copy(update={"prior": self._history(0)}))
        return self._history(0)

    async def _await_decisions(self, state: RunState) -> None:
        """Until a decision comes in, or the first open gate's timeout (durable timers)."""
        deadline = next_gate_deadline(state)
        timeout = None if deadline is None else deadline - workflow.now().timestamp()
        if timeout is None or timeout > 0:
            with contextlib.suppress(TimeoutError):  # the gate then decides by its policy
                await workflow.wait_condition(lambda: self._decided, timeout=timeout)
        self._decided = False

    def _history(self, after: int) -> RunHistory:
        return RunHistory(events=tuple(self._events[after:]), files=dict(self._files), total=len(self._events))

    @workflow.query(name=QUERY_HISTORY)
    def history(self, after: int) -> RunHistory:
        """The run's events from number `after` on (0: all), and the files they name."""
        return self._history(max(0, after))

    @workflow.update(name=UPDATE_APPROVE)
    def approve(self, decision: Decision) -> None:
        assert self._state is not None
        event = ApprovalDecided(
            ts=workflow.now().timestamp(), step=decision.step, approved=decision.approved,
            by=decision.by, comment=decision.comment,
        )
        self._state.apply(event)
        self._events.append(event)
        self._decided = True

    @approve.validator
    def _check_approve(self, decision: Decision) -> None:
        if self._state is None:
            raise ValueError("the run has not started yet")
        try:
            check_decision(self._state, decision.step, workflow.now().timestamp())
        except SkillweaveError as exc:
            raise ValueError(exc.message) from None


@workflow.defn(name=ITEMS_WORKFLOW)
class ItemsWorkflow:
    """A part of a big `for each` step's items: each item as in the parent (`run_unit`), the
    parent's budgets and code versions folded in first; returns what it recorded."""

    @workflow.run
    async def run(self, task: ItemsInput) -> ItemsResult:
        state = RunState.replay(task.run_id, task.plan, task.state.events)
        events: list[Event] = []
        files = dict(task.state.files)
        backend = TemporalBackend(task.run_id, task.plan, task.options, events, files, parts=False)
        scope = RunScope(plan=task.plan, run_id=task.run_id, state=state, backend=backend)
        step = scope.step(task.step_id)
        units = [asyncio.ensure_future(run_unit(scope, step, index, payload)) for index, payload in task.items]
        limit: LimitHit | None = None
        ended: list[tuple[int, UnitResult]] = []
        try:
            ended = await gather_units(units)
        except LimitExceededError as exc:  # recorded in `events` already; the parent ends the run
            limit = LimitHit(limit=exc.limit, message=exc.message, where=exc.where)
        return ItemsResult(
            events=tuple(events),
            files={k: v for k, v in files.items() if task.state.files.get(k) != v},
            results=tuple(
                ItemOutcome(item=task.items[position][0], status=r.status.value, output=r.output,
                            failure=r.failure, attempt=r.attempt)
                for position, r in ended
            ),
            limit=limit,
        )
