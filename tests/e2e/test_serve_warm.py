"""`skillweave serve` over stdio from a warm host: a later start forks it, as that start's own server.

Real `skillweave serve` launchers, a warm folder per test (SKILLWEAVE_WARM_DIR),
hosts stopped at the end. The server tests (test_server_*.py, test_qa_serve.py)
run through the warm host too, since it is the default.
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

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
WAIT_S = 90.0


class Serve:
    """One `skillweave serve` process spoken to over stdio, line by line."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [SKILLWEAVE, "serve"], env=env, cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self._id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self._id += 1
        message = {"jsonrpc": "2.0", "id": self._id, "method": method, "params": params or {}}
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its stdout"
            answer = json.loads(line)
            if answer.get("id") == self._id:
                return dict(answer)

    def start(self) -> None:
        answer = self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
        assert answer["result"]["serverInfo"]["name"], answer
        assert self.process.stdin is not None
        self.process.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        self.process.stdin.flush()

    def validate(self, spec: str) -> dict[str, Any]:
        return dict(self.request("tools/call", {"name": "validate_spec", "arguments": {"spec": spec}})["result"])

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=WAIT_S)

    def dispose(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def warm_dir(short_tmp: Path) -> Iterator[Path]:
    folder = short_tmp / "warm"  # a socket's path has a length limit
    yield folder
    for lock in folder.glob("*.lock"):
        with contextlib.suppress(OSError, ValueError, ProcessLookupError):
            os.kill(int(lock.read_text().strip()), signal.SIGKILL)


@pytest.fixture
def serve(warm_dir: Path) -> Iterator[Callable[..., Serve]]:
    made: list[Serve] = []

    def start(cwd: Path, **env: str) -> Serve:
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
        server = Serve({**clean, "SKILLWEAVE_WARM_DIR": str(warm_dir), **env}, cwd)
        made.append(server)
        return server

    yield start
    for server in made:
        server.dispose()


def project(root: Path, spec_text: str) -> Path:
    root.mkdir()
    (root / "spec.md").write_text(spec_text)
    return root


def host_pid(warm_dir: Path) -> int:
    [lock] = warm_dir.glob("cli-*.lock")
    return int(lock.read_text().strip())



def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def wait_until(predicate: Callable[[], bool], what: str) -> None:
    proc_kit.wait_until(predicate, what, WAIT_S)


def test_a_later_serve_is_a_fork_of_the_same_host_working_in_its_own_folder(
    serve: Callable[..., Serve], warm_dir: Path, tmp_path: Path
) -> None:
    good = project(tmp_path / "good", SEED.read_text())
    bad = project(tmp_path / "bad", "# Not a workflow\n\nNo steps here.\n")
    first = serve(good)
    first.start()
    host = host_pid(warm_dir)
    assert children_of(host) != [] and first.process.pid not in children_of(host)
    assert first.validate("spec.md").get("isError") is not True
    second = serve(bad)
    second.start()
    assert host_pid(warm_dir) == host
    assert len(children_of(host)) == 2
    assert second.validate("spec.md").get("isError") is True  # its own working directory, its own root
    assert first.close() == 0
    assert second.close() == 0


def test_a_signal_to_serve_reaches_the_server_which_ends_by_it(
    serve: Callable[..., Serve], warm_dir: Path, tmp_path: Path
) -> None:
    server = serve(project(tmp_path / "p", SEED.read_text()))
    server.start()
    [child] = children_of(host_pid(warm_dir))
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=WAIT_S) == -signal.SIGTERM
    wait_until(lambda: gone(child), "the server child ended")


def test_with_warm_hosts_off_serve_starts_its_own_server(
    serve: Callable[..., Serve], warm_dir: Path, tmp_path: Path
) -> None:
    server = serve(project(tmp_path / "p", SEED.read_text()), SKILLWEAVE_SERVE_WARM="0")
    server.start()
    assert not warm_dir.exists()
    assert server.close() == 0


def test_serve_is_warm_over_stdio_run_when_asked_and_help_never(monkeypatch: pytest.MonkeyPatch) -> None:
    from orchestrator.cli.warm import wanted

    for name in ("SKILLWEAVE_SERVE_WARM", "SKILLWEAVE_RUN_WARM", "SKILLWEAVE_WARM"):
        monkeypatch.delenv(name, raising=False)
    assert wanted(["serve"]) is sys.platform.startswith("linux")
    assert not wanted(["run", "spec.md"])  # run: only when asked for
    monkeypatch.setenv("SKILLWEAVE_RUN_WARM", "1")
    assert wanted(["run", "spec.md"]) is sys.platform.startswith("linux")
    assert not wanted(["serve", "--transport", "http"])
    assert not wanted(["serve", "--transport=http"])
    assert not wanted(["serve", "--help"])
    assert not wanted(["run", "--help"])
    assert not wanted(["validate", "spec.md"])
