"""OpenTelemetry for runs: a trace per run and the run metrics, through the standard `OTEL_*` environment.

When. Telemetry is on in a process when an exporter is configured, read once
from the environment on the first run (so `skillweave serve` follows it too):
an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the `_TRACES_`/`_METRICS_` one)
or an exporter named in `OTEL_TRACES_EXPORTER`/`OTEL_METRICS_EXPORTER` (`otlp`,
`console`; `none` turns a signal off); `--otel` (`enable`) turns it on without
any (OTLP/HTTP to http://localhost:4318). `OTEL_SDK_DISABLED=true` wins over
both. Otherwise nothing of this package but this module and `scope` is
imported, and no OpenTelemetry module either: every helper below is a no-op
that costs a function call. The packages are the `otel` extra; when telemetry is asked for
and they are missing, one warning line says so and the run goes on.

What a run exports (`orchestrator.telemetry.tracing`, from the events the
engine records, so every backend that records them gets the same tree; a run's
scope takes its backend through `orchestrator.telemetry.scope.observe`):

    run <plan>                        one per execution (a resume is a new one, same trace)
      step <id>                       step_ready → step_finished (or skipped)
        attempt <id>                  attempt_started → output_stored / attempt_failed
          sandbox <skill>             a script in the sandbox     (`orchestrator.runners.script`)
          execute_tool <tool>         an MCP tools/call           (`orchestrator.mcp_client.runner`)
            MCP send tools/call ...   the MCP SDK's client span, whose context goes in `_meta`
          chat <model>                a model call (GenAI names)  (`orchestrator.llm.client`)
        regenerate <id>               a repair: its `chat` call under it
      compensate <id>                 a compensation attempt, after the run failed

Retries, regenerations, fallbacks, feedback, approvals and handoff checks are
span events on their step (handoffs of an output on their attempt); limits,
compensations and the failing of the run on the run span. A failed attempt's
span has status ERROR, `error.type` = its error class and `skillweave.error.kind`.

Trace context. The first traced execution of a run keeps its span's context
in the run directory (`TRACE_FILE`); a resume parents its run span there, so
the whole run is one trace. A first execution joins the caller's trace: the
current span (a `tools/call` of `skillweave serve` whose `_meta` carried one)
or the process's `TRACEPARENT`/`TRACESTATE`. Inside a run, the context goes
to MCP servers in the request's `_meta` (`traceparent`, `tracestate`: the MCP
SDK injects the current span's through the global tracer provider, which the
setup from the environment registers) and to scripts as `TRACEPARENT`/
`TRACESTATE` in their environment (`environment()`), so a skill can continue
the trace.

Metrics (`orchestrator.telemetry.metrics`): the seed's four (workflow success
rate, retry burden, queue delay, handoff accuracy) as counters and histograms
whose ratios give them, per-step durations, and the GenAI client metrics.

Temporal. The Temporal backend connects its client with
`Client.connect(..., interceptors=telemetry.temporal_interceptors())` (the
workers built from that client inherit it): temporalio's `TracingInterceptor`
over the same tracer, [] when telemetry is off. Its StartWorkflow/RunWorkflow/
StartActivity/RunActivity spans then continue the trace of the command that
started the run (which runs its client `joined()` to its caller's trace, as a
local run's span does), and an attempt's runner spans (sandbox, MCP, model)
and a script's TRACEPARENT hang under its RunActivity span, in the worker that
made it. The workflow itself must not be wrapped by `observe` (spans from a
replayed workflow would repeat). Those commands end with `os._exit`, so they
call `shutdown()` first.

This module is the facade the runners call: it imports nothing of the engine
(the engine imports `scope`, which imports `tracing`; `joined`, which only
commands call, imports `tracing` when telemetry is on). The process-wide state
it keeps (`_PROCESS`) mirrors OpenTelemetry's own global providers.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from orchestrator.runner import TokenUsage
    from orchestrator.telemetry.setup import Telemetry

__all__ = [
    "TRACE_FILE",
    "ModelCall",
    "SpanNote",
    "active",
    "enable",
    "environment",
    "joined",
    "model_call",
    "requested",
    "shutdown",
    "span",
    "temporal_interceptors",
    "tool_call",
    "use",
]

ENV_SDK_DISABLED = "OTEL_SDK_DISABLED"
ENDPOINT_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
)
EXPORTER_VARIABLES = ("OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER")
TRACE_FILE = "trace.json"  # in the run directory: the context the run's first traced execution had
EXTRA_HINT = "pip install 'skillweave[otel]'"


def _true(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def requested(environ: Mapping[str, str] = os.environ) -> str | None:
    """The variable that asks for telemetry (None: nothing does, or OTEL_SDK_DISABLED=true)."""
    if _true(environ.get(ENV_SDK_DISABLED)):
        return None
    for name in ENDPOINT_VARIABLES:
        if environ.get(name, "").strip():
            return name
    for name in EXPORTER_VARIABLES:
        if environ.get(name, "").strip().lower() not in ("", "none"):
            return name
    return None


def warn(message: str) -> None:
    """One line on stderr (stdout may be a `--json` document or the MCP stdio stream)."""
    print(f"skillweave: warning: {message}", file=sys.stderr, flush=True)


class _Process:
    """Whether this process has looked at its environment yet, and what it set up."""

    checked = False
    telemetry: Telemetry | None = None


_PROCESS = _Process()


def _start(why: str, environ: Mapping[str, str]) -> Telemetry | None:
    try:
        from orchestrator.telemetry.setup import from_environment
    except ImportError as exc:  # the extra is not installed
        warn(f"{why} asks for OpenTelemetry, but {exc.name or 'its packages'} is not installed "
             f"({EXTRA_HINT}); the run goes on without traces and metrics")
        return None
    return from_environment(environ, warn=warn)


def active() -> Telemetry | None:
    """This process's telemetry, None when it is off (the first call reads the environment)."""
    if not _PROCESS.checked:
        _PROCESS.checked = True
        why = requested()
        if why is not None:
            _PROCESS.telemetry = _start(why, os.environ)
    return _PROCESS.telemetry


def enable(environ: Mapping[str, str] = os.environ, *, asked_by: str = "telemetry.enable()") -> Telemetry | None:
    """On even without an exporter in the environment (OTLP/HTTP, its default endpoint).

    `asked_by` is how the caller names its request in a warning (the CLI: its `--otel`)."""
    if _PROCESS.telemetry is not None:
        return _PROCESS.telemetry
    _PROCESS.checked = True
    if _true(environ.get(ENV_SDK_DISABLED)):
        warn(f"{asked_by} is ignored: {ENV_SDK_DISABLED}=true")
        return None
    _PROCESS.telemetry = _start(asked_by, environ)
    return _PROCESS.telemetry


def shutdown() -> None:
    """Export what is left and stop, if this process started telemetry (a process that ends
    with `os._exit`, skipping the providers' own exit hooks, calls it first)."""
    found = _PROCESS.telemetry
    if found is not None:
        try:
            found.shutdown()
        except Exception as exc:  # an exporter that fails at the end never fails the command
            warn(f"telemetry could not export its last spans: {type(exc).__name__}: {exc}")


@contextlib.contextmanager
def use(telemetry: Telemetry | None) -> Iterator[Telemetry | None]:
    """Make `telemetry` this process's for a while (tests; embedders with their own providers)."""
    saved = _PROCESS.checked, _PROCESS.telemetry
    _PROCESS.checked, _PROCESS.telemetry = True, telemetry
    try:
        yield telemetry
    finally:
        _PROCESS.checked, _PROCESS.telemetry = saved


# -- what runners call (no-ops when off) ------------------------------------------


class SpanNote(Protocol):
    """What a caller may add to the span it is in."""

    def set(self, attributes: Mapping[str, Any]) -> None: ...

    def fail(self, error_type: str, message: str = "") -> None: ...


class ModelCall(SpanNote, Protocol):
    def answered(
        self, *, model: str, response_id: str, finish_reason: str | None, usage: TokenUsage, retries: int
    ) -> None: ...


class _Nothing:
    """The span of a process without telemetry: takes notes, keeps none."""

    def set(self, attributes: Mapping[str, Any]) -> None:
        return None

    def fail(self, error_type: str, message: str = "") -> None:
        return None

    def answered(
        self, *, model: str, response_id: str, finish_reason: str | None, usage: TokenUsage, retries: int
    ) -> None:
        return None


_NOTHING = _Nothing()


@contextlib.contextmanager
def span(name: str, attributes: Mapping[str, Any] | None = None) -> Iterator[SpanNote]:
    """A child span of the current one, current inside the block; its error when the block raises."""
    telemetry = active()
    if telemetry is None:
        yield _NOTHING
        return
    with telemetry.span(name, attributes or {}) as note:
        yield note


@contextlib.contextmanager
def tool_call(server: str, tool: str) -> Iterator[SpanNote]:
    """The span of one MCP `tools/call` (GenAI `execute_tool`)."""
    telemetry = active()
    if telemetry is None:
        yield _NOTHING
        return
    with telemetry.tool_call(server, tool) as note:
        yield note


@contextlib.contextmanager
def model_call(provider: str, model: str, *, max_tokens: int, server: str | None, mode: str) -> Iterator[ModelCall]:
    """The span of one model call (GenAI `chat`) and its token and duration metrics."""
    telemetry = active()
    if telemetry is None:
        yield _NOTHING
        return
    with telemetry.model_call(provider, model, max_tokens=max_tokens, server=server, mode=mode) as call:
        yield call


def environment() -> dict[str, str]:
    """The current span's context as environment variables (`TRACEPARENT`, `TRACESTATE`); {} when off."""
    telemetry = active()
    return {} if telemetry is None else telemetry.environment()


@contextlib.contextmanager
def joined() -> Iterator[None]:
    """The caller's trace context current inside the block: the current span's, else the process's
    `TRACEPARENT`/`TRACESTATE` (a command whose spans others make, e.g. Temporal's interceptors
    starting a run's workflow, joins its caller's trace). Nothing when telemetry is off."""
    if active() is None:
        yield
        return
    # only a command gets here, never a runner
    from opentelemetry import context

    from orchestrator.telemetry.setup import caller_context

    found = caller_context()
    if found is None:
        yield
        return
    token = context.attach(found)
    try:
        yield
    finally:
        context.detach(token)


def temporal_interceptors() -> list[Any]:
    """temporalio's tracing interceptor for a client and a worker, [] when telemetry is off."""
    telemetry = active()
    return [] if telemetry is None else telemetry.temporal_interceptors()
