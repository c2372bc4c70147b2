"""Starting one process and watching it: the seam between the sandbox and the OS.

`Sandbox` decides *what* to run (argv, environment, input); a `Spawner` runs it
and reports what happened as a `SpawnResult`. The real one, `spawn_process`,

- starts the command with `posix_spawn` in a new session (so its process group
  can be killed), stdin/stdout/stderr on pipes and the status pipe on fd 3;
- writes the input and closes stdin; reads stdout and stderr as they come,
  stopping and killing at the caps (stderr keeps only its tail);
- waits for the exit through a pidfd and reaps with `wait4`, which gives the
  CPU time and peak memory of the whole tree;
- kills on the wall-clock limit: the process group first (the command itself
  with it), then the direct children found before (under bwrap and unshare
  that is the PID-namespace init, whose death kills everything in the
  namespace), and waits until those children are gone, so nothing the script
  started outlives the call. In that order the command cannot outlive its
  child: util-linux 2.38's `unshare`, seeing its child die of SIGKILL, fails
  to re-raise it and exits 1, which would report a killed script as one that
  exited with status 1.

Unit tests inject a fake spawner that returns canned `SpawnResult`s.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from orchestrator.sandbox import network
from orchestrator.sandbox.bootstrap import STARTED, STATUS_FD
from orchestrator.sandbox.model import ResourceUsage
from orchestrator.sandbox.workspace import remove_if_empty, used_bytes

Stream = Literal["stdout", "stderr"]

# Dispositions the orchestrator may have set (Python ignores SIGPIPE and SIGXFSZ)
# that must not leak into the sandbox.
RESET_SIGNALS = (
    signal.SIGPIPE,
    signal.SIGXFSZ,
    signal.SIGXCPU,
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGHUP,
    signal.SIGQUIT,
)
QUOTA_POLL_S = 0.1  # the least time between two checks of the work directory's size
QUOTA_COST_FACTOR = 20  # ... and at least this many times what the last check took
QUOTA_MAX_WAIT_S = 1.0  # ... but never more than this, however long that check took
KILL_GRACE_S = 5.0  # how long a killed tree may take to disappear
DRAIN_GRACE_S = 1.0  # how long output pipes may stay open after the exit
_LOW_FDS = 10  # pipe ends are moved above this so the dup2s cannot collide
_STATUS_CAP = 4096


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SpawnRequest(_Frozen):
    argv: tuple[str, ...]
    env: dict[str, str]
    stdin: bytes = b""
    workdir: Path  # host path of the attempt's work directory
    wall_s: float
    max_stdout_bytes: int
    max_stderr_bytes: int
    stderr_tail_bytes: int
    # the command reports the pid of a namespace reaper that may outlive it on
    # this descriptor (bwrap --info-fd); the spawner waits until it is gone
    info_fd: int | None = None
    # remove `workdir` once the command has exited, if it is empty (see `supervise`)
    remove_empty_workdir: bool = False
    # a cap on the bytes under `quota_dir` (the attempt's host folders), checked
    # while the command runs and once after it (see `_watch_quota`)
    quota_dir: Path | None = None
    quota_bytes: int | None = None
    # a network of its own for the script (`network`): this slirp4netns is attached to the
    # command's network namespace, then one byte on `barrier_fd` lets the script start
    outbound: Path | None = None
    barrier_fd: int | None = None


class SpawnResult(_Frozen):
    returncode: int | None = None  # as Popen: negative when killed by that signal
    stdout: bytes = b""
    stdout_bytes: int = 0  # bytes seen, may exceed len(stdout) after an overflow
    stderr_tail: bytes = b""
    stderr_bytes: int = 0
    started: bool = False  # the bootstrap reached the script (status byte on fd 3)
    timed_out: bool = False
    overflow: Stream | None = None
    usage: ResourceUsage = ResourceUsage()
    duration_s: float = 0.0
    error: str | None = None  # the command could not be started at all
    lingering: bool = False  # output pipes stayed open after the exit
    workdir_removed: bool = False  # it was empty and is gone (`remove_empty_workdir`)
    over_quota: bool = False  # more than `quota_bytes` under `quota_dir`; killed if still running


Spawner = Callable[[SpawnRequest], Awaitable[SpawnResult]]


class _Capture(asyncio.Protocol):
    """Collects one pipe up to a cap; past it, stops reading and calls `on_overflow`."""

    def __init__(self, cap: int, tail: int | None, on_overflow: Callable[[], None]) -> None:
        self.cap = cap
        self.tail = tail
        self.on_overflow = on_overflow
        self.data = bytearray()
        self.total = 0
        self.overflow = False
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.overflow:
            return
        self.total += len(data)
        if self.total > self.cap:
            room = self.cap - (self.total - len(data))
            self.data += data[: max(room, 0)]
            self.overflow = True
            if self.transport is not None:
                self.transport.close()
            self.on_overflow()
        else:
            self.data += data
        if self.tail is not None and len(self.data) > 2 * self.tail:
            del self.data[: -self.tail]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def result(self) -> bytes:
        return bytes(self.data if self.tail is None else self.data[-self.tail :])

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def _high(fd: int) -> int:
    """Move `fd` above the standard descriptors (close-on-exec stays set)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, _LOW_FDS)
    os.close(fd)
    return moved


def cloexec_pipe() -> tuple[int, int]:
    r, w = os.pipe2(os.O_CLOEXEC)
    return _high(r), _high(w)


def _kill(pid: int, pidfd: int | None) -> None:
    """SIGKILL `pid`, through its pidfd when there is one; gone already is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    """Direct children of `pid`, from /proc (no CONFIG_PROC_CHILDREN needed)."""
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(pid).encode():
            found.append(int(entry))
    return found


async def readable(fd: int) -> None:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def _wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, _wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


class _Child:
    """One started process: exit watching, reaping and killing of its tree."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.pidfd = _pidfd(pid)
        self.status: int | None = None
        self.usage = ResourceUsage()

    async def exited(self) -> None:
        """Return when the process has exited; it stays unreaped (a zombie)."""
        if self.pidfd is not None:
            await readable(self.pidfd)
            return
        while True:  # no pidfd (kernel < 5.3): poll
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if info is not None:
                return
            await asyncio.sleep(0.005)

    def reap(self) -> None:
        """Sweep the process group, then collect the exit status and resource use.

        The group is killed *before* reaping: while the leader is a zombie its
        pid, and so the group id, cannot be reused by an unrelated process.
        """
        self.kill_group()
        _, status, rusage = os.wait4(self.pid, 0)
        self.status = status
        self.usage = ResourceUsage(
            cpu_s=round(rusage.ru_utime + rusage.ru_stime, 6), max_rss_kb=rusage.ru_maxrss
        )
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    async def kill_tree(self) -> None:
        """SIGKILL the group, then the children (namespace inits); wait until they are gone.

        The children are found first (once the command is dead they are no longer
        its children) and signalled through their pidfds, which cannot reach a
        process that reused the pid of one already gone.
        """
        kids = [(kid, _pidfd(kid)) for kid in _children(self.pid)]
        self.kill_group()
        for kid, fd in kids:
            _kill(kid, fd)
        try:
            async with asyncio.timeout(KILL_GRACE_S):
                await self.exited()
                for _, fd in kids:
                    if fd is not None:
                        await readable(fd)
        except TimeoutError:
            pass
        finally:
            for _, fd in kids:
                if fd is not None:
                    os.close(fd)

    def kill_now(self) -> None:
        """Kill and reap without the event loop (after `kill_tree`, or when it was cut short)."""
        if self.status is not None:
            return
        kids = _children(self.pid)
        _kill(self.pid, None)  # first, as in `kill_tree`
        for kid in kids:
            _kill(kid, None)
        self.reap()


def _usage(status: bytes, reaped: ResourceUsage) -> ResourceUsage:
    """The script's own report (`U <cpu> <rss>`, see bootstrap) or, without one, wait4's.

    wait4's figures are a fallback only: bwrap's init does not pass its children's
    usage up, and the peak RSS of a process started with vfork counts the
    orchestrator's own memory from before the exec.
    """
    for line in reversed(status.splitlines()):
        parts = line.split()
        if len(parts) == 3 and parts[0] == b"U":
            try:
                return ResourceUsage(cpu_s=float(parts[1]), max_rss_kb=int(parts[2]))
            except ValueError:
                break
    return ResourceUsage(cpu_s=reaped.cpu_s)  # its peak RSS would be the orchestrator's


_CHILD_PID = re.compile(rb'"child-pid"\s*:\s*(\d+)')


def reported_pid(info: bytes) -> int | None:
    found = _CHILD_PID.search(info)
    return int(found.group(1)) if found else None


async def _gone(pid: int | None) -> None:
    """Wait (boundedly) until `pid` has exited; at once if it is already gone."""
    fd = _pidfd(pid) if pid else None
    if fd is None:
        return
    try:
        async with asyncio.timeout(KILL_GRACE_S):
            await readable(fd)
    except TimeoutError:
        pass
    finally:
        os.close(fd)


async def _stop_watching(exited: asyncio.Future[None]) -> None:
    """Cancel an exit watcher and let it unregister its reader before another is added."""
    exited.cancel()
    await asyncio.wait([exited])


async def _attach(capture: _Capture, fd: int) -> None:
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: capture, os.fdopen(fd, "rb", buffering=0))


class Watched(Protocol):
    """A started job as the supervision loop sees it (`_Child`, or a warm job)."""

    status: int | None  # the wait status, once reaped
    usage: ResourceUsage

    async def exited(self) -> None: ...

    def reap(self) -> None: ...

    async def kill_tree(self) -> None: ...

    def kill_now(self) -> None: ...


def quota_wait(walk_s: float) -> float:
    """How long to wait before the next check of the work directory, after a walk of `walk_s`.

    `QUOTA_COST_FACTOR` times the walk keeps a big tree's checks to a bounded share
    of a CPU; `QUOTA_MAX_WAIT_S` bounds what a script can write past its quota
    between two checks however slow one was (a walk preempted under load).
    """
    return min(QUOTA_MAX_WAIT_S, max(QUOTA_POLL_S, QUOTA_COST_FACTOR * walk_s))


def _timed_walk(root: Path, stop_above: int) -> tuple[int, float]:
    """`used_bytes` and how long the walk itself took (not the hand-off to its thread)."""
    began = time.monotonic()
    used = used_bytes(root, stop_above)
    return used, time.monotonic() - began


async def _watch_quota(request: SpawnRequest, over: Callable[[], None]) -> None:
    """Call `over` once the bytes under `request.quota_dir` pass `request.quota_bytes`.

    Each check walks at most the quota's worth of entries (`used_bytes`) in a
    worker thread, and the next one waits `quota_wait` of that walk: at least
    `QUOTA_POLL_S`, `QUOTA_COST_FACTOR` times the walk so a big tree costs a
    bounded share of a CPU, at most `QUOTA_MAX_WAIT_S`. Only the walk is timed:
    waiting for the thread or the event loop on a loaded machine would
    otherwise stretch the next wait twentyfold. What a script writes between
    two checks is caught by the final check after it exits.
    """
    assert request.quota_dir is not None and request.quota_bytes is not None
    wait = QUOTA_POLL_S
    while True:
        await asyncio.sleep(wait)
        used, took = await asyncio.to_thread(_timed_walk, request.quota_dir, request.quota_bytes)
        if used > request.quota_bytes:
            over()
            return
        wait = quota_wait(took)


async def spawn_process(request: SpawnRequest) -> SpawnResult:
    """Run `request.argv` to completion under the wall-clock limit and output caps."""
    pipes = [cloexec_pipe() for _ in range(6)]  # stdin, stdout, stderr, status, info, barrier
    (in_r, in_w), (out_r, out_w), (err_r, err_w), (st_r, st_w), (info_r, info_w) = pipes[:5]
    bar_r, bar_w = pipes[5]
    actions = [
        (os.POSIX_SPAWN_DUP2, in_r, 0),
        (os.POSIX_SPAWN_DUP2, out_w, 1),
        (os.POSIX_SPAWN_DUP2, err_w, 2),
        (os.POSIX_SPAWN_DUP2, st_w, STATUS_FD),
    ]
    if request.info_fd is not None:
        actions.append((os.POSIX_SPAWN_DUP2, info_w, request.info_fd))
    if request.outbound is not None and request.barrier_fd is not None:
        actions.append((os.POSIX_SPAWN_DUP2, bar_r, request.barrier_fd))
    start = time.monotonic()
    try:
        pid = os.posix_spawn(
            request.argv[0],
            list(request.argv),
            dict(request.env),
            file_actions=actions,
            setsid=True,
            setsigdef=RESET_SIGNALS,
        )
    except OSError as exc:
        for fd in (in_w, out_r, err_r, st_r, info_r, bar_w):
            os.close(fd)
        return SpawnResult(error=f"cannot start {request.argv[0]}: {exc.strerror or exc}")
    finally:
        for fd in (in_r, out_w, err_w, st_w, info_w, bar_r):
            os.close(fd)
    child = _Child(pid)
    outbound: network.Outbound | None = None
    info = b""
    try:
        if request.outbound is not None:
            outbound, info, problem = await _attach_network(request, pid, info_r, bar_w)
            if problem is not None:
                await child.kill_tree()
                child.kill_now()
                for fd in (in_w, out_r, err_r, st_r, info_r):
                    os.close(fd)
                return SpawnResult(error=problem)
    finally:
        os.close(bar_w)
    try:
        reads = (out_r, err_r, st_r, info_r)
        return await supervise(child, request, start, in_w, reads, info_prefix=info)
    finally:
        if outbound is not None:
            outbound.close()


async def _attach_network(
    request: SpawnRequest, pid: int, info_r: int, barrier: int
) -> tuple[network.Outbound | None, bytes, str | None]:
    """Attach slirp4netns to the command's new network namespace, then open the barrier.

    The namespace is bwrap's child's (the pid it reports on the info pipe, read here
    first and handed on) or, under unshare, the command's own once it has unshared.
    Under bwrap slirp4netns starts only once the child has given its loopback 127.0.0.1
    (`network.loopback_configured`): slirp4netns brings `lo` up, which gives it that
    address, and bwrap's own adding of it then fails ("loopback: Failed RTM_NEWADDR").
    Returns the helper, what was read of the info pipe, and why it failed, if it did.
    """
    assert request.outbound is not None
    info = b""
    target: int | None = pid
    if request.info_fd is not None:
        target = None
        deadline = time.monotonic() + network.READY_S
        while target is None and time.monotonic() < deadline:
            if not await network.wait_readable(info_r, deadline - time.monotonic()):
                break
            chunk = os.read(info_r, 4096)
            if not chunk:
                break
            info += chunk
            target = reported_pid(info)
    if target is None or not await network.namespace_of(target):
        return None, info, None  # it failed to start: supervise reports how
    if request.info_fd is not None and not await network.loopback_configured(target):
        return None, info, None  # bwrap gave up setting up its loopback: supervise reports how
    attached = await network.attach(request.outbound, target)
    if isinstance(attached, str):
        return None, info, attached
    try:
        os.write(barrier, b"G")
    except BrokenPipeError:  # it died at the barrier: supervise reports how
        attached.close()
        return None, info, None
    return attached, info, None


async def supervise(
    child: Watched,
    request: SpawnRequest,
    start: float,
    in_w: int,
    reads: tuple[int, int, int, int | None],
    *,
    info_prefix: bytes = b"",
) -> SpawnResult:
    """Feed stdin, capture stdout/stderr/status (and info), enforce the limits, reap.

    `reads` are the parent's ends of stdout, stderr, the status pipe and the
    optional info pipe, and `in_w` the parent's end of stdin: this call owns them.
    """
    loop = asyncio.get_running_loop()
    out_r, err_r, st_r, info_r = reads
    overflow: list[Stream] = []
    stop = asyncio.Event()

    def _overflowed(stream: Stream) -> Callable[[], None]:
        def _mark() -> None:
            overflow.append(stream)
            stop.set()

        return _mark

    stdout = _Capture(request.max_stdout_bytes, None, _overflowed("stdout"))
    stderr = _Capture(request.max_stderr_bytes, request.stderr_tail_bytes, _overflowed("stderr"))
    status = _Capture(_STATUS_CAP, None, lambda: None)
    info = _Capture(_STATUS_CAP, None, lambda: None)
    info.data += info_prefix  # read already (see `_attach_network`)
    captures = (stdout, stderr, status, info) if info_r is not None else (stdout, stderr, status)
    fds = (out_r, err_r, st_r, info_r) if info_r is not None else (out_r, err_r, st_r)
    writer: asyncio.WriteTransport | None = None
    exited: asyncio.Future[None] | None = None
    timed_out = False
    over_quota: list[bool] = []
    quota: asyncio.Task[None] | None = None

    def _over_quota() -> None:
        over_quota.append(True)
        stop.set()

    try:
        for capture, fd in zip(captures, fds, strict=True):
            await _attach(capture, fd)
        writer, _ = await loop.connect_write_pipe(
            asyncio.BaseProtocol, os.fdopen(in_w, "wb", buffering=0)
        )
        writer.write(request.stdin)
        writer.close()

        if request.quota_dir is not None and request.quota_bytes is not None:
            quota = asyncio.create_task(_watch_quota(request, _over_quota))
        exited = asyncio.ensure_future(child.exited())
        stopped = asyncio.ensure_future(stop.wait())
        try:
            async with asyncio.timeout(request.wall_s):
                await asyncio.wait({exited, stopped}, return_when=asyncio.FIRST_COMPLETED)
        except TimeoutError:
            timed_out = True
        finally:
            stopped.cancel()
            if quota is not None:
                quota.cancel()
        if not exited.done():
            await _stop_watching(exited)
            await child.kill_tree()
        child.reap()
        duration = time.monotonic() - start
        # The script has exited. Removing its work directory now, when it is
        # empty (the usual case), overlaps the rmdir with the namespace's
        # teardown awaited next: a process still alive in there cannot write
        # into a removed directory, and a directory that is not empty stays
        # for the caller, who looks at it only once everything is gone.
        removed = request.remove_empty_workdir and remove_if_empty(request.workdir)
        await _gone(reported_pid(info.result()))
        if not (over_quota or removed) and request.quota_dir and request.quota_bytes:
            used = await asyncio.to_thread(used_bytes, request.quota_dir, request.quota_bytes)
            if used > request.quota_bytes:  # written since the last check
                over_quota.append(True)
        pending = {c.closed for c in captures if not c.closed.done()}
        if pending:  # usually closed already: the exit closed them
            _, pending = await asyncio.wait(pending, timeout=DRAIN_GRACE_S)
    except BaseException:  # cancelled (or worse): nothing may outlive the call
        if child.status is None:
            try:
                if exited is not None:
                    await _stop_watching(exited)
                await child.kill_tree()
            finally:
                child.kill_now()
        raise
    finally:
        if quota is not None:
            quota.cancel()
        for capture in captures:
            capture.close()
        if writer is not None:
            writer.close()

    assert child.status is not None
    return SpawnResult(
        returncode=os.waitstatus_to_exitcode(child.status),
        stdout=stdout.result(),
        stdout_bytes=stdout.total,
        stderr_tail=stderr.result(),
        stderr_bytes=stderr.total,
        started=status.result().startswith(STARTED),
        timed_out=timed_out,
        overflow=overflow[0] if overflow else None,
        usage=_usage(status.result(), child.usage),
        duration_s=round(duration, 6),
        lingering=bool(pending),
        workdir_removed=removed,
        over_quota=bool(over_quota),
    )
