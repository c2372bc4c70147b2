"""The `http` kind: one HTTP call, with a JSON body, to the URL the skill names.

    skillweave.kind: http
    skillweave.url: https://api.example.com/v1/lookup
    skillweave.method: POST      # POST (default): the step input is the JSON body
                                 # GET: the input's fields are the query string
    skillweave.timeout: "10"     # seconds per attempt (default 30)

The step's output is the JSON the service answers; the engine checks it against the
output contract as any step's. The call reaches only the URL's own host and port: a
redirect to any other origin is refused, never followed. Each attempt sends its
idempotency key as the `Idempotency-Key` header, so a service that honours it does a
retried POST once.

How a failure is classified (`ErrorClass`):

    429, 408, 5xx, a connection error       transient: retried by the step's policy
    no answer within the timeout            timeout (ambiguous for a POST: it may have landed)
    400, 404, 409, 422 and the other 4xx    invalid_input: the service refused this input
    401, 403                                unrecoverable: the credentials, not the input
    a redirect elsewhere, a body not JSON   unrecoverable

This module is the whole kind: its declaration (`KIND`, registered in
`orchestrator.kinds.registry.BUILTIN`) and its runner (`HttpRunner`), which uses
`httpx2` (imported on the first call) with an injectable transport for tests.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from orchestrator.kinds.model import PREFIX, KindFields, KindMetadata, KindTraits, SkillKind
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepFailure, StepOutcome, StepRequest

if TYPE_CHECKING:
    import httpx2

DEFAULT_TIMEOUT_S = 30.0
MAX_REDIRECTS = 3
MAX_RESPONSE_BYTES = 16 * 1024 * 1024  # a bigger answer is refused, not read into memory
METHODS = ("POST", "GET")
_TRANSIENT_STATUS = frozenset({408, 425, 429})
_AUTH_STATUS = frozenset({401, 403})


class HttpKind(SkillKind):
    name = "http"
    description = "one HTTP call with a JSON body to the URL the skill names (only that host)"
    keys = ("url", "method")
    traits = KindTraits()
    runner = "orchestrator.kinds.http:create_runner"

    def read(self, meta: KindMetadata) -> KindFields:
        url = (meta.text("url") or "").strip()
        parts = urlsplit(url)
        if not url:
            meta.problem("url", f"an http skill needs '{PREFIX}url'", "url-missing")
        elif parts.scheme not in ("http", "https") or not parts.hostname:
            meta.problem("url", f"'{PREFIX}url' must be an http:// or https:// URL with a host, not '{url}'",
                         "url")
        method = (meta.text("method") or "POST").strip().upper()
        if method not in METHODS:
            meta.problem("method", f"'{PREFIX}method' must be POST or GET, not '{meta.text('method')}'", "method")
        return KindFields(network=True, params={"url": url, "method": method})


KIND = HttpKind()


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port


def _failure(error_class: ErrorClass, message: str, kind: str, *, detail: str = "",
             ambiguous: bool = False) -> StepOutcome:
    return StepOutcome(failure=StepFailure(error_class=error_class, message=message, kind=kind, detail=detail,
                                           ambiguous=ambiguous))


def classify_status(status: int) -> ErrorClass | None:
    """The class of a failure answered with HTTP `status` (None: not a failure)."""
    if status < 400:
        return None
    if status in _TRANSIENT_STATUS or status >= 500:
        return ErrorClass.TRANSIENT
    if status in _AUTH_STATUS:
        return ErrorClass.UNRECOVERABLE
    return ErrorClass.INVALID_INPUT


class HttpRunner:
    """Runs `http` skills for one run; one connection pool, closed with the run."""

    kind = "http"

    def __init__(self, transport: httpx2.AsyncBaseTransport | None = None) -> None:
        self._transport = transport
        self._client: httpx2.AsyncClient | None = None

    def _http(self) -> httpx2.AsyncClient:
        if self._client is None:
            import httpx2

            self._client = httpx2.AsyncClient(transport=self._transport, follow_redirects=False, trust_env=False)
        return self._client

    async def run(self, request: StepRequest) -> StepOutcome:
        import httpx2

        skill = request.skill
        url, method = str(skill.param("url") or ""), str(skill.param("method") or "POST")
        where = f"{method} {url}"
        timeout = request.timeout_s or DEFAULT_TIMEOUT_S
        if method == "GET":
            query = _query_of(request.input)
            if query is None:
                return _failure(ErrorClass.INVALID_INPUT, f"{where}: a GET takes an object of plain values as "
                                "its input (the query string)", "invalid_input")
            body, params = None, query
        else:
            body, params = json.dumps(request.input, ensure_ascii=False).encode(), None
        headers = {"Accept": "application/json", "Idempotency-Key": request.idempotency_key}
        if body is not None:
            headers["Content-Type"] = "application/json"
        origin = _origin(url)
        started = time.monotonic()
        try:
            for _ in range(MAX_REDIRECTS + 1):
                reply = await self._send(method, url, body, params, headers, httpx2.Timeout(timeout))
                if not reply.is_redirect:
                    break
                target = urljoin(url, reply.location)
                if _origin(target) != origin:
                    return _failure(ErrorClass.UNRECOVERABLE, f"{where}: redirected to {target}, another host: "
                                    "refused (an http skill reaches only the host it names)", "http_redirect")
                url = target
            else:
                return _failure(ErrorClass.UNRECOVERABLE, f"{where}: more than {MAX_REDIRECTS} redirects",
                                "http_redirect")
        except httpx2.TimeoutException:
            return _failure(ErrorClass.TIMEOUT, f"{where}: no answer within {timeout:g}s", "timeout",
                            ambiguous=method != "GET")
        except httpx2.TransportError as exc:
            return _failure(ErrorClass.TRANSIENT, f"{where}: {type(exc).__name__}: {exc}", "http_connection",
                            ambiguous=method != "GET" and not isinstance(exc, httpx2.ConnectError))
        duration = time.monotonic() - started
        meta = {"status": str(reply.status)}
        error_class = classify_status(reply.status)
        if error_class is not None:
            return StepOutcome(failure=StepFailure(error_class=error_class, kind="http_status",
                                                   message=f"{where}: HTTP {reply.status} {reply.reason}",
                                                   detail=reply.text(2000)), duration_s=duration, meta=meta)
        if reply.body is None:
            return _failure(ErrorClass.UNRECOVERABLE, f"{where}: the answer is over {MAX_RESPONSE_BYTES} bytes",
                            "http_too_big")
        try:
            output = json.loads(reply.body)
        except (ValueError, UnicodeDecodeError) as exc:
            return _failure(ErrorClass.UNRECOVERABLE, f"{where}: the answer is not JSON ({exc})", "http_not_json",
                            detail=reply.text(2000))
        return StepOutcome(output=output, duration_s=duration, meta=meta)

    async def _send(self, method: str, url: str, body: bytes | None, params: dict[str, str] | None,
                    headers: dict[str, str], timeout: httpx2.Timeout) -> _Reply:
        """One request; the body is read up to MAX_RESPONSE_BYTES (None: it is longer)."""
        request = self._http().build_request(method, url, content=body, params=params, headers=headers,
                                             timeout=timeout)
        response = await self._http().send(request, stream=True)
        try:
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_RESPONSE_BYTES:
                    chunks = []
                    break
                chunks.append(chunk)
            else:
                return _Reply(response.status_code, response.reason_phrase, response.is_redirect,
                              response.headers.get("location", ""), b"".join(chunks))
            return _Reply(response.status_code, response.reason_phrase, False, "", None)
        finally:
            await response.aclose()

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


@dataclass(frozen=True, slots=True)
class _Reply:
    status: int
    reason: str
    is_redirect: bool
    location: str
    body: bytes | None  # None: over MAX_RESPONSE_BYTES

    def text(self, limit: int) -> str:
        return (self.body or b"")[:limit].decode("utf-8", "replace")


def _query_of(value: Any) -> dict[str, str] | None:
    if value is None:
        return {}
    if not isinstance(value, dict):
        return None
    out: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, bool):
            out[str(key)] = "true" if item else "false"
        elif isinstance(item, str | int | float):
            out[str(key)] = str(item)
        elif item is not None:
            return None
    return out


def create_runner(ctx: RunnerContext) -> HttpRunner:
    """`HttpKind.runner`."""
    return HttpRunner()
