"""The HTTP transport's exposure rules: loopback by default, Host/Origin allow-list, bearer token."""

from __future__ import annotations

import socket

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from orchestrator.errors import ConfigError
from orchestrator.server.http import (
    ENV_TOKEN,
    BearerGate,
    HttpOptions,
    bind,
    check_exposure,
    security_settings,
)


def test_binding_beyond_loopback_without_a_token_is_refused() -> None:
    with pytest.raises(ConfigError) as info:
        check_exposure(HttpOptions(host="0.0.0.0"))
    assert ENV_TOKEN in info.value.message


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_needs_no_token(host: str) -> None:
    check_exposure(HttpOptions(host=host))


def test_a_token_allows_binding_beyond_loopback() -> None:
    check_exposure(HttpOptions(host="192.0.2.10", token="s3cret-token"))


def test_the_token_comes_from_the_environment() -> None:
    options = HttpOptions.from_env({ENV_TOKEN: "abc"}, host="127.0.0.1", port=9000)
    assert options.token == "abc"
    assert "abc" not in repr(options)


def test_rebinding_protection_allows_loopback_names_only_by_default() -> None:
    settings = security_settings(HttpOptions())
    assert settings.enable_dns_rebinding_protection
    assert "127.0.0.1:*" in settings.allowed_hosts
    assert "localhost:*" in settings.allowed_hosts
    assert not any("evil" in h for h in settings.allowed_hosts)
    assert "http://localhost:*" in settings.allowed_origins


def test_extra_hosts_and_origins_are_added_to_the_allow_list() -> None:
    settings = security_settings(
        HttpOptions(host="192.0.2.10", token="t", allowed_hosts=("box:8765",), allowed_origins=("https://box",))
    )
    assert "192.0.2.10:*" in settings.allowed_hosts
    assert "box:8765" in settings.allowed_hosts
    assert "https://box" in settings.allowed_origins


def _gated() -> BearerGate:
    async def ok(request: object) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return BearerGate(Starlette(routes=[Route("/mcp", ok, methods=["GET", "POST"])]), "tok-123")


async def test_a_request_without_the_bearer_token_is_rejected() -> None:
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=_gated()), base_url="http://127.0.0.1") as http:
        missing = await http.get("/mcp")
        wrong = await http.get("/mcp", headers={"Authorization": "Bearer nope"})
        right = await http.get("/mcp", headers={"Authorization": "Bearer tok-123"})
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert wrong.status_code == 401
    assert right.status_code == 200


def test_a_busy_port_is_refused_before_the_server_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError) as info:
            bind(HttpOptions(port=port))
    assert info.value.render() == f"--port {port}: address already in use"
    assert info.value.exit_code == 2


def test_a_free_port_is_bound_for_the_server_to_listen_on() -> None:
    sockets = bind(HttpOptions(port=_free_port()))
    try:
        assert sockets and all(s.getsockname()[0] == "127.0.0.1" for s in sockets)
    finally:
        for sock in sockets:
            sock.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
