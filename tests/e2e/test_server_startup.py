"""`skillweave serve` refuses options it cannot serve with: one line, exit 2, before serving."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from serverkit import SKILLWEAVE, make_project

pytestmark = pytest.mark.e2e

EXIT_USAGE = 2


def serve(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SKILLWEAVE), "serve", "--state-dir", str(project / ".skillweave"), *args],
        cwd=project,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def test_a_busy_port_is_one_line_and_a_usage_exit(project: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve(project, "--transport", "http", "--port", str(port))
    assert done.returncode == EXIT_USAGE
    assert done.stderr == f"--port {port}: address already in use\n"


@pytest.mark.parametrize("port", ["70000", "0", "-1"])
def test_a_port_out_of_range_is_a_usage_error(project: Path, port: str) -> None:
    done = serve(project, "--transport", "http", "--port", port)
    assert done.returncode == EXIT_USAGE
    assert "Invalid value for '--port'" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_missing_skills_dir_is_refused_at_startup(project: Path, transport: str) -> None:
    done = serve(project, "--transport", transport, "--skills-dir", "/nonexistent/skills")
    assert done.returncode == EXIT_USAGE
    assert done.stderr == "--skills-dir /nonexistent/skills: no such folder\n"
