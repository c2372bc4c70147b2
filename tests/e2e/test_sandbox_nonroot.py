"""The sandbox as a non-root user, checked through the real thing.

The dev VM and CI run as root, which takes the root paths (a per-run uid,
setuid in the warm path's jobs). A non-root user takes others: bwrap nests a
user namespace for `--uid` and `--disable-userns`, and the warm path's fork
server then sees its mounts locked (no unmount of the host tree, no detached
copy of it). To run those paths here, the test starts a Python process as
uid 1000 in a user namespace of its own (`unshare --user --map-user=1000`):
the kernel still checks file access against the real owner, so the venv is
readable, but everything the sandbox does is done as an unprivileged user.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

AS_USER_1000 = ("--user", "--map-user=1000", "--map-group=1000")  # unshare(1): uid 1000 in a user namespace

DRIVER = textwrap.dedent(
    """
    import asyncio, json, os, sys
    from pathlib import Path
    from orchestrator.sandbox import Isolation, ResourceLimits, Sandbox, SandboxRequest

    async def main():
        skill = Path(sys.argv[1])
        limits = ResourceLimits(wall_s=10, cpu_s=5, memory_mb=256, max_procs=16)
        seen = {"euid": os.geteuid()}
        for warm in (False, True):
            sandbox = Sandbox(force=Isolation.BWRAP, warm=warm)
            runs = []
            for _ in range(2):  # the warm path's second job comes from a fresh zygote
                result = await sandbox.run(SandboxRequest(skill_dir=skill, entry="probe.py", limits=limits))
                runs.append({"ok": result.ok, "warm": sandbox.warm, "output": result.output,
                             "failure": str(result.failure) if result.failure else None})
            await sandbox.aclose()
            seen["warm" if warm else "cold"] = runs
        print(json.dumps(seen))

    asyncio.run(main())
    """
)

PROBE = textwrap.dedent(
    """
    import json, os, socket, sys
    try:
        open("/skill/written", "w")
        skill_writable = True
    except OSError:
        skill_writable = False
    try:
        socket.create_connection(("127.0.0.1", int(os.environ.get("PORT", "9"))), timeout=1)
        network = True
    except OSError:
        network = False
    try:
        host = sorted(os.listdir("/.host"))
    except FileNotFoundError:
        host = None
    except PermissionError:
        host = "denied"
    json.dump({"uid": os.getuid(), "host": host, "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
               "skill_writable": skill_writable, "network": network, "hostname": socket.gethostname()},
              sys.stdout)
    """
)


def _userns_reason() -> str | None:
    unshare = shutil.which("unshare")
    if unshare is None:
        return "no unshare(1) on this machine to start a non-root process"
    probe = subprocess.run([unshare, *AS_USER_1000, "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"cannot make a user namespace here: {probe.stderr.strip() or probe.returncode}"
    return None


def test_cold_and_warm_runs_work_and_stay_isolated_for_a_non_root_user(tmp_path: Path) -> None:
    reason = _userns_reason()
    if reason is not None:
        pytest.skip(reason)
    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "probe.py").write_text(PROBE)
    forced = ("SKILLWEAVE_SANDBOX", "SKILLWEAVE_SANDBOX_WARM")  # the driver picks each mode itself
    env = {k: v for k, v in os.environ.items() if k not in forced}
    env.update(HOME=str(tmp_path), TMPDIR=str(tmp_path))
    done = subprocess.run(
        ["unshare", *AS_USER_1000, sys.executable, "-c", DRIVER, str(skill)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["euid"] == 1000
    for mode in ("cold", "warm"):
        for run in seen[mode]:
            assert run["ok"], (mode, run["failure"])
            assert run["warm"] is (mode == "warm")
            out = run["output"]
            assert out["host"] in (None, [], "denied"), (mode, out)  # the host tree is out of sight
            assert out["pids"] == 2, (mode, out)  # its namespace's init and itself
            assert not out["skill_writable"] and not out["network"], (mode, out)
            assert out["hostname"] == "sandbox"
    assert not (skill / "written").exists()
