"""A warm host per user for a server that imports a lot: a start forks it instead.

A launcher (`launch(spec, args)`) connects to a *warm host*: a process of the
same user, the same interpreter and the same code, which imported what the
server needs once (`spec.preload`) and waits on a unix socket. The launcher
hands over its arguments, environment, umask, `sys.path`, working directory and
its stdin, stdout and stderr (the descriptors themselves, SCM_RIGHTS); the host
forks a child that takes them over and runs `spec.entry(argv)` as a cold start
would, then the exit handlers a cold process would run. The launcher stays,
passes the signals it gets on to the child (TERM, INT, HUP, QUIT, WINCH; a stop
from the terminal stops the child, then the launcher; CONT continues both), and
ends as the child did (its code, or killed by the same signal). A start then costs a
bare Python start and a fork instead of the imports.

Each session is its own forked child, so nothing one session does reaches
another; the child runs as the launcher's user with the launcher's environment.
Only that user: the folder is theirs and 0700, the socket 0600 from its bind, and
both ends check the other's uid (SO_PEERCRED): a host refuses a launcher of
another uid, and a launcher never hands its stdio and environment to a socket
served by another uid (it starts cold, saying so), whatever put it there.
What it does not take over: the launcher's session, process group, cgroup and
rlimits (it is the host's child). So that a client's killing of the launcher's
process group still ends the server, the host SIGKILLs a child as soon as its
launcher's connection closes, and a child dies with its host (PR_SET_PDEATHSIG).
A host with threads refuses to fork (the launcher then starts cold).

Lifetime: the host is started by the first launcher that finds none (that start
costs what a cold start does) and exits after `<ENV>_IDLE` seconds (default
600) without sessions, when its socket is removed or replaced, or on SIGTERM
once its sessions have ended. A host that does not fork a session within
`<ENV>_ACK` seconds (default 10) is killed and that start goes cold. Its
socket, lock (holding its pid) and log live in `<ENV>_DIR`, else
`$XDG_RUNTIME_DIR/skillweave`, else `/tmp/skillweave-UID` (0700, refused if
anyone else can enter it). The socket's name carries a key of the interpreter,
`sys.path` (and the mtimes of its folders, so installing packages changes it),
the spec's sources and the PYTHON*, LANG and LC_* variables: changed code gets
a new host and the old one idles out. A stale socket (a host that crashed) is replaced.
`<ENV>=0` turns warm hosts off. `<ENV>` is the spec's variable
(SKILLWEAVE_DOCS_WARM for the docs server, SKILLWEAVE_WARM for `serve` and `run`,
see `orchestrator.cli.warm`).

Stdlib only, and nothing from the rest of skillweave: a launcher must start fast.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import gc
import hashlib
import json
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WarmSpec:
    """One kind of warm host: what it is called, how it starts, what it loads and runs."""

    name: str  # in the socket's file name
    label: str  # what the launcher's notes on stderr start with
    env: str  # the variable that turns it off (0); with _IDLE, _ACK, _DIR
    host_command: tuple[str, ...]  # starts a host; gets HOST_FLAG, the socket path, a ready fd
    sources: Callable[[], Iterable[Path]]  # files whose change means a new host
    preload: Callable[[], None]  # in the host, before it listens
    entry: Callable[[list[str]], None]  # in each child, with the launcher's arguments


HOST_FLAG = "--warm-host"
IDLE_S = 600.0
STARTUP_S = 60.0  # for a new host to import the server and listen
ACK_S = 10.0  # for a live host to fork a session
_HEADER = struct.Struct("!I")
_STATUS = struct.Struct("!ci")  # b"S" + child pid, then b"X" + exit code
_MAX_REQUEST = 1 << 20
_hosts: list[subprocess.Popen[bytes]] = []  # the hosts this process started
_PR_SET_PDEATHSIG = 1


class Unavailable(Exception):
    """No warm host can serve this start; start cold."""


# -- the launcher --------------------------------------------------------------


def wanted(spec: WarmSpec) -> bool:
    """Warm hosts are on (the spec's variable is not 0) and this platform has what they need."""
    if os.environ.get(spec.env, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return hasattr(os, "fork") and hasattr(socket, "send_fds") and sys.platform.startswith("linux")


def launch(spec: WarmSpec, args: Sequence[str]) -> int:
    """Hand this process's stdio to a warm host's child; its exit code once it ends
    (negative: killed by that signal). Unavailable when no host can serve it."""
    folder = runtime_dir(spec)
    key = code_key(spec)
    path = folder / f"{spec.name}-{key}.sock"
    sock = _connect(path) or _start_host(spec, folder / f"{spec.name}-{key}.log", path)
    try:
        return _session(spec, sock, args, path.with_suffix(".lock"))
    finally:
        sock.close()


def runtime_dir(spec: WarmSpec) -> Path:
    """The private folder of this user's warm hosts (created 0700; Unavailable if unsafe)."""
    given = os.environ.get(spec.env + "_DIR")
    if given:
        folder = Path(given)
    elif os.environ.get("XDG_RUNTIME_DIR") and Path(os.environ["XDG_RUNTIME_DIR"]).is_dir():
        folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "skillweave"
    else:
        folder = Path(f"/tmp/skillweave-{os.getuid()}")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(folder, follow_symlinks=False)
    except OSError as exc:
        raise Unavailable(f"{folder}: {exc.strerror}") from None
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or not os.path.isdir(folder):
        raise Unavailable(f"{folder} is not a private folder of this user")
    return folder


def code_key(spec: WarmSpec) -> str:
    """What a host must share with a launcher to serve it (see the module docstring)."""
    digest = hashlib.sha256()
    for part in (sys.executable, sys.version, *sys.path[1:]):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
        with contextlib.suppress(OSError):
            digest.update(str(os.stat(part).st_mtime_ns).encode())
    for source in sorted(spec.sources()):
        with contextlib.suppress(OSError):
            info = source.stat()
            digest.update(f"{source}:{info.st_mtime_ns}:{info.st_size}\0".encode())
    for name in sorted(os.environ):  # what the interpreter reads as it starts
        if name.startswith(("PYTHON", "LC_")) or name == "LANG":
            digest.update(f"{name}={os.environ[name]}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:20]


def _connect(path: Path) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.ENOENT, errno.ECONNREFUSED):
            return None
        raise Unavailable(f"{path}: {exc.strerror}") from None
    uid = _peer_uid(sock)
    if uid != os.getuid():  # never hand our stdio and environment to another user's process
        sock.close()
        raise Unavailable(f"{path} is served by a process of uid {uid}, not this user's")
    return sock


def _peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a connected unix socket (SO_PEERCRED)."""
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
    return int(uid)


def _start_host(spec: WarmSpec, log_path: Path, path: Path) -> socket.socket:
    """Start a host (unless one is starting) and connect to it once it listens."""
    read_fd, write_fd = os.pipe()
    try:
        log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with open(log_fd, "ab") as log:
            host = subprocess.Popen(
                [*spec.host_command, HOST_FLAG, str(path), str(write_fd)],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd="/", pass_fds=(write_fd,),
                start_new_session=True,
            )
    except OSError as exc:
        os.close(read_fd)
        raise Unavailable(f"cannot start a warm host: {exc.strerror}") from None
    finally:
        os.close(write_fd)
    deadline = time.monotonic() + STARTUP_S
    with os.fdopen(read_fd, "rb") as ready:
        # b"1" when it listens; end of file without it: it stopped, because another host
        # holds the lock (and will listen soon) or because it failed
        _wait_readable(ready.fileno(), deadline)
        listening = ready.read(1) == b"1"
    if listening:
        _hosts.append(host)  # it outlives this launcher: never waited for, never collected
    else:
        with contextlib.suppress(subprocess.TimeoutExpired):
            host.wait(timeout=ACK_S)  # it is on its way out
        if not _host_alive(path.with_suffix(".lock")):
            raise Unavailable(f"the warm host stopped while starting (see {log_path})")
    while time.monotonic() < deadline:
        sock = _connect(path)
        if sock is not None:
            return sock
        time.sleep(0.01)
    raise Unavailable(f"no warm host listened on {path} within {STARTUP_S:g}s")


def _wait_readable(fd: int, deadline: float) -> None:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        sel.select(max(0.0, deadline - time.monotonic()))


def _session(spec: WarmSpec, sock: socket.socket, args: Sequence[str], lock: Path) -> int:
    request = json.dumps({
        "argv": list(args), "argv0": sys.argv[0], "env": dict(os.environ), "umask": _umask(),
        "sys_path": list(sys.path),
    }).encode("utf-8", "surrogateescape")
    cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        socket.send_fds(sock, [_HEADER.pack(len(request)) + request], [0, 1, 2, cwd])
    except OSError as exc:
        raise Unavailable(f"the warm host refused the session: {exc.strerror}") from None
    finally:
        os.close(cwd)
    ack_s = _seconds(spec.env + "_ACK", ACK_S)
    sock.settimeout(ack_s)
    try:
        started = _read_status(sock)
    except TimeoutError:
        _kill_host(lock)
        raise Unavailable(f"the warm host did not answer within {ack_s:g}s; it was stopped") from None
    if started is None or started[0] != b"S":
        raise Unavailable("the warm host closed the session before starting it")
    _forward_signals(started[1])
    # the child serves our stdin and stdout now; holding them would keep the pipes open
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    sock.settimeout(None)
    ended = _read_status(sock)
    if ended is None or ended[0] != b"X":
        note(spec, "the warm host went away during the session")
        return 1
    return ended[1]


FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)


STOPS = (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)


def _forward_signals(child: int) -> None:
    """What is signalled to us goes to the child: TERM, INT, HUP, QUIT and WINCH as they
    are; a stop (Ctrl-Z) stops the child, then us; CONT continues both."""

    def forward(signum: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signum)

    def stop(signum: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGSTOP)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)  # stopped here until SIGCONT
        signal.signal(signum, stop)
        # continued, or never stopped (the kernel drops these signals in an orphaned
        # process group, as it would for a cold start): either way the child goes on
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGCONT)

    for signum in (*FORWARDED, signal.SIGWINCH, signal.SIGCONT):
        signal.signal(signum, forward)
    for signum in STOPS:
        signal.signal(signum, stop)


def serve_warm(spec: WarmSpec, args: Sequence[str], what: str) -> None:
    """Be served by a warm host's child and exit as it did; return, with a note in the host's log
    folder, when no host can do it (the caller then starts cold)."""
    try:
        code = launch(spec, args)
    except Unavailable as exc:
        note(spec, f"{what} unavailable ({exc}); starting cold")
        return
    exit_as(code)


def exit_as(code: int) -> None:
    """Exit as the server did: with its code, or killed by the same signal."""
    sys.stdout.flush()
    sys.stderr.flush()
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 128 - code)


def _read_status(sock: socket.socket) -> tuple[bytes, int] | None:
    data = b""
    while len(data) < _STATUS.size:
        chunk = sock.recv(_STATUS.size - len(data))
        if not chunk:
            return None
        data += chunk
    kind, value = _STATUS.unpack(data)
    return kind, value


def _host_alive(lock: Path) -> bool:
    """Whether the pid in a host's lock file is a live warm host."""
    try:
        pid = int(lock.read_text().strip())
        return HOST_FLAG.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return False


def _kill_host(lock: Path) -> None:
    """SIGKILL a host that stopped answering (its pid is in its lock file), and its socket."""
    with contextlib.suppress(OSError, ValueError):
        pid = int(lock.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        if HOST_FLAG.encode() in cmdline:
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        lock.with_suffix(".sock").unlink()


def stop_hosts(folder: Path, wait_s: float = 10.0) -> list[int]:
    """Stop the warm hosts whose socket is in `folder` (SIGTERM, then SIGKILL after
    `wait_s`); their pids. Only live processes whose command line is a host of that
    folder are signalled, never whatever pid a stale lock file names."""
    pids = [pid for pid in map(_lock_pid, folder.glob("*.lock")) if pid and _host_in(pid, folder)]
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + wait_s
    left = pids
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        left = [pid for pid in left if _host_in(pid, folder)]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return pids


def _lock_pid(lock: Path) -> int | None:
    try:
        return int(lock.read_text().strip())
    except (OSError, ValueError):
        return None


def _host_in(pid: int, folder: Path) -> bool:
    """Whether `pid` is a live (not zombie) warm host listening in `folder`."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    if state == "Z" or HOST_FLAG.encode() not in args:
        return False
    where = args[args.index(HOST_FLAG.encode()) + 1 :][:1]
    return bool(where) and Path(os.fsdecode(where[0])).parent == folder


def _umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def note(spec: WarmSpec, message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"{spec.label}: {message}", file=sys.stderr, flush=True)


# -- the host ------------------------------------------------------------------


def host_main(spec: WarmSpec, path_text: str, ready_fd: int) -> None:
    """Hold the lock, import the server, listen, and fork a child per session."""
    path = Path(path_text)
    lock_path = path.with_suffix(".lock")
    flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    lock = open(os.open(lock_path, flags, 0o600), "a+", encoding="utf-8")  # noqa: SIM115 - held for the host's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(ready_fd)  # another host has it: the launcher connects to that one
        return
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    gc.disable()  # the imports make no garbage worth a walk (a tenth of their time)
    spec.preload()
    gc.freeze()  # children fork with these pages shared, and their collections leave them alone
    gc.enable()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a crashed host's socket
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mask = os.umask(0o177)  # the socket is 0600 from its creation, not after a chmod
    try:
        listener.bind(str(path))
    finally:
        os.umask(mask)
    listener.listen(64)
    listener.setblocking(False)
    with contextlib.suppress(OSError):
        os.write(ready_fd, b"1")
    os.close(ready_fd)
    _Host(spec, path, listener, lock).loop()


class _Host:
    def __init__(self, spec: WarmSpec, path: Path, listener: socket.socket, lock: Any) -> None:
        self.spec = spec
        self.pid = os.getpid()
        self.path = path
        self.listener = listener
        self.lock = lock
        self.inode = os.stat(path).st_ino
        self.idle_s = _seconds(spec.env + "_IDLE", IDLE_S)
        self.children: dict[int, socket.socket] = {}  # child pid -> its launcher's connection
        self.last_active = time.monotonic()
        self.stopping = False
        self.sel = selectors.DefaultSelector()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, self._stop)
        self.sel.register(listener, selectors.EVENT_READ, "accept")
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")

    def _stop(self, *_: object) -> None:
        self.stopping = True

    def loop(self) -> None:
        try:
            while True:
                if self.stopping or not self._still_ours():
                    self._close_listener()
                    if not self.children:
                        return
                elif not self.children and time.monotonic() - self.last_active > self.idle_s:
                    return
                for key, _ in self.sel.select(timeout=min(self.idle_s, 30.0)):
                    if key.data == "accept":
                        self._accept()
                    elif key.data == "wake":
                        with contextlib.suppress(OSError):
                            os.read(self.wake_r, 512)
                        self._reap()
                    else:  # a launcher's connection: readable only when it closed
                        self._launcher_gone(key.data, key.fileobj)  # type: ignore[arg-type]
                self._reap()
        finally:
            self._close_listener()
            self._tidy()

    def _tidy(self) -> None:
        """On the way out: the lock file (its pid is ours), and the log if nothing was written."""
        lock = self.path.with_suffix(".lock")
        with contextlib.suppress(OSError):
            if lock.read_text().strip() == str(self.pid):
                lock.unlink()
        log = self.path.with_suffix(".log")
        with contextlib.suppress(OSError):
            if log.stat().st_size == 0:
                log.unlink()

    def _still_ours(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def _close_listener(self) -> None:
        if self.listener.fileno() < 0:
            return
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(self.listener)
        if self._still_ours():
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.listener.close()

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        self.last_active = time.monotonic()
        fds: list[int] = []
        try:
            conn.settimeout(ACK_S)
            uid = _peer_uid(conn)
            if uid != os.getuid():  # the folder (0700) and socket (0600) should already stop it
                raise ValueError(f"a process of uid {uid}")
            request, fds = _receive(conn)
            if len(fds) != 4:
                raise ValueError(f"{len(fds)} descriptors instead of 4")
            if threading.active_count() != 1:
                raise ValueError("the host has threads: a fork would copy their locks")
            pid = os.fork()
            if pid == 0:
                _child(request, fds, self, conn)  # never returns
            conn.sendall(_STATUS.pack(b"S", pid))
        except (OSError, ValueError) as exc:
            print(f"refused a session: {exc}", file=sys.stderr, flush=True)
            conn.close()
            return
        finally:
            for fd in fds:
                os.close(fd)
        conn.setblocking(False)
        self.children[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, pid)

    def _launcher_gone(self, pid: int, conn: socket.socket) -> None:
        """The launcher closed its end (it died or was killed): so does its server."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(conn)

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            self.last_active = time.monotonic()
            if conn is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):
                conn.setblocking(True)
                conn.settimeout(1.0)
                conn.sendall(_STATUS.pack(b"X", code))  # negative: killed by that signal
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(conn)
            conn.close()


def _seconds(name: str, default: float) -> float:
    try:
        return max(0.1, float(os.environ.get(name, default)))
    except ValueError:
        return default


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 8)
    if len(data) < _HEADER.size:
        for fd in fds:
            os.close(fd)
        raise ValueError("a truncated request")
    (size,) = _HEADER.unpack(data[: _HEADER.size])
    if size > _MAX_REQUEST:
        for fd in fds:
            os.close(fd)
        raise ValueError(f"a request of {size} bytes")
    body = data[_HEADER.size :]
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            break
        body += chunk
    try:
        request = json.loads(body.decode("utf-8", "surrogateescape"))
    except ValueError:
        for fd in fds:
            os.close(fd)
        raise ValueError("a request that is not JSON") from None
    return dict(request), list(fds)


def _child(request: dict[str, Any], fds: list[int], host: _Host, conn: socket.socket) -> None:
    """In the forked child: become the launcher's server, then exit (never returns)."""
    code = 1
    try:
        _die_with_parent(host.pid)
        signal.set_wakeup_fd(-1)
        for signum in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        host.sel.close()
        for sock in (host.listener, conn, *host.children.values()):
            sock.close()
        for fd in (host.wake_r, host.wake_w, host.lock.fileno()):
            with contextlib.suppress(OSError):
                os.close(fd)
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        os.fchdir(fds[3])
        for fd in fds:
            os.close(fd)
        os.umask(int(request["umask"]))
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        sys.path[:] = [str(p) for p in request["sys_path"]]
        sys.argv = [str(request["argv0"]), *map(str, request["argv"])]
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stdout.reconfigure(line_buffering=sys.stdout.isatty())  # type: ignore[union-attr]  # as a start on it
        host.spec.entry([str(a) for a in request["argv"]])
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if stop.code is not None and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:  # the child's edge: report like an uncaught exception would
        import traceback

        traceback.print_exc()
    finally:
        _at_exit()
        os._exit(code)


def _at_exit() -> None:
    """What a process's exit does before the interpreter's teardown: the exit handlers
    (as a cold start would have them), then the standard streams flushed."""
    run = getattr(atexit, "_run_exitfuncs", None)
    with contextlib.suppress(Exception):
        if run is not None:
            run()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(Exception):
        sys.stderr.flush()


def _die_with_parent(host: int) -> None:
    """SIGKILL this child when the host dies (Linux prctl), and bail out if it already has."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != host:
        os._exit(1)
