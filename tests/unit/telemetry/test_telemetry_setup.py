"""When telemetry is on, what it exports to, and the spans of model calls, MCP calls and scripts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export import ConsoleSpanExporter
from opentelemetry.trace import StatusCode
from telemetry_kit import Kept

from orchestrator import telemetry
from orchestrator.config import Settings
from orchestrator.errors import LLMError
from orchestrator.llm.client import LLM, ToolDefinition
from orchestrator.llm.fake import FakeMessagesAPI, error_reply, tool_use_message
from orchestrator.llm.prompts import RenderedPrompt
from orchestrator.runner import TokenUsage
from orchestrator.sandbox.environment import build_env
from orchestrator.telemetry import setup

PROMPT = RenderedPrompt(name="t", system="STATIC", user="DYNAMIC", tool_description="Answer.")
TOOL = ToolDefinition(name="answer", description="Answer.", input_schema={"type": "object"})


@pytest.mark.parametrize(
    ("environ", "why"),
    [
        ({}, None),
        ({"OTEL_SERVICE_NAME": "docs-bot"}, None),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, "OTEL_EXPORTER_OTLP_ENDPOINT"),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
        ({"OTEL_TRACES_EXPORTER": "console"}, "OTEL_TRACES_EXPORTER"),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"}, None),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "TRUE"}, None),
    ],
    ids=["nothing", "a-name-only", "endpoint", "traces-endpoint", "console", "exporters-none", "sdk-disabled"],
)
def test_telemetry_is_asked_for_by_an_endpoint_or_an_exporter_unless_the_sdk_is_disabled(
    environ: dict[str, str], why: str | None
) -> None:
    assert telemetry.requested(environ) == why


def test_otel_with_the_sdk_disabled_is_one_warning_and_no_telemetry(capsys: pytest.CaptureFixture[str]) -> None:
    with telemetry.use(None):
        telemetry._PROCESS.checked = False
        assert telemetry.enable({"OTEL_SDK_DISABLED": "true"}, asked_by="--otel") is None
        assert telemetry.active() is None
    assert capsys.readouterr().err == "skillweave: warning: --otel is ignored: OTEL_SDK_DISABLED=true\n"


@pytest.mark.parametrize("protocol", ["grpc", "http/json"])
def test_an_otlp_protocol_without_its_exporter_exports_nothing_and_says_why(protocol: str) -> None:
    said: list[str] = []
    found = setup.from_environment(
        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": protocol}, warn=said.append
    )
    assert found is None
    assert said[-1] == "OpenTelemetry has nothing to export to: no traces or metrics are sent"
    if protocol == "grpc":  # not installed here: the `otel` extra is OTLP over HTTP
        assert said[0] == (
            "OTLP over grpc needs opentelemetry-exporter-otlp-proto-grpc, which is not installed: traces are not "
            "exported (install it, or set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)"
        )
    else:
        assert said[0] == "OTLP protocol 'http/json' is not supported (http/protobuf or grpc): traces are not exported"
    assert len(said) == 3  # traces, metrics, and the summary


def test_a_signal_may_use_its_own_protocol_and_exporters_are_a_list() -> None:
    said: list[str] = []
    exporters = setup._span_exporters(
        {"OTEL_TRACES_EXPORTER": "otlp,console,zipkin", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
         "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"},
        said.append,
    )
    assert [type(e).__module__ for e in exporters] == [
        "opentelemetry.exporter.otlp.proto.http.trace_exporter", ConsoleSpanExporter.__module__,
    ]
    assert exporters[1].out is sys.stderr  # type: ignore[attr-defined]  # stdout may be --json
    assert said == ["OTEL_TRACES_EXPORTER=zipkin is not supported (otlp, console, none): ignored"]


def test_the_service_is_skillweave_unless_the_environment_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment.name=ci")
    plain = setup.resource().attributes
    assert plain["service.name"] == "skillweave"
    assert plain["deployment.environment.name"] == "ci"
    assert plain["service.version"] and plain["service.instance.id"]  # the process's: counters restart with it
    monkeypatch.setenv("OTEL_SERVICE_NAME", "docs-bot")
    assert setup.resource().attributes["service.name"] == "docs-bot"


async def test_a_model_call_is_a_genai_chat_span_with_its_usage_and_metrics(kept: Kept, tmp_path: Path) -> None:
    answer = tool_use_message("answer", {"value": 1}, input_tokens=120, output_tokens=30, cache_read_tokens=7,
                              cache_write_tokens=400)
    with FakeMessagesAPI([answer]) as api:
        llm = LLM(Settings(api_key="sk-test", base_url=api.base_url, model="claude-test", max_tokens=2048))
        await llm.ask(PROMPT, TOOL, where="s1/1", max_tokens=1000)
        await llm.aclose()

    chat = kept.one("chat claude-test")
    attributes = dict(chat.attributes or {})
    port = int(api.base_url.rsplit(":", 1)[1].rstrip("/"))
    assert attributes == {
        "gen_ai.operation.name": "chat", "gen_ai.provider.name": "anthropic", "gen_ai.system": "anthropic",
        "gen_ai.request.model": "claude-test", "gen_ai.request.max_tokens": 1000,
        "server.address": "127.0.0.1", "server.port": port, "skillweave.llm.mode": "live",
        "gen_ai.response.model": "claude-fake", "gen_ai.response.id": "msg_fake0001",
        "gen_ai.response.finish_reasons": ("tool_use",),
        "gen_ai.usage.input_tokens": 527, "gen_ai.usage.output_tokens": 30,
        "gen_ai.usage.cache_read.input_tokens": 7, "gen_ai.usage.cache_creation.input_tokens": 400,
        "skillweave.llm.retries": 0,
    }
    assert [s.name for s in kept.spans()] == ["chat claude-test"]  # the SDK's own span is not repeated
    tokens = {a["gen_ai.token.type"]: p.sum for a, p in kept.points("gen_ai.client.token.usage")}
    assert tokens == {"input": 527, "output": 30}


async def test_a_failed_model_call_has_its_error_type(kept: Kept) -> None:
    with FakeMessagesAPI([error_reply("invalid_request_error", "max_tokens: too large")]) as api:
        llm = LLM(Settings(api_key="sk-test", base_url=api.base_url, model="claude-test"))
        with pytest.raises(LLMError):
            await llm.ask(PROMPT, TOOL, where="s1/1")
        await llm.aclose()

    chat = kept.one("chat claude-test")
    assert chat.status.status_code is StatusCode.ERROR
    assert chat.attributes is not None and chat.attributes["error.type"] == "LLMError"
    assert "max_tokens: too large" in (chat.status.description or "")
    durations = kept.points("gen_ai.client.operation.duration")
    assert [a.get("error.type") for a, _ in durations] == ["LLMError"]


def test_without_telemetry_the_helpers_take_notes_and_keep_none() -> None:
    with telemetry.use(None):
        with telemetry.span("x", {"a": 1}) as note:
            note.set({"b": 2})
            note.fail("boom")
        with telemetry.model_call("anthropic", "m", max_tokens=1, server=None, mode="live") as call:
            call.answered(model="m", response_id="r", finish_reason=None, usage=TokenUsage(), retries=0)
        assert telemetry.environment() == {}
        assert telemetry.temporal_interceptors() == []


def test_the_sandbox_passes_the_trace_context_to_a_script() -> None:
    context = {"TRACEPARENT": "00-" + "1" * 32 + "-" + "2" * 16 + "-01", "TRACESTATE": "vendor=x"}
    env, notes = build_env(context, home="/work", tmpdir="/tmp")
    assert {k: env[k] for k in context} == context
    assert notes == ()
