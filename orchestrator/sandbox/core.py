"""`Sandbox`: run one attempt of a script skill, isolated, limited, classified."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import hashlib
import json
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TypeVar

from orchestrator import profiling
from orchestrator.config import ENV_REQUIRE_ISOLATION
from orchestrator.errors import IsolationError
from orchestrator.sandbox.artifact import Collected, collect_artifacts, listed_paths
from orchestrator.sandbox.bootstrap import (
    TMPFS_ARG,
    bootstrap_command,
    loader_command,
    precompile,
    tmpfs_options,
)
from orchestrator.sandbox.detect import (
    choose_launcher,
    forced_isolation,
    make_launcher,
    run_uid,
    working_bwrap,
)
from orchestrator.sandbox.environment import build_env
from orchestrator.sandbox.host import find_runtime, find_tools, running_as_root
from orchestrator.sandbox.launcher import BwrapLauncher, Launcher, Layout
from orchestrator.sandbox.model import (
    FailureKind,
    Isolation,
    SandboxFailure,
    SandboxRequest,
    SandboxResult,
)
from orchestrator.sandbox.network import ENV_HOST_NETWORK, MISSING, NET_FD, find_slirp
from orchestrator.sandbox.outcome import classify, decode_tail
from orchestrator.sandbox.process import Spawner, SpawnRequest, SpawnResult, spawn_process
from orchestrator.sandbox.warm import WarmJob, WarmServer, server_command
from orchestrator.sandbox.workspace import make_attempt, remove_if_empty, remove_tree, seed

logger = logging.getLogger(__name__)

CODE_CACHE_SIZE = 256  # compiled scripts kept per Sandbox
DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})  # the host's problem: raised, see `run`
_T = TypeVar("_T")
ENV_SANDBOX_WARM = "SKILLWEAVE_SANDBOX_WARM"  # 1: use the warm path (a fork server)


async def _off_the_loop(work: Callable[[], _T], stop: threading.Event | None = None) -> _T:
    """`work()` in a worker thread. Cancelled, it sets `stop` and still waits for the
    thread to end, so nothing runs on after the attempt (its folder is removed next)."""
    task = asyncio.ensure_future(asyncio.to_thread(work))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if stop is not None:
            stop.set()
        await asyncio.wait([task])
        raise


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _setup_failure(
    isolation: Isolation, message: str, notes: tuple[str, ...] = ()
) -> SandboxResult:
    return SandboxResult(
        failure=SandboxFailure(kind=FailureKind.SETUP, message=message),
        isolation=isolation,
        notes=notes,
    )


def _resolve_entry(skill_dir: Path, entry: str) -> tuple[Path, Path] | str:
    """(the skill folder's real path, the entry's real path), or why the entry cannot run."""
    pure = PurePosixPath(entry)
    if not entry or pure.is_absolute() or ".." in pure.parts:
        return f"entry {entry!r} must be a path inside the skill folder"
    if not skill_dir.is_dir():
        return f"skill folder {skill_dir} does not exist"
    real_dir = skill_dir.resolve()
    try:
        real = (skill_dir / entry).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return f"skill {skill_dir.name}: entry {entry!r} is a symlink loop"
    if real != real_dir and real_dir not in real.parents:
        # only the links were followed: the target is never read
        return (
            f"skill {skill_dir.name}: entry {entry!r} leads outside the skill folder "
            f"(a symlink to {real}); refusing to run it"
        )
    return real_dir, real


def _hidden_from_others(paths: list[Path]) -> Path | None:
    """The first path an unprivileged uid cannot read (directories need r-x too)."""
    for path in paths:
        try:
            mode = path.stat().st_mode
        except OSError:
            return path
        need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
        if mode & need != need:
            return path
    return None


class Sandbox:
    """Runs script skills isolated: bwrap, else unshare, else rlimits only.

    `require_isolation` (or SKILLWEAVE_REQUIRE_ISOLATION=1) makes `run` raise
    `IsolationError` instead of running without isolation. `force` (or
    SKILLWEAVE_SANDBOX) picks the mechanism instead of probing. `spawner` is
    the seam to the OS (`spawn_process`); tests inject fakes.

    `warm=True` (or SKILLWEAVE_SANDBOX_WARM=1) starts runs through a fork
    server under bwrap (see `warm` and `forkserver`): the same isolation per
    run, a few milliseconds instead of a fresh interpreter each time. It
    applies to bwrap with the default spawner; elsewhere, or when the server
    cannot start, runs are cold and say why in their notes. Call `aclose()`
    when done (a finalizer and bwrap's --die-with-parent stop the server
    otherwise). `choose_soon()` probes in a thread ahead of the first run (a run
    starting its script steps calls it).
    """

    def __init__(
        self,
        *,
        require_isolation: bool = False,
        force: Isolation | None = None,
        spawner: Spawner | None = None,
        warm: bool | None = None,
    ) -> None:
        self._require = require_isolation or _truthy(os.environ.get(ENV_REQUIRE_ISOLATION))
        self._force = force if force is not None else forced_isolation()
        self._spawner: Spawner = spawner or spawn_process
        self._runtime = find_runtime()
        self._slirp = find_slirp()
        self._as_root = running_as_root()
        self._launcher: Launcher | None = None
        self._problem: str | None = None  # why a forced mechanism cannot run here
        self._why_weaker: tuple[str, ...] = ()
        self._code: dict[tuple[str, bytes], bytes | None] = {}
        self._warm_wanted = _truthy(os.environ.get(ENV_SANDBOX_WARM)) if warm is None else warm
        self._warm: WarmServer | None = None
        self._warm_problem: str | None = None
        self._choosing = threading.Lock()  # the mechanism is chosen once, by one thread
        self._chosen: concurrent.futures.Future[None] | None = None  # `choose_soon`'s

    def choose_soon(self) -> None:
        """Choose the mechanism now, in a thread (the probe: a bwrap start or three, each
        bounded by its wall limit), so that the first `run` finds it chosen. The choice is
        the one `run` would make: a probe that fails refuses or falls back as it would."""
        if self._chosen is not None or self._launcher is not None or self._problem is not None:
            return
        chosen = self._chosen = concurrent.futures.Future()
        chosen.set_running_or_notify_cancel()  # a cancelled wait for it does not cancel it
        started = time.perf_counter()

        def choose() -> None:
            try:
                with contextlib.suppress(Exception):  # `run`'s own `_prepare` raises it again
                    self._prepare()
            finally:
                profiling.add("sandbox: choose the mechanism (in the background)", started)
                chosen.set_result(None)

        threading.Thread(target=choose, name="skillweave-sandbox-choice", daemon=True).start()

    def _prepare(self) -> Launcher | None:
        if self._launcher is not None or self._problem is not None:
            return self._launcher
        with self._choosing:
            return self._choose()

    def _choose(self) -> Launcher | None:
        if self._launcher is not None or self._problem is not None:
            return self._launcher
        tools = find_tools()
        if self._force is Isolation.BWRAP:
            tools = working_bwrap(self._runtime, tools, as_root=self._as_root)
        if self._force is not None:
            made = make_launcher(self._force, self._runtime, tools, as_root=self._as_root)
            if isinstance(made, str):
                self._problem = made
                return None
            self._launcher = made
        else:
            chosen, self._why_weaker = choose_launcher(self._runtime, tools, as_root=self._as_root)
            if isinstance(chosen, str):
                self._problem = chosen
                return None
            self._launcher = chosen
        if self._launcher.isolation is Isolation.NONE:
            logger.warning(
                "sandbox: running scripts WITHOUT isolation (rlimits only)%s",
                "".join(f"; {r}" for r in self._why_weaker),
            )
        return self._launcher

    @property
    def isolation(self) -> Isolation:
        """The mechanism runs will use (probes the host on first use unless forced)."""
        launcher = self._prepare()
        if launcher is None:  # a forced mechanism, or even none, cannot run here
            return self._force or Isolation.NONE
        return launcher.isolation

    @property
    def require_isolation(self) -> bool:
        return self._require

    @property
    def warm(self) -> bool:
        """Whether runs go through the warm path (probes the host on first use)."""
        launcher = self._prepare()
        return (
            self._warm_wanted
            and isinstance(launcher, BwrapLauncher)
            and self._spawner is spawn_process
            and self._warm_problem is None
        )

    async def aclose(self) -> None:
        """Stop the warm path's fork server, if one runs; the Sandbox stays usable."""
        server, self._warm = self._warm, None
        if server is not None:
            await server.aclose()

    async def _warm_server(self, launcher: BwrapLauncher) -> WarmServer | None:
        if self._warm is not None and self._warm.alive:
            return self._warm
        if self._warm is not None:  # it died (its starting thread ended, or it was killed)
            self._warm.close()
        server = WarmServer(launcher.server_argv(server_command(str(self._runtime.executable))))
        problem = await server.start()
        if problem is not None:
            self._warm_problem = problem
            logger.warning("sandbox: warm path unavailable, running cold: %s", problem)
            return None
        if self._warm is not None and self._warm.alive:  # a concurrent run started one first
            await server.aclose()
            return self._warm
        self._warm = server
        return server

    async def run(self, request: SandboxRequest) -> SandboxResult:
        """Run one attempt. Script failures come back classified, never raised."""
        if self._chosen is not None and not self._chosen.done():
            await asyncio.wrap_future(self._chosen)  # the loop goes on meanwhile
        launcher = self._prepare()
        isolation = self.isolation
        if self._require and isolation is Isolation.NONE:
            why = "; ".join(self._why_weaker) or "SKILLWEAVE_SANDBOX=none"
            raise IsolationError(
                f"isolation is required ({ENV_REQUIRE_ISOLATION}) but this host gives none: {why}"
            )
        if launcher is None and self._require:
            raise IsolationError(
                f"isolation is required ({ENV_REQUIRE_ISOLATION}) but {isolation} "
                f"cannot run here: {self._problem}"
            )
        if launcher is None:
            return _setup_failure(
                isolation, f"sandbox ({isolation}) cannot run here: {self._problem}"
            )
        notes = launcher.notes + self._why_weaker
        resolved = _resolve_entry(request.skill_dir, request.entry)
        problem = resolved if isinstance(resolved, str) else None
        script = request.script or request.skill_dir / request.entry
        if problem is None and not script.is_file():
            problem = f"script {script} does not exist"
        if problem is None and launcher.needs_run_uid:
            # unshare reveals the folders on the way to them (see `launcher`); none cannot
            hidden = _hidden_from_others([request.skill_dir, script])
            if hidden is not None:
                problem = (
                    f"{hidden} is not readable by other users; as root the sandbox runs "
                    "scripts under an unprivileged uid (chmod o+rX)"
                )
        try:
            stdin = json.dumps(request.input, ensure_ascii=False, allow_nan=False).encode()
        except (TypeError, ValueError) as exc:
            problem = problem or f"input is not JSON: {exc}"
        host_network = request.network and (
            isolation is Isolation.NONE or _truthy(os.environ.get(ENV_HOST_NETWORK))
        )
        if request.network and not host_network and self._slirp is None:
            logger.warning("sandbox: refusing a script with network: %s", MISSING)
            problem = problem or MISSING
        elif host_network and isolation is not Isolation.NONE:
            notes += (f"network: the host's own ({ENV_HOST_NETWORK}=1), loopback included",)
        mounts: list[tuple[Path, str]] = []
        for mount in request.mounts:
            if isolation is not Isolation.BWRAP:
                problem = problem or (
                    f"read-only mounts need bwrap: {isolation} has no file-system isolation "
                    f"(the script would see more of the host than {mount.source})"
                )
            try:
                mounts.append((mount.source.resolve(strict=True), mount.target))
            except (OSError, RuntimeError):
                problem = problem or f"read-only mount {mount.source} does not exist"
        if problem is not None or isinstance(resolved, str):
            return _setup_failure(isolation, problem or str(resolved), notes)
        # a regenerated script is mounted over the entry; the entry itself is
        # run from the mounted skill folder, where its symlinks cannot lead out,
        # and the host compiles its real file, which `_resolve_entry` found inside the folder
        skill_dir, real_entry = resolved
        if request.script:
            script = source = request.script.resolve()
        else:
            script, source = skill_dir / request.entry, real_entry
        return await self._attempt(
            launcher,
            request,
            skill_dir,
            script,
            source,
            stdin,
            notes,
            host_network=host_network,
            mounts=tuple(mounts),
        )

    async def _attempt(
        self,
        launcher: Launcher,
        request: SandboxRequest,
        skill_dir: Path,
        script: Path,
        source: Path,
        stdin: bytes,
        notes: tuple[str, ...],
        *,
        host_network: bool,
        mounts: tuple[tuple[Path, str], ...],
    ) -> SandboxResult:
        limits = request.limits
        uid = run_uid(launcher)
        try:
            root, work, tmp = make_attempt(
                request.workdir_parent, uid, private_tmp=launcher.private_tmp
            )
        except OSError as exc:
            if exc.errno in DISK_FULL:
                raise
            message = f"cannot make a work directory in {request.workdir_parent}: {exc.strerror}"
            return _setup_failure(launcher.isolation, message, notes)
        if request.seed_dir is not None and request.seed_dir.is_dir():
            try:
                seed(work, request.seed_dir, uid)
            except OSError as exc:
                await _off_the_loop(lambda: remove_tree(root))
                if exc.errno in DISK_FULL:
                    raise
                message = f"cannot copy {request.seed_dir} into the work directory: {exc.strerror or exc}"
                return _setup_failure(launcher.isolation, message, notes)
        layout = Layout(
            skill_dir=skill_dir,
            entry=request.entry,
            script=script,
            workdir=work,
            tmpdir=tmp,
            network=request.network,
            host_network=host_network,
            uid=uid,
            tmpfs=tmpfs_options(limits),
            mounts=mounts,
        )
        try:
            inside = launcher.inside(layout)
            env, env_notes = build_env(request.env, home=inside.workdir, tmpdir=inside.tmpdir)
            command = bootstrap_command(
                str(self._runtime.executable),
                limits=limits,
                workdir=inside.workdir,
                script=inside.script,
                import_paths=inside.import_paths,
                uid=inside.bootstrap_uid,
                code=self._compiled(source, inside.script),
                tmpfs=inside.tmpfs,
            )
            spawn = SpawnRequest(
                argv=tuple(command),  # the launcher's part is added for a cold start, see _spawn
                env=env,
                stdin=stdin,
                workdir=work,
                wall_s=limits.wall_s,
                max_stdout_bytes=limits.max_stdout_bytes,
                max_stderr_bytes=limits.max_stderr_bytes,
                stderr_tail_bytes=limits.stderr_tail_bytes,
                info_fd=launcher.info_fd,
                # only where the work directory is the whole attempt (a private /tmp)
                remove_empty_workdir=work == root and not request.keep_workdir,
                quota_dir=root,  # the work directory, and the fallbacks' tmp beside it
                quota_bytes=limits.work_dir_mb * 1024 * 1024,
                outbound=self._slirp if layout.outbound else None,
                barrier_fd=NET_FD if layout.outbound else None,
            )
            spawned = await self._spawn(launcher, layout, spawn, command, inside.script)
            if self._warm_wanted and self._warm_problem is not None:
                notes += (f"warm path unavailable, ran cold: {self._warm_problem}",)
            outcome = classify(spawned, isolation=launcher.isolation, limits=limits)
            failure = outcome.failure
            collected = Collected()
            named = listed_paths(outcome.output) is not None
            # the usual case, a script that writes no file, costs one rmdir and no artifact
            # scan (the spawner usually made it already, see `SpawnRequest.remove_empty_workdir`)
            gone = spawned.workdir_removed or (
                not request.keep_workdir and not named and remove_if_empty(work)
            )
            if not gone or named:  # named files: say if missing
                collected = await self._collect(work, outcome.output, request)
            extra: list[str] = []
            if collected.failure is not None and failure is None:
                failure = collected.failure
            elif collected.failure is not None:
                extra.append(f"artifacts not collected: {collected.failure.message}")
            if spawned.lingering:
                extra.append("a process the script started kept its output open after it exited")
            return SandboxResult(
                output=outcome.output,
                failure=failure,
                exit_code=outcome.exit_code,
                signal=outcome.signal,
                stdout_bytes=spawned.stdout_bytes,
                stderr_tail=decode_tail(spawned.stderr_tail),
                duration_s=spawned.duration_s,
                usage=spawned.usage,
                isolation=launcher.isolation,
                artifacts=collected.artifacts,
                workdir=work if request.keep_workdir else None,
                notes=notes + env_notes + collected.notes + tuple(extra),
            )
        finally:
            sweep = launcher.sweep_argv(layout)
            if sweep is not None:
                await self._sweep(sweep, work)
            if not request.keep_workdir and not remove_if_empty(root):
                await _off_the_loop(lambda: remove_tree(root))  # a big or deep tree takes time

    async def _collect(self, work: Path, output: object, request: SandboxRequest) -> Collected:
        """The attempt's artifacts, collected in a worker thread (bounded, see `artifact`)."""
        stop = threading.Event()
        return await _off_the_loop(
            lambda: collect_artifacts(
                work,
                output,
                max_bytes=request.limits.max_artifact_bytes,
                copy_to=request.artifact_dir,
                stop=stop,
            ),
            stop,
        )

    async def _spawn(
        self,
        launcher: Launcher,
        layout: Layout,
        request: SpawnRequest,
        command: list[str],
        script_at: str,
    ) -> SpawnResult:
        """Cold: run the full command. Warm: hand the bootstrap's part to the fork server."""
        server = None
        if self.warm and isinstance(launcher, BwrapLauncher):
            server = await self._warm_server(launcher)
        if server is None or not isinstance(launcher, BwrapLauncher):
            argv = tuple(launcher.argv(layout, command))
            return await self._spawner(request.model_copy(update={"argv": argv}))
        args = command[len(loader_command(str(self._runtime.executable))) :]
        args[TMPFS_ARG] = "-"  # the fork server mounts the job's /tmp and /dev/shm itself
        job = WarmJob(
            args=tuple(args),
            network=layout.network,
            host_network=layout.host_network,
            work=str(layout.workdir.resolve()),
            skill=str(layout.skill_dir),
            script=str(layout.script) if layout.overridden else None,
            script_at=script_at if layout.overridden else "",
            tmpfs=layout.tmpfs,
            mounts=tuple((str(src), dst, src.is_dir()) for src, dst in layout.mounts),
            as_root=launcher.needs_run_uid,
        )
        return await server.spawn(request, job)

    def _compiled(self, script: Path, filename: str) -> bytes | None:
        """The script compiled once per content and name, see `precompile`."""
        try:
            source = script.read_bytes()
        except OSError:
            return None  # the bootstrap will report it from inside
        key = (filename, hashlib.sha256(source).digest())
        if key not in self._code:
            if len(self._code) >= CODE_CACHE_SIZE:
                del self._code[next(iter(self._code))]
            self._code[key] = precompile(source, filename)
        return self._code[key]

    async def _sweep(self, argv: list[str], work: Path) -> None:
        """Isolation none as root: kill whatever the per-run uid left behind."""
        await self._spawner(
            SpawnRequest(
                argv=tuple(argv),
                env={"PATH": "/usr/bin:/bin"},
                workdir=work,
                wall_s=5.0,
                max_stdout_bytes=4096,
                max_stderr_bytes=4096,
                stderr_tail_bytes=1024,
            )
        )


async def run_script(
    request: SandboxRequest,
    *,
    require_isolation: bool = False,
    force: Isolation | None = None,
    spawner: Spawner | None = None,
) -> SandboxResult:
    """One-off convenience for `Sandbox(...).run(request)`.

    It probes the host on every call; reuse one `Sandbox` for many runs.
    """
    sandbox = Sandbox(require_isolation=require_isolation, force=force, spawner=spawner)
    return await sandbox.run(request)
