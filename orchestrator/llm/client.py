"""The run's one LLM client: the `anthropic` SDK (async), forced tool answers, token accounting.

Every call sends a rendered prompt (see `prompts`) and one tool, and forces the
model to answer through that tool, so answers are JSON, never scraped prose:

    system    [{text: <static prefix>, cache_control: {type: ephemeral}}]
    messages  [{role: user, content: <dynamic part>}]
    tools     [{name, description, input_schema}]   tool_choice {type: tool, name}

The HTTP stack is an `httpx2` transport chain: the injectable transport (the
network by default), wrapped for `--llm-record`, or replaced by the recording
for `--llm-replay` (see `record`). The SDK retries 408/409/429/5xx/529 and
connection errors up to `max_retries` times; retries are counted per call and
per run. Failures come out as our errors:

    missing key, 401, 403          LLMAuthError (one clear message)
    replay has no answer           ReplayMissError (step/attempt, request hash)
    429, 5xx, 529, connection      LLMError(transient=True), after the SDK's retries
    anything else the API refuses  LLMError
    a 200 that is not a message    LLMError (a proxy's HTML page, a body cut short, not UTF-8)

Error texts quoted from a response are cut to one short line: an HTML page is
named by its title, never pasted whole into a step's message. Connecting gives
up after CONNECT_TIMEOUT_S, so an address that drops packets costs seconds per
try, not the read timeout.

No sampling parameter is sent: API version 2026-10-21 (the SDK 2.x default)
rejects `temperature`, `top_p` and `top_k` with a 400 even at their defaults, so
`Settings.temperature` has no effect on this client.

A reply without the tool call is not an exception: `ToolAnswer.input` is None
and `problem` says why, so the tokens it cost are still counted.
`anthropic` is imported only when the first call is made.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import httpx2
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from orchestrator import telemetry
from orchestrator.config import ENV_API_KEY, Settings
from orchestrator.contracts import JsonSchema
from orchestrator.errors import LLMAuthError, LLMError, ReplayMissError
from orchestrator.hints import Hint, HintAction
from orchestrator.llm.prompts import RenderedPrompt
from orchestrator.llm.record import (
    MISS_HEADER,
    WHERE_HEADER,
    LiveTransport,
    RecordingTransport,
    ReplayTransport,
)
from orchestrator.runner import TokenUsage
from orchestrator.wording import count

if TYPE_CHECKING:
    from anthropic import APIStatusError, AsyncAnthropic

DEFAULT_MAX_RETRIES = 2
PROVIDER = "anthropic"  # gen_ai.provider.name
API_URL = "https://api.anthropic.com"
DEFAULT_TIMEOUT_S = 600.0
CONNECT_TIMEOUT_S = 10.0
CACHE_CONTROL = {"type": "ephemeral"}
QUOTE_LIMIT = 200  # characters of an error text or a body quoted in a message
_REPLAY_KEY = "replay-needs-no-key"  # never sent anywhere: replay does not touch the network
_TRANSIENT_STATUS = frozenset({408, 409, 429})
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_HTML_TAG = re.compile(r"<[^>]+>")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolDefinition(_Frozen):
    name: str
    description: str
    input_schema: JsonSchema


class ToolAnswer(_Frozen):
    """What came back from one call."""

    tool: str
    input: dict[str, Any] | None  # None: the model did not answer through the tool
    problem: str | None = None  # why `input` is None
    usage: TokenUsage = TokenUsage()
    retries: int = 0
    model: str = ""
    message_id: str = ""
    stop_reason: str | None = None


@runtime_checkable
class LanguageModel(Protocol):
    """What the regenerator, the `llm` runner and the chooser need of a client.

    `LLM` is the real one; tests may hand `RunnerContext(llm_client=...)` a fake.
    """

    async def ask(
        self,
        prompt: RenderedPrompt,
        tool: ToolDefinition,
        *,
        where: str,
        max_tokens: int | None = None,
    ) -> ToolAnswer: ...


def language_model(candidate: object) -> LanguageModel:
    """`RunnerContext.llm()` returns `object`; check it is a client before using it."""
    if not isinstance(candidate, LanguageModel):
        raise TypeError(f"not an LLM client: {type(candidate).__name__}")
    return candidate


class LLM:
    """One per run; shared by the `llm` runner, the regenerator and the chooser.

    `transport` is the seam for tests and for record/replay: by default the
    network, wrapped by `--llm-record`, replaced by `--llm-replay`.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        transport: httpx2.AsyncBaseTransport | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.replaying = settings.llm_replay is not None
        self._transport = self._transport_for(settings, transport)
        self._client: AsyncAnthropic | None = None
        self.usage = TokenUsage()  # the run's total
        self.calls = 0
        self.retries = 0

    @staticmethod
    def _transport_for(
        settings: Settings, transport: httpx2.AsyncBaseTransport | None
    ) -> httpx2.AsyncBaseTransport:
        if settings.llm_replay is not None:
            return ReplayTransport(Path(settings.llm_replay))
        if settings.llm_record is not None:
            return RecordingTransport(Path(settings.llm_record), transport)
        return LiveTransport(transport)

    @property
    def mode(self) -> str:
        """`live`, `record` or `replay`."""
        if isinstance(self._transport, ReplayTransport):
            return "replay"
        return "record" if isinstance(self._transport, RecordingTransport) else "live"

    @property
    def replay_inexact(self) -> int:
        """Answers a replay found by step and static prefix rather than by exact hash."""
        return self._transport.inexact if isinstance(self._transport, ReplayTransport) else 0

    def require_key(self, where: str | None = None) -> str:
        """The key calls will use; LLMAuthError when there is none (a replay needs none)."""
        api_key = _REPLAY_KEY if self.replaying else self.settings.api_key
        if not api_key:
            raise LLMAuthError(
                f"no API key: set {ENV_API_KEY}", where=where, hint=Hint(action=HintAction.ANSWER_FROM_RECORDING)
            )
        return api_key

    def _sdk(self, where: str) -> AsyncAnthropic:
        if self._client is not None:
            return self._client
        api_key = self.require_key(where)
        from anthropic import AsyncAnthropic

        timeout = httpx2.Timeout(self.timeout_s, connect=min(CONNECT_TIMEOUT_S, self.timeout_s))
        self._client = AsyncAnthropic(
            api_key=api_key,
            base_url=self.settings.base_url or API_URL,
            max_retries=self.max_retries,
            timeout=timeout,
            http_client=httpx2.AsyncClient(transport=self._transport, timeout=timeout),
            # the SDK's own spans would repeat ours (`ask`); left to it when ours are off
            open_telemetry=False if telemetry.active() is not None else None,
        )
        return self._client

    async def ask(
        self,
        prompt: RenderedPrompt,
        tool: ToolDefinition,
        *,
        where: str,
        max_tokens: int | None = None,
    ) -> ToolAnswer:
        """Send `prompt` and make the model answer through `tool`.

        `where` (step/attempt) tags the call in errors and recordings. With
        telemetry on, the call is a GenAI `chat` span (`orchestrator.telemetry`).
        """
        # at most the configured answer size; less when the run's token budget is nearly spent
        limit = min(max_tokens, self.settings.max_tokens) if max_tokens is not None else self.settings.max_tokens
        with telemetry.model_call(
            PROVIDER, self.model, max_tokens=limit, mode=self.mode,
            server=None if self.replaying else self.settings.base_url or API_URL,
        ) as traced:
            answer = await self._ask(prompt, tool, where, limit)
            traced.answered(model=answer.model, response_id=answer.message_id, finish_reason=answer.stop_reason,
                            usage=answer.usage, retries=answer.retries)
            return answer

    async def _ask(self, prompt: RenderedPrompt, tool: ToolDefinition, where: str, limit: int) -> ToolAnswer:
        import anthropic

        client = self._sdk(where)
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": limit,
            "system": [{"type": "text", "text": prompt.system, "cache_control": CACHE_CONTROL}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": prompt.user}]}],
            "tools": [tool.model_dump()],
            "tool_choice": {"type": "tool", "name": tool.name},
        }
        self.calls += 1
        try:
            raw = await client.messages.with_raw_response.create(
                **body, extra_headers={WHERE_HEADER: where}
            )
        except anthropic.APIStatusError as exc:
            raise self._status_error(exc, where) from None
        except anthropic.APIConnectionError as exc:
            retries = _retries_of(exc.request)
            self.retries += retries
            raise LLMError(
                f"cannot reach the model at {client.base_url} after {count(retries, 'retry')}: "
                f"{_connection_failure(exc, anthropic.APITimeoutError)}",
                where=where,
                transient=True,
            ) from None
        self.retries += raw.retries_taken
        message = _reply_of(raw.status_code, raw.headers, await raw.read(), where)
        answer = _answer_of(message, tool.name, raw.retries_taken, body["max_tokens"])
        self.usage = self.usage + answer.usage
        return answer

    def _status_error(self, exc: APIStatusError, where: str) -> LLMError:
        miss = exc.response.headers.get(MISS_HEADER)
        if miss is not None:
            return ReplayMissError(
                f"the LLM recording {self.settings.llm_replay} has no answer for request {miss} "
                "(the prompt, model or settings differ from the recording)",
                where=where, hint=Hint(action=HintAction.RECORD_AGAIN),
            )
        kind, text = _error_of(exc.body, exc.response.headers.get("content-type", ""))
        status = exc.status_code
        retries = _retries_of(exc.response.request)
        self.retries += retries
        if status in (401, 403):
            return LLMAuthError(
                f"the API rejected the key ({status} {kind}: {text}); check {ENV_API_KEY}",
                where=where,
            )
        transient = status in _TRANSIENT_STATUS or status >= 500
        if transient:
            return LLMError(
                f"the model API failed with {status} {kind}: {text} (after {count(retries, 'retry')})",
                where=where,
                transient=True,
            )
        return LLMError(f"the model API refused the request: {status} {kind}: {text}", where=where)

    async def aclose(self) -> None:
        """Close the HTTP client; a later call opens a new one."""
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()


def _retries_of(request: httpx2.Request) -> int:
    """Retries the SDK took before this request: it numbers each one in a header."""
    try:
        return int(request.headers.get("x-stainless-retry-count", "0"))
    except ValueError:
        return 0


def _one_line(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` with its whitespace collapsed, cut to `limit` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _gist(text: str, content_type: str) -> str:
    """A response body that is not the API's JSON, as one short line: an HTML page by its title."""
    start = text.lstrip()[:15].lower()
    if "html" in content_type.lower() or start.startswith(("<!doctype html", "<html")):
        title = _HTML_TITLE.search(text)
        words = _one_line(title.group(1) if title else _HTML_TAG.sub(" ", text))
        return f"an HTML page ({content_type or 'no content-type'}): {words}"
    return _one_line(text)


def _connection_failure(exc: Exception, timeout: type[Exception]) -> str:
    """`the request timed out (ConnectTimeout)`: what the SDK's long connection messages mean."""
    what = "the request timed out" if isinstance(exc, timeout) else "the connection failed"
    cause = exc.__cause__
    if cause is None:
        return what
    text = _one_line(str(cause))
    return (
        f"{what} ({type(cause).__name__}: {text})" if text else f"{what} ({type(cause).__name__})"
    )


def _error_of(body: object, content_type: str = "") -> tuple[str, str]:
    """(type, message) from an API error body {"type": "error", "error": {...}}, each on one line."""
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            return _one_line(str(error.get("type", "error"))), _one_line(
                str(error.get("message", ""))
            )
    if isinstance(body, dict | list):
        return "error", _one_line(json.dumps(body, ensure_ascii=False, default=str))
    return "error", _gist(str(body or ""), content_type)


class _ReplyUsage(BaseModel):
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    cache_creation_input_tokens: int | None = Field(default=None, ge=0)
    cache_read_input_tokens: int | None = Field(default=None, ge=0)


class _ReplyBlock(BaseModel):
    type: str
    name: str | None = None
    input: Any = None


class _Reply(BaseModel):
    """What the client reads of a Messages API response; other fields are ignored.

    Checked here rather than left to the SDK, which builds its `Message` from any
    JSON without checking it (a proxy's page would fail later, anywhere).
    """

    id: str = ""
    model: str = ""
    content: list[_ReplyBlock]
    stop_reason: str | None = None
    usage: _ReplyUsage


def _reply_of(status: int, headers: httpx2.Headers, content: bytes, where: str) -> _Reply:
    """The response read as a message; LLMError saying what came back when it is not one."""
    try:
        return _Reply.model_validate_json(content)
    except ValidationError as exc:
        text = content.decode("utf-8", errors="replace")
        errors = exc.errors()
        if errors[0]["type"] != "json_invalid":
            wrong = "; ".join(
                f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}"
                if error["loc"]
                else "not an object"
                for error in errors[:3]
            )
            what = f"JSON that is not a Messages API response ({wrong})"
        elif text.lstrip().startswith(("{", "[")):
            what = "a body that is not valid JSON"
        else:
            what = "a body that is not JSON"
        quoted = _gist(text, headers.get("content-type", ""))
        raise LLMError(
            f"the model API answered {status} with {what}: {quoted}", where=where
        ) from None


def usage_of(reply: _Reply) -> TokenUsage:
    usage = reply.usage
    return TokenUsage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_input_tokens or 0,
        cache_write_tokens=usage.cache_creation_input_tokens or 0,
    )


def _answer_of(message: _Reply, tool: str, retries: int, max_tokens: int) -> ToolAnswer:
    facts: dict[str, Any] = {
        "tool": tool,
        "usage": usage_of(message),
        "retries": retries,
        "model": message.model,
        "message_id": message.id,
        "stop_reason": message.stop_reason,
    }
    if message.stop_reason == "max_tokens":
        problem = f"the answer was cut off at max_tokens ({max_tokens} output tokens)"
        return ToolAnswer(input=None, problem=problem, **facts)
    for block in message.content:
        if block.type == "tool_use" and block.name == tool:
            if not isinstance(block.input, dict):
                problem = f"the tool input is not an object: {_one_line(repr(block.input))}"
                return ToolAnswer(input=None, problem=problem, **facts)
            return ToolAnswer(input=dict(block.input), **facts)
    kinds = ", ".join(block.type for block in message.content) or "nothing"
    return ToolAnswer(
        input=None,
        problem=f"the model did not call the tool {tool} (it answered with {kinds})",
        **facts,
    )
