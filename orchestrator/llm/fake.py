"""Fakes of the LLM: a scripted Messages API over HTTP, and a queued in-process client.

`QueuedLLM` is a `LanguageModel` that answers `ask` from a queue of tool inputs,
without HTTP or the SDK: for tests of code that only needs answers (the
planner's chooser, the engine with a real regenerator).

`FakeMessagesAPI` serves `POST /v1/messages` on 127.0.0.1 from a queue of
replies, in the real response shapes (`tool_use_message`, `error_reply`), and
keeps the request bodies it received. Point `ANTHROPIC_BASE_URL` at its
`base_url` and run `skillweave run ... --llm-record FILE` to produce a replay
file without a key or a network (see specs/examples/repair-demo/README.md).
It runs a thread for the server: use it from a test or a script, never inside
a run.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.llm.client import ToolAnswer, ToolDefinition
from orchestrator.llm.prompts import RenderedPrompt
from orchestrator.runner import TokenUsage

FAKE_MODEL = "claude-fake"


class Reply(BaseModel):
    """One scripted HTTP answer: a JSON body, or text or bytes sent as they are.

    The content type is `application/json` unless `headers` names another.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: int = 200
    body: dict[str, Any] | str | bytes
    headers: dict[str, str] = Field(default_factory=dict)

    def payload(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode("utf-8")
        return json.dumps(self.body).encode("utf-8")


def tool_use_message(
    tool: str,
    tool_input: dict[str, Any],
    *,
    input_tokens: int = 100,
    output_tokens: int = 50,
    cache_write_tokens: int = 0,
    cache_read_tokens: int = 0,
    model: str = FAKE_MODEL,
    number: int = 1,
) -> dict[str, Any]:
    """A Messages API response whose answer is one `tool_use` block."""
    return {
        "id": f"msg_fake{number:04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [
            {"type": "tool_use", "id": f"toolu_fake{number:04d}", "name": tool, "input": tool_input}
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "cache_creation_input_tokens": cache_write_tokens,
            "cache_read_input_tokens": cache_read_tokens,
        },
    }


def text_message(
    text: str, *, model: str = FAKE_MODEL, stop_reason: str = "end_turn"
) -> dict[str, Any]:
    """A response that answers in prose instead of calling the tool."""
    return {
        "id": "msg_fake_text",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


def error_reply(
    kind: str, message: str | None = None, *, retry_after_ms: int | None = None
) -> Reply:
    """An API error in its real shape: `{"type": "error", "error": {"type", "message"}}`."""
    headers = {} if retry_after_ms is None else {"retry-after-ms": str(retry_after_ms)}
    body = {"type": "error", "error": {"type": kind, "message": message or kind.replace("_", " ")}}
    return Reply(status=ERROR_STATUS[kind], body=body, headers=headers)


class FakeMessagesAPI:
    """`with FakeMessagesAPI([...]) as api:` serves the replies in order at `api.base_url`."""

    def __init__(self, replies: Iterable[Reply | dict[str, Any]]) -> None:
        self._replies: deque[Reply] = deque(
            r if isinstance(r, Reply) else Reply(body=r) for r in replies
        )
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the fake Messages API is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self._replies:
                return self._replies.popleft()
        spent = error_reply("api_error", "the fake Messages API has no more scripted replies")
        return spent.model_copy(update={"headers": {"x-should-retry": "false"}})

    def __enter__(self) -> FakeMessagesAPI:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                reply = api._next(json.loads(raw) if raw else {})
                payload = reply.payload()
                headers = {"content-type": "application/json", **reply.headers}
                self.send_response(reply.status)
                self.send_header("content-length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


class QueuedLLM:
    """Answers each `ask` with the next queued tool input (a dict) or `ToolAnswer`.

    `asked` keeps (prompt, tool, where) of every call; `usage` sums the answers'.
    An empty queue answers with no tool call, as a model that will not comply.
    """

    def __init__(self, answers: Iterable[dict[str, Any] | ToolAnswer] = ()) -> None:
        self._answers: deque[dict[str, Any] | ToolAnswer] = deque(answers)
        self.asked: list[tuple[RenderedPrompt, ToolDefinition, str]] = []
        self.usage = TokenUsage()

    async def ask(
        self,
        prompt: RenderedPrompt,
        tool: ToolDefinition,
        *,
        where: str,
        max_tokens: int | None = None,
    ) -> ToolAnswer:
        self.asked.append((prompt, tool, where))
        if not self._answers:
            return ToolAnswer(
                tool=tool.name, input=None, problem="the queued LLM has no more answers"
            )
        queued = self._answers.popleft()
        answer = (
            queued if isinstance(queued, ToolAnswer) else ToolAnswer(tool=tool.name, input=queued)
        )
        self.usage = self.usage + answer.usage
        return answer
