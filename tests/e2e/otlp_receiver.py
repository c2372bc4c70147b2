"""A local OTLP/HTTP receiver for tests: what a collector would get, decoded with opentelemetry-proto.

    with OtlpReceiver() as otlp:
        run skillweave with OTEL_EXPORTER_OTLP_ENDPOINT=otlp.url
        otlp.spans(), otlp.metrics()
"""

from __future__ import annotations

import gzip
import threading
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

_KINDS = {0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}
_STATUS = {0: "unset", 1: "ok", 2: "error"}
MAX_BODY = 16 * 1024 * 1024


def value_of(value: AnyValue) -> Any:
    which = value.WhichOneof("value")
    if which == "array_value":
        return tuple(value_of(v) for v in value.array_value.values)
    if which == "kvlist_value":
        return attributes_of(value.kvlist_value.values)
    return getattr(value, which) if which else None


def attributes_of(pairs: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for pair in pairs:
        assert isinstance(pair, KeyValue)
        found[pair.key] = value_of(pair.value)
    return found


@dataclass(frozen=True)
class Span:
    name: str
    trace_id: str
    span_id: str
    parent_id: str  # "" for a root span
    kind: str
    status: str
    status_message: str
    attributes: dict[str, Any]
    events: tuple[tuple[str, dict[str, Any]], ...]
    scope: str
    resource: dict[str, Any]

    def event(self, name: str) -> list[dict[str, Any]]:
        return [attributes for event_name, attributes in self.events if event_name == name]


@dataclass(frozen=True)
class Point:
    attributes: dict[str, Any]
    value: float | None = None  # a sum or a gauge
    count: int | None = None  # a histogram
    sum: float | None = None


@dataclass
class Metric:
    name: str
    unit: str
    kind: str
    points: list[Point] = field(default_factory=list)

    def total(self, **where: Any) -> float:
        """The sum of the values (or of the histogram counts) of the points with these attributes."""
        chosen = [p for p in self.points if all(p.attributes.get(k) == v for k, v in where.items())]
        return sum((p.value if p.value is not None else p.count or 0) for p in chosen)


class OtlpReceiver:
    """POST /v1/traces and /v1/metrics on 127.0.0.1, kept decoded."""

    def __init__(self, port: int = 0) -> None:
        self.traces: list[ExportTraceServiceRequest] = []
        self.metric_requests: list[ExportMetricsServiceRequest] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(min(length, MAX_BODY))
                encoding = self.headers.get("content-encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                answer: bytes
                with receiver._lock:
                    receiver.paths.append(self.path)
                    if self.path.endswith("/v1/traces"):
                        receiver.traces.append(ExportTraceServiceRequest.FromString(body))
                        answer = ExportTraceServiceResponse().SerializeToString()
                    elif self.path.endswith("/v1/metrics"):
                        receiver.metric_requests.append(ExportMetricsServiceRequest.FromString(body))
                        answer = ExportMetricsServiceResponse().SerializeToString()
                    else:
                        self.send_response(404)
                        self.end_headers()
                        return
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)  # OSError when the port is taken
        self._thread = threading.Thread(target=self._server.serve_forever, name="otlp-receiver", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> OtlpReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def spans(self) -> list[Span]:
        found: list[Span] = []
        with self._lock:
            requests = list(self.traces)
        for request in requests:
            for rs in request.resource_spans:
                resource = attributes_of(rs.resource.attributes)
                for ss in rs.scope_spans:
                    for s in ss.spans:
                        found.append(Span(
                            name=s.name, trace_id=s.trace_id.hex(), span_id=s.span_id.hex(),
                            parent_id=s.parent_span_id.hex(), kind=_KINDS.get(s.kind, str(s.kind)),
                            status=_STATUS.get(s.status.code, str(s.status.code)), status_message=s.status.message,
                            attributes=attributes_of(s.attributes),
                            events=tuple((e.name, attributes_of(e.attributes)) for e in s.events),
                            scope=ss.scope.name, resource=resource,
                        ))
        return found

    def metrics(self) -> dict[str, Metric]:
        """Each metric with its latest point per process and attribute set (the exports are cumulative)."""
        found: dict[str, Metric] = {}
        latest: dict[tuple[str, str, frozenset[tuple[str, Any]]], Point] = {}
        with self._lock:
            requests = list(self.metric_requests)
        for request in requests:
            for rm in request.resource_metrics:
                process = str(attributes_of(rm.resource.attributes).get("service.instance.id"))
                for sm in rm.scope_metrics:
                    for m in sm.metrics:
                        kind = m.WhichOneof("data") or ""
                        found.setdefault(m.name, Metric(m.name, m.unit, kind))
                        for p in getattr(m, kind).data_points:
                            attributes = attributes_of(p.attributes)
                            key = (m.name, process, frozenset(attributes.items()))
                            if kind == "histogram":
                                latest[key] = Point(attributes, count=p.count, sum=p.sum)
                            else:
                                number = p.as_int if p.WhichOneof("value") == "as_int" else p.as_double
                                latest[key] = Point(attributes, value=number)
        for (name, _, _), point in latest.items():
            found[name].points.append(point)
        return found
