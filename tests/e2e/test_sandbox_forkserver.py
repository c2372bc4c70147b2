"""What only the warm path (a fork server) could get wrong, checked through the real thing.

The adversarial and contract suites run against the warm path too (`warm-bwrap`
ids); these tests cover what is specific to a long-lived server: nothing a job
does reaches a later job or the server, and the server never outlives its owner.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from orchestrator.sandbox import Isolation, ResourceLimits, Sandbox, SandboxRequest, probe_isolation

pytestmark = pytest.mark.e2e

LIMITS = ResourceLimits(wall_s=10, cpu_s=5, memory_mb=256, max_procs=16)


@pytest.fixture(scope="module")
def bwrap_works() -> None:
    reason = probe_isolation(Isolation.BWRAP)
    if reason is not None:
        pytest.skip(f"the warm path needs bwrap, which cannot run scripts here: {reason}")


@pytest.fixture
async def sandbox(bwrap_works: None) -> AsyncIterator[Sandbox]:
    sandbox = Sandbox(force=Isolation.BWRAP, warm=True)
    assert sandbox.warm
    yield sandbox
    await sandbox.aclose()


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    skill.mkdir()
    skill.chmod(0o755)
    return skill


def _write(skill: Path, name: str, source: str) -> str:
    path = skill / name
    path.write_text(textwrap.dedent(source))
    path.chmod(0o644)
    return name


def _carrying(pids: set[int], token: str) -> set[int]:
    """Those of `pids` whose environment holds the job's idempotency key `token`."""
    needle = f"SKILLWEAVE_IDEMPOTENCY_KEY={token}".encode()
    found = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.add(pid)
        except OSError:
            continue
    return found


def _tree(pid: int) -> set[int]:
    """`pid` and its descendants, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rfind(b")") + 2 :].split()[1])
    found = {pid}
    grew = True
    while grew:
        more = {child for child, parent in parents.items() if parent in found}
        grew = not more <= found
        found |= more
    return found & (set(parents) | {pid})


def _alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie waiting for its parent to reap it is not)."""
    alive = set()
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2 :].split()[0] != b"Z":
            alive.add(pid)
    return alive


async def test_nothing_a_job_leaves_behind_reaches_the_next_job(
    sandbox: Sandbox, skill: Path
) -> None:
    polluter = _write(
        skill,
        "polluter.py",
        """
        import json, os, signal, subprocess, sys
        tried = {}
        for path in ("/tmp/left", "/dev/shm/left", "/left", "/dev/left", "/work/../left"):
            try:
                open(path, "w").write("x")
                tried[path] = "written"
            except OSError as exc:
                tried[path] = str(exc)
        os.environ["LEFT"] = "yes"
        json.dumps = None  # the interpreter state the job was forked with
        subprocess.Popen(["sleep", "60"], start_new_session=True)
        for pid in (1, -1):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        sys.stdout.write('{"tried": %s}' % repr(tried).replace("'", '"'))
        """,
    )
    checker = _write(
        skill,
        "checker.py",
        """
        import json, os, sys
        json.dump({
            "tmp": os.listdir("/tmp"),
            "shm": os.listdir("/dev/shm"),
            "root": "left" in os.listdir("/"),
            "env": os.environ.get("LEFT"),
            "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
            "me": os.getpid(),
        }, sys.stdout)
        """,
    )
    first = await sandbox.run(SandboxRequest(skill_dir=skill, entry=polluter, limits=LIMITS))
    assert first.failure is None or first.failure.kind.value != "setup", first.failure
    second = await sandbox.run(SandboxRequest(skill_dir=skill, entry=checker, limits=LIMITS))
    assert second.ok, (second.failure, second.stderr_tail)
    out = second.output
    assert (out["tmp"], out["shm"], out["root"], out["env"]) == ([], [], False, None)
    assert out["pids"] == [1, out["me"]]  # its namespace's init and itself: no sleep left


async def test_a_job_cannot_reach_the_server_and_later_jobs_still_run(
    sandbox: Sandbox, skill: Path
) -> None:
    attacker = _write(
        skill,
        "attacker.py",
        """
        import json, os, sys
        seen = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        host = os.path.exists("/.host/etc") or os.path.exists("/.host/proc")
        fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))  # one is the listing's own
        try:
            init_fds = os.listdir("/proc/1/fd")  # the init holds a copy of the host tree
        except PermissionError:
            init_fds = None
        out = {"pids": seen, "host": host, "uid": os.getuid(), "fds": fds, "init": init_fds}
        json.dump(out, sys.stdout)
        """,
    )
    result = await sandbox.run(SandboxRequest(skill_dir=skill, entry=attacker, limits=LIMITS))
    assert result.ok, (result.failure, result.stderr_tail)
    assert len(result.output["pids"]) == 2 and result.output["host"] is False
    assert result.output["fds"][:4] == [0, 1, 2, 3] and len(result.output["fds"]) == 5
    assert result.output["init"] is None
    if os.geteuid() == 0:
        assert result.output["uid"] != 0
    again = await sandbox.run(SandboxRequest(skill_dir=skill, entry=attacker, limits=LIMITS))
    assert again.ok


async def test_a_dead_server_is_replaced_on_the_next_run(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(skill, "main.py", "import json, sys\njson.dump(1, sys.stdout)\n")
    request = SandboxRequest(skill_dir=skill, entry=entry, limits=LIMITS)
    assert (await sandbox.run(request)).ok
    server = sandbox._warm
    assert server is not None and server._pid is not None
    tree = _tree(server._pid)
    os.kill(server._pid, signal.SIGKILL)
    async with asyncio.timeout(5):
        while _alive(tree):
            await asyncio.sleep(0.02)
    result = await sandbox.run(request)
    assert result.ok, (result.failure, result.stderr_tail)
    assert sandbox._warm is not server and not result.notes


async def test_aclose_stops_the_server_and_its_jobs(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(skill, "main.py", "import time\ntime.sleep(60)\n")
    token = f"aclose-{os.getpid()}-{time.monotonic_ns()}"
    run = asyncio.ensure_future(
        sandbox.run(
            SandboxRequest(
                skill_dir=skill, entry=entry, limits=LIMITS, env={"SKILLWEAVE_IDEMPOTENCY_KEY": token}
            )
        )
    )
    async with asyncio.timeout(10):
        while sandbox._warm is None or sandbox._warm._pid is None:
            await asyncio.sleep(0.01)
        server = sandbox._warm._pid
        while not _carrying(_tree(server), token):  # the job's script is running
            await asyncio.sleep(0.01)
    tree = _tree(server)
    await sandbox.aclose()
    result = await run  # the job was killed with its server: it reports, it does not hang
    assert not result.ok
    assert _alive(tree) == set()


def test_the_server_dies_with_the_process_that_started_it(bwrap_works: None, skill: Path) -> None:
    entry = _write(skill, "main.py", "import json, sys\njson.dump(1, sys.stdout)\n")
    owner = textwrap.dedent(
        f"""
        import asyncio, sys, time
        from pathlib import Path
        from orchestrator.sandbox import Isolation, Sandbox, SandboxRequest

        async def main():
            sandbox = Sandbox(force=Isolation.BWRAP, warm=True)
            result = await sandbox.run(SandboxRequest(skill_dir=Path({str(skill)!r}), entry={entry!r}))
            print(sandbox._warm._pid if result.ok else -1, flush=True)
            time.sleep(60)

        asyncio.run(main())
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", owner], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        server = int(proc.stdout.readline())
        assert server > 0
        tree = _tree(server)
        assert len(tree) >= 3  # bwrap, its init, the server
    finally:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    deadline = time.monotonic() + 5
    while _alive(tree) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _alive(tree) == set()
