"""The HTTP transport's exposure rules: loopback by default, Host/Origin allow-lists, a bearer token always."""

from __future__ import annotations

import hmac
import socket
from pathlib import Path

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from orchestrator.cli import wording as cli_wording
from orchestrator.config import load_settings
from orchestrator.errors import ConfigError
from orchestrator.security.token import ENV_TOKEN, ENV_TOKEN_OLD
from orchestrator.server.http import BearerGate, HttpOptions, bind, build_app, security_settings
from orchestrator.server.workspace import ServerConfig


def test_the_token_comes_from_the_environment() -> None:
    options = HttpOptions.from_env({ENV_TOKEN: "abc"}, host="127.0.0.1", port=9000)
    assert options.token == "abc"
    assert "abc" not in repr(options)


def test_the_token_flag_wins_over_the_environment_and_the_old_name_still_works() -> None:
    assert HttpOptions.from_env({ENV_TOKEN: "env"}, token="flag").token == "flag"
    assert HttpOptions.from_env({ENV_TOKEN_OLD: "old"}).token == "old"
    assert HttpOptions.from_env({}).token is None  # the state directory's, at start


def test_a_token_with_spaces_is_refused_naming_where_it_came_from() -> None:
    with pytest.raises(ConfigError) as info:
        HttpOptions.from_env({}, token="two words")
    assert info.value.setting == "token"  # the CLI words it as its flag
    assert cli_wording.render_error(info.value).startswith("--token: a token is one word")


def test_rebinding_protection_allows_loopback_names_only_by_default() -> None:
    settings = security_settings(HttpOptions())
    assert settings.enable_dns_rebinding_protection
    assert "127.0.0.1:*" in settings.allowed_hosts
    assert "localhost:*" in settings.allowed_hosts
    assert not any("evil" in h for h in settings.allowed_hosts)


def test_only_the_servers_own_origin_is_allowed_not_any_local_port() -> None:
    origins = security_settings(HttpOptions(port=8765)).allowed_origins
    assert set(origins) == {"http://127.0.0.1:8765", "http://localhost:8765", "http://[::1]:8765"}
    assert not any("*" in o for o in origins)


def test_on_port_80_the_origin_without_a_port_is_the_servers_own() -> None:
    origins = security_settings(HttpOptions(port=80)).allowed_origins
    assert "http://localhost" in origins and "http://localhost:80" in origins


def test_extra_hosts_and_origins_are_added_to_the_allow_list() -> None:
    settings = security_settings(
        HttpOptions(host="192.0.2.10", port=8765, allowed_hosts=("box:8765",), allowed_origins=("https://box",))
    )
    assert "192.0.2.10:*" in settings.allowed_hosts
    assert "box:8765" in settings.allowed_hosts
    assert "http://192.0.2.10:8765" in settings.allowed_origins
    assert "https://box" in settings.allowed_origins


def _gated() -> BearerGate:
    async def ok(request: object) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return BearerGate(Starlette(routes=[Route("/mcp", ok, methods=["GET", "POST"])]), "tok-123")


async def test_a_request_without_the_right_bearer_token_is_rejected() -> None:
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=_gated()), base_url="http://127.0.0.1") as http:
        missing = await http.get("/mcp")
        wrong = await http.get("/mcp", headers={"Authorization": "Bearer nope"})
        longer = await http.get("/mcp", headers={"Authorization": "Bearer tok-1234"})
        other_scheme = await http.get("/mcp", headers={"Authorization": "Basic tok-123"})
        right = await http.get("/mcp", headers={"Authorization": "Bearer tok-123"})
        any_case = await http.get("/mcp", headers={"Authorization": "bearer tok-123"})
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert wrong.status_code == 401 and longer.status_code == 401 and other_scheme.status_code == 401
    assert right.status_code == 200 and any_case.status_code == 200


def test_the_gate_compares_tokens_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    scope = {"type": "http", "headers": [(b"authorization", b"Bearer nope")]}
    assert _gated()._authorized(scope) is False
    assert compared == [(b"nope", b"tok-123")]


def test_the_app_cannot_be_built_without_a_token(tmp_path: Path) -> None:
    config = ServerConfig(settings=load_settings(env={}, state_dir=tmp_path), root=tmp_path)
    with pytest.raises(ValueError, match="token"):
        build_app(config, HttpOptions())


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
