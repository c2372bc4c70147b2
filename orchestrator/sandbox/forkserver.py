"""The warm path's server: a pre-started interpreter that forks one isolated child per job.

This file is not imported by the orchestrator: `warm` reads its source and
runs it with `python -s -S -B -P -c` under bwrap, so it may use the standard
library only. The server runs no untrusted code itself. Its bwrap gives it the
sandbox's fixed root (read-only /usr and runtime, /dev, /proc), empty mount
points /work, /skill and /script, and the host's tree at /.host (from which
each job picks its own folders), with all capabilities of its namespace.

Zygotes: the server keeps POOL zygotes ready, each for exactly one job, and
hands their sockets to the orchestrator on fd 3 (`Z` messages); a job on the
host's network (forced), or one sent when none is at hand, comes on fd 3 and
gets a zygote of its own. A job message is the marshalled spec plus its descriptors: a reply
socket, stdin, stdout, stderr and the status pipe.

1. zygote C1 (before any job): dies with the server; new mount, PID, IPC, UTS,
   cgroup and (unless the host's network is forced, see `network`) network namespaces; lo up, hostname,
   /dev read-only, a fresh devpts; forks C2;
2. C2, PID 1: mounts its /proc, forks C3, becomes non-dumpable, sets
   no_new_privs and keeps only CAP_KILL; it reaps until C3 exits, kills and
   reaps whatever is left, takes the job's reply socket (which C3 left for it
   on their socket pair), sends `X` and the status, and exits: the report
   means the namespace is empty but for C2;
3. C3 narrows its capability bounding set to setuid/setgid, then waits for
   the job: its pipes on fds 0-3, its environment (both `os.environ` and the
   block /proc/PID/environ shows), C2's pidfd to the
   orchestrator (`I`; killing C2 kills the job); a job that may use the network
   waits for `G` (the orchestrator has attached slirp4netns to the namespace,
   see the orchestrator's `network`); then a tmpfs /tmp and
   /dev/shm with the job's size and inode caps (as a cold start), its
   read-only host paths on a tmpfs of its own at /inputs, the work
   directory on /work, the skill folder read-only on /skill, the host tree
   detached, / read-only, no_new_privs, every capability dropped but, as
   root, setuid/setgid for the bootstrap, which drops to the per-run uid, sets
   the rlimits and runs the script in a fresh `__main__`.

The server reaps zygotes and refills the pool. When the control socket
closes, it kills its zygotes and exits; bwrap's --die-with-parent and its PID
namespace take the server and any job with them if the orchestrator dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import gc
import marshal
import os
import selectors
import signal
import socket
import struct
import sys
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
SYS_OPEN_TREE = 428  # x86_64 and aarch64 alike (the new syscalls share one table)
AT_FDCWD, AT_RECURSIVE, OPEN_TREE_CLONE = -100, 0x8000, 1
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAP_KILL, CAP_SETGID, CAP_SETUID = 5, 6, 7
SETID_CAPS = (CAP_SETGID, CAP_SETUID)  # as root, the bootstrap drops to the per-run uid
CAP_VERSION_3 = 0x20080522
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
HOST = "/.host"  # the host's tree, in the server's view only
INPUTS = "/inputs"  # a job's read-only mounts of host paths (the sandbox's MOUNT_ROOT)
CONTROL_FD = 3
ZYGOTE_FD = 3  # in a zygote: the socket its one job arrives on
REPLY_FD = 4  # in a job's script process: the job's reply socket
TREE_FD = 5  # in a zygote, until its job's mounts are made: a detached copy of the host tree
HANDOFF_FD = 9  # in a zygote's script process: its socket to the init (C2)
POOL = 2  # zygotes kept ready, each for exactly one job
MAX_MESSAGE = 1 << 20
SERVER_FRAME = "<skillweave-forkserver>"
PRELOAD = ("resource", "json")  # imported once in the server: free for every job

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    enc = [None if s is None else s.encode() for s in (source, target, fstype, data or None)]
    _check(_libc.mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]), f"mount {target}")


def _bind(source: str, target: str, extra: int) -> None:
    _mount(source, target, None, MS_BIND)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | extra)


def _prctl(option: int, arg: int, arg2: int = 0) -> int:
    return int(_libc.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(arg2), 0, 0))


def _limit_caps(caps: tuple[int, ...]) -> None:
    """Bounding set and ambient: only `caps` remain (the effective set is left as it is)."""
    for cap in range(64):
        if cap not in caps and _prctl(PR_CAPBSET_DROP, cap) != 0:
            if ctypes.get_errno() == 22:  # EINVAL: past the last capability
                break
            _check(-1, f"drop capability {cap}")
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)


def _keep_caps(caps: tuple[int, ...]) -> None:
    """Bounding set, ambient, effective/permitted/inheritable: only `caps` remain."""
    _limit_caps(caps)
    _set_caps(caps)


def _set_caps(caps: tuple[int, ...]) -> None:
    """Effective, permitted and inheritable: only `caps` (the bounding set is done apart)."""
    mask = sum(1 << cap for cap in caps)
    header = struct.pack("Ii", CAP_VERSION_3, 0)
    data = struct.pack("6I", mask, mask, 0, 0, 0, 0)
    _check(_libc.capset(header, data), "capset")


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def _environment_block() -> tuple[int, int]:
    """Where this process's environment block is (the one /proc/PID/environ shows)."""
    with open("/proc/self/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return int(fields[47]), int(fields[48])


def _set_environment(env: dict[str, str], block_at: tuple[int, int]) -> None:
    """The job's environment, also in the block /proc/PID/environ shows (tools read it there)."""
    data = os.environ._data  # type: ignore[attr-defined]
    for key in list(data):
        os.unsetenv(key)  # nothing points into the block any more
    data.clear()
    start, end = block_at
    block = bytearray()
    for name, value in env.items():
        entry = f"{name}={value}".encode() + b"\0"
        if len(block) + len(entry) <= end - start:
            block += entry
    block += b"\0" * (end - start - len(block))
    ctypes.memmove(start, bytes(block), len(block))
    os.environ.update(env)


def _unshare(network: bool) -> None:
    """A zygote's namespaces and the mounts that do not depend on its job."""
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if not network:
        flags |= CLONE_NEWNET
    if _libc.unshare(flags | CLONE_NEWCGROUP) != 0:
        _check(_libc.unshare(flags), "unshare")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    if not network:
        _loopback_up()
    socket.sethostname("sandbox")
    _mount(None, "/dev", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    _mount(
        "devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620"
    )


def _open_tree(path: str) -> int:
    """A detached copy of the mount tree at `path` (open_tree(2)); -1 where unsupported."""
    flags = OPEN_TREE_CLONE | AT_RECURSIVE | os.O_CLOEXEC
    return int(_libc.syscall(ctypes.c_long(SYS_OPEN_TREE), AT_FDCWD, path.encode(), flags))


def _detached_tree_works() -> bool:
    """Whether a folder can be bound from a detached copy of the host tree (Linux >= 6.15)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            _check(_libc.unshare(CLONE_NEWNS), "unshare")
            _mount(None, "/", None, MS_REC | MS_PRIVATE)
            tree = _open_tree(HOST)
            if tree >= 0:
                _mount(f"/proc/self/fd/{tree}/", "/script", None, MS_BIND)
                code = 0
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def _detach_host() -> bool:
    """Keep a detached copy of the host tree on TREE_FD and unmount `/.host`, before the job.

    The job then binds its folders from the copy and closes it, instead of
    unmounting the host tree on its own path (an unmount waits for an RCU
    grace period, ~0.4 ms here). False: the copy could not be made, the job
    unmounts `/.host` itself.
    """
    tree = _open_tree(HOST)
    if tree < 0:
        return False
    if tree != TREE_FD:
        os.dup2(tree, TREE_FD)
        os.close(tree)
    _check(_libc.umount2(HOST.encode(), MNT_DETACH), "detach the host tree")
    return True


def _isolate(spec: dict[str, Any], tree: bool) -> None:
    """The job's own mounts; then the host tree is let go of and the root made read-only.

    With `tree` the job's folders come from the detached copy on TREE_FD,
    which is closed; else from `/.host`, which is unmounted.
    """
    ro = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV
    host = f"/proc/self/fd/{TREE_FD}" if tree else HOST
    for private in ("/tmp", "/dev/shm"):  # capped in size and inodes, as a cold start's
        _mount("tmpfs", private, "tmpfs", MS_NOSUID | MS_NODEV, spec["tmpfs"])
    _bind(host + spec["work"], "/work", 0)
    _bind(host + spec["skill"], "/skill", MS_RDONLY)
    script = spec["script"]
    if script is not None:
        target = spec["script_at"]
        if target.startswith("/script/"):
            _mount("tmpfs", "/script", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4096")
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
            _mount(None, "/script", None, ro)
        _bind(host + script, target, MS_RDONLY)
    if spec["mounts"]:  # read-only host paths below /inputs, on a tmpfs of the job's own
        _mount("tmpfs", INPUTS, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=65536,nr_inodes=4096")
        for source, target, folder in spec["mounts"]:
            os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
            if folder:
                os.mkdir(target, 0o755)
            else:
                os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
            _bind(host + source, target, MS_RDONLY)
        _mount(None, INPUTS, None, ro)
    if tree:
        os.close(TREE_FD)
    else:
        _let_go_of_host()
    _mount(None, "/", None, ro)
    os.chdir("/")


def _let_go_of_host() -> None:
    """Unmount `/.host`; where its mounts are locked, cover it with an empty tmpfs.

    A non-root server runs in the user namespace bwrap nests for `--uid` and
    `--disable-userns`, so the mounts it sees belong to the parent namespace
    and are locked in each zygote's copy: no unmount (EINVAL), no detached
    copy. They can be covered, though, and locked with their cover: the job,
    without capabilities and unable to make a user namespace, cannot take it off.
    """
    if _libc.umount2(HOST.encode(), MNT_DETACH) == 0:
        return
    if ctypes.get_errno() != errno.EINVAL:
        _check(-1, "detach the host tree")
    flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    _mount("tmpfs", HOST, "tmpfs", flags, "size=4k,nr_inodes=1,mode=0")


def _script_traceback(error: BaseException) -> None:
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == SERVER_FRAME:
        tb = tb.tb_next
    sys.excepthook(type(error), error, tb)


def _finish(status: int) -> None:
    """Exit when the bootstrap failed before its script started (a bad limit, a
    script that does not compile): its usage report (atexit), the streams, `_exit`.

    A run that reached its script never comes back here: the bootstrap ends it
    itself, as it ends a cold run (`bootstrap._END`).
    """
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


REHEARSAL = """\
import posix, sys, atexit, resource as r, json, marshal, io
main = type(sys)("__main__")
main.__dict__.update(__file__="", argv=[*sys.argv[1:]])
json.load(io.TextIOWrapper(io.BytesIO(b'{"n": 1}'), encoding="utf-8"))
json.dump({"n": 2}, io.StringIO())
for kind in (r.RLIMIT_CPU, r.RLIMIT_AS, r.RLIMIT_FSIZE, r.RLIMIT_NPROC, r.RLIMIT_NOFILE):
    r.getrlimit(kind)
marshal.loads(bytes.fromhex(marshal.dumps(None).hex()))
json.loads(json.dumps({"n": [1, 2.5, "s", None, True]}))
atexit.unregister(atexit.register(posix.getpid))
r.getrusage(r.RUSAGE_SELF)
with open("/proc/self/status", "rb") as f:
    [line for line in f if line.startswith(b"VmHWM:")]
runtime = tuple({p + "/" for p in (sys.base_prefix, sys.base_exec_prefix, sys.prefix)})
for m in reversed(list(sys.modules.values())):  # the bootstrap's end walks them all
    str(getattr(m, "__file__", None) or runtime[0]).startswith(runtime) or list(m.__dict__)
import gc
gc.collect()
"""
_REHEARSAL_CODE = compile(REHEARSAL, SERVER_FRAME, "exec")  # in the server, once


def _rehearse() -> None:
    """What every job's bootstrap runs, without a job: the pages it writes are copied now.

    A zygote's pages are shared with the server until written (copy on
    write); each first write costs a page fault. Running the job's usual code
    paths once before the job moves most of those faults off its path. It
    uses no job's data and changes nothing a job can see.
    """
    with contextlib.suppress(Exception):  # only ever a gain: its failure changes nothing
        exec(_REHEARSAL_CODE, {"__name__": "__rehearsal__"})


def _run_bootstrap(spec: dict[str, Any], bootstrap: Any) -> None:
    """C3: the bootstrap (not PID 1, so it does not fork), then the script, here.

    The bootstrap ends the run itself; the handlers below serve only one that
    failed before the script started."""
    main = sys.modules["__main__"] = type(sys)("__main__")
    namespace = main.__dict__
    sys.argv = ["-c", *spec["args"]]
    status = 0
    try:
        exec(bootstrap, namespace)
    except BaseException as exc:  # e.g. a script that does not compile: as Python reports it
        _script_traceback(exc)
        status = 1
    del namespace, main
    _finish(status)


def _take_job(
    problem: OSError | None,
    block_at: tuple[int, int] = (0, 0),
    *,
    handoff: bool = False,
    tree: bool = False,
) -> dict[str, Any]:
    """Wait for the job on the zygote socket (fd 3); put its pipes on fds 0-3, its reply on 4.

    Every other descriptor is closed but the init's socket and, with `tree`, TREE_FD.

    Then the job's environment. A zygote that could not isolate itself says
    why on the job's stderr and exits 125.
    """
    channel = socket.socket(fileno=ZYGOTE_FD)
    try:
        message, fds, _, _ = socket.recv_fds(channel, MAX_MESSAGE, 8)
    except OSError:
        message, fds = b"", []
    channel.close()
    if not message or len(fds) != 5:
        os._exit(125)
    for target, fd in enumerate(fds[1:]):
        os.dup2(fd, target)  # stdin, stdout, stderr, status
    os.dup2(fds[0], REPLY_FD)
    os.closerange(TREE_FD + 1 if tree else REPLY_FD + 1, HANDOFF_FD)
    os.closerange(HANDOFF_FD + 1, 1 << 20)
    reply = socket.socket(fileno=REPLY_FD)
    if handoff:
        channel = socket.socket(fileno=HANDOFF_FD)
        with contextlib.suppress(OSError):  # the init reports the exit on it
            socket.send_fds(channel, [b"R"], [REPLY_FD])
        channel.close()
    spec: dict[str, Any] = marshal.loads(message)
    try:
        if problem is not None:
            raise problem
        _set_environment(spec["env"], block_at)
    except OSError as exc:
        os.write(2, f"sandbox (warm): cannot isolate the job: {exc}\n".encode())
        if not handoff:  # no init: this process (C1) is the job
            with contextlib.suppress(OSError):
                reply.send(b"X%d" % (125 << 8))
        os._exit(125)
    reply.detach()
    return spec


def _init(bootstrap: Any, tree: bool) -> None:
    """C2: PID 1 of the zygote's namespace; a /proc of its own, the script's process (C3).

    C3 waits for the job; C2 drops every capability, reaps until C3 exits and
    reports its status on the job's reply socket, which C3 leaves for it on their socket pair.
    """
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    problem: OSError | None = None
    try:
        _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError as exc:
        problem = exc
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    child = os.fork()
    if child == 0:  # C3, the script's process: PID 1 drops default-action signals
        ours.close()
        os.dup2(theirs.fileno(), HANDOFF_FD)
        theirs.close()
        try:
            _script_process(bootstrap, problem, tree)
        finally:
            os._exit(125)
    theirs.close()
    # the server's stdio and the zygote socket; TREE_FD (above) stays open until C2 exits:
    # the last close of a detached tree unmounts it, which would wait on the job's path
    os.closerange(0, min(ours.fileno(), TREE_FD))
    try:
        _check(_prctl(PR_SET_DUMPABLE, 0), "not dumpable")  # the script cannot ptrace it
        _check(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")
        _keep_caps((CAP_KILL,))  # for what the script leaves behind, whatever its uid
    except OSError:
        os.kill(child, signal.SIGKILL)
        os._exit(125)
    ours.setblocking(False)
    early = _reply_socket(ours)  # usually nothing yet: a rehearsal, for a quick real one
    _reap_until(child, ours, early)


def _script_process(bootstrap: Any, problem: OSError | None, tree: bool) -> None:
    """C3: wait for the job; its environment, mounts and capabilities; then the bootstrap."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    block_at = (0, 0)
    if problem is None:
        try:
            block_at = _environment_block()
            _set_environment(dict(os.environ), block_at)  # rehearsal: its pages become ours
            _limit_caps(SETID_CAPS)  # the bounding set now; the job drops the rest
            _rehearse()
            gc.freeze()
        except OSError as exc:
            problem = exc
    spec = _take_job(problem, block_at, handoff=True, tree=tree)
    init = os.pidfd_open(1)  # C2, this namespace's init: killing it kills the job
    reply = socket.socket(fileno=REPLY_FD)
    with contextlib.suppress(OSError):
        socket.send_fds(reply, [b"I"], [init])
    os.close(init)
    if spec["network"] and not spec["host_network"]:  # wait until its network is up
        go = b""
        with contextlib.suppress(OSError):
            go = reply.recv(4096)
        if go != b"G":
            why = go[1:].decode("utf-8", "replace") or "no answer"
            os.write(2, f"sandbox (warm): the script's network did not come up: {why}\n".encode())
            os._exit(125)
    reply.close()
    try:
        _isolate(spec, tree)
        _check(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")
        if not spec["as_root"]:
            for cap in SETID_CAPS:
                _check(_prctl(PR_CAPBSET_DROP, cap), f"drop capability {cap}")
        _set_caps(SETID_CAPS if spec["as_root"] else ())
    except OSError as exc:
        os.write(2, f"sandbox (warm): cannot isolate the job: {exc}\n".encode())
        os._exit(125)
    _run_bootstrap(spec, bootstrap)


def _reply_socket(handoff: socket.socket) -> socket.socket | None:
    """The job's reply socket, if the script's process has left it on `handoff` (non-blocking)."""
    try:
        _, fds, _, _ = socket.recv_fds(handoff, 16, 1)
    except OSError:
        return None
    return socket.socket(fileno=fds[0]) if fds else None


def _reap_until(child: int, handoff: socket.socket, reply: socket.socket | None) -> None:
    """C2 as PID 1: reap until the script exits, kill and reap what is left, report, exit.

    The job's reply socket, which the script's process put on `handoff` when
    its job came, is taken only then (unless it came already: `reply`), so C2
    does not wake up on the job's path.
    The exit report means the namespace holds C2 alone, which exits next: the
    orchestrator need not wait for that (an exiting process tears its memory
    down, ~1 ms here).
    """
    while True:
        pid, status = os.wait()
        if pid == child:
            break
    code = os.waitstatus_to_exitcode(status)
    code = code if code >= 0 else 128 - code
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, signal.SIGKILL)  # every process of the namespace but C2
    with contextlib.suppress(ChildProcessError):
        while True:  # until C2 has no child: every process of the namespace descends from it
            os.wait()
    reply = reply or _reply_socket(handoff)
    if reply is not None:
        with contextlib.suppress(OSError):
            reply.send(b"X%d" % (code << 8))
    os._exit(code)


def _zygote(network: bool, bootstrap: Any, server: int, detached: bool) -> None:
    """C1: new namespaces, then their init (C2) waits for one job; exit with its status."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != server:
        os._exit(1)
    os.closerange(ZYGOTE_FD + 1, 1 << 20)
    try:
        _unshare(network)
        tree = detached and _detach_host()
    except OSError as exc:
        _take_job(exc)
    child = os.fork()
    if child == 0:
        try:
            _init(bootstrap, tree)
        finally:
            os._exit(125)
    os.close(ZYGOTE_FD)
    if tree:
        os.close(TREE_FD)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


class _Zygote:
    """The server's handle on one zygote: its pid, a pidfd and the socket its job goes to."""

    def __init__(self, network: bool, bootstrap: Any, server: int, detached: bool) -> None:
        self.network = network
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.pid = os.fork()
        if self.pid == 0:
            try:
                os.dup2(theirs.fileno(), ZYGOTE_FD)
                _zygote(network, bootstrap, server, detached)
            finally:
                os._exit(125)
        theirs.close()
        self.pidfd = os.pidfd_open(self.pid)
        self.socket: socket.socket | None = ours
        self.reply: socket.socket | None = None  # the job's, once it has one

    def give(self, message: bytes, fds: list[int]) -> None:
        """Hand the zygote its job; keep the reply socket for the exit report."""
        assert self.socket is not None
        with contextlib.suppress(OSError):  # a zygote that died: its exit is reported
            socket.send_fds(self.socket, [message], fds)
        self.socket.close()
        self.socket = None
        self.reply = socket.socket(fileno=os.dup(fds[0]))

    def reap(self) -> None:
        os.close(self.pidfd)
        _, status = os.waitpid(self.pid, 0)
        if self.socket is not None:
            self.socket.close()
        if self.reply is not None:
            with contextlib.suppress(OSError):
                self.reply.send(b"X%d" % status)
            self.reply.close()


def serve() -> None:
    for name in PRELOAD:
        __import__(name)
    bootstrap = compile(sys.argv[2], "<string>", "exec")  # argv[1] is this source
    gc.freeze()  # a job's collections (see _finish) walk only the job's own objects
    server = os.getpid()
    detached = _detached_tree_works()
    control = socket.socket(fileno=CONTROL_FD)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, None)
    zygotes: dict[int, _Zygote] = {}  # pidfd -> zygote, idle or running a job
    pooled: set[int] = set()  # pidfds of the zygotes handed to the orchestrator

    def add(network: bool) -> _Zygote:
        zygote = _Zygote(network, bootstrap, server, detached)
        zygotes[zygote.pidfd] = zygote
        selector.register(zygote.pidfd, selectors.EVENT_READ, zygote.pidfd)
        return zygote

    def refill() -> None:
        """Hand the orchestrator new zygotes' sockets: it sends each its job itself."""
        while len(pooled) < POOL:
            zygote = add(network=False)
            pooled.add(zygote.pidfd)
            assert zygote.socket is not None
            with contextlib.suppress(OSError):
                socket.send_fds(control, [b"Z"], [zygote.socket.fileno()])
            zygote.socket.close()
            zygote.socket = None

    control.send(b"R")
    refill()
    while True:
        for key, _ in selector.select():
            if key.data is None:  # a job for a zygote of its own (network, or none at hand)
                try:
                    message, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 8)
                except OSError:
                    message, fds = b"", []
                if not message:
                    for zygote in zygotes.values():
                        os.kill(zygote.pid, signal.SIGKILL)
                    os._exit(0)
                add(bool(marshal.loads(message)["host_network"])).give(message, fds)
                for fd in fds:
                    os.close(fd)
            else:
                zygote = zygotes.pop(key.data)
                selector.unregister(key.data)
                pooled.discard(key.data)
                zygote.reap()
                refill()


if __name__ == "__main__":
    serve()
