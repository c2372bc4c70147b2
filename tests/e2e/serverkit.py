"""Helpers for the server's end-to-end tests: a test project, the real `skillweave serve`
as a subprocess (stdio or HTTP), and clients that talk to it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult, ListRootsResult, Root

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SKILLWEAVE = BIN / "skillweave"
PROJECT = Path(__file__).resolve().parent / "data" / "server-project"
START_TIMEOUT_S = 30.0


def isolated_env(project: Path) -> dict[str, str]:
    """What every test server gets: a trust store of its own, never the user's, and the
    test session's folder for warm hosts (the SDK's default environment has none)."""
    env = {"SKILLWEAVE_TRUST_FILE": str(project.parent / "trust.json")}
    if os.environ.get("XDG_RUNTIME_DIR"):
        env["XDG_RUNTIME_DIR"] = os.environ["XDG_RUNTIME_DIR"]
    return env


def make_project(tmp_path: Path) -> Path:
    """A copy of the test project (specs and their skills) to serve from."""
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    return root


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


def roots_callback(*folders: Path) -> Any:
    async def list_roots(context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=f.resolve().as_uri()) for f in folders])

    return list_roots


def stdio_client(project: Path, *extra: str, **client: Any) -> Client:
    params = StdioServerParameters(
        command=str(SKILLWEAVE),
        args=["serve", "--state-dir", str(project / ".skillweave"), *extra],
        cwd=project,
        env=isolated_env(project),  # added to the SDK's safe default environment
    )
    return Client(params, **client)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class HttpServer:
    process: subprocess.Popen[bytes]
    url: str
    log: Path
    env: dict[str, str]  # what the test added to the server's environment (give it to CLI calls)
    token: str  # the bearer token the server requires (given, or the one it keeps in its state dir)

    @asynccontextmanager
    async def client(self, *, token: str | None = None, anonymous: bool = False, **client: Any) -> AsyncIterator[Client]:
        """A connected client sending `Authorization: Bearer <token>` (the server's own unless
        `token` is given); `anonymous`: no such header."""
        sent = None if anonymous else (token or self.token)
        headers = {"Authorization": f"Bearer {sent}"} if sent else None
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(self.url, http_client=http), **client) as connected,
        ):
            yield connected

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"skillweave serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"skillweave serve did not listen on {port} within {START_TIMEOUT_S}s")


@contextmanager
def http_server(
    project: Path, *extra: str, env: dict[str, str] | None = None, port: int | None = None
) -> Iterator[HttpServer]:
    """`skillweave serve --transport http` on `port` (else a free one); SIGTERM (then kill) at exit."""
    port = port or free_port()
    log = project.parent / f"serve-{port}.log"
    env = {**isolated_env(project), **(env or {})}
    with log.open("wb") as err:
        process = subprocess.Popen(
            [str(SKILLWEAVE), "serve", "--transport", "http", "--port", str(port),
             "--state-dir", str(project / ".skillweave"), *extra],
            cwd=project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, **env},
        )
    try:
        _wait_listening(process, port, log)
        token = env.get("SKILLWEAVE_SERVE_TOKEN") or env.get("SKILLWEAVE_SERVER_TOKEN") or (
            project / ".skillweave" / "serve-token"
        ).read_text().strip()
        yield HttpServer(process=process, url=f"http://127.0.0.1:{port}/mcp", log=log, env=env, token=token)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
