"""The MCP client process from a warm host (`orchestrator.mcp_client.warm`), through the real CLI:
a run's client is a child of this user's warm host, not of the run; a SIGKILL of the run
still ends it and its server (its lease: a pidfd on the run, and the launcher's connection);
a crashed host is replaced; SKILLWEAVE_MCP_WARM=0 gives the cold client process.

The warm hosts live in this session's XDG_RUNTIME_DIR (`tests/conftest.py`)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.e2e.test_mcp_client_process import (
    calls,
    cleanup,
    finish,
    gone_soon,
    start,
    write_project,
)

pytestmark = pytest.mark.e2e


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def warm_client_host(pid: int) -> bool:
    line = cmdline(pid)
    return "orchestrator.mcp_client.warm" in line and "--warm-host" in line


def our_hosts() -> list[int]:
    """This session's warm client hosts (their socket is in its XDG_RUNTIME_DIR)."""
    folder = os.environ["XDG_RUNTIME_DIR"]
    found = []
    for pid in (int(name) for name in os.listdir("/proc") if name.isdigit()):
        try:
            line = cmdline(pid)
        except OSError:
            continue
        if warm_client_host(pid) and any(arg.startswith(folder) for arg in line):
            found.append(pid)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_sigkilled_run_takes_its_warm_client_and_server_along(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        client = first["ppid"]
        host = parent_of(client)
        assert client != run.pid and host in our_hosts()
        os.kill(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)
        assert gone_soon(client), "the warm client outlived the run"
        assert gone_soon(first["pid"]), "the server outlived the run"
        assert alive(host), "the host is this user's, for later runs"
    finally:
        cleanup(first["ppid"], first["pid"])


def test_a_crashed_warm_client_host_is_replaced_by_the_next_run(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    (tmp_path / "release").touch()
    code, _, err = finish(start(tmp_path, "run", str(spec)))
    assert code == 0, err
    hosts = our_hosts()
    assert hosts, "no warm client host is left for later runs"
    for pid in hosts:
        os.kill(pid, signal.SIGKILL)  # a crash: its socket and lock stay behind
        assert gone_soon(pid)
    code, _, err = finish(start(tmp_path, "run", str(spec)))
    assert code == 0, err
    again = our_hosts()
    assert again and not set(again) & set(hosts), "the crashed host was not replaced"


def test_turned_off_the_client_process_is_the_runs_own_child(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    run = start(tmp_path, "run", str(spec), SKILLWEAVE_MCP_WARM="0")
    first = calls(tmp_path, 1, run)[0]
    try:
        assert first["ppid"] != run.pid and parent_of(first["ppid"]) == run.pid
        assert "orchestrator.mcp_client.warm" in cmdline(first["ppid"])  # the launcher went cold itself
    finally:
        (tmp_path / "release").touch()
        code, _, err = finish(run)
    assert code == 0, err
