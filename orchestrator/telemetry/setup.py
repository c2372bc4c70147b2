"""The providers, built from the standard environment, and the spans runners open (imports the SDK).

    OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER   otlp (default), console (to stderr), none; a list
    OTEL_EXPORTER_OTLP[_TRACES|_METRICS]_PROTOCOL  http/protobuf (default); grpc when its exporter
                                                   package is installed, else that signal is not
                                                   exported (one warning line); http/json: the same
    OTEL_EXPORTER_OTLP[_..]_ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION, OTEL_BSP_*, OTEL_METRIC_EXPORT_*
                                                   read by the SDK's exporters and processors
    OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES    the resource (service.name defaults to skillweave)
    OTEL_PROPAGATORS                               how context goes into `_meta` and TRACEPARENT

When the process already has SDK providers (`opentelemetry-instrument skillweave
...`), they are used as they are. Otherwise the ones made here become the global
providers, so the MCP SDK's spans (and any instrumented library's) land in the
same traces; they export what is left when the process exits.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from opentelemetry import context, metrics, propagate, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from orchestrator import __version__
from orchestrator.runner import TokenUsage
from orchestrator.telemetry.metrics import Instruments

SCOPE = "skillweave"
DEFAULT_SERVICE = "skillweave"
STATUS_TEXT_LIMIT = 300  # characters of a message kept as a span's status description
_CONTEXT_KEYS = ("traceparent", "tracestate")
Warn = Callable[[str], None]


def attributes_of(values: Mapping[str, Any]) -> dict[str, Any]:
    """Span attributes: None left out, other non-primitive values as text."""
    kept: dict[str, Any] = {}
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, (str, bool, int, float)):
            kept[name] = value
        elif isinstance(value, (tuple, list)):
            kept[name] = tuple(str(v) for v in value)
        else:
            kept[name] = str(value)
    return kept


class Note:
    """What a caller adds to the span it is in (`orchestrator.telemetry.SpanNote`)."""

    __slots__ = ("span",)

    def __init__(self, span: Span) -> None:
        self.span = span

    def set(self, attributes: Mapping[str, Any]) -> None:
        self.span.set_attributes(attributes_of(attributes))

    def fail(self, error_type: str, message: str = "") -> None:
        self.span.set_attribute("error.type", error_type)
        self.span.set_status(Status(StatusCode.ERROR, message[:STATUS_TEXT_LIMIT] or None))


class ModelCallNote(Note):
    """A model call's span: the GenAI response attributes and the client metrics."""

    __slots__ = ("_instruments", "_metric_labels")

    def __init__(self, span: Span, instruments: Instruments, metric_labels: dict[str, Any]) -> None:
        super().__init__(span)
        self._instruments = instruments
        self._metric_labels = metric_labels

    def answered(
        self, *, model: str, response_id: str, finish_reason: str | None, usage: TokenUsage, retries: int
    ) -> None:
        # the conventions count every input token, cached ones included, and name the cached ones apart
        input_tokens = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens
        self.set({
            "gen_ai.response.model": model or None,
            "gen_ai.response.id": response_id or None,
            "gen_ai.response.finish_reasons": (finish_reason,) if finish_reason else None,
            "gen_ai.usage.input_tokens": input_tokens,
            "gen_ai.usage.output_tokens": usage.output_tokens,
            "gen_ai.usage.cache_read.input_tokens": usage.cache_read_tokens,
            "gen_ai.usage.cache_creation.input_tokens": usage.cache_write_tokens,
            "skillweave.llm.retries": retries,
        })
        if model:
            self._metric_labels["gen_ai.response.model"] = model
        for kind, count in (("input", input_tokens), ("output", usage.output_tokens)):
            self._instruments.tokens.record(count, {**self._metric_labels, "gen_ai.token.type": kind})


class Telemetry:
    """A tracer and the run instruments, over the providers given (None: that signal is off)."""

    def __init__(self, tracer_provider: TracerProvider | None, meter_provider: MeterProvider | None) -> None:
        self.tracer_provider = tracer_provider
        self.meter_provider = meter_provider
        self.tracer: trace.Tracer = (
            tracer_provider.get_tracer(SCOPE, __version__) if tracer_provider is not None else trace.NoOpTracer()
        )
        meter = meter_provider.get_meter(SCOPE, __version__) if meter_provider is not None else metrics.NoOpMeter(SCOPE)
        self.instruments = Instruments(meter)

    @contextlib.contextmanager
    def span(
        self, name: str, attributes: Mapping[str, Any], kind: SpanKind = SpanKind.INTERNAL, *, quote: bool = True
    ) -> Iterator[Note]:
        """A child span of the current one; an exception out of the block is its error (its
        message too, unless not `quote`: it may hold what a redactor would have replaced)."""
        with self.tracer.start_as_current_span(
            name, kind=kind, attributes=attributes_of(attributes), record_exception=False,
            set_status_on_exception=False,
        ) as span:
            note = Note(span)
            try:
                yield note
            except BaseException as exc:
                note.fail(type(exc).__name__, str(exc) if quote else "")
                raise

    def tool_call(self, server: str, tool: str) -> contextlib.AbstractContextManager[Note]:
        return self.span(f"execute_tool {tool}", {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "gen_ai.tool.type": "extension",
            "mcp.method.name": "tools/call",
            "skillweave.mcp.server": server,
        }, quote=False)

    @contextlib.contextmanager
    def model_call(
        self, provider: str, model: str, *, max_tokens: int, server: str | None, mode: str
    ) -> Iterator[ModelCallNote]:
        where = urlsplit(server) if server else None
        labels: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": provider,
            "gen_ai.request.model": model,
        }
        started = time.perf_counter()
        error: str | None = None
        with self.tracer.start_as_current_span(
            f"chat {model}", kind=SpanKind.CLIENT, record_exception=False, set_status_on_exception=False,
            attributes=attributes_of({
                **labels,
                "gen_ai.system": provider,  # the older name, which many backends still read
                "gen_ai.request.max_tokens": max_tokens,
                "server.address": where.hostname if where else None,
                "server.port": where.port if where else None,
                "skillweave.llm.mode": mode,
            }),
        ) as span:
            call = ModelCallNote(span, self.instruments, labels)
            try:
                yield call
            except BaseException as exc:
                error = type(exc).__name__
                call.fail(error, str(exc))
                raise
            finally:
                done = dict(labels) if error is None else {**labels, "error.type": error}
                self.instruments.model_duration.record(time.perf_counter() - started, done)

    def environment(self) -> dict[str, str]:
        """The current context as the environment variables of a child process."""
        carrier: dict[str, str] = {}
        propagate.inject(carrier)
        return {key.upper(): value for key, value in carrier.items() if key.lower() in _CONTEXT_KEYS}

    def temporal_interceptors(self) -> list[Any]:
        from temporalio.contrib.opentelemetry import TracingInterceptor

        return [TracingInterceptor(self.tracer)]

    def shutdown(self) -> None:
        """Export what is left and stop (the global providers do it themselves at exit)."""
        if self.tracer_provider is not None:
            self.tracer_provider.shutdown()
        if self.meter_provider is not None:
            self.meter_provider.shutdown()


# -- from the environment ----------------------------------------------------------


def _names(environ: Mapping[str, str], variable: str) -> list[str]:
    raw = environ.get(variable, "").strip() or "otlp"
    return [name.strip().lower() for name in raw.split(",") if name.strip()]


def _protocol(environ: Mapping[str, str], signal: str) -> str:
    return (
        environ.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_PROTOCOL", "").strip()
        or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "").strip()
        or "http/protobuf"
    ).lower()


def _otlp_exporter(environ: Mapping[str, str], signal: str, warn: Warn) -> Any:
    """The OTLP exporter of `signal` (traces | metrics) for the configured protocol, or None."""
    protocol = _protocol(environ, signal)
    kind = "trace" if signal == "traces" else "metric"
    if protocol == "http/protobuf":
        package, module = "opentelemetry-exporter-otlp-proto-http", f"opentelemetry.exporter.otlp.proto.http.{kind}_exporter"
    elif protocol == "grpc":
        package, module = "opentelemetry-exporter-otlp-proto-grpc", f"opentelemetry.exporter.otlp.proto.grpc.{kind}_exporter"
    else:
        warn(f"OTLP protocol {protocol!r} is not supported (http/protobuf or grpc): {signal} are not exported")
        return None
    try:
        found = __import__(module, fromlist=["_"])
    except ImportError:
        warn(f"OTLP over {protocol} needs {package}, which is not installed: {signal} are not exported "
             f"(install it, or set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)")
        return None
    return found.OTLPSpanExporter() if signal == "traces" else found.OTLPMetricExporter()


def _span_exporters(environ: Mapping[str, str], warn: Warn) -> list[SpanExporter]:
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter

    found: list[SpanExporter] = []
    for name in _names(environ, "OTEL_TRACES_EXPORTER"):
        if name == "otlp":
            exporter = _otlp_exporter(environ, "traces", warn)
            if exporter is not None:
                found.append(exporter)
        elif name == "console":
            found.append(ConsoleSpanExporter(out=sys.stderr))
        elif name != "none":
            warn(f"OTEL_TRACES_EXPORTER={name} is not supported (otlp, console, none): ignored")
    return found


def _metric_readers(environ: Mapping[str, str], warn: Warn) -> list[MetricReader]:
    from opentelemetry.sdk.metrics.export import ConsoleMetricExporter

    found: list[MetricReader] = []
    for name in _names(environ, "OTEL_METRICS_EXPORTER"):
        exporter: Any = None
        if name == "otlp":
            exporter = _otlp_exporter(environ, "metrics", warn)
        elif name == "console":
            exporter = ConsoleMetricExporter(out=sys.stderr)
        elif name != "none":
            warn(f"OTEL_METRICS_EXPORTER={name} is not supported (otlp, console, none): ignored")
        if exporter is not None:
            found.append(PeriodicExportingMetricReader(exporter))
    return found


def resource() -> Resource:
    """skillweave's resource under what OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say."""
    ours = Resource({"service.name": DEFAULT_SERVICE, "service.version": __version__})
    told = Resource.create()  # with a service.instance.id of this process (each counts from zero)
    name = str(told.attributes.get("service.name", ""))
    if name.startswith("unknown_service"):  # the SDK's placeholder: nobody named the service
        told = Resource({k: v for k, v in told.attributes.items() if k != "service.name"}, told.schema_url)
    return ours.merge(told)


def build(
    span_processors: list[SpanProcessor], metric_readers: list[MetricReader], *, register: bool = False
) -> Telemetry:
    """Telemetry over new providers (no processor: no traces; no reader: no metrics)."""
    res = resource()
    tracer_provider = None
    if span_processors:
        tracer_provider = TracerProvider(resource=res)
        for processor in span_processors:
            tracer_provider.add_span_processor(processor)
    meter_provider = MeterProvider(resource=res, metric_readers=metric_readers) if metric_readers else None
    if register:
        if tracer_provider is not None:
            trace.set_tracer_provider(tracer_provider)
        if meter_provider is not None:
            metrics.set_meter_provider(meter_provider)
    return Telemetry(tracer_provider, meter_provider)


def from_environment(environ: Mapping[str, str], *, warn: Warn) -> Telemetry | None:
    """This process's telemetry as the environment says (--otel: the same, with its defaults)."""
    current_tracing, current_metrics = trace.get_tracer_provider(), metrics.get_meter_provider()
    if isinstance(current_tracing, TracerProvider) or isinstance(current_metrics, MeterProvider):
        return Telemetry(  # the process was set up already (opentelemetry-instrument): join it
            current_tracing if isinstance(current_tracing, TracerProvider) else None,
            current_metrics if isinstance(current_metrics, MeterProvider) else None,
        )
    exporters = _span_exporters(environ, warn)
    readers = _metric_readers(environ, warn)
    if not exporters and not readers:
        warn("OpenTelemetry has nothing to export to: no traces or metrics are sent")
        return None
    return build([BatchSpanProcessor(e) for e in exporters], readers, register=True)


def caller_context() -> context.Context | None:
    """The caller's context for a run's first execution: the current span, else the process's
    TRACEPARENT (None: the run's trace starts here)."""
    if trace.get_current_span().get_span_context().is_valid:
        return context.get_current()
    carrier = {name.lower(): os.environ[name] for name in ("TRACEPARENT", "TRACESTATE") if name in os.environ}
    if not carrier:
        return None
    found = TraceContextTextMapPropagator().extract(carrier)
    return found if trace.get_current_span(found).get_span_context().is_valid else None
