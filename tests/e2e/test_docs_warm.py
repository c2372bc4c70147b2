"""The docs server's warm host: later starts fork it; crashed, stale or hung hosts are replaced.

Every test runs real `python -m mcp_servers.docs` launchers over stdio with a
warm folder of its own (SKILLWEAVE_DOCS_WARM_DIR), and stops the hosts it made.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import proc_kit
import pytest
from proc_kit import children_of

from mcp_servers.docs import warm
from orchestrator.warmhost import Unavailable

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0


class Launcher:
    """One `python -m mcp_servers.docs` process spoken to over stdio, line by line."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mcp_servers.docs"], env=env, cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self._id = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self._id += 1
        message = {"jsonrpc": "2.0", "id": self._id, "method": method, "params": params or {}}
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            assert line, f"the server closed its stdout: {self.stderr()}"
            answer = json.loads(line)
            if answer.get("id") == self._id:
                return dict(answer)

    def start(self) -> dict[str, Any]:
        answer = self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
        assert self.process.stdin is not None
        self.process.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        self.process.stdin.flush()
        return answer

    def docs(self, module: str) -> dict[str, Any]:
        answer = self.request("tools/call", {"name": "get_docs", "arguments": {"module_name": module}})
        return dict(answer["result"]["structuredContent"])

    def close(self) -> int:
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        return self.process.wait(timeout=WAIT_S)

    def dispose(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()

    def stderr(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace")


@pytest.fixture
def warm_dir(short_tmp: Path) -> Iterator[Path]:
    folder = short_tmp / "warm"  # a socket's path has a length limit
    yield folder
    for lock in folder.glob("*.lock"):
        pid = _pid_in(lock)
        if pid is not None:
            _kill(pid)


@pytest.fixture
def launch(warm_dir: Path, tmp_path: Path) -> Iterator[Callable[..., Launcher]]:
    made: list[Launcher] = []

    def start(**env: str) -> Launcher:
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "PYTHON"))}
        launcher = Launcher(
            {**clean, "PYTHONPATH": str(ROOT), "SKILLWEAVE_DOCS_WARM_DIR": str(warm_dir), **env}, tmp_path
        )
        made.append(launcher)
        return launcher

    yield start
    for launcher in made:
        launcher.dispose()


def _pid_in(lock: Path) -> int | None:
    try:
        return int(lock.read_text().strip())
    except (OSError, ValueError):
        return None


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def host_pid(warm_dir: Path) -> int:
    [lock] = warm_dir.glob("*.lock")
    pid = _pid_in(lock)
    assert pid is not None
    return pid


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")



def wait_until(predicate: Callable[[], bool], what: str) -> None:
    proc_kit.wait_until(predicate, what, WAIT_S)


def test_a_second_start_is_a_fresh_child_of_the_same_warm_host(launch: Callable[..., Launcher], warm_dir: Path) -> None:
    first = launch()
    assert first.start()["result"]["serverInfo"]["name"] == "docs"
    host = host_pid(warm_dir)
    [first_child] = children_of(host)
    assert first.docs("json")["docs_found"] is True
    assert first.close() == 0
    second = launch()
    second.start()
    assert host_pid(warm_dir) == host
    [second_child] = children_of(host)
    assert second_child not in (first_child, second.pid, host)
    assert second.docs("colorsys")["docs_found"] is True
    assert second.close() == 0
    wait_until(lambda: children_of(host) == [], "the host reaped its children")


def test_each_session_has_its_own_environment(launch: Callable[..., Launcher], tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "json.md").write_text("# json, my way\n")
    plain, custom = launch(), launch(SKILLWEAVE_DOCS_DIR=str(mine))
    plain.start()
    custom.start()
    assert custom.docs("json")["existing_docs"] == "# json, my way\n"
    assert plain.docs("json")["existing_docs"].startswith("# json\n")
    assert custom.close() == plain.close() == 0


def test_a_crashed_host_is_replaced_by_the_next_start(launch: Callable[..., Launcher], warm_dir: Path) -> None:
    launch().start()
    crashed = host_pid(warm_dir)
    _kill(crashed)
    wait_until(lambda: not alive(crashed), "the host died")
    assert list(warm_dir.glob("*.sock")), "the crashed host's socket is left behind"
    fresh = launch()
    assert fresh.start()["result"]["serverInfo"]["name"] == "docs"
    assert host_pid(warm_dir) != crashed
    assert fresh.docs("json")["docs_found"] is True


def test_a_host_that_does_not_answer_is_killed_and_the_start_goes_cold(
    launch: Callable[..., Launcher], warm_dir: Path
) -> None:
    launch().start()
    hung = host_pid(warm_dir)
    os.kill(hung, signal.SIGSTOP)
    try:
        cold = launch(SKILLWEAVE_DOCS_WARM_ACK="1")
        assert cold.start()["result"]["serverInfo"]["name"] == "docs"
        assert children_of(cold.pid) == []  # it serves itself
        wait_until(lambda: not alive(hung), "the hung host was killed")
    finally:
        _kill(hung)
    assert cold.close() == 0
    assert "did not answer within 1s" in cold.stderr()
    again = launch()
    again.start()
    assert host_pid(warm_dir) not in (hung, again.pid)


def test_killing_the_launcher_kills_its_server(launch: Callable[..., Launcher], warm_dir: Path) -> None:
    launcher = launch()
    launcher.start()
    host = host_pid(warm_dir)
    [child] = children_of(host)
    launcher.process.kill()
    launcher.process.wait()
    wait_until(lambda: not alive(child), "the launcher's server child died")
    assert alive(host)


def test_a_signal_to_the_launcher_reaches_its_server_and_both_end_by_it(
    launch: Callable[..., Launcher], warm_dir: Path
) -> None:
    launcher = launch()
    launcher.start()
    [child] = children_of(host_pid(warm_dir))
    launcher.process.send_signal(signal.SIGTERM)
    assert launcher.process.wait(timeout=WAIT_S) == -signal.SIGTERM
    wait_until(lambda: not alive(child), "the server child ended")


def test_the_launcher_exits_with_its_server_s_exit_code(launch: Callable[..., Launcher]) -> None:
    launcher = launch(SKILLWEAVE_DOCS_FAULT="explode-first")
    assert launcher.process.wait(timeout=WAIT_S) == 2
    assert "bad fault 'explode-first'" in launcher.stderr()


def test_an_idle_host_exits_and_removes_its_socket(launch: Callable[..., Launcher], warm_dir: Path) -> None:
    launcher = launch(SKILLWEAVE_DOCS_WARM_IDLE="0.5")
    launcher.start()
    host = host_pid(warm_dir)
    assert launcher.close() == 0
    wait_until(lambda: not alive(host), "the idle host exited")
    assert list(warm_dir.glob("*.sock")) == []


def test_with_warm_hosts_off_the_launcher_serves_itself(launch: Callable[..., Launcher], warm_dir: Path) -> None:
    launcher = launch(SKILLWEAVE_DOCS_WARM="0")
    launcher.start()
    assert launcher.docs("json")["docs_found"] is True
    assert children_of(launcher.pid) == []
    assert not warm_dir.exists()
    assert launcher.close() == 0


def test_the_host_key_changes_with_the_python_path_and_python_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    key = warm.code_key()
    monkeypatch.setattr(sys, "path", [*sys.path, "/nowhere/else"])
    moved = warm.code_key()
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    assert len({key, moved, warm.code_key()}) == 3


def test_a_folder_others_can_enter_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    monkeypatch.setenv(warm.ENV_DIR, str(shared))
    with pytest.raises(Unavailable, match="not a private folder"):
        warm.runtime_dir()


def test_a_host_that_dies_while_starting_makes_the_start_cold_at_once(short_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from orchestrator import warmhost

    monkeypatch.setenv("BROKEN_WARM_DIR", str(short_tmp / "warm"))
    broken = warmhost.WarmSpec(
        name="broken", label="broken", env="BROKEN_WARM",
        host_command=(sys.executable, "-c", "import sys; print('no such server', file=sys.stderr); sys.exit(3)"),
        sources=lambda: (), preload=lambda: None, entry=lambda argv: None,
    )  # fmt: skip
    with pytest.raises(Unavailable, match="stopped while starting") as caught:
        warmhost.launch(broken, [])
    log = Path(str(caught.value).rsplit("see ", 1)[1].rstrip(")"))
    assert "no such server" in log.read_text()
