"""`network: allow` through the real sandbox: outbound only, never the host's loopback.

The sandbox runs in a driver process inside a network namespace this test makes
(`unshare --net`, as root): its loopback carries a server on 127.0.0.1 (the
"host's loopback" as the sandbox's host sees it), a second address, 198.51.100.1
(TEST-NET-2, on the namespace's own loopback device, reached from the script as
an outside address through slirp4netns), with a server on it, and an abstract
Unix socket. No packet leaves the test's namespace. A script with network:

- reaches the outside server and its bytes arrive (outbound works);
- cannot connect to 127.0.0.1 (its own namespace's), nor to 10.0.2.2 (slirp's
  alias of the host, refused with --disable-host-loopback), nor to the abstract
  socket: none of those servers sees a connection.

Under bwrap, unshare and the warm path. Without slirp4netns a network run is a
setup failure that says how to fix it, unless the host's network is forced.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sandbox_modes import MODES, mode_id, usable, write_script

import orchestrator.sandbox.core as core
from orchestrator.sandbox import (
    FailureKind,
    Isolation,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
    probe_isolation,
)
from orchestrator.sandbox.network import ENV_HOST_NETWORK, find_slirp

pytestmark = pytest.mark.e2e

OUTSIDE = "198.51.100.1"
LIMITS = ResourceLimits(wall_s=20, cpu_s=10, memory_mb=256, max_procs=16)

PROBE = """
import json, socket, sys
target = json.load(sys.stdin)
tried = {}
def attempt(name, family, address, payload):
    s = socket.socket(family)
    s.settimeout(5)
    try:
        s.connect(address)
        s.sendall(payload)
        tried[name] = "connected"
    except OSError as exc:
        tried[name] = str(exc)
    finally:
        s.close()
attempt("outside", socket.AF_INET, (target["outside"], target["out_port"]), b"hello from the sandbox")
attempt("loopback", socket.AF_INET, ("127.0.0.1", target["loop_port"]), b"loop")
attempt("host alias", socket.AF_INET, ("10.0.2.2", target["loop_port"]), b"alias")
attempt("abstract", socket.AF_UNIX, target["abstract"], b"abstract")
json.dump(tried, sys.stdout)
"""

DRIVER = textwrap.dedent(
    """
    import asyncio, json, socket, subprocess, sys
    from pathlib import Path
    from orchestrator.sandbox import Isolation, ResourceLimits, Sandbox, SandboxRequest

    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "addr", "add", OUTSIDE + "/32", "dev", "lo"], check=True)
    iso, warm, skill = Isolation(sys.argv[1]), sys.argv[2] == "warm", Path(sys.argv[3])
    servers = {}
    for name, address in (("loopback", ("127.0.0.1", 0)), ("outside", (OUTSIDE, 0))):
        servers[name] = socket.socket()
        servers[name].bind(address)
        servers[name].listen()
    servers["abstract"] = socket.socket(socket.AF_UNIX)
    servers["abstract"].bind("\\0skillweave-network-probe")
    servers["abstract"].listen()
    target = {"outside": OUTSIDE, "out_port": servers["outside"].getsockname()[1],
              "loop_port": servers["loopback"].getsockname()[1], "abstract": "\\0skillweave-network-probe"}

    async def main():
        sandbox = Sandbox(force=iso, warm=warm)
        request = SandboxRequest(skill_dir=skill, entry="main.py", input=target, network=True,
                                 limits=ResourceLimits(wall_s=20, cpu_s=10, memory_mb=256, max_procs=16))
        try:
            return await sandbox.run(request), sandbox.warm
        finally:
            await sandbox.aclose()

    result, was_warm = asyncio.run(main())
    received = {}
    for name, server in servers.items():
        server.setblocking(False)
        try:
            conn, _ = server.accept()
        except BlockingIOError:
            received[name] = None
            continue
        conn.settimeout(5)
        received[name] = conn.recv(100).decode()
        conn.close()
    print(json.dumps({"ok": result.ok, "failure": str(result.failure), "output": result.output,
                      "stderr": result.stderr_tail, "received": received, "warm": was_warm,
                      "notes": list(result.notes)}))
    """
).replace("OUTSIDE", repr(OUTSIDE))


@pytest.fixture(params=MODES, ids=mode_id)
def mode(request: pytest.FixtureRequest) -> tuple[Isolation, bool]:
    return usable(request.param)


def test_a_script_with_network_reaches_outside_but_not_the_hosts_loopback_or_sockets(
    mode: tuple[Isolation, bool], tmp_path: Path
) -> None:
    if os.geteuid() != 0:
        pytest.skip("the test's own network namespace needs root (ip addr add)")
    if find_slirp() is None:
        pytest.skip("slirp4netns is not installed (scripts/install-system-packages.sh)")
    if shutil.which("ip") is None:
        pytest.skip("no ip(8) to set up the test's namespace")
    iso, warm = mode
    skill = tmp_path / "skill"
    write_script(skill, PROBE)
    skill.chmod(0o755)
    tmp_path.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_SANDBOX")}
    done = subprocess.run(
        ["unshare", "--net", "--", sys.executable, "-c", DRIVER, str(iso), "warm" if warm else "cold",
         str(skill)],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["warm"] is warm
    assert seen["ok"], (seen["failure"], seen["stderr"])
    tried = seen["output"]
    assert tried["outside"] == "connected", tried
    assert seen["received"]["outside"] == "hello from the sandbox"
    assert tried["loopback"] != "connected" and tried["host alias"] != "connected", tried
    assert tried["abstract"] != "connected", tried
    assert seen["received"]["loopback"] is None and seen["received"]["abstract"] is None


async def test_without_slirp4netns_a_network_run_is_refused_unless_the_host_network_is_forced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reason = probe_isolation(Isolation.BWRAP)
    if reason is not None:
        pytest.skip(f"bwrap cannot run scripts here: {reason}")
    monkeypatch.setattr(core, "find_slirp", lambda: None)
    monkeypatch.delenv(ENV_HOST_NETWORK, raising=False)
    skill = tmp_path / "skill"
    entry = write_script(skill, "import json, sys\njson.dump({'ran': True}, sys.stdout)\n")
    skill.chmod(0o755)
    request = SandboxRequest(skill_dir=skill, entry=entry, network=True, limits=LIMITS)
    sandbox = Sandbox(force=Isolation.BWRAP)
    refused = await asyncio.wait_for(sandbox.run(request), 60)
    assert refused.failure is not None and refused.failure.kind is FailureKind.SETUP
    assert "needs slirp4netns" in refused.failure.message
    assert f"{ENV_HOST_NETWORK}=1" in refused.failure.message
    monkeypatch.setenv(ENV_HOST_NETWORK, "1")
    forced = await asyncio.wait_for(sandbox.run(request), 60)
    assert forced.ok, forced.failure
    assert any("the host's own" in note for note in forced.notes)


async def test_forty_network_sandboxes_started_four_at_a_time_all_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # slirp4netns brings the namespace's `lo` up; started before bwrap's child had added
    # 127.0.0.1 itself, bwrap died with "loopback: Failed RTM_NEWADDR" (a quarter of starts)
    reason = probe_isolation(Isolation.BWRAP)
    if reason is not None:
        pytest.skip(f"bwrap cannot run scripts here: {reason}")
    if find_slirp() is None:
        pytest.skip("slirp4netns is not installed (scripts/install-system-packages.sh)")
    monkeypatch.delenv(ENV_HOST_NETWORK, raising=False)
    skill = tmp_path / "skill"
    entry = write_script(skill, "import json, sys\njson.dump({'ran': True}, sys.stdout)\n")
    skill.chmod(0o755)
    tmp_path.chmod(0o755)
    request = SandboxRequest(skill_dir=skill, entry=entry, network=True, limits=LIMITS)
    sandbox = Sandbox(force=Isolation.BWRAP)
    slots = asyncio.Semaphore(4)

    async def one() -> str | None:
        async with slots:
            result = await sandbox.run(request)
        return None if result.ok and result.output == {"ran": True} else f"{result.failure} {result.stderr_tail}"

    try:
        failed = [f for f in await asyncio.wait_for(asyncio.gather(*(one() for _ in range(40))), 300) if f]
    finally:
        await sandbox.aclose()
    assert failed == [], failed
