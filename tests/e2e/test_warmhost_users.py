"""Warm hosts serve their own user only, and a stopped test leaves none behind.

A launcher hands a host its stdio, environment and working directory, so both
ends check who is at the other end (SO_PEERCRED) besides the private folder
(0700) and socket (0600). The other user here is `nobody`, made by dropping
root's uid in a real process; the tests need root for that and skip without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mcp_servers.docs import warm
from orchestrator import warmhost
from orchestrator.warmhost import Unavailable

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
WAIT_S = 60.0
needs_root = pytest.mark.skipif(os.getuid() != 0, reason="making another user's process needs root")

INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
)


@pytest.fixture
def warm_dir(short_tmp: Path) -> Iterator[Path]:
    folder = short_tmp / "warm"  # a socket's path has a length limit
    yield folder
    warmhost.stop_hosts(folder)


def docs_env(warm_dir: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "PYTHON"))}
    return {**clean, "PYTHONPATH": str(ROOT), warm.ENV_DIR: str(warm_dir)}


def initialize(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """One docs server launcher: initialize, then end of input."""
    return subprocess.run(
        [sys.executable, "-m", "mcp_servers.docs"], input=INITIALIZE + "\n", env=env, cwd=cwd,
        capture_output=True, text=True, timeout=WAIT_S,
    )  # fmt: skip


def wait_until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


def the_socket(warm_dir: Path) -> Path:
    [path] = warm_dir.glob("docs-*.sock")
    return path


FOREIGN_LISTENER = """
import os, socket, sys
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o666)
os.setgroups([]); os.setgid(NOBODY_UID); os.setuid(NOBODY_UID)
sock.listen(8)
print("listening", flush=True)
got = b""
sock.settimeout(WAIT_S)
try:
    conn, _ = sock.accept()
    conn.settimeout(2)
    try:
        while chunk := conn.recv(65536):
            got += chunk
    except TimeoutError:
        pass
except TimeoutError:
    pass
print(len(got), flush=True)
""".replace("NOBODY_UID", str(NOBODY)).replace("WAIT_S", str(int(WAIT_S)))


@needs_root
def test_a_launcher_never_hands_its_session_to_another_user_s_socket(
    warm_dir: Path, tmp_path: Path
) -> None:
    env = docs_env(warm_dir)
    assert '"serverInfo"' in initialize(env, tmp_path).stdout  # a host of ours, then stopped
    path = the_socket(warm_dir)
    assert warmhost.stop_hosts(warm_dir)
    wait_until(lambda: not path.exists(), "the stopped host removed its socket")
    foreign = subprocess.Popen(
        [sys.executable, "-I", "-c", FOREIGN_LISTENER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert foreign.stdout is not None and foreign.stdout.readline() == "listening\n"
        started = initialize({**env, "SKILLWEAVE_SECRET": "s3cret"}, tmp_path)
        assert '"serverInfo"' in started.stdout  # served, cold
        assert f"served by a process of uid {NOBODY}" in started.stderr
        assert "starting cold" in started.stderr
        foreign.wait(timeout=WAIT_S)
        assert foreign.stdout.read().strip() == "0"  # not one byte of the request reached it
    finally:
        if foreign.poll() is None:
            foreign.kill()
        foreign.wait()
        if foreign.stdout is not None:
            foreign.stdout.close()


FOREIGN_CLIENT = """
import json, os, socket, struct, sys
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(sys.argv[1])
body = json.dumps({"argv": [], "argv0": "x", "env": {}, "umask": 18, "sys_path": sys.path}).encode()
cwd = os.open("/", os.O_RDONLY)
sock.settimeout(WAIT_S)
try:
    socket.send_fds(sock, [struct.pack("!I", len(body)) + body], [0, 1, 2, cwd])
    answer = sock.recv(16)
except (BrokenPipeError, ConnectionResetError):
    answer = b""
print("closed" if answer == b"" else "answered " + repr(answer), flush=True)
""".replace("WAIT_S", str(int(WAIT_S)))


@needs_root
def test_a_warm_host_refuses_a_session_from_another_user_who_reaches_its_socket(
    warm_dir: Path, tmp_path: Path
) -> None:
    if not Path("/usr/bin/setpriv").exists():
        pytest.skip("setpriv (util-linux) is absent")
    env = docs_env(warm_dir)
    assert '"serverInfo"' in initialize(env, tmp_path).stdout
    path = the_socket(warm_dir)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(warm_dir.stat().st_mode) == 0o700
    # nobody, with the one capability that gets past the folder's and socket's modes
    intruder = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
         "--inh-caps=+dac_override", "--ambient-caps=+dac_override", "--",
         sys.executable, "-I", "-c", FOREIGN_CLIENT, str(path)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT_S,
    )  # fmt: skip
    assert intruder.stdout.strip() == "closed", intruder.stderr  # closed, no child started
    [log] = warm_dir.glob("docs-*.log")
    assert f"refused a session: a process of uid {NOBODY}" in log.read_text()
    assert '"serverInfo"' in initialize(env, tmp_path).stdout  # the host still serves its user


def test_a_symlink_in_place_of_the_folder_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(private)
    monkeypatch.setenv(warm.ENV_DIR, str(tmp_path / "link"))
    with pytest.raises(Unavailable, match="not a private folder"):
        warm.runtime_dir()


def test_stopping_hosts_stops_the_folder_s_hosts_and_no_process_a_stale_lock_names(
    warm_dir: Path, tmp_path: Path
) -> None:
    assert '"serverInfo"' in initialize(docs_env(warm_dir), tmp_path).stdout
    [lock] = warm_dir.glob("docs-*.lock")
    host = int(lock.read_text())
    bystander = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        (warm_dir / "docs-stale.lock").write_text(f"{bystander.pid}\n")
        assert warmhost.stop_hosts(warm_dir) == [host]
        wait_until(lambda: not Path(f"/proc/{host}").exists() or _zombie(host), "the host ended")
        assert bystander.poll() is None
    finally:
        assert bystander.stdin is not None
        bystander.stdin.close()
        bystander.wait(timeout=WAIT_S)


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] == "Z"
    return True
