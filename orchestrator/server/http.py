"""Streamable HTTP transport: loopback by default, DNS-rebinding checks, optional bearer token.

- Bound to 127.0.0.1 unless `--host` says otherwise.
- The SDK's transport security checks every request's Host and Origin headers
  against an allow-list (loopback names, the bound host, and `--allow-host` /
  `--allow-origin` values), so a web page cannot reach the server through a
  rebound DNS name.
- A bearer token from `SKILLWEAVE_SERVER_TOKEN` is checked on every request
  when set (constant-time compare), and is required to bind beyond loopback.
- The listening sockets are bound before uvicorn starts (`bind`), so a busy
  port is one clear line (`--port N: address already in use`), not uvicorn's exit.
"""

from __future__ import annotations

import errno
import hmac
import ipaddress
import os
import socket
import sys
from collections.abc import Mapping

import anyio
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Receive, Scope, Send

from orchestrator.errors import ConfigError, SkillweaveError
from orchestrator.server.workspace import ServerConfig

ENV_TOKEN = "SKILLWEAVE_SERVER_TOKEN"
DEFAULT_PORT = 8765
MCP_PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class HttpOptions(BaseModel):
    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(default=DEFAULT_PORT, ge=1, le=65535)
    token: str | None = Field(default=None, repr=False)
    allowed_hosts: tuple[str, ...] = ()  # extra Host header values (name or name:port)
    allowed_origins: tuple[str, ...] = ()  # extra Origin values (scheme://name[:port])

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **values: object) -> HttpOptions:
        env = os.environ if env is None else env
        token = env.get(ENV_TOKEN) or None
        return cls.model_validate({**values, "token": token})

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{MCP_PATH}"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_exposure(options: HttpOptions) -> None:
    """Refuse to listen beyond loopback without a token."""
    if not is_loopback(options.host) and not options.token:
        raise ConfigError(
            f"binding to {options.host} exposes the server to the network; set {ENV_TOKEN} "
            "to a long random token (clients send it as `Authorization: Bearer <token>`)",
            where="--host",
        )


def _host_patterns(name: str) -> list[str]:
    bracketed = f"[{name}]" if ":" in name and not name.startswith("[") else name
    return [bracketed, f"{bracketed}:*"]


def security_settings(options: HttpOptions) -> TransportSecuritySettings:
    """The Host/Origin allow-list: loopback, the bound host, and the extra values given."""
    names = list(LOOPBACK_NAMES)
    if not is_loopback(options.host):
        if options.host in ("0.0.0.0", "::"):
            names.append(socket.gethostname())
        else:
            names.append(options.host)
    hosts: list[str] = []
    origins: list[str] = []
    for name in names:
        hosts += _host_patterns(name)
        origins += [f"http://{p}" for p in _host_patterns(name)] + [f"https://{p}" for p in _host_patterns(name)]
    hosts += list(options.allowed_hosts)
    origins += list(options.allowed_origins)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


class BearerGate:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>`."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                }
            )
            await send({"type": "http.response.body", "body": b"missing or wrong bearer token\n"})
            return
        await self.app(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        for key, value in scope.get("headers", []):
            if key.lower() == b"authorization":
                scheme, _, given = value.partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token)
        return False


def build_app(config: ServerConfig, options: HttpOptions) -> ASGIApp:
    from orchestrator.server.app import build_server

    server = build_server(config)
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        transport_security=security_settings(options),
        host=options.host,
    )
    return BearerGate(app, options.token) if options.token else app


# An address of the host's name that this machine cannot have (no IPv6, say) is skipped
# when another one binds; any other failure refuses to start.
_SKIPPABLE = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)


class StartupError(SkillweaveError):
    """The HTTP server stopped while starting (uvicorn gave up; it logged why)."""

    exit_code = 1


def bind(options: HttpOptions) -> list[socket.socket]:
    """Sockets bound to every address of `options.host` at `options.port` (as uvicorn
    would bind them). ConfigError, naming the option, when the port is taken or the
    address cannot be had."""
    try:
        found = socket.getaddrinfo(options.host, options.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(f"cannot resolve the address: {exc.strerror}", where=f"--host {options.host}") from None
    addresses = list(dict.fromkeys((family, address) for family, _, _, _, address in found))
    sockets: list[socket.socket] = []
    failure: OSError | None = None
    for family, address in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            if exc.errno in _SKIPPABLE and failure is None:
                failure = exc
                continue
            for bound in sockets:
                bound.close()
            raise _bind_error(options, exc) from None
        sockets.append(sock)
    if not sockets:
        raise _bind_error(options, failure or OSError(errno.EADDRNOTAVAIL, "no address to bind"))
    return sockets


def _bind_error(options: HttpOptions, exc: OSError) -> ConfigError:
    if exc.errno == errno.EADDRINUSE:
        return ConfigError("address already in use", where=f"--port {options.port}")
    if exc.errno == errno.EACCES:
        return ConfigError("permission denied (a port below 1024 needs privileges)", where=f"--port {options.port}")
    reason = (exc.strerror or str(exc)).lower()
    return ConfigError(f"cannot listen on port {options.port}: {reason}", where=f"--host {options.host}")


async def run_http(config: ServerConfig, options: HttpOptions) -> None:
    """Serve until SIGINT/SIGTERM; uvicorn then runs the lifespan's shutdown, which
    cancels background runs into the journal."""
    import uvicorn

    check_exposure(options)
    sockets = bind(options)
    try:
        app = build_app(config, options)
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host=options.host,
                port=options.port,
                log_level="warning",
                lifespan="on",
                timeout_graceful_shutdown=5,
            )
        )
        exits: list[object] = []

        async def serve() -> None:
            try:
                await server.serve(sockets=sockets)
            except SystemExit as exc:  # uvicorn's way to give up at startup; it has logged why
                exits.append(exc.code)

        async with anyio.create_task_group() as group:
            group.start_soon(serve)
            while not server.started and not server.should_exit and not exits:
                await anyio.sleep(0.05)
            if server.started:
                print(f"skillweave: MCP server on {options.url}", file=sys.stderr, flush=True)
    finally:
        for sock in sockets:
            sock.close()
    if exits:
        raise StartupError(
            f"the server did not start (uvicorn exit {exits[0]}; its message is above)", where=options.url
        )
