"""A network of its own for a script that may use the network: outbound only.

`network: allow` does not mean "the host's network". A script that may use the
network still gets a network namespace of its own, and `slirp4netns` (Debian
package `slirp4netns`, see scripts/install-system-packages.sh) connects it to
the outside from the host's side: a user-mode TCP/IP stack that makes the
script's connections as ordinary sockets of the host. What that gives the
script, and what not:

- outbound TCP and UDP to any address the host reaches (a default route via
  10.0.2.2, DNS at 10.0.2.3, forwarded to the host's resolver);
- not the host's loopback (`--disable-host-loopback`: 10.0.2.2 does not lead
  to 127.0.0.1; the script's own 127.0.0.1 is its namespace's), and not the
  host's abstract Unix sockets (they belong to a network namespace); nothing
  listens for it on the host (no port is forwarded in).

The namespace is made first and the script waits at a barrier (bwrap's
`--block-fd`, the unshare helper's `wait`, the warm path's `G`) until
slirp4netns reports it configured (`--ready-fd`). Under bwrap slirp4netns
starts only after bwrap's child has added 127.0.0.1 to its loopback
(`loopback_configured`): slirp4netns brings `lo` up, the kernel then adds that
address, and bwrap's own adding of it fails the sandbox. slirp4netns exits when the
pipe on its `--exit-fd` closes: at the end of the attempt, or when the
orchestrator dies.

Where slirp4netns is missing, a run with network fails as a setup failure
saying so, loudly, unless SKILLWEAVE_SANDBOX_HOST_NETWORK=1 (`ENV_HOST_NETWORK`)
forces the old way: the host's network namespace, loopback and abstract
sockets included. Isolation none always shares the host's network.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

ENV_HOST_NETWORK = "SKILLWEAVE_SANDBOX_HOST_NETWORK"
NET_FD = 5  # in a cold start: the barrier the sandbox waits at until its network is up
READY_S = 10.0  # how long slirp4netns may take to configure the namespace
NETNS_POLL_S = 0.002
DNS = "10.0.2.3"  # slirp4netns's resolver in the namespace
MISSING = (
    "network: allow needs slirp4netns to give the script a network of its own "
    "(outbound only, no host loopback): install it (apt-get install slirp4netns, or "
    f"scripts/install-system-packages.sh), or set {ENV_HOST_NETWORK}=1 to share the "
    "host's network, loopback included"
)
_STDERR_TAIL = 4096


def find_slirp() -> Path | None:
    found = shutil.which("slirp4netns") or shutil.which("slirp4netns", path="/usr/bin:/bin")
    return Path(found).resolve() if found else None


_resolv: Path | None = None


def resolv_conf() -> Path:
    """A resolv.conf naming slirp4netns's resolver, readable by every uid (made once)."""
    global _resolv
    if _resolv is None or not _resolv.is_file():
        folder = Path(tempfile.mkdtemp(prefix="skillweave-net-"))
        folder.chmod(0o755)
        path = folder / "resolv.conf"
        path.write_text(f"nameserver {DNS}\n")
        path.chmod(0o644)
        atexit.register(shutil.rmtree, folder, True)
        _resolv = path
    return _resolv


def _netns(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}/ns/net").st_ino
    except OSError:
        return None


class Outbound:
    """slirp4netns serving one namespace; `close` ends it."""

    def __init__(self, pid: int, exit_w: int, err_r: int) -> None:
        self.pid = pid
        self._exit_w: int | None = exit_w
        self._err_r = err_r

    def why(self) -> str:
        """The last line slirp4netns wrote, for a failure message."""
        with contextlib.suppress(OSError):
            os.set_blocking(self._err_r, False)
            text = os.read(self._err_r, _STDERR_TAIL).decode("utf-8", "replace").strip()
            if text:
                return text.splitlines()[-1]
        return "no message"

    def close(self) -> None:
        """Close its exit pipe (it exits) and reap it, killing it if it lingers."""
        if self._exit_w is None:
            return
        os.close(self._exit_w)
        self._exit_w = None
        deadline = time.monotonic() + 1.0
        try:
            while os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                if time.monotonic() > deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    break
                time.sleep(0.002)
        except (ChildProcessError, ProcessLookupError):
            pass
        finally:
            os.close(self._err_r)


async def wait_readable(fd: int, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        async with asyncio.timeout(timeout):
            await ready
        return True
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)


async def namespace_of(pid: int, timeout: float = READY_S) -> bool:
    """Wait until `pid` is in a network namespace other than ours; False if it never is."""
    ours = _netns(os.getpid())
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        theirs = _netns(pid)
        if theirs is None:
            return False  # it is gone
        if theirs != ours:
            return True
        await asyncio.sleep(NETNS_POLL_S)
    return False


def _has_loopback_address(pid: int) -> bool | None:
    """Whether 127.0.0.1 is an address in `pid`'s network namespace (None: `pid` is gone).
    The local routing table lists an address as soon as it is added, `lo` up or not."""
    try:
        with open(f"/proc/{pid}/net/fib_trie", "rb") as table:
            return b"127.0.0.1" in table.read()
    except OSError:
        return None


async def loopback_configured(pid: int, timeout: float = READY_S) -> bool:
    """Wait until bwrap's child `pid` has given its new namespace's loopback 127.0.0.1.

    bwrap adds that address itself (and fails on "File exists", reported with a stale
    errno: "loopback: Failed RTM_NEWADDR: No child processes"), so nothing may bring
    `lo` up first (the kernel then adds it), as slirp4netns's --configure does. False
    when `pid` is gone or the address never comes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = _has_loopback_address(pid)
        if found is None:
            return False
        if found:
            return True
        await asyncio.sleep(NETNS_POLL_S)
    return False


async def attach(tool: Path, pid: int) -> Outbound | str:
    """Start `tool` (slirp4netns) on the network namespace of `pid`; when it reports the
    namespace configured, the running helper, else why it is not."""
    ready_r, ready_w = os.pipe2(os.O_CLOEXEC)
    exit_r, exit_w = os.pipe2(os.O_CLOEXEC)
    err_r, err_w = os.pipe2(os.O_CLOEXEC)
    devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    argv = [str(tool), "--configure", "--mtu=65520", "--disable-host-loopback",
            "--enable-sandbox", "--enable-seccomp", "--ready-fd=3", "--exit-fd=4",
            str(pid), "tap0"]  # fmt: skip
    actions = [
        (os.POSIX_SPAWN_DUP2, devnull, 0),
        (os.POSIX_SPAWN_DUP2, devnull, 1),
        (os.POSIX_SPAWN_DUP2, err_w, 2),
        (os.POSIX_SPAWN_DUP2, ready_w, 3),
        (os.POSIX_SPAWN_DUP2, exit_r, 4),
    ]
    try:
        child = os.posix_spawn(argv[0], argv, {"PATH": "/usr/bin:/bin"}, file_actions=actions,
                               setsigdef=(signal.SIGPIPE, signal.SIGINT, signal.SIGTERM))  # fmt: skip
    except OSError as exc:
        for fd in (ready_r, exit_w, err_r):
            os.close(fd)
        return f"cannot start {tool}: {exc.strerror or exc}"
    finally:
        for fd in (ready_w, exit_r, err_w, devnull):
            os.close(fd)
    outbound = Outbound(child, exit_w, err_r)
    try:
        ready = await wait_readable(ready_r, READY_S) and os.read(ready_r, 1) == b"1"
    except OSError:
        ready = False
    except BaseException:  # cancelled: the helper must not outlive the attempt
        outbound.close()
        raise
    finally:
        os.close(ready_r)
    if ready:
        return outbound
    why = outbound.why()
    outbound.close()
    return f"slirp4netns did not configure the script's network: {why}"
