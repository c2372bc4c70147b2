"""`skillweave worker`: a Temporal worker hosting the skillweave workflow and its activities.

Any number of workers, on any number of machines, poll one task queue. Each
runs the workflow code (the engine's decisions, replayed from history as
needed) and the activities (attempts on its own runners: bwrap, MCP servers,
the model). `run_worker` returns when `stop` is set: it stops polling, lets
the attempts under way finish for up to `drain_s` seconds (then cancels them,
and Temporal runs them again elsewhere), and closes the runs' runners.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable
from datetime import timedelta

from temporalio.worker import Worker
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

from orchestrator.config import Settings
from orchestrator.temporal.activities import IDLE_S, WorkerRuntime
from orchestrator.temporal.client import connect
from orchestrator.temporal.config import TemporalSettings
from orchestrator.temporal.workflow import ItemsWorkflow, RunWorkflow

DRAIN_S = 60.0
# Modules the workflow sandbox hands through as they are: the engine's decision code
# and what it is made of hold no state a replay could see differ (see `workflow`);
# OpenTelemetry's, which the tracing interceptor uses in the workflow (its context is
# process-wide, and it records a workflow's span only when not replaying).
PASSED_THROUGH = ("orchestrator", "pydantic", "pydantic_core", "jinja2", "markupsafe", "jsonschema",
                  "referencing", "rpds", "annotated_types", "typing_inspection", "opentelemetry")


def workflow_runner() -> SandboxedWorkflowRunner:
    return SandboxedWorkflowRunner(restrictions=SandboxRestrictions.default.with_passthrough_modules(*PASSED_THROUGH))


def build_worker(
    client: object, ts: TemporalSettings, runtime: WorkerRuntime, *, max_concurrent: int | None = None,
    drain_s: float = DRAIN_S,
) -> Worker:
    return Worker(
        client,  # type: ignore[arg-type]
        task_queue=ts.task_queue,
        workflows=[RunWorkflow, ItemsWorkflow],
        activities=[runtime.attempt, runtime.regenerate, runtime.probe],
        workflow_runner=workflow_runner(),
        max_concurrent_activities=max_concurrent,
        identity=f"skillweave-worker-{os.getpid()}@{socket.gethostname()}",
        graceful_shutdown_timeout=timedelta(seconds=drain_s),
        sticky_queue_schedule_to_start_timeout=timedelta(seconds=5),
    )


async def run_worker(
    ts: TemporalSettings,
    settings: Settings,
    stop: asyncio.Event,
    *,
    max_concurrent: int | None = None,
    drain_s: float = DRAIN_S,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until `stop` is set, then drain and close (see the module docstring)."""
    client = await connect(ts)
    runtime = WorkerRuntime(settings)
    worker = build_worker(client, ts, runtime, max_concurrent=max_concurrent, drain_s=drain_s)
    reaper = asyncio.ensure_future(_close_idle_runs(runtime))
    try:
        async with worker:
            if on_ready is not None:
                on_ready(worker.config()["identity"] or "")
            await stop.wait()
    finally:
        reaper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reaper
        await runtime.aclose()


async def _close_idle_runs(runtime: WorkerRuntime) -> None:
    while True:
        await asyncio.sleep(IDLE_S / 5)
        await runtime.close_idle()
