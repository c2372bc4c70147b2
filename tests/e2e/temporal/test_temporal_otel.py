"""Traces across Temporal: the client, the workflow and its activities are one trace.

The first test drives the telemetry hook (`telemetry.temporal_interceptors()`)
with an in-process worker and an in-memory exporter; the second runs real
`skillweave worker` and `skillweave run --backend temporal` processes that
export to a local OTLP/HTTP receiver: the caller's TRACEPARENT reaches the
worker's activity, its sandbox span and the script the sandbox starts. Both
use the session's dev server.
"""

from __future__ import annotations

import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from temporal_kit import Kit
from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from orchestrator import telemetry
from orchestrator.telemetry.setup import build
from orchestrator.temporal.messages import ATTEMPT, WORKFLOW

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/e2e: the OTLP receiver
from otlp_receiver import OtlpReceiver, Span

pytestmark = pytest.mark.e2e

TRACED = Path(__file__).resolve().parent / "specs" / "traced.yaml"
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


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


async def test_a_temporal_workflow_and_its_activities_continue_the_trace_of_their_starter(
    temporal_address: str,
) -> None:
    exporter = InMemorySpanExporter()
    made = build([SimpleSpanProcessor(exporter)], [InMemoryMetricReader()])
    queue = f"otel-{uuid.uuid4().hex[:8]}"
    with telemetry.use(made):
        client = await Client.connect(temporal_address, interceptors=telemetry.temporal_interceptors())
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


def _one(spans: list[Span], name: str) -> Span:
    found = [s for s in spans if s.name == name]
    assert len(found) == 1, (name, sorted(s.name for s in spans))
    return found[0]


def test_a_run_on_temporal_continues_its_caller_s_trace_in_the_worker_down_to_the_script(kit: Kit) -> None:
    with OtlpReceiver() as otlp:
        otel = {"OTEL_EXPORTER_OTLP_ENDPOINT": otlp.url, "OTEL_METRICS_EXPORTER": "none",
                "OTEL_SERVICE_NAME": "skillweave-e2e"}
        worker = kit.worker("w1", "--otel", **otel)
        code, summary = kit.run_json("run", TRACED, "--input", "note=hi",
                                     TRACEPARENT=f"00-{CALLER_TRACE}-{CALLER_SPAN}-01", **otel)
        assert code == 0, summary
        kit.stop_workers()  # a worker exports what it has left as it stops
        assert worker.process.returncode == 0, worker.output()
        spans = otlp.spans()

    start = _one(spans, f"StartWorkflow:{WORKFLOW}")
    assert (start.trace_id, start.parent_id) == (CALLER_TRACE, CALLER_SPAN)  # the client joined its caller
    ran = _one(spans, f"RunActivity:{ATTEMPT}")
    sandbox = _one(spans, "sandbox trace-context")
    assert {s.trace_id for s in spans} == {CALLER_TRACE}
    assert sandbox.parent_id == ran.span_id  # the runner's span hangs under the activity's, in the worker
    assert _one(spans, f"RunWorkflow:{WORKFLOW}").resource["service.instance.id"] == ran.resource["service.instance.id"]
    assert start.resource["service.instance.id"] != ran.resource["service.instance.id"]  # two processes
    _, trace_id, span_id, _ = summary["outputs"]["context"]["traceparent"].split("-")
    assert (trace_id, span_id) == (CALLER_TRACE, sandbox.span_id)  # and the script can continue it
