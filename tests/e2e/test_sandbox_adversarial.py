"""Hostile scripts against the real sandbox, checked from the host side.

Every test runs under bwrap and again under the unshare fallback (the test id
names the isolation; `result.isolation` is asserted too). Setting
SKILLWEAVE_SANDBOX=bwrap|unshare|none runs the suite under that mechanism only.
A mechanism this host cannot start is skipped with the probe's reason. The
unshare fallback has no mount namespace, so the two file-system tests are
skipped under it, saying so.

Limits are small so that the whole suite stays fast.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_modes import MODES, mode_id, usable, write_script

from orchestrator.sandbox import (
    FailureKind,
    Isolation,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
    SandboxResult,
)

pytestmark = pytest.mark.e2e


SMALL = ResourceLimits(
    wall_s=10,
    cpu_s=5,
    memory_mb=128,
    max_procs=16,
    max_stdout_bytes=64 * 1024,
    max_stderr_bytes=64 * 1024,
    stderr_tail_bytes=2048,
)
NO_MOUNT_NS = "the unshare fallback has no mount namespace: it does not isolate the file system"
NO_ISOLATION = "isolation none (rlimits only) isolates neither the network nor the file system"


@pytest.fixture(scope="module", params=MODES, ids=mode_id)
def mode(request: pytest.FixtureRequest) -> tuple[Isolation, bool]:
    return usable(request.param)


@pytest.fixture(scope="module")
def sandbox(mode: tuple[Isolation, bool]) -> Iterator[Sandbox]:
    iso, warm = mode
    sandbox = Sandbox(force=iso, warm=warm)
    assert sandbox.warm is warm
    yield sandbox
    asyncio.run(sandbox.aclose())


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    skill.mkdir()
    skill.chmod(0o755)  # as root the script runs under an unprivileged uid
    return skill


@pytest.fixture
def token() -> str:
    return f"adversarial-{uuid.uuid4().hex}"


def _processes_with(token: str) -> list[int]:
    """Host pids whose environment carries `token` (the attempt's idempotency key)."""
    needle = f"SKILLWEAVE_IDEMPOTENCY_KEY={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if needle in f.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


async def _run(
    sandbox: Sandbox, skill: Path, entry: str, token: str, *, input: object = None, **limits: object
) -> SandboxResult:
    request = SandboxRequest(
        skill_dir=skill,
        entry=entry,
        input=input,
        limits=SMALL.merged(**limits),
        env={"SKILLWEAVE_IDEMPOTENCY_KEY": token},
    )
    async with asyncio.timeout(30):
        result = await sandbox.run(request)
    assert result.isolation is sandbox.isolation
    assert not any("warm path unavailable" in note for note in result.notes)
    return result


async def test_a_connection_to_a_host_listener_never_arrives(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    if sandbox.isolation is Isolation.NONE:
        pytest.skip(NO_ISOLATION)
    entry = write_script(
        skill,
        """
        import json, socket, sys
        port, name = json.load(sys.stdin)
        tried = {}
        for family, address in ((socket.AF_INET, ("127.0.0.1", port)), (socket.AF_UNIX, name)):
            try:
                socket.socket(family).connect(address)
                tried[str(family)] = "connected"
            except OSError as exc:
                tried[str(family)] = str(exc)
        json.dump(tried, sys.stdout)
        """,
    )
    abstract = f"\0{token}"
    with socket.socket() as tcp, socket.socket(socket.AF_UNIX) as unix:
        tcp.bind(("127.0.0.1", 0))
        tcp.listen()
        tcp.setblocking(False)
        unix.bind(abstract)
        unix.listen()
        unix.setblocking(False)
        result = await _run(sandbox, skill, entry, token, input=[tcp.getsockname()[1], abstract])
        for listener in (tcp, unix):
            try:
                connection, _ = listener.accept()
            except BlockingIOError:
                continue
            connection.close()
            pytest.fail(f"a connection from the sandbox reached the host's {listener.family!r}")
    assert result.ok, result.failure
    assert "connected" not in result.output.values()


async def test_the_parents_secrets_are_not_in_the_sandbox(
    sandbox: Sandbox, skill: Path, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = f"sk-ant-{uuid.uuid4().hex}"
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    monkeypatch.setenv("GITHUB_TOKEN", secret)
    entry = write_script(
        skill,
        """
        import json, os, sys
        seen = [json.dumps(dict(os.environ))]
        for pid in filter(str.isdigit, os.listdir("/proc")):  # self and thread-self are in there
            for name in ("environ", "cmdline"):
                try:
                    with open(f"/proc/{pid}/{name}", "rb") as f:
                        seen.append(f.read().decode("utf-8", "replace"))
                except OSError:
                    pass
        json.dump({"seen": seen, "home": os.environ.get("HOME")}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, token)
    assert result.ok, result.failure
    assert secret not in json.dumps(result.output) and secret not in result.stderr_tail
    assert result.output["home"] != os.environ.get("HOME")


async def test_writes_outside_the_work_directory_leave_no_file(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    if sandbox.isolation is Isolation.UNSHARE:
        pytest.skip(NO_MOUNT_NS)
    if sandbox.isolation is Isolation.NONE:
        pytest.skip(NO_ISOLATION)
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o777)  # even a world-writable host folder must stay out of reach
    targets = [
        str(outside / "escaped.txt"),
        str(skill / "escaped.txt"),
        "/skill/escaped.txt",
        f"/tmp/{token}",
        "../escaped.txt",
        f"/usr/{token}",
    ]
    entry = write_script(
        skill,
        """
        import json, sys
        results = {}
        for target in json.load(sys.stdin):
            try:
                with open(target, "w") as f:
                    f.write("escaped")
                results[target] = "written"
            except OSError as exc:
                results[target] = str(exc)
        json.dump(results, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, token, input=targets)
    assert result.ok, result.failure
    assert list(outside.iterdir()) == []
    assert not (skill / "escaped.txt").exists()
    assert not Path(f"/tmp/{token}").exists() and not Path(f"/usr/{token}").exists()
    assert not any(p.name == "escaped.txt" for p in Path(tmp_path).rglob("*"))


async def test_files_outside_the_allowed_mounts_cannot_be_read(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    if sandbox.isolation is Isolation.UNSHARE:
        pytest.skip(NO_MOUNT_NS)
    if sandbox.isolation is Isolation.NONE:
        pytest.skip(NO_ISOLATION)
    secret = f"secret-{uuid.uuid4().hex}"
    readable = tmp_path / "public" / "secret.txt"
    readable.parent.mkdir()
    readable.parent.chmod(0o755)
    readable.write_text(secret)
    readable.chmod(0o644)
    candidates = [str(readable), "/etc/passwd", "/etc/shadow", str(Path.home() / ".bashrc")]
    entry = write_script(
        skill,
        """
        import json, sys
        found = {}
        for path in json.load(sys.stdin):
            try:
                with open(path) as f:
                    found[path] = f.read()
            except OSError as exc:
                found[path] = "denied: " + str(exc)
        json.dump(found, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, token, input=candidates)
    assert result.ok, result.failure
    assert secret not in json.dumps(result.output)
    assert all(text.startswith("denied: ") for text in result.output.values())


async def test_a_fork_bomb_stays_bounded_and_leaves_nothing_behind(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    entry = write_script(
        skill,
        """
        import os, time
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.05)  # keep the slot and try again
        """,
    )
    peak = 0
    run = asyncio.ensure_future(_run(sandbox, skill, entry, token, wall_s=2))
    while not run.done():
        peak = max(peak, len(_processes_with(token)))
        await asyncio.wait([run], timeout=0.05)
    result = run.result()
    assert result.failure is not None and result.failure.kind is FailureKind.TIMEOUT
    # the script's processes, plus bwrap's or the bootstrap's init and the launcher
    assert 2 <= peak <= SMALL.max_procs + 3
    assert _processes_with(token) == []


async def test_allocating_far_beyond_the_memory_limit_fails_as_a_resource_limit(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    entry = write_script(
        skill,
        """
        chunks = []
        while True:
            chunks.append(bytearray(8 * 1024 * 1024))
        """,
    )
    result = await _run(sandbox, skill, entry, token, memory_mb=64)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert "memory" in result.failure.message
    assert 0 < result.usage.max_rss_kb <= 64 * 1024


async def test_an_infinite_loop_is_killed_at_the_wall_clock_limit(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    entry = write_script(skill, "while True:\n    pass\n")
    result = await _run(sandbox, skill, entry, token, wall_s=1, cpu_s=30)
    assert result.failure is not None and result.failure.kind is FailureKind.TIMEOUT
    assert _processes_with(token) == []


async def test_an_infinite_loop_is_stopped_by_the_cpu_limit(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    entry = write_script(skill, "while True:\n    pass\n")
    result = await _run(sandbox, skill, entry, token, wall_s=20, cpu_s=1)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert "CPU" in result.failure.message


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
async def test_flooding_output_stops_at_the_cap_and_kills_the_script(
    sandbox: Sandbox, skill: Path, token: str, stream: str
) -> None:
    entry = write_script(
        skill,
        f"""
        import sys
        while True:
            sys.{stream}.write("x" * 65536)
        """,
    )
    result = await _run(sandbox, skill, entry, token)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert stream in result.failure.message
    assert len(result.stderr_tail.encode()) <= SMALL.stderr_tail_bytes
    assert _processes_with(token) == []


async def test_an_output_of_tiny_objects_is_refused_before_the_host_parses_it(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    # under the stdout cap, but parsed it would cost the host ~60 bytes per `{}`
    entry = write_script(skill, 'print("[" + ",".join(["{}"] * 30000) + "]")')
    result = await _run(
        sandbox, skill, entry, token, max_stdout_bytes=1024 * 1024, max_output_containers=20000
    )
    assert result.failure is not None and result.failure.kind is FailureKind.OUTPUT_CONTRACT
    assert "stdout holds 30,001 objects and arrays" in result.failure.message
    assert result.output is None


async def test_a_daemonised_child_does_not_survive_the_run(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    entry = write_script(
        skill,
        """
        import json, os, sys, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                for fd in range(0, 64):
                    try:
                        os.close(fd)
                    except OSError:
                        pass
                time.sleep(60)
            os._exit(0)
        os.wait()
        json.dump({"daemon": "started"}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, token)
    assert result.ok, result.failure
    assert _processes_with(token) == []


async def test_symlinks_out_of_the_work_directory_are_not_collected(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    secret = tmp_path / "host-secret.txt"
    secret.write_text(f"secret-{token}")
    entry = write_script(
        skill,
        """
        import json, os, sys
        target = json.load(sys.stdin)
        os.symlink(target, "leak.txt")
        os.symlink(os.path.dirname(target), "dir")
        os.symlink("/", "root")
        with open("ok.txt", "w") as f:
            f.write("fine")
        listed = ["leak.txt", "dir/" + os.path.basename(target), "root/etc/passwd", "ok.txt"]
        json.dump({"artifacts": listed}, sys.stdout)
        """,
    )
    copies = tmp_path / "copies"
    request = SandboxRequest(
        skill_dir=skill,
        entry=entry,
        input=str(secret),
        limits=SMALL,
        artifact_dir=copies,
        env={"SKILLWEAVE_IDEMPOTENCY_KEY": token},
    )
    result = await sandbox.run(request)
    assert result.ok, result.failure
    assert [a.path for a in result.artifacts] == ["ok.txt"]
    assert sum("a symlink, not followed" in note for note in result.notes) == 3
    assert [p.name for p in copies.rglob("*")] == ["ok.txt"]


async def test_cancelling_a_run_kills_the_script_and_removes_its_work_directory(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    entry = write_script(skill, "import os, time\nos.fork()\ntime.sleep(60)\n")
    parent = tmp_path / "attempts"
    request = SandboxRequest(
        skill_dir=skill,
        entry=entry,
        limits=SMALL,
        workdir_parent=parent,
        env={"SKILLWEAVE_IDEMPOTENCY_KEY": token},
    )
    run = asyncio.ensure_future(sandbox.run(request))
    # the script and its child; a cold start under bwrap or unshare has its launcher too
    started = 2 if sandbox.warm or sandbox.isolation is Isolation.NONE else 3
    async with asyncio.timeout(10):
        while len(_processes_with(token)) < started:
            await asyncio.sleep(0.02)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert _processes_with(token) == []
    assert list(parent.iterdir()) == []


async def test_concurrent_runs_stay_apart(sandbox: Sandbox, skill: Path, token: str) -> None:
    entry = write_script(
        skill,
        """
        import json, os, sys
        mine = json.load(sys.stdin)
        with open("mine.txt", "w") as f:
            f.write(mine)
        json.dump({"mine": open("mine.txt").read()}, sys.stdout)
        """,
    )
    results = await asyncio.gather(
        *(_run(sandbox, skill, entry, f"{token}-{i}", input=f"run-{i}") for i in range(4))
    )
    assert [r.output["mine"] for r in results] == [f"run-{i}" for i in range(4)]
    for result in results:
        assert [a.path for a in result.artifacts] == ["mine.txt"]


# keyctl(2), add_key(2) and KEY_SPEC_SESSION_KEYRING, for the probes below
_KEY_SYSCALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}
_SESSION_KEYRING = -3
_KEYCTL_SEARCH, _KEYCTL_READ, _KEYCTL_UNLINK, _KEYCTL_GET_KEYRING_ID = 10, 11, 9, 0

KEYRING_PROBE = """
import ctypes, json, os, sys
serial, add_key, keyctl = json.load(sys.stdin)
libc = ctypes.CDLL(None, use_errno=True)
call = lambda *a: (libc.syscall(*[ctypes.c_long(x) if isinstance(x, int) else x for x in a]),
                   os.strerror(ctypes.get_errno()))
buf = ctypes.create_string_buffer(256)
seen = {
    "read": call(keyctl, 11, serial, buf, 256),  # KEYCTL_READ the parent's key by its serial
    "secret": buf.value.decode(errors="replace"),
    "mine": call(keyctl, 0, -3, 0)[0],  # KEYCTL_GET_KEYRING_ID of its session keyring
    "added": call(add_key, b"user", b"planted-by-the-script", b"x", 1, -3)[0],
}
json.dump(seen, sys.stdout)
"""


def _keys() -> tuple[ctypes.CDLL, int, int]:
    machine = os.uname().machine
    if machine not in _KEY_SYSCALLS:
        pytest.skip(f"no keyctl numbers for {machine} in this test")
    add_key, keyctl = _KEY_SYSCALLS[machine]
    return ctypes.CDLL(None, use_errno=True), add_key, keyctl


async def test_the_script_gets_a_fresh_session_keyring_not_the_parents(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    libc, add_key, keyctl = _keys()
    secret = f"keyring-secret-{token}".encode()
    serial = libc.syscall(add_key, b"user", token.encode(), secret, len(secret), _SESSION_KEYRING)
    if serial < 0:
        pytest.skip(f"this process cannot add a key: {os.strerror(ctypes.get_errno())}")
    parents = libc.syscall(keyctl, _KEYCTL_GET_KEYRING_ID, _SESSION_KEYRING, 0)
    try:
        entry = write_script(skill, KEYRING_PROBE)
        result = await _run(sandbox, skill, entry, token, input=[serial, add_key, keyctl])
        planted = libc.syscall(keyctl, _KEYCTL_SEARCH, _SESSION_KEYRING, b"user",
                               b"planted-by-the-script", 0)  # fmt: skip
    finally:
        libc.syscall(keyctl, _KEYCTL_UNLINK, serial, _SESSION_KEYRING)
    assert result.ok, (result.failure, result.stderr_tail)
    assert result.output["read"][0] < 0 and secret.decode() not in result.output["secret"]
    assert result.output["mine"] > 0 and result.output["mine"] != parents
    assert result.output["added"] > 0  # into its own keyring, which dies with it
    assert planted < 0  # nothing was added to the parent's


INODE_PROBE = """
import json, os, sys
made = {}
for top in ("/tmp", "/dev/shm"):
    n, why = 0, "never stopped"
    try:
        while n < 200_000:
            os.mkdir(f"{top}/d{n}")
            n += 1
    except OSError as exc:
        why = exc.strerror
    made[top] = [n, why]
json.dump(made, sys.stdout)
"""


async def test_tmp_and_shared_memory_stop_at_their_inode_cap(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    if sandbox.isolation is Isolation.NONE:
        pytest.skip(NO_ISOLATION)
    entry = write_script(skill, INODE_PROBE)
    result = await _run(sandbox, skill, entry, token, max_tmp_files=300)
    assert result.ok, (result.failure, result.stderr_tail)
    for top in ("/tmp", "/dev/shm"):
        made, why = result.output[top]
        assert 250 <= made < 300, (top, made, why)  # a few inodes are the mount's own
        assert why == "No space left on device"


SHM_PROBE = """
import json, os, sys
written = 0
try:
    for i in range(64):  # 64 files of 1 MB: each under the file-size limit
        with open(f"/dev/shm/chunk{i}", "wb") as f:
            f.write(b"x" * (1 << 20))
        written += 1 << 20
except OSError as exc:
    json.dump({"written": written, "why": exc.strerror}, sys.stdout)
else:
    json.dump({"written": written, "why": None}, sys.stdout)
"""


async def test_shared_memory_is_capped_in_size_cold_and_warm(
    sandbox: Sandbox, skill: Path, token: str
) -> None:
    if sandbox.isolation is Isolation.NONE:
        pytest.skip(NO_ISOLATION)
    entry = write_script(skill, SHM_PROBE)
    result = await _run(sandbox, skill, entry, token, file_size_mb=4)
    assert result.ok, (result.failure, result.stderr_tail)
    assert result.output["why"] == "No space left on device"
    assert result.output["written"] <= 4 << 20


DEEP_TREE = """
import json, os, sys
for _ in range(3000):
    os.mkdir("d")
    os.chdir("d")
with open("bottom.txt", "w") as f:
    f.write("deep")
json.dump({"depth": 3000}, sys.stdout)
"""


async def test_a_3000_level_tree_fails_the_attempt_and_leaves_no_folder_behind(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    entry = write_script(skill, DEEP_TREE)
    parent = tmp_path / "attempts"
    request = SandboxRequest(
        skill_dir=skill,
        entry=entry,
        limits=SMALL,
        workdir_parent=parent,
        artifact_dir=tmp_path / "copies",
        env={"SKILLWEAVE_IDEMPOTENCY_KEY": token},
    )
    async with asyncio.timeout(120):
        result = await sandbox.run(request)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert "nests folders deeper than 64 levels" in result.failure.message
    assert result.artifacts == ()
    assert list(parent.iterdir()) == []


async def test_an_artifact_flood_fails_the_attempt_with_one_line(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    entry = write_script(
        skill,
        """
        import json, sys
        json.dump({"artifacts": [f"f{i}" for i in range(1_000_000)]}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, token, max_stdout_bytes=16 << 20)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert result.failure.message == "the output lists 1,000,000 artifacts; at most 1,000 are collected"
    assert result.artifacts == ()


async def test_a_flood_of_files_fails_the_attempt_and_a_sibling_keeps_its_timeout(
    sandbox: Sandbox, skill: Path, token: str, tmp_path: Path
) -> None:
    flood = write_script(
        skill,
        """
        import json, os, sys
        for i in range(25_000):
            os.close(os.open(f"f{i}", os.O_CREAT | os.O_WRONLY))
        json.dump({"made": 25_000}, sys.stdout)
        """,
        name="flood.py",
    )
    sleeper = write_script(skill, "import time\ntime.sleep(60)\n", name="sleep.py")
    flooded, slept = await asyncio.gather(
        # 25 000 files cost seconds of CPU on a loaded host: the limit under test is the count
        _run(sandbox, skill, flood, token, wall_s=30, cpu_s=25),
        _run(sandbox, skill, sleeper, f"{token}-sibling", wall_s=2),
    )
    assert flooded.failure is not None and flooded.failure.kind is FailureKind.RESOURCE_LIMIT
    assert "holds more than 20,000 files and folders" in flooded.failure.message
    assert slept.failure is not None and slept.failure.kind is FailureKind.TIMEOUT
