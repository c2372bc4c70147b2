"""Starting, following, deciding and reading runs on Temporal (the client side).

A run on Temporal is one workflow execution whose workflow id is the run id.
Nothing about it is kept outside Temporal: its plan is the workflow's input,
its events and files are the workflow's memory, read by the `history` query
while it runs (or is closed but not completed) and from its result once
completed. So `runs`, `runs show`, `approve` and `resume` read Temporal, never
a journal of their own. A query is answered by a worker; with none running,
reading a run that is not completed fails and says so.

Every client (and so every worker built on one) carries
`telemetry.temporal_interceptors()`: with telemetry on in the process, the
workflow and its activities continue the trace of the command that started
the run (see `orchestrator.telemetry`); with it off, none.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import (
    Client,
    WorkflowExecutionStatus,
    WorkflowHandle,
    WorkflowQueryFailedError,
    WorkflowUpdateFailedError,
)
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from orchestrator import telemetry
from orchestrator.config import Settings
from orchestrator.engine.model import RunEvent, RunStatus, RunSummary
from orchestrator.engine.recorder import describe
from orchestrator.engine.state import RunState
from orchestrator.errors import ConfigError, NotFoundError, UserError
from orchestrator.journal.events import Event
from orchestrator.plan.model import Plan
from orchestrator.temporal.blobs import data_converter
from orchestrator.temporal.config import TemporalSettings
from orchestrator.temporal.messages import (
    QUERY_HISTORY,
    UPDATE_APPROVE,
    WORKFLOW,
    Decision,
    RunHistory,
    RunInput,
    RunOptions,
)

QUERY_TIMEOUT = timedelta(seconds=15)
FOLLOW_EVERY_S = (0.05, 0.5)  # the follower's poll interval: from, growing to
OPEN = WorkflowExecutionStatus.RUNNING


async def connect(ts: TemporalSettings) -> Client:
    """A client of `ts.address`; ConfigError naming it when nothing answers there."""
    try:
        return await Client.connect(ts.address, namespace=ts.namespace, data_converter=data_converter(ts.blob_dir),
                                    interceptors=telemetry.temporal_interceptors())
    except RuntimeError as exc:  # the core SDK's connection error
        found = re.search(r'message: "([^"]+)"', str(exc))
        why = found.group(1).lower() if found else str(exc)
        raise ConfigError(f"cannot reach the Temporal server at {ts.address} ({why})", where=ts.address) from None


def run_options(settings: Settings, ts: TemporalSettings) -> RunOptions:
    """The per-run settings the workers need, paths made absolute."""

    def absolute(path: Path | None) -> str | None:
        return str(Path(path).resolve()) if path is not None else None

    return RunOptions(
        mcp_config=absolute(settings.mcp_config), llm_replay=absolute(settings.llm_replay),
        llm_record=absolute(settings.llm_record), model=settings.model,
        require_isolation=settings.require_isolation or None, heartbeat_timeout_s=ts.heartbeat_timeout_s,
        items_per_child=ts.items_per_child,
    )


async def start_run(
    client: Client, ts: TemporalSettings, plan: Plan, inputs: dict[str, Any], settings: Settings,
    *, run_id: str | None = None,
) -> str:
    """Validate as `create_run` does and start the run's workflow; returns the run id."""
    from orchestrator.engine import prepare_run

    rid, stored, created = prepare_run(plan, inputs, settings, run_id=run_id)
    task = RunInput(run_id=rid, plan=stored, created=created, options=run_options(settings, ts))
    try:
        await client.start_workflow(
            WORKFLOW, task, id=rid, task_queue=ts.task_queue,
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
            id_conflict_policy=WorkflowIDConflictPolicy.FAIL,
            memo={"plan_name": plan.name, "plan_sha256": created.plan_sha256},
        )
    except RPCError as exc:
        if exc.status is RPCStatusCode.ALREADY_EXISTS:
            raise UserError(f"run {rid} already exists", where=rid) from None
        raise
    return rid


# -- reading ------------------------------------------------------------------


class TemporalRun:
    """One run as Temporal has it: its plan, what it recorded, and its execution's status."""

    def __init__(self, run_id: str, plan: Plan, history: RunHistory, status: WorkflowExecutionStatus) -> None:
        self.run_id = run_id
        self.plan = plan
        self.history = history
        self.execution = status

    def state(self) -> RunState:
        return RunState.replay(self.run_id, self.plan, self.history.events)

    def summary(self) -> RunSummary:
        summary = self.state().summary()
        if self.execution is not OPEN and self.execution is not WorkflowExecutionStatus.COMPLETED:
            note = f"its Temporal workflow is {self.execution.name.lower()}"
            summary = summary.model_copy(update={"notes": (*summary.notes, note)})
        return summary


def _handle(client: Client, run_id: str) -> WorkflowHandle[Any, RunHistory]:
    return client.get_workflow_handle(run_id, result_type=RunHistory)


async def _status(handle: WorkflowHandle[Any, RunHistory]) -> WorkflowExecutionStatus:
    try:
        described = await handle.describe()
    except RPCError as exc:
        if exc.status is RPCStatusCode.NOT_FOUND:
            raise NotFoundError(f"no run {handle.id!r} on Temporal", where=handle.id) from None
        raise
    if described.status is None:
        return OPEN
    return described.status


async def run_input(handle: WorkflowHandle[Any, RunHistory]) -> RunInput:
    """The input the run's (latest) execution was started with: its first history event."""
    async for event in handle.fetch_history_events(page_size=1):
        if event.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
            payloads = event.workflow_execution_started_event_attributes.input.payloads
            [found] = await handle._client.data_converter.decode(payloads, [RunInput])
            return found  # type: ignore[no-any-return]
        break
    raise NotFoundError(f"run {handle.id} has no start event on Temporal", where=handle.id)


async def query_history(handle: WorkflowHandle[Any, RunHistory], after: int = 0) -> RunHistory:
    try:
        found: RunHistory = await handle.query(QUERY_HISTORY, after, result_type=RunHistory, rpc_timeout=QUERY_TIMEOUT)
        return found
    except (WorkflowQueryFailedError, RPCError) as exc:
        raise ConfigError(
            f"run {handle.id}: no skillweave worker answered ({exc}); is a worker polling its task queue?",
            where=handle.id,
        ) from None


async def read_run(client: Client, run_id: str) -> TemporalRun:
    handle = _handle(client, run_id)
    status = await _status(handle)
    started = await run_input(handle)
    if status is WorkflowExecutionStatus.COMPLETED:
        history = await handle.result()
    else:
        history = await query_history(handle)
    return TemporalRun(run_id, started.plan, history, status)


async def list_runs(client: Client, limit: int, task_queue: str) -> list[RunSummary]:
    """The latest `limit` runs of `task_queue` on Temporal, newest first (outputs left out, as a
    listing does)."""
    found: list[RunSummary] = []
    query = f"WorkflowType = '{WORKFLOW}' AND TaskQueue = '{task_queue.replace(chr(39), '')}'"
    async for execution in client.list_workflows(query, limit=limit):
        try:
            summary = (await read_run(client, execution.id)).summary()
        except (ConfigError, NotFoundError) as exc:
            memo = await execution.memo()
            summary = RunSummary(
                run_id=execution.id, plan_name=str(memo.get("plan_name", "?")),
                plan_sha256=str(memo.get("plan_sha256", "")), status=RunStatus.RUNNING,
                created_at=execution.start_time.timestamp(), notes=(exc.message,),
            )
        found.append(summary.model_copy(update={"outputs": {}}))
    return found


# -- following ----------------------------------------------------------------


def _announce(run_id: str, event: Event, on_event: Callable[[RunEvent], None]) -> None:
    on_event(
        RunEvent(
            run_id=run_id, type=event.type, step=event.step, item=event.item, attempt=event.attempt,
            message=describe(event), status=getattr(event, "status", None), ts=event.ts,
        )
    )


async def follow(
    client: Client, run_id: str, plan: Plan, on_event: Callable[[RunEvent], None] | None = None,
    *, seen: int = 0,
) -> TemporalRun:
    """Until the run finishes or pauses: each new event to `on_event`; then the run as read then."""
    handle = _handle(client, run_id)
    state = RunState(run_id, plan)
    events: list[Event] = []
    delay = FOLLOW_EVERY_S[0]
    while True:
        history = await query_history(handle, len(events))
        for event in history.events:
            state.apply(event)
            events.append(event)
            if on_event is not None and len(events) > seen:
                _announce(run_id, event, on_event)
        if state.status.finished or state.status is RunStatus.PAUSED:
            status = OPEN if state.status is RunStatus.PAUSED else await _status(handle)
            return TemporalRun(run_id, plan, RunHistory(events=tuple(events), files=history.files,
                                                          total=len(events)), status)
        if not history.events:
            status = await _status(handle)
            if status is not OPEN:  # cancelled, terminated or failed: it will record no more
                final = await query_history(handle)
                return TemporalRun(run_id, plan, final, status)
        delay = FOLLOW_EVERY_S[0] if history.events else min(FOLLOW_EVERY_S[1], delay * 2)
        await asyncio.sleep(delay)


# -- acting on a run ------------------------------------------------------------


async def approve(
    client: Client, run_id: str, step: str, *, reject: bool = False, comment: str | None = None,
    by: str | None = None,
) -> None:
    """Decide a gate; refused (UserError, NotFoundError) as `approve_step` refuses."""
    handle = _handle(client, run_id)
    status = await _status(handle)
    if status is not OPEN:
        raise UserError(f"run {run_id} is not running on Temporal ({status.name.lower()})", where=run_id)
    try:
        await handle.execute_update(UPDATE_APPROVE, Decision(step=step, approved=not reject, by=by, comment=comment))
    except WorkflowUpdateFailedError as exc:
        message = str(exc.cause.message if hasattr(exc.cause, "message") else exc.cause)
        if "has no step" in message:
            raise NotFoundError(message, where=f"{run_id}/{step}") from None
        raise UserError(message, where=f"{run_id}/{step}") from None


async def cancel(client: Client, run_id: str) -> None:
    await _handle(client, run_id).cancel()


async def resume(client: Client, ts: TemporalSettings, run_id: str) -> tuple[Plan, int, TemporalRun | None]:
    """Make the run go on: a paused or running one is followed again (an approval already
    lets it go on by itself); a cancelled, terminated or failed one is started anew with what
    it recorded (completed steps are not run again); a completed one is only read.
    Returns the plan, how many events were there before, and the run when it is completed."""
    handle = _handle(client, run_id)
    status = await _status(handle)
    started = await run_input(handle)
    if status is OPEN:
        return started.plan, 0, None
    if status is WorkflowExecutionStatus.COMPLETED:
        return started.plan, 0, TemporalRun(run_id, started.plan, await handle.result(), status)
    prior = await query_history(handle)
    task = started.model_copy(update={"prior": prior})
    await client.start_workflow(
        WORKFLOW, task, id=run_id, task_queue=ts.task_queue,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
        memo={"plan_name": started.plan.name, "plan_sha256": started.created.plan_sha256},
    )
    return started.plan, len(prior.events), None
