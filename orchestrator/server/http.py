"""Streamable HTTP transport: loopback by default, a bearer token always, Host/Origin checks.

- Bound to 127.0.0.1 unless `--host` says otherwise.
- Every request must carry `Authorization: Bearer <token>`, on loopback too (any
  local process can reach a loopback port); else 401. The token is compared in
  constant time; where it comes from (given, kept in the state directory, or made
  at start) is `orchestrator.security.token`. It is printed on stderr at start.
- The SDK's transport security checks every request's Host and Origin headers
  against allow-lists, so a web page cannot reach the server through a rebound
  DNS name: Host is a loopback name, the bound host or an `--allow-host` value
  (any port); Origin is exactly this server's own (`http://127.0.0.1:PORT`,
  `http://localhost:PORT`, `http://[::1]:PORT`, the bound host at PORT) or an
  `--allow-origin` value, not a page on some other local port.
- The listening sockets are bound before uvicorn starts (`bind`), so a busy
  port is one clear line (`--port N: address already in use`), not uvicorn's exit.
"""

from __future__ import annotations

import errno
import hmac
import ipaddress
import socket
import sys
from collections.abc import Mapping

import anyio
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Receive, Scope, Send

from orchestrator.errors import ConfigError, SkillweaveError
from orchestrator.security.token import ServeToken, given_token, obtain
from orchestrator.server.workspace import ServerConfig

DEFAULT_PORT = 8765
MCP_PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class HttpOptions(BaseModel):
    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(default=DEFAULT_PORT, ge=1, le=65535)
    token: str | None = Field(default=None, repr=False)  # None: the state directory's (made if missing)
    allowed_hosts: tuple[str, ...] = ()  # extra Host header values (name or name:port)
    allowed_origins: tuple[str, ...] = ()  # extra Origin values (scheme://name[:port])

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **values: object) -> HttpOptions:
        token = values.pop("token", None)
        return cls.model_validate({**values, "token": given_token(env, token if isinstance(token, str) else None)})

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


def _host_patterns(name: str) -> list[str]:
    bracketed = _bracketed(name)
    return [bracketed, f"{bracketed}:*"]


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def security_settings(options: HttpOptions) -> TransportSecuritySettings:
    """The Host/Origin allow-lists: loopback names and the bound host (Host: any port;
    Origin: this server's port only), plus the extra values given."""
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
        origins.append(f"http://{_bracketed(name)}:{options.port}")
        if options.port == 80:  # a browser leaves the default port out of the Origin
            origins.append(f"http://{_bracketed(name)}")
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
    """The server behind the bearer gate; `options.token` must be set (see `run_http`)."""
    from orchestrator.server.app import build_server

    if not options.token:
        raise ValueError("the HTTP server needs a token")
    server = build_server(config)
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        transport_security=security_settings(options),
        host=options.host,
    )
    return BearerGate(app, options.token)


def token_for(config: ServerConfig, options: HttpOptions) -> ServeToken:
    """The token the server requires: the one given, else the state directory's."""
    return obtain(config.settings.state_dir, options.token)


def announce(options: HttpOptions, token: ServeToken) -> None:
    """The lines a person needs to connect, on stderr (never stdout)."""
    print(f"skillweave: MCP server on {options.url}", file=sys.stderr, flush=True)
    state = "made and kept" if token.made else "kept"
    print(
        f"skillweave: clients must send `Authorization: Bearer <token>`; token ({state} in {token.file}): "
        f"{token.value}",
        file=sys.stderr,
        flush=True,
    )


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

    token = token_for(config, options)
    options = options.model_copy(update={"token": token.value})
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
                announce(options, token)
    finally:
        for sock in sockets:
            sock.close()
    if exits:
        raise StartupError(
            f"the server did not start (uvicorn exit {exits[0]}; its message is above)", where=options.url
        )
