"""OpenTelemetry through the real CLI: `skillweave run` exports to a local OTLP/HTTP receiver.

The workflow has a replayed model call (an `llm` step), a script in the sandbox
and a tool of a real stdio MCP server that fails once and then echoes the
`_meta` it received; a second test pauses at an approval gate, is rejected and
resumed, and compensates. What the receiver decodes (opentelemetry-proto) is
the span tree, the attributes and events, and the metrics; the script and the
MCP server report the trace context they were handed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from otlp_receiver import OtlpReceiver, Span
from serverkit import isolated_env, make_project, ok

from orchestrator.llm.fake import FakeMessagesAPI, tool_use_message

pytestmark = pytest.mark.e2e

SKILLWEAVE = Path(sys.executable).with_name("skillweave")
EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "examples"
WAIT_S = 180
DEFAULT_OTLP_PORT = 4318

SPEC = """# Summarize Tag And Echo Workflow

## Intent
Summarize a text with the model, tag it in a script, and echo it through an MCP tool.

## Inputs
- text (string): the text

## Workflow Steps

### Step 1: Summarize
- Skill: `summarize-text`
- Input: text (string)
- Output: summary (string)

### Step 2: Tag
- Skill: `tag-summary`
- Input: step-1.summary
- Output: summary (string), traceparent (string), tracestate (string)

### Step 3: Echo
- Skill: `echo-meta`
- Input: step-2.summary
- Output: summary (string), meta (object)
- Retries: 1
"""

LLM_SKILL = """---
name: summarize-text
description: Summarizes a text in a few words.
metadata:
  skillweave.kind: llm
  skillweave.output-schema: schemas/output.json
---
Summarize the following text in a few words.

{{ text }}
"""

SCRIPT_SKILL = """---
name: tag-summary
description: Returns the summary with the trace context the script was started with.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
---
Reads `{"summary": str}`; writes it back with `traceparent` and `tracestate` from the environment.
"""

SCRIPT = """import json, os, sys
data = json.load(sys.stdin)
json.dump({"summary": data["summary"], "traceparent": os.environ.get("TRACEPARENT", ""),
           "tracestate": os.environ.get("TRACESTATE", "")}, sys.stdout)
"""

MCP_SKILL = """---
name: echo-meta
description: Echoes a summary through the echo MCP server, with the request metadata it received.
metadata:
  skillweave.kind: mcp
  skillweave.server: echo
  skillweave.tool: echo_meta
---
Calls `echo_meta` on the `echo` server.
"""

ECHO_SERVER = '''
import json
import sys
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations

LOG = sys.argv[1]
server = MCPServer("echo", log_level="WARNING")
calls = 0


@server.tool(structured_output=True, annotations=ToolAnnotations(readOnlyHint=True))
def echo_meta(summary: str, ctx: Context) -> dict[str, Any]:
    """Echoes `summary` and the request's `_meta`; the first call fails (a server warming up)."""
    global calls
    calls += 1
    meta = dict(ctx.request_context.meta or {})
    with open(LOG, "a") as fh:
        fh.write(json.dumps({"call": calls, "meta": meta}) + "\\n")
    if calls == 1:
        raise RuntimeError("the echo service is warming up")
    return {"summary": summary, "meta": meta}


server.run("stdio")
'''

TEXT = "The quick brown fox jumps over the lazy dog."


def otel_env(url: str, **more: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_", "OTEL_"))}
    clean.pop("TRACEPARENT", None)
    return {**clean, "OTEL_EXPORTER_OTLP_ENDPOINT": url, "OTEL_SERVICE_NAME": "skillweave-e2e",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment.name=test", **more}


def skillweave(*args: str | Path, env: Mapping[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SKILLWEAVE), *map(str, args)], capture_output=True, text=True, timeout=WAIT_S, env=dict(env),
        cwd=cwd, check=False,
    )


def write_project(root: Path) -> tuple[Path, Path]:
    """The spec, its three skills and its mcp.json; returns (spec, the echo server's log)."""
    for name, text in (("summarize-text", LLM_SKILL), ("tag-summary", SCRIPT_SKILL), ("echo-meta", MCP_SKILL)):
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "SKILL.md").write_text(text)
    (root / "skills" / "summarize-text" / "schemas").mkdir()
    (root / "skills" / "summarize-text" / "schemas" / "output.json").write_text(json.dumps(
        {"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}}
    ))
    (root / "skills" / "tag-summary" / "scripts").mkdir()
    (root / "skills" / "tag-summary" / "scripts" / "main.py").write_text(SCRIPT)
    server, log = root / "echo_server.py", root / "echo.log"
    server.write_text(ECHO_SERVER)
    (root / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"echo": {"command": sys.executable, "args": [str(server), str(log)]}}}
    ))
    spec = root / "flow.md"
    spec.write_text(SPEC)
    return spec, log


def record_the_model_call(root: Path, spec: Path) -> Path:
    """The model's answer for step 1, recorded once against a stand-in for the Messages API."""
    only_step_1 = root / "record" / "flow.md"
    only_step_1.parent.mkdir()
    only_step_1.write_text(SPEC.split("### Step 2")[0])
    (root / "record" / "skills").symlink_to(root / "skills")
    recording = root / "calls.jsonl"
    answer = tool_use_message("submit_output", {"summary": "Fox jumps dog."}, input_tokens=61, output_tokens=17)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_", "OTEL_"))}
    with FakeMessagesAPI([answer]) as api:
        done = skillweave(
            "run", only_step_1, "-i", f"text={TEXT}", "--state-dir", root / "record-state", "--llm-record", recording,
            env={**env, "ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": "sk-ci"},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return recording


def tree(spans: list[Span]) -> tuple[dict[str, Span], dict[str, list[Span]]]:
    by_id = {s.span_id: s for s in spans}
    children: dict[str, list[Span]] = {}
    for s in spans:
        children.setdefault(s.parent_id, []).append(s)
    return by_id, children


def ancestors(span: Span, by_id: dict[str, Span]) -> list[str]:
    names = []
    while span.parent_id in by_id:
        span = by_id[span.parent_id]
        names.append(span.name)
    return names


def up_to(span: Span, name: str, by_id: dict[str, Span]) -> Span:
    """`span` or its nearest ancestor called `name`."""
    while span.name != name:
        assert span.parent_id in by_id, f"no {name} above {span.name}"
        span = by_id[span.parent_id]
    return span


def test_a_run_exports_its_span_tree_its_metrics_and_hands_its_context_to_scripts_and_mcp_servers(
    tmp_path: Path,
) -> None:
    spec, echo_log = write_project(tmp_path)
    recording = record_the_model_call(tmp_path, spec)

    ci_trace, ci_span = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"  # the job that started the run
    with OtlpReceiver() as otlp:
        done = skillweave(
            "run", spec, "-i", f"text={TEXT}", "--state-dir", tmp_path / "state", "--llm-replay", recording, "--json",
            env=otel_env(otlp.url, TRACEPARENT=f"00-{ci_trace}-{ci_span}-01", TRACESTATE="ci=job-7"),
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    spans = otlp.spans()
    by_id, children = tree(spans)

    roots = [s for s in spans if s.name.startswith("run ")]
    assert len(roots) == 1
    run = roots[0]
    assert (run.trace_id, run.parent_id) == (ci_trace, ci_span)
    assert {s.trace_id for s in spans} == {run.trace_id}
    assert run.resource["service.name"] == "skillweave-e2e"
    assert run.resource["deployment.environment.name"] == "test"
    assert run.attributes["skillweave.run.id"] == summary["run_id"]
    assert run.attributes["skillweave.run.status"] == "succeeded"
    steps = [s.name for s in children[run.span_id] if not s.name.startswith("MCP send ")]
    assert sorted(steps) == ["step step-1", "step step-2", "step step-3"]
    # the MCP server starts as the run starts, before a step needs it: its handshake is the run's
    started = {s.name for s in children[run.span_id]} - set(steps)
    assert "MCP send tools/list" in started and started <= {
        "MCP send initialize", "MCP send server/discover", "MCP send tools/list"}

    # the model call: a GenAI `chat` span under step 1's attempt, answered from the recording
    chat = [s for s in spans if s.name.startswith("chat ")]
    assert len(chat) == 1
    assert ancestors(chat[0], by_id)[:2] == ["attempt step-1", "step step-1"]
    assert chat[0].kind == "client"
    assert chat[0].attributes["gen_ai.operation.name"] == "chat"
    assert chat[0].attributes["gen_ai.provider.name"] == chat[0].attributes["gen_ai.system"] == "anthropic"
    assert chat[0].attributes["gen_ai.request.model"] == chat[0].name.removeprefix("chat ")
    assert chat[0].attributes["gen_ai.usage.input_tokens"] == 61
    assert chat[0].attributes["gen_ai.usage.output_tokens"] == 17
    assert chat[0].attributes["gen_ai.response.finish_reasons"] == ("tool_use",)
    assert chat[0].attributes["skillweave.llm.mode"] == "replay"

    # the script: a sandbox span under step 2's attempt, whose context the script saw as TRACEPARENT
    sandbox = [s for s in spans if s.name == "sandbox tag-summary"]
    assert len(sandbox) == 1
    assert ancestors(sandbox[0], by_id)[:2] == ["attempt step-2", "step step-2"]
    assert sandbox[0].attributes["process.exit.code"] == 0
    seen_by_script = summary["outputs"]["step-2"]["traceparent"]
    assert seen_by_script.split("-")[1:3] == [run.trace_id, sandbox[0].span_id]
    assert summary["outputs"]["step-2"]["tracestate"] == "ci=job-7"  # the caller's, carried along

    # the MCP tool: two attempts (a transient failure, a retry), each with its tool call span;
    # the server got the trace context in `_meta`, naming a span of the attempt's subtree
    attempts = sorted((s for s in spans if s.name == "attempt step-3"), key=lambda s: s.attributes["skillweave.attempt"])
    assert [a.attributes["skillweave.attempt"] for a in attempts] == [1, 2]
    failed, succeeded = attempts
    assert failed.status == "error" and failed.attributes["error.type"] == "transient"
    assert failed.status_message.startswith("echo/echo_meta: ")
    assert succeeded.status == "unset"
    step_3 = by_id[failed.parent_id]
    retries = step_3.event("retry_scheduled")
    assert len(retries) == 1 and retries[0]["skillweave.error_class"] == "transient"
    tool_spans = [s for s in spans if s.name == "execute_tool echo_meta"]
    assert len(tool_spans) == 2
    assert {s.parent_id for s in tool_spans} == {failed.span_id, succeeded.span_id}
    for s in tool_spans:
        assert s.attributes["gen_ai.operation.name"] == "execute_tool"
        assert s.attributes["skillweave.mcp.server"] == "echo"
    received = [json.loads(line) for line in echo_log.read_text().splitlines()]
    assert [r["call"] for r in received] == [1, 2]
    for call, attempt in zip(received, attempts, strict=True):
        version, trace_id, parent_id, _flags = call["meta"]["traceparent"].split("-")
        assert (version, trace_id) == ("00", run.trace_id)
        assert parent_id in by_id, "the server's parent span was exported"
        assert up_to(by_id[parent_id], "execute_tool echo_meta", by_id).parent_id == attempt.span_id
        assert call["meta"]["tracestate"] == "ci=job-7"
    assert summary["outputs"]["step-3"]["meta"]["traceparent"] == received[1]["meta"]["traceparent"]

    # handoff checks are span events, of the attempt for outputs
    assert succeeded.event("handoff_checked")[0]["skillweave.outcome"] == "passed"

    # the metrics: the seed's four and the step durations
    metrics = otlp.metrics()
    plan = {"skillweave.plan.name": run.attributes["skillweave.plan.name"]}
    assert metrics["skillweave.run.count"].total(**plan, **{"skillweave.run.status": "succeeded"}) == 1
    assert metrics["skillweave.run.count"].unit == "{run}"
    assert metrics["skillweave.attempt.count"].total(outcome="succeeded") == 3
    assert metrics["skillweave.attempt.count"].total(outcome="failed", **{"error.type": "transient"}) == 1
    assert metrics["skillweave.attempt.retries"].total(**{"skillweave.step.id": "step-3"}) == 1
    checks = metrics["skillweave.handoff.checks"]
    assert checks.total(outcome="passed") >= 3 and checks.total(outcome="failed") == 0
    durations = metrics["skillweave.step.duration"]
    assert durations.unit == "s" and durations.kind == "histogram"
    assert {p.attributes["skillweave.step.id"] for p in durations.points} == {"step-1", "step-2", "step-3"}
    assert all(p.count == 1 and (p.sum or 0) > 0 for p in durations.points)
    delays = metrics["skillweave.step.queue_delay"]
    assert {p.attributes["skillweave.step.id"] for p in delays.points} == {"step-1", "step-2", "step-3"}
    tokens = metrics["gen_ai.client.token.usage"]
    assert tokens.points and {p.attributes["gen_ai.token.type"]: p.sum for p in tokens.points} == {
        "input": 61, "output": 17,
    }


@pytest.fixture
def default_receiver() -> Iterator[OtlpReceiver]:
    """A receiver on OTLP/HTTP's default port (where --otel exports without an endpoint)."""
    try:
        receiver = OtlpReceiver(port=DEFAULT_OTLP_PORT)
    except OSError as exc:
        pytest.skip(f"port {DEFAULT_OTLP_PORT} is taken on this machine: {exc}")
    with receiver:
        yield receiver


def test_a_resumed_run_continues_its_trace_with_the_approval_and_the_compensation(
    tmp_path: Path, default_receiver: OtlpReceiver
) -> None:
    state = tmp_path / "state"
    env = otel_env(default_receiver.url)
    first = skillweave("run", EXAMPLES / "approval-compensation.md", "-i", "module_name=shlex", "--json",
                       "--state-dir", state, env=env)
    assert first.returncode == 3, first.stderr
    run_id = json.loads(first.stdout)["run_id"]
    assert (state / "runs" / run_id / "trace.json").is_file()
    rejected = skillweave("approve", run_id, "step-3", "--reject", "--comment", "not this one", "--state-dir", state,
                          env=env)
    assert rejected.returncode == 0, rejected.stderr
    without_endpoint = {k: v for k, v in env.items() if k != "OTEL_EXPORTER_OTLP_ENDPOINT"}
    resumed = skillweave("resume", run_id, "--otel", "--json", "--state-dir", state, env=without_endpoint)
    assert resumed.returncode == 1, resumed.stderr

    spans = default_receiver.spans()
    _, children = tree(spans)
    runs = sorted((s for s in spans if s.name.startswith("run ")), key=lambda s: s.attributes["skillweave.run.execution"])
    assert len(runs) == 2
    paused, ended = runs
    assert {s.trace_id for s in spans} == {paused.trace_id}
    assert paused.parent_id == "" and paused.attributes["skillweave.run.status"] == "paused"
    assert ended.parent_id == paused.span_id
    assert ended.attributes["skillweave.run.resumed"] is True
    assert ended.resource["service.instance.id"] != paused.resource["service.instance.id"]  # two processes

    gate_first = [s for s in children[paused.span_id] if s.name == "step step-3"]
    assert gate_first and gate_first[0].event("approval_requested")
    assert gate_first[0].attributes["skillweave.step.status"] == "awaiting_approval"
    gate_then = [s for s in children[ended.span_id] if s.name == "step step-3"]
    assert len(gate_then) == 1
    decided = gate_then[0].event("approval_decided")
    assert decided == [{"skillweave.approved": False, "skillweave.comment": "not this one",
                        "skillweave.between_executions": True}]
    assert gate_then[0].status == "error" and gate_then[0].attributes["skillweave.step.status"] == "failed"
    assert gate_then[0].event("fallback_used")

    assert ended.status == "error" and ended.attributes["skillweave.run.status"] == "failed"
    assert [name for name, _ in ended.events] == ["run_failing", "compensation_started", "compensation_finished"]
    compensations = [s for s in children[ended.span_id] if s.name == "compensate step-2"]
    assert len(compensations) == 1 and compensations[0].status == "unset"
    assert [s.name for s in children[compensations[0].span_id]] == ["sandbox remove-docs"]

    metrics = default_receiver.metrics()
    assert metrics["skillweave.run.count"].total(**{"skillweave.run.status": "failed"}) == 1
    assert metrics["skillweave.run.count"].total(**{"skillweave.run.status": "succeeded"}) == 0
    step_2 = [p for p in metrics["skillweave.step.duration"].points if p.attributes["skillweave.step.id"] == "step-2"]
    assert len(step_2) == 1 and step_2[0].count == 1  # counted by the execution that ran it, once


# -- without an exporter: nothing imported, nothing sent ----------------------------------

DRIVER = """
import atexit, json, sys

OUT = sys.argv[1]
BLOCKED = tuple(sys.argv[2].split(",")) if sys.argv[2] else ()


class Missing:
    '''Makes the packages named in argv[2] look uninstalled.'''

    def find_spec(self, name, path=None, target=None):
        if name.startswith(BLOCKED):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Missing())


def dump():
    with open(OUT, "w") as fh:
        # the facade and the scope's hook (orchestrator.telemetry, .scope) are always there; the rest is not
        heavy = ("opentelemetry", "orchestrator.telemetry.setup", "orchestrator.telemetry.tracing",
                 "orchestrator.telemetry.metrics")
        json.dump(sorted(m for m in sys.modules if m.startswith(heavy)), fh)


atexit.register(dump)
from orchestrator.cli import main

sys.argv = ["skillweave", *sys.argv[3:]]
main()
"""

SCRIPT_ONLY_SPEC = """# Tag Workflow

## Intent
Tag a summary in a script.

## Inputs
- summary (string): the summary

## Workflow Steps

### Step 1: Tag
- Skill: `tag-summary`
- Input: summary (string)
- Output: summary (string), traceparent (string), tracestate (string)
"""


def drive(tmp_path: Path, *args: str | Path, env: Mapping[str, str], blocked: str = "") -> tuple[
    subprocess.CompletedProcess[str], list[str]
]:
    """`skillweave ARGS` in a process that reports the OpenTelemetry modules it imported."""
    driver, modules = tmp_path / "driver.py", tmp_path / "modules.json"
    driver.write_text(DRIVER)
    done = subprocess.run(
        [sys.executable, str(driver), str(modules), blocked, *map(str, args)], capture_output=True, text=True,
        timeout=WAIT_S, env=dict(env), check=False,
    )
    return done, json.loads(modules.read_text())


def plain_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_", "OTEL_"))}
    env.pop("TRACEPARENT", None)
    return env


def test_without_an_exporter_a_run_imports_no_opentelemetry_module_and_hands_no_context_on(tmp_path: Path) -> None:
    write_project(tmp_path)
    spec = tmp_path / "tag.md"
    spec.write_text(SCRIPT_ONLY_SPEC)

    done, modules = drive(tmp_path, "run", spec, "-i", "summary=hi", "--state-dir", tmp_path / "state", "--json",
                          env={**plain_env(), "OTEL_SERVICE_NAME": "named-but-not-exported"})

    assert done.returncode == 0, done.stderr
    assert modules == []
    assert json.loads(done.stdout)["outputs"]["step-1"]["traceparent"] == ""
    assert not list((tmp_path / "state" / "runs").glob("*/trace.json"))


def test_with_the_sdk_disabled_an_mcp_step_and_a_model_call_load_only_the_api_their_sdks_import(tmp_path: Path) -> None:
    spec, echo_log = write_project(tmp_path)
    recording = record_the_model_call(tmp_path, spec)

    done, modules = drive(tmp_path, "run", spec, "-i", f"text={TEXT}", "--state-dir", tmp_path / "state",
                          "--llm-replay", recording, env={**plain_env(), "OTEL_SDK_DISABLED": "true",
                                                          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"})

    assert done.returncode == 0, done.stderr
    assert modules, "the mcp and anthropic SDKs import the API themselves"
    assert not [m for m in modules if m.startswith(("opentelemetry.sdk", "opentelemetry.exporter",
                                                      "orchestrator.telemetry."))]
    received = [json.loads(line) for line in echo_log.read_text().splitlines()]
    assert all("traceparent" not in r["meta"] for r in received)


def test_without_the_otel_extra_a_configured_exporter_costs_one_warning_line_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    write_project(tmp_path)
    spec = tmp_path / "tag.md"
    spec.write_text(SCRIPT_ONLY_SPEC)

    done, modules = drive(tmp_path, "run", spec, "-i", "summary=hi", "--state-dir", tmp_path / "state", "--json",
                          env={**plain_env(), "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"},
                          blocked="opentelemetry.sdk,opentelemetry.exporter")

    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "warning" in line]
    assert warnings == [
        "skillweave: warning: OTEL_EXPORTER_OTLP_ENDPOINT asks for OpenTelemetry, but opentelemetry.sdk is not "
        "installed (pip install 'skillweave[otel]'); the run goes on without traces and metrics"
    ]
    assert not [m for m in modules if m.startswith("orchestrator.telemetry.")]


# -- a run started through `skillweave serve` joins its caller's trace -----------------------


async def test_a_run_started_over_mcp_joins_the_trace_its_caller_sent_in_meta(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    caller_trace, caller_span = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    with OtlpReceiver() as otlp:
        params = StdioServerParameters(
            command=str(SKILLWEAVE), args=["serve", "--state-dir", str(project / ".skillweave")], cwd=project,
            env={**isolated_env(project), "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.url, "OTEL_BSP_SCHEDULE_DELAY": "50"},
        )
        with anyio.fail_after(WAIT_S):
            async with Client(params) as client:
                run = ok(await client.call_tool(
                    "run_workflow", {"spec": "specs/count.md", "inputs": {"text": "one two three"}},
                    meta={"traceparent": f"00-{caller_trace}-{caller_span}-01"},
                ))
        assert run["status"] == "succeeded", run
        spans = otlp.spans()  # the server exported them as it exited with its client

    by_id, _ = tree(spans)
    runs = [s for s in spans if s.name.startswith("run ")]
    assert len(runs) == 1 and runs[0].attributes["skillweave.run.id"] == run["run_id"]
    assert runs[0].trace_id == caller_trace
    top = runs[0]
    while top.parent_id in by_id:
        top = by_id[top.parent_id]
    assert top.parent_id == caller_span  # under the server's span of the call, itself under the caller's
    assert top.kind == "server" and top.name == "tools/call run_workflow"
    assert [s.name for s in spans if s.name == "sandbox count-words"] == ["sandbox count-words"]
