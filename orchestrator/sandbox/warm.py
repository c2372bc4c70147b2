"""The warm path: a fork server under bwrap whose pre-isolated zygotes each run one job.

A cold sandboxed start pays for bwrap and a fresh interpreter every time. The
warm path pays for them once: `WarmServer.start` runs `forkserver` (see its
docstring for what each job gets) under bwrap, and `WarmServer.spawn` hands
it a job: the bootstrap's arguments, the job's folders and network switch, and
over SCM_RIGHTS a reply socket and the job's stdin, stdout, stderr and status
pipes. From there the same supervision as a cold start applies
(`process.supervise`): caps on output, the wall-clock limit, the status byte,
the usage report. Killing a job kills its PID namespace's init, whose pidfd
the job sends back; the server's exit report for the job arrives only when
that namespace is empty, so nothing outlives `spawn`.

The server holds no per-job state beyond a pid and a reply socket. It is tied
to the orchestrator three ways: its control socket (EOF: it kills its jobs and
exits), bwrap's --die-with-parent (the orchestrator died: SIGKILL), and a
finalizer on `WarmServer` (garbage collected or interpreter exit). The
server's parent is the *thread* that started it (PR_SET_PDEATHSIG follows the
thread): start it from the event loop's thread, which `Sandbox` does.
"""

from __future__ import annotations

import array
import asyncio
import collections
import contextlib
import marshal
import os
import select
import signal
import socket
import time
import weakref
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from orchestrator.sandbox import network
from orchestrator.sandbox.bootstrap import BOOTSTRAP, PYTHON_FLAGS
from orchestrator.sandbox.environment import FIXED_ENV
from orchestrator.sandbox.launcher import INFO_FD
from orchestrator.sandbox.model import ResourceUsage
from orchestrator.sandbox.process import (
    KILL_GRACE_S,
    RESET_SIGNALS,
    SpawnRequest,
    SpawnResult,
    cloexec_pipe,
    readable,
    reported_pid,
    supervise,
)

START_TIMEOUT_S = 15.0
CONTROL_FD = 3  # forkserver.CONTROL_FD
ENV_PAD = 8192  # room in the server's environment block for each job's variables
_STUB = (  # the source and the bootstrap come on stdin: /proc/PID/cmdline stays short for jobs
    "import os, sys\nchunks = []\nwhile chunk := os.read(0, 1 << 16):\n    chunks.append(chunk)\n"
    "sys.argv[1:] = b''.join(chunks).decode().split('\\0')\ndel chunks, chunk\n"
    'exec(compile(sys.argv[1], "<skillweave-forkserver>", "exec"))\n'
)
_KILLED = signal.SIGKILL  # the wait status of a process killed by SIGKILL


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WarmJob(_Frozen):
    """What the server needs to isolate one job (host paths are absolute and resolved)."""

    args: tuple[str, ...]  # the bootstrap's arguments (after `-c BOOTSTRAP`)
    network: bool
    host_network: bool = False  # with `network`: the host's namespace, not one of its own
    work: str
    skill: str
    script: str | None = None  # a regenerated script, mounted at `script_at`
    script_at: str = ""
    tmpfs: str  # mount options of the job's /tmp and /dev/shm (`bootstrap.tmpfs_options`)
    mounts: tuple[tuple[str, str, bool], ...] = ()  # (host path, target, is a folder), read-only
    as_root: bool


def server_source() -> str:
    return (Path(__file__).parent / "forkserver.py").read_text()


def server_command(python: str) -> list[str]:
    """The interpreter command line of the fork server (to run under the server's bwrap)."""
    return [python, *PYTHON_FLAGS, "-c", _STUB]


def server_input() -> bytes:
    """What the server reads on stdin at start: its source and the bootstrap."""
    return f"{server_source()}\0{BOOTSTRAP}".encode()


def server_env() -> dict[str, str]:
    env = dict(FIXED_ENV)
    env.update(HOME="/work", TMPDIR="/tmp", SKILLWEAVE_WARM_PAD="." * ENV_PAD)
    return env


class _Job:
    """One job as the supervision loop sees it (`process.Watched`)."""

    def __init__(self, reply: socket.socket) -> None:
        self.status: int | None = None
        self.usage = ResourceUsage()
        self._reply = reply
        self._init: int | None = None  # pidfd of the job's PID-namespace init
        self._wait: int | None = None  # the wait status the job's init or the server reported
        self._watching = False  # for the init's pidfd: its exit empties the namespace
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._started = loop.create_future()
        self._done: asyncio.Future[None] = loop.create_future()
        reply.setblocking(False)
        loop.add_reader(reply.fileno(), self._read)

    async def connect(self, tool: Path) -> network.Outbound | None:
        """Attach slirp4netns to the job's namespace once its init is known, then let the
        script start (`G`); if that fails the job says so and exits as a setup failure."""
        await asyncio.shield(self._started)
        attached: network.Outbound | str = "the job ended first"
        if self._init is not None:
            pid = _pid_of(self._init)
            attached = await network.attach(tool, pid) if pid else "the job's init is gone"
        with contextlib.suppress(OSError):
            self._reply.send(b"G" if not isinstance(attached, str) else b"N" + attached.encode())
        return None if isinstance(attached, str) else attached

    def _take(self, message: bytes, fds: list[int]) -> bool:
        """Record one message; False at the end (exit report or EOF)."""
        for fd in fds[1:]:
            os.close(fd)
        if message.startswith(b"I") and fds and self._init is None:
            self._init = fds[0]
            return True
        for fd in fds[:1]:
            os.close(fd)
        if message.startswith(b"X"):
            self._wait = int(message[1:])
        return not (message == b"" or message.startswith(b"X"))

    def _read(self) -> None:
        while not self._done.done():
            try:
                message, fds = _recv_fds(self._reply, 64, 1)
            except BlockingIOError:
                return
            except OSError:
                message, fds = b"", []
            more = self._take(message, fds)
            if self._init is not None and not self._started.done():
                self._started.set_result(None)
            if not more:  # an exit report: the namespace is empty but for its exiting init
                self._loop.remove_reader(self._reply.fileno())
                if self._wait is None and self._init is not None and not _gone(self._init):
                    self._loop.add_reader(self._init, self._init_gone)  # the namespace empties
                    self._watching = True
                    return
                self._finish()

    def _init_gone(self) -> None:
        self._unwatch()
        self._finish()

    def _unwatch(self) -> None:
        if self._watching and self._init is not None:
            self._loop.remove_reader(self._init)
        self._watching = False

    def _finish(self) -> None:
        for future in (self._started, self._done):
            if not future.done():
                future.set_result(None)

    async def exited(self) -> None:
        await asyncio.shield(self._done)

    def _kill(self) -> None:
        if self._init is not None:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._init, signal.SIGKILL)

    async def kill_tree(self) -> None:
        """SIGKILL the namespace's init; wait until the server reports the job gone."""
        try:
            async with asyncio.timeout(KILL_GRACE_S):
                await asyncio.shield(self._started)
                self._kill()
                await asyncio.shield(self._done)
        except TimeoutError:
            pass

    def reap(self) -> None:
        self.status = self._wait if self._wait is not None else _KILLED
        self._close()

    def kill_now(self) -> None:
        """Kill and wait without the event loop (after cancellation)."""
        if self.status is not None:
            return
        if not self._done.done():
            self._loop.remove_reader(self._reply.fileno())
            self._reply.settimeout(KILL_GRACE_S)
            deadline = time.monotonic() + KILL_GRACE_S
            while time.monotonic() < deadline:
                self._kill()
                try:
                    message, fds = _recv_fds(self._reply, 64, 1)
                except OSError:
                    break
                if not self._take(message, fds):
                    break
            self._unwatch()
            if self._init is not None:
                select.select([self._init], [], [], max(0.0, deadline - time.monotonic()))
            self._done.cancel()
        self.reap()

    def _close(self) -> None:
        self._unwatch()
        if not self._done.done():
            self._loop.remove_reader(self._reply.fileno())
            self._done.cancel()
        if self._init is not None:
            os.close(self._init)
            self._init = None
        self._reply.close()


def _recv_fds(sock: socket.socket, size: int, most: int, flags: int = 0) -> tuple[bytes, list[int]]:
    """`socket.recv_fds` with `flags` honoured (3.11 drops them) and close-on-exec descriptors."""
    fds = array.array("i")
    message, ancillary, _, _ = sock.recvmsg(
        size, socket.CMSG_LEN(most * fds.itemsize), flags | socket.MSG_CMSG_CLOEXEC
    )
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    return message, list(fds)


def _pid_of(pidfd: int) -> int | None:
    """The pid a pidfd refers to, in our PID namespace (its fdinfo)."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as f:
            for line in f:
                if line.startswith("Pid:"):
                    pid = int(line.split()[1])
                    return pid if pid > 0 else None
    except (OSError, ValueError, IndexError):
        pass
    return None


def _gone(pidfd: int) -> bool:
    return bool(select.select([pidfd], [], [], 0)[0])


def _stop(pid: int, control: socket.socket, reaper: int | None) -> None:
    """Close the control socket, kill bwrap if it lingers, reap it, wait for its reaper.

    Safe in a finalizer. `reaper` is a pidfd of bwrap's PID-1 reaper, which
    lives on briefly after bwrap exits, until the server's namespace is empty.
    """
    control.close()
    try:
        _reap(pid)
    finally:
        if reaper is not None:
            select.select([reaper], [], [], KILL_GRACE_S)
            os.close(reaper)


def _reap(pid: int) -> None:
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] != 0:
                return
        except ChildProcessError:
            return
        time.sleep(0.005)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


class WarmServer:
    """One fork server: `start` it, `spawn` jobs on it, `aclose` it."""

    def __init__(self, argv: list[str]) -> None:
        self._argv = argv
        self._pid: int | None = None
        self._pidfd: int | None = None
        self._control: socket.socket | None = None
        self._reaper: int | None = None  # pidfd of bwrap's PID-1 reaper
        self._zygotes: collections.deque[socket.socket] = collections.deque()  # ready, unused
        self._finalizer: weakref.finalize[[int, socket.socket, int | None], WarmServer] | None = (
            None
        )

    @property
    def alive(self) -> bool:
        if self._pidfd is None:
            return False
        return not select.select([self._pidfd], [], [], 0)[0]

    async def start(self) -> str | None:
        """Start the server; None when it is ready, else why it could not start."""
        control, remote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pipes = [cloexec_pipe() for _ in range(4)]
        (in_r, in_w), (out_r, out_w), (err_r, err_w), (info_r, info_w) = pipes
        actions = [
            (os.POSIX_SPAWN_DUP2, in_r, 0),
            (os.POSIX_SPAWN_DUP2, out_w, 1),
            (os.POSIX_SPAWN_DUP2, err_w, 2),
            (os.POSIX_SPAWN_DUP2, remote.fileno(), CONTROL_FD),
            (os.POSIX_SPAWN_DUP2, info_w, INFO_FD),
        ]
        try:
            pid = os.posix_spawn(
                self._argv[0],
                self._argv,
                server_env(),
                file_actions=actions,
                setsid=True,
                setsigdef=RESET_SIGNALS,
            )
        except OSError as exc:
            control.close()
            os.close(err_r)
            os.close(info_r)
            return f"cannot start {self._argv[0]}: {exc.strerror or exc}"
        finally:
            remote.close()
            for fd in (in_r, out_r, out_w, err_w, info_w):
                os.close(fd)
        with contextlib.suppress(OSError), open(in_w, "wb") as source:  # closes in_w
            source.write(server_input())
        self._pid, self._pidfd, self._control = pid, os.pidfd_open(pid), control
        self._finalizer = weakref.finalize(self, _stop, pid, control, None)
        try:
            async with asyncio.timeout(START_TIMEOUT_S):
                await readable(control.fileno())
            ready = control.recv(16) == b"R"
        except (TimeoutError, OSError):
            ready = False
        if ready:  # bwrap wrote its reaper's pid before starting the server
            os.set_blocking(info_r, False)
            with contextlib.suppress(OSError):
                reaper = reported_pid(os.read(info_r, 4096))
                self._reaper = os.pidfd_open(reaper) if reaper else None
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _stop, pid, control, self._reaper)
        os.close(info_r)
        try:
            if ready:
                return None
            os.set_blocking(err_r, False)
            with contextlib.suppress(OSError):
                why = os.read(err_r, 4096).decode("utf-8", "replace").strip().splitlines()
                return f"the fork server did not start: {why[-1] if why else 'no message'}"
            return "the fork server did not start"
        finally:
            os.close(err_r)
            if not ready:
                self.close()

    async def spawn(self, request: SpawnRequest, job: WarmJob) -> SpawnResult:
        """Run one job on the server, supervised like a cold start."""
        if self._control is None:
            return SpawnResult(error="the fork server is not running")
        spec = marshal.dumps({**job.model_dump(), "env": dict(request.env)})
        # passed as SCM_RIGHTS, never dup2'ed here: no need to move them high like cloexec_pipe
        (in_r, in_w), (out_r, out_w), (err_r, err_w), (st_r, st_w) = [
            os.pipe2(os.O_CLOEXEC) for _ in range(4)
        ]
        reply, remote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        start = time.monotonic()
        fds = [remote.fileno(), in_r, out_w, err_w, st_w]
        try:
            if job.host_network or not self._give(spec, fds):
                socket.send_fds(self._control, [spec], fds)  # the server forks a zygote for it
        except OSError as exc:
            reply.close()
            for fd in (in_w, out_r, err_r, st_r):
                os.close(fd)
            return SpawnResult(error=f"the fork server is gone: {exc.strerror or exc}")
        finally:
            remote.close()
            for fd in (in_r, out_w, err_w, st_w):
                os.close(fd)
        # while the job runs: take the zygotes handed over since, off the next job's path
        asyncio.get_running_loop().call_soon(self._collect)
        watched = _Job(reply)
        net: asyncio.Task[network.Outbound | None] | None = None
        if job.network and not job.host_network and request.outbound is not None:
            net = asyncio.create_task(watched.connect(request.outbound))
        try:
            return await supervise(watched, request, start, in_w, (out_r, err_r, st_r, None))
        finally:
            if net is not None:
                net.cancel()  # nothing when it is done; a cancelled attach closes its helper
                outbound = None
                with contextlib.suppress(asyncio.CancelledError):
                    outbound = await net
                if outbound is not None:
                    outbound.close()

    def _collect(self) -> None:
        """Take the zygotes the server has handed over since (without waiting)."""
        control = self._control
        while control is not None:
            try:
                message, zygotes = _recv_fds(control, 16, 4, socket.MSG_DONTWAIT)
            except OSError:
                break
            if not message:
                break
            self._zygotes.extend(socket.socket(fileno=fd) for fd in zygotes)

    def _give(self, spec: bytes, fds: list[int]) -> bool:
        """Send the job straight to a zygote the server handed over; False if none took it."""
        if not self._zygotes:
            self._collect()
        while self._zygotes:
            with self._zygotes.popleft() as zygote:  # each serves exactly one job
                try:
                    socket.send_fds(zygote, [spec], fds)
                except OSError:
                    continue  # it died (the server is replacing it)
                return True
        return False

    async def aclose(self) -> None:
        """Stop the server (it kills any job still running) and wait until it is gone."""
        if self._control is None or self._pidfd is None:
            return
        self._control.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(KILL_GRACE_S):
                await readable(self._pidfd)
                if self._reaper is not None:
                    await readable(self._reaper)
        self.close()

    def close(self) -> None:
        """Stop the server without the event loop."""
        if self._finalizer is not None:
            self._finalizer()
        if self._pidfd is not None:
            os.close(self._pidfd)
        while self._zygotes:
            self._zygotes.pop().close()
        self._pid = self._pidfd = self._reaper = self._control = self._finalizer = None
