"""An `http` skill step through `skillweave run`, against a local HTTP server the test starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SPEC = """# City Lookup

## Intent
Look a city up with an HTTP service.

## Inputs
- city (string): the city

## Workflow Steps

### Step 1: Look up
- Skill: `city-lookup`
- Input: city (string)
- Output: population (integer)

## Error Recovery Strategy

| Step | Failure | Detection | Recovery | Fallback |
|------|---------|-----------|----------|----------|
| 1 | Service busy | HTTP 503 | Retry with backoff (0.1s, 0.1s) | FAIL workflow |
"""

SCHEMA = {"type": "object", "required": ["population"], "properties": {"population": {"type": "integer"}}}


class Service:
    """Answers POST /lookup: 503 for the first `busy` calls, then the population as JSON."""

    def __init__(self, busy: int = 0, answer: object = None) -> None:
        self.busy = busy
        self.answer = answer
        self.calls: list[tuple[str, dict[str, object], str]] = []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                service.calls.append((self.path, body, self.headers.get("Idempotency-Key", "")))
                if len(service.calls) <= service.busy:
                    self._send(503, {"error": "busy"})
                else:
                    self._send(200, service.answer if service.answer is not None else {"population": 709000})

            def _send(self, status: int, data: object) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler


@pytest.fixture
def serve() -> Iterator[object]:
    servers: list[ThreadingHTTPServer] = []

    def start(service: Service) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), service.handler())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/lookup"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def workflow(tmp_path: Path, url: str) -> Path:
    skill = tmp_path / "skills" / "city-lookup"
    (skill / "schemas").mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: city-lookup\ndescription: Looks up a city's population with the city service.\n"
        f"metadata:\n  skillweave.kind: http\n  skillweave.url: {url}\n"
        "  skillweave.output-schema: schemas/output.json\n  skillweave.timeout: \"10\"\n---\n"
        "POSTs the city to the service.\n"
    )
    (skill / "schemas" / "output.json").write_text(json.dumps(SCHEMA))
    spec = tmp_path / "lookup.md"
    spec.write_text(SPEC)
    return spec


def run(spec: Path, state: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [str(Path(sys.executable).with_name("skillweave")), "run", str(spec), "-i", "city=Oslo",
               "--state-dir", str(state), "--json"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)


def test_an_http_step_posts_its_input_and_its_output_is_the_json_answer(tmp_path: Path, serve) -> None:
    service = Service()
    done = run(workflow(tmp_path, serve(service)), tmp_path / "state")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["step-1"] == {"population": 709000}
    assert [(path, body) for path, body, _ in service.calls] == [("/lookup", {"city": "Oslo"})]
    assert service.calls[0][2] == f"{summary['run_id']}:step-1:1"


def test_a_busy_service_is_retried_as_a_transient_failure(tmp_path: Path, serve) -> None:
    service = Service(busy=2)
    done = run(workflow(tmp_path, serve(service)), tmp_path / "state")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    step = summary["steps"][0]
    assert (step["attempts"], step["retries"]) == (3, 2)
    assert [key for _, _, key in service.calls] == [f"{summary['run_id']}:step-1:{n}" for n in (1, 2, 3)]


def test_an_answer_that_breaks_the_output_contract_fails_the_step(tmp_path: Path, serve) -> None:
    done = run(workflow(tmp_path, serve(Service(answer={"population": "many"}))), tmp_path / "state")
    assert done.returncode == 1
    summary = json.loads(done.stdout)
    assert summary["status"] in ("failed", "escalated")
    assert "output breaks its contract" in summary["steps"][0]["message"]
