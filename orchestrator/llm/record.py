"""Record and replay LLM calls at the HTTP transport, so the real SDK code runs in both.

`--llm-record FILE` writes every request/response pair of a run as JSON lines;
`--llm-replay FILE` answers from them without a network or a key. One line:

    {"format": 1, "key": "<16 hex>", "anchor": "<16 hex>", "where": "step/attempt",
     "request": {"method": "POST", "path": "/v1/messages", "body": {...}},
     "response": {"status": 200, "headers": {"content-type": ...}, "body": {...}}}

`key` hashes the normalized request (method, path from `/v1/` on, the JSON body
with sorted keys); headers, and so the API key, are never part of it nor
recorded. `anchor` hashes only the stable part of the request: path, tools, tool
choice, the static system prefix and the `where` tag (step/attempt); not the
model, so a recording outlives a change of the default model. Replay
answers an exact `key` first; failing that, the next unused answer with the same
`anchor`, because the dynamic part of a repair prompt quotes error output whose
paths and traceback layout differ between machines and Python versions. A
request matching neither is a miss: the transport answers 404 with a marker
header, the client raises ReplayMissError naming step/attempt and hash.
Answers for one key (a 529 then a 200) are served in recorded order.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from pathlib import Path
from typing import Any

import httpx2
from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.config import ENV_MAX_DATA_BYTES, file_caps
from orchestrator.errors import ConfigError
from orchestrator.filecap import FileCapError, read_capped
from orchestrator.hints import Hint, HintAction

RECORD_FORMAT = 1
WHERE_HEADER = "x-skillweave-where"  # set per call by the client, stripped before the network
MISS_HEADER = "x-skillweave-replay-miss"  # on the replay transport's answer to a miss
_KEPT_RESPONSE_HEADERS = (
    "content-type",
    "request-id",
    "retry-after",
    "retry-after-ms",
    "x-should-retry",
)
_ANCHOR_FIELDS = ("tools", "tool_choice", "system")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecordedRequest(_Frozen):
    method: str
    path: str
    body: Any = None


class RecordedResponse(_Frozen):
    status: int
    headers: dict[str, str] = {}
    body: Any = None


class Exchange(_Frozen):
    """One line of a recording."""

    format: int = RECORD_FORMAT
    key: str
    anchor: str
    where: str | None = None
    request: RecordedRequest
    response: RecordedResponse


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _normalized_path(path: str) -> str:
    """From `/v1/` on, so a base URL with a path prefix records the same request."""
    at = path.find("/v1/")
    return path[at:] if at >= 0 else path


def _parse_body(content: bytes) -> Any:
    if not content:
        return None
    try:
        return json.loads(content)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {"text": content.decode("utf-8", errors="replace")}


def normalize_request(request: httpx2.Request, content: bytes) -> tuple[RecordedRequest, str, str]:
    """The recorded form of a request, its key and its anchor."""
    recorded = RecordedRequest(
        method=request.method.upper(),
        path=_normalized_path(request.url.path),
        body=_parse_body(content),
    )
    key = _digest(f"{recorded.method} {recorded.path}\n{_canonical(recorded.body)}")
    body = recorded.body if isinstance(recorded.body, dict) else {}
    stable = {field: body.get(field) for field in _ANCHOR_FIELDS}
    where = request.headers.get(WHERE_HEADER)
    anchor = _digest(f"{recorded.method} {recorded.path}\n{where}\n{_canonical(stable)}")
    return recorded, key, anchor


class LiveTransport(httpx2.AsyncBaseTransport):
    """Passes requests to the network, without the `where` tag meant for recordings."""

    def __init__(self, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self._inner = inner if inner is not None else httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if WHERE_HEADER in request.headers:
            del request.headers[WHERE_HEADER]
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


class RecordingTransport(LiveTransport):
    """Passes requests on and appends each request/response pair to `path`.

    The file is truncated when the transport is made: one file, one run.
    """

    def __init__(self, path: Path, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        super().__init__(inner)
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        content = await request.aread()
        recorded, key, anchor = normalize_request(request, content)
        where = request.headers.get(WHERE_HEADER)
        response = await super().handle_async_request(request)
        try:
            body = await response.aread()  # decoded: content-encoding is undone here
        finally:
            await response.aclose()
        headers = {
            name: response.headers[name]
            for name in _KEPT_RESPONSE_HEADERS
            if name in response.headers
        }
        exchange = Exchange(
            key=key,
            anchor=anchor,
            where=where,
            request=recorded,
            response=RecordedResponse(
                status=response.status_code, headers=headers, body=_parse_body(body)
            ),
        )
        with self.path.open("a", encoding="utf-8") as out:
            out.write(exchange.model_dump_json() + "\n")
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


def load_recording(path: Path, max_bytes: int | None = None) -> list[Exchange]:
    """Read a recording (a regular file of at most `max_bytes`, by default the
    SKILLWEAVE_MAX_DATA_BYTES cap); a missing file or a bad line is a ConfigError naming file:line."""
    limit = file_caps().data_bytes if max_bytes is None else max_bytes
    try:
        lines = read_capped(path, limit, ENV_MAX_DATA_BYTES).decode("utf-8").splitlines()
    except FileNotFoundError:
        raise ConfigError("no such file", where=str(path), setting="llm_replay") from None
    except UnicodeDecodeError:
        raise ConfigError("not UTF-8 text", where=str(path), setting="llm_replay") from None
    except FileCapError as exc:
        raise ConfigError(f"the recording is {exc.strerror}", where=str(path), setting="llm_replay") from None
    except OSError as exc:
        raise ConfigError(
            f"cannot read the recording: {exc.strerror or exc}", where=str(path)
        ) from None
    exchanges: list[Exchange] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            exchange = Exchange.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            what = f"{field}: {first['msg']}" if field else first["msg"]
            raise ConfigError(
                f"not a recorded LLM exchange: {what}", where=f"{path}:{number}"
            ) from None
        if exchange.format != RECORD_FORMAT:
            raise ConfigError(
                f"recording format {exchange.format} is not {RECORD_FORMAT}",
                where=f"{path}:{number}", hint=Hint(action=HintAction.RECORD_AGAIN),
            )
        exchanges.append(exchange)
    return exchanges


class ReplayTransport(httpx2.AsyncBaseTransport):
    """Answers from a recording; never touches the network."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._by_key: dict[str, deque[Exchange]] = {}
        self._by_anchor: dict[str, deque[Exchange]] = {}
        self._used: set[int] = set()
        self.inexact = 0  # answers found by anchor only
        for exchange in load_recording(path):
            self._by_key.setdefault(exchange.key, deque()).append(exchange)
            self._by_anchor.setdefault(exchange.anchor, deque()).append(exchange)

    def _take(self, queue: deque[Exchange] | None) -> Exchange | None:
        while queue:
            exchange = queue.popleft()
            if id(exchange) not in self._used:
                self._used.add(id(exchange))
                return exchange
        return None

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        content = await request.aread()
        _, key, anchor = normalize_request(request, content)
        exchange = self._take(self._by_key.get(key))
        if exchange is None:
            exchange = self._take(self._by_anchor.get(anchor))
            if exchange is not None:
                self.inexact += 1
        if exchange is None:
            return self._miss(request, key)
        headers = dict(exchange.response.headers)
        if exchange.response.status >= 400:
            headers["retry-after-ms"] = "1"  # a replayed retry never waits
        body = exchange.response.body
        content_out = b"" if body is None else json.dumps(body).encode("utf-8")
        return httpx2.Response(
            exchange.response.status, headers=headers, content=content_out, request=request
        )

    def _miss(self, request: httpx2.Request, key: str) -> httpx2.Response:
        body = {
            "type": "error",
            "error": {
                "type": "replay_miss",
                "message": f"no recorded answer for request {key} in {self.path}",
            },
        }
        headers = {MISS_HEADER: key, "x-should-retry": "false", "content-type": "application/json"}
        return httpx2.Response(404, headers=headers, json=body, request=request)

    async def aclose(self) -> None:
        return None
