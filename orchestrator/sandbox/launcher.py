"""Command lines that put a script inside each isolation mechanism.

A launcher is built once per `Sandbox` (the fixed part of the bwrap argument
list is computed in `__init__`) and asked per attempt for the full argv.

Process limits and root
-----------------------
RLIMIT_NPROC is not enforced for uid 0, and a user namespace does not change
that when it maps the sandbox onto uid 0 outside (which is what bwrap and
`unshare --map-root-user` do when started by root): a fork bomb would run
free. So when the orchestrator runs as root, the script runs under a per-run
unprivileged uid (a random one from a high range, unique to the attempt) so
that the process limit binds and one attempt cannot signal another:

- bwrap as root: no user namespace; the sandbox keeps only CAP_SETUID/SETGID
  and the bootstrap drops to the per-run uid before anything else runs.
- unshare as root: `setpriv` drops to the per-run uid with no capability at
  all. The uid sees host files as any other user does (0600 root files stay
  unreadable). What it must reach but cannot, because a directory on the way
  is not searchable by others (a pyenv interpreter under /root 0700, a skill
  folder under a 0700 temporary directory), is revealed first: in the run's
  own mount namespace, still as root, the `PREPARE` helper covers that
  directory with an empty tmpfs and binds back only the paths the run needs
  (the runtime, the skill folder, the script, the work directories). An
  earlier version kept CAP_DAC_READ_SEARCH instead, which let a script read
  any file on the host.
- none as root: the same drop, and no mount namespace to reveal anything in:
  a runtime other users cannot reach makes the mechanism unusable (`make_launcher`
  says why), and a skill folder they cannot reach is a setup failure.

As an ordinary user the process limit binds anyway: bwrap and unshare then use
a user namespace, as usual.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from orchestrator.sandbox.host import SYSTEM_LINKS, SYSTEM_ROOT, Runtime
from orchestrator.sandbox.model import MOUNT_ROOT, Isolation
from orchestrator.sandbox.network import NET_FD, resolv_conf

INFO_FD = 4  # bwrap writes {"child-pid": N} (its PID-1 reaper) here
SANDBOX_UID = 1000  # the uid a script sees inside a bwrap user namespace
RUN_UID_BASE = 1 << 30  # per-run uids (as root) come from [BASE, BASE + SPAN)
RUN_UID_SPAN = 1 << 24
WORK = "/work"  # the work directory, inside bwrap
SKILL = "/skill"  # the skill folder, inside bwrap
SCRIPT_DIR = "/script"  # where a regenerated script goes when the skill has no entry file
HOST = "/.host"  # the host's tree in the warm path's fork server (never in a job's view)
DEVICES = ("null", "zero", "urandom")  # the device nodes a cold start's /dev holds
RESOLV = "/etc/resolv.conf"
NETWORK_FILES = (
    "/etc/resolv.conf",
    "/etc/hosts",
    "/etc/nsswitch.conf",
    "/etc/host.conf",
    "/etc/gai.conf",
    "/etc/services",
    "/etc/protocols",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Layout(_Frozen):
    """Host paths and switches of one attempt."""

    skill_dir: Path
    entry: str  # relative to skill_dir
    script: Path  # the file to run: skill_dir/entry or a regenerated version
    workdir: Path
    tmpdir: Path | None = None  # None when the launcher mounts a private /tmp
    network: bool = False
    host_network: bool = False  # with `network`: the host's own (forced), not one of its own
    uid: int | None = None  # the per-run unprivileged uid, when running as root
    tmpfs: str = "mode=1777,size=67108864,nr_inodes=8192"  # /tmp and /dev/shm (`tmpfs_options`)
    mounts: tuple[tuple[Path, str], ...] = ()  # (resolved host path, target below /inputs), read-only

    @property
    def overridden(self) -> bool:
        return self.script != self.skill_dir / self.entry

    @property
    def outbound(self) -> bool:
        """A network namespace of its own, connected outbound (see `network`)."""
        return self.network and not self.host_network


class Inside(_Frozen):
    """The attempt's paths as the script sees them."""

    workdir: str
    tmpdir: str
    script: str
    import_paths: tuple[str, ...]
    bootstrap_uid: int | None = None  # the bootstrap drops to this uid first
    tmpfs: str | None = None  # the bootstrap mounts /tmp and /dev/shm with these options first


class Launcher(Protocol):
    isolation: Isolation
    private_tmp: bool  # mounts its own /tmp: the attempt needs no tmp directory
    info_fd: int | None  # where the launcher reports a reaper that may outlive it
    needs_run_uid: bool  # the caller must pick a per-run uid and chown the work directory
    notes: tuple[str, ...]  # standing caveats, reported with every result

    def inside(self, layout: Layout) -> Inside: ...

    def argv(self, layout: Layout, command: Sequence[str]) -> list[str]: ...

    def sweep_argv(self, layout: Layout) -> list[str] | None: ...


def _dedupe(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _drop_argv(setpriv: Path, uid: int) -> list[str]:
    """Become `uid` with no capability left (no way back, no setuid gains)."""
    return [
        str(setpriv),
        "--reuid",
        str(uid),
        "--regid",
        str(uid),
        "--clear-groups",
        "--inh-caps",
        "-all",
        "--bounding-set",
        "-all",
        "--no-new-privs",
        "--pdeathsig",
        "KILL",
    ]


def hidden_on_the_way(path: Path) -> Path | None:
    """The first directory above `path` that other users cannot search (no o+x), if any."""
    for parent in reversed(path.parents):
        try:
            mode = parent.stat().st_mode
        except OSError:
            return parent
        if not mode & stat.S_IXOTH:
            return parent
    return None


# Run inside unshare's new mount namespace (mount propagation private), with
# the capabilities of its user namespace (as root: before `setpriv` drops to the
# per-run uid). `options OPTS` sets the mount options of the next `tmpfs DIR`,
# which mounts a fresh tmpfs on DIR (the run's own /tmp and /dev/shm, capped in
# size and inodes); `cover DIR` mounts an empty tmpfs on a directory other users
# cannot search; `bind PATH` puts PATH back at its own place below a tmpfs
# (opened before the mounts, bound through /proc/self/fd); `resolv FILE` binds
# FILE on /etc/resolv.conf and `wait FD` reads the network barrier (see
# `network`); then it execs what follows `--`. Any failure is one line on stderr and no status byte: a setup
# failure.
PREPARE = """import ctypes, os, sys
def main(args):
    libc = ctypes.CDLL(None, use_errno=True)
    def mount(source, target, fstype, flags, data):
        if libc.mount(source.encode(), target.encode(), fstype, flags, data) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), target)
    cut = args.index("--")
    pairs = list(zip(args[:cut:2], args[1:cut:2]))
    binds = [p for op, p in pairs if op == "bind"]
    fds = {p: os.open(p, os.O_PATH | os.O_CLOEXEC) for op, p in pairs if op in ("bind", "resolv")}
    os.umask(0o022)
    options = b""
    for op, target in pairs:
        if op == "options":
            options = target.encode()
        elif op == "tmpfs":
            mount("tmpfs", target, b"tmpfs", 2 | 4, options)  # nosuid, nodev
        elif op == "cover":
            mount("tmpfs", target, b"tmpfs", 2 | 4, b"mode=0755,size=1m")
    for target in binds:
        source = "/proc/self/fd/%d" % fds[target]
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        if os.path.isdir(source):
            os.makedirs(target, 0o755, exist_ok=True)
        elif not os.path.exists(target):
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
        mount(source, target, None, 4096 | 16384, None)  # MS_BIND | MS_REC
    for op, target in pairs:
        if op == "resolv" and os.path.isfile("/etc/resolv.conf"):
            mount("/proc/self/fd/%d" % fds[target], "/etc/resolv.conf", None, 4096, None)
        elif op == "wait":  # the network barrier: slirp4netns has configured the namespace
            if os.read(int(target), 1) != b"G":
                raise OSError(0, "its network did not come up")
            os.close(int(target))
    os.execv(args[cut + 1], args[cut + 1:])
try:
    main(sys.argv[1:])
except (OSError, ValueError) as exc:
    sys.stderr.write("sandbox: cannot prepare the run's mounts: %s\\n" % exc)
    sys.exit(126)
"""
PRIVATE_TMPFS = (Path("/tmp"), Path("/dev/shm"))  # each unshare run gets fresh ones


def _below(path: Path, top: Path) -> bool:
    return path == top or top in path.parents


def prepare_argv(
    python: Path, needed: Sequence[Path], tmpfs: str, *, reveal: bool, outbound: bool = False
) -> list[str]:
    """The `PREPARE` helper's command: a private /tmp and /dev/shm with `tmpfs` options
    (the `needed` paths below them bound back), with `reveal` (as root, for the
    per-run uid) the `needed` paths behind a folder other users cannot search, and
    with `outbound` slirp4netns's resolv.conf and a wait at the network barrier."""
    private = [top for top in PRIVATE_TMPFS if top.is_dir() and not top.is_symlink()]
    args = [str(python), "-I", "-S", "-B", "-c", PREPARE]
    binds: list[Path] = []

    def keep(path: Path, bound: list[Path]) -> None:
        if not any(path == done or done in path.parents for done in bound):
            bound.append(path)  # else it comes back with a folder above it

    ordered = sorted(dict.fromkeys(needed), key=lambda p: len(p.parts))
    for top in private:
        args += ["options", tmpfs, "tmpfs", str(top)]
        for path in ordered:
            if _below(path, top):
                keep(path, binds)
    covers: dict[Path, list[Path]] = {}  # the first hidden directory never nests in another
    for path in ordered if reveal else ():
        hidden = hidden_on_the_way(path)
        if hidden is None or any(_below(hidden, top) for top in private):
            continue
        keep(path, covers.setdefault(hidden, []))
    for top_hidden, paths in covers.items():
        args += ["cover", str(top_hidden)] + [x for p in paths for x in ("bind", str(p))]
    args += [x for p in binds for x in ("bind", str(p))]
    if outbound:
        args += ["resolv", str(resolv_conf()), "wait", str(NET_FD)]
    return [*args, "--"]


class _HostPaths:
    """Unshare and none share the host's file system: paths are host paths."""

    private_tmp = False
    info_fd: int | None = None

    def inside(self, layout: Layout) -> Inside:
        entry_dir = (layout.skill_dir / layout.entry).parent
        return Inside(
            workdir=str(layout.workdir),
            tmpdir=str(layout.tmpdir or layout.workdir),
            script=str(layout.script),
            import_paths=_dedupe([str(entry_dir), str(layout.skill_dir)]),
        )


def _dev_args() -> list[str]:
    """A cold start's /dev: the devices scripts use, bound one by one, and the usual links.

    Each device is a bind mount, and bwrap pays ~0.15 ms for each (it reads
    the mount table back after every bind): `--dev` binds six devices and
    mounts a devpts, `DEVICES` are three (`/dev/random` links to `urandom`,
    which reads the same; no tty, full or pts). /dev/shm, writable for the
    dropped uid too (multiprocessing's semaphores), and /tmp are tmpfs mounts
    of their own that the bootstrap makes with size and inode caps (bwrap's
    `--tmpfs` has no inode cap); here they are mount points.
    """
    args = ["--dir", "/dev", "--dir", "/dev/shm", "--dir", "/tmp"]
    for name in DEVICES:
        args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    args += ["--symlink", "urandom", "/dev/random", "--symlink", "/proc/self/fd", "/dev/fd"]
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        args += ["--symlink", f"/proc/self/fd/{fd}", f"/dev/{name}"]
    return args


class BwrapLauncher:
    isolation = Isolation.BWRAP
    private_tmp = True
    info_fd: int | None = INFO_FD

    def __init__(self, bwrap: Path, runtime: Runtime, *, as_root: bool) -> None:
        self.needs_run_uid = as_root
        self.notes: tuple[str, ...] = ()
        self._prefix = tuple(self._fixed(bwrap, runtime, as_root))
        self._server = tuple(self._fixed(bwrap, runtime, as_root, server=True))

    @staticmethod
    def _fixed(bwrap: Path, runtime: Runtime, as_root: bool, *, server: bool = False) -> list[str]:
        args = [str(bwrap)]
        if not as_root:
            uid = str(SANDBOX_UID)
            args += ["--unshare-user", "--uid", uid, "--gid", uid, "--disable-userns"]
        if server:
            args += ["--cap-add", "ALL"]  # the fork server isolates each job, then drops them
        else:  # the bootstrap mounts /tmp and /dev/shm (SYS_ADMIN), then drops every capability
            args += ["--cap-drop", "ALL", "--cap-add", "CAP_SYS_ADMIN"]
            if as_root:
                args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        args += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        # bwrap returns as soon as the script exits while its PID-1 reaper lives
        # on until the rest of the namespace is gone: the spawner reads the
        # reaper's pid here and waits for it, so nothing outlives the run.
        args += ["--info-fd", str(INFO_FD)]
        if not server:
            args += ["--hostname", "sandbox"]
        args += ["--die-with-parent", "--new-session"]
        args += ["--ro-bind", str(SYSTEM_ROOT), str(SYSTEM_ROOT)]
        for name in SYSTEM_LINKS:
            path = Path("/") / name
            if path.is_symlink():
                args += ["--symlink", os.readlink(path), str(path)]
            elif path.is_dir():
                args += ["--ro-bind", str(path), str(path)]
        args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        made = {Path("/")}
        for root in runtime.roots:
            # bwrap would create the parents 0700; the dropped uid must traverse them
            for parent in reversed(root.parents):
                if parent not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            args += ["--ro-bind", str(root), str(root)]
            made.add(root)
        args += ["--proc", "/proc"]
        if server:  # mount points for each job's own folders, and the host tree to take them from
            # /dev/shm writable for the dropped uid too (multiprocessing's semaphores)
            args += ["--dev", "/dev", "--chmod", "01777", "/dev/shm"]
            args += ["--tmpfs", "/tmp", "--dir", WORK, "--dir", SKILL, "--dir", SCRIPT_DIR]
            args += ["--dir", MOUNT_ROOT]
            args += ["--bind", "/", HOST]
        else:
            args += _dev_args()
        return args

    def _script(self, layout: Layout) -> str:
        if layout.overridden and not (layout.skill_dir / layout.entry).is_file():
            return str(PurePosixPath(SCRIPT_DIR) / layout.script.name)
        return str(PurePosixPath(SKILL) / layout.entry)

    def inside(self, layout: Layout) -> Inside:
        entry_dir = PurePosixPath(SKILL) / PurePosixPath(layout.entry).parent
        return Inside(
            workdir=WORK,
            tmpdir="/tmp",
            script=self._script(layout),
            import_paths=_dedupe([str(entry_dir), SKILL]),
            bootstrap_uid=layout.uid if self.needs_run_uid else None,
            tmpfs=layout.tmpfs,
        )

    def argv(self, layout: Layout, command: Sequence[str]) -> list[str]:
        args = list(self._prefix)
        if not layout.host_network:
            args.append("--unshare-net")
        if layout.network:
            for path in NETWORK_FILES:
                if not (layout.outbound and path == RESOLV):
                    args += ["--ro-bind-try", path, path]
        if layout.outbound:  # wait until slirp4netns has configured the namespace
            args += ["--ro-bind", str(resolv_conf()), RESOLV, "--block-fd", str(NET_FD)]
        args += ["--bind", str(layout.workdir), WORK, "--ro-bind", str(layout.skill_dir), SKILL]
        made: set[PurePosixPath] = set()
        for source, target in layout.mounts:  # parents 0755: the dropped uid must traverse them
            for parent in reversed(PurePosixPath(target).parents[:-1]):
                if parent not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            args += ["--ro-bind", str(source), target]
        if layout.overridden:
            args += ["--ro-bind", str(layout.script), self._script(layout)]
        args += command  # the bootstrap changes directory after dropping privileges
        return args

    def sweep_argv(self, layout: Layout) -> list[str] | None:
        return None  # the PID namespace dies with the script

    def server_argv(self, command: Sequence[str]) -> list[str]:
        """The warm path's fork server under bwrap (see `forkserver` for each job's isolation)."""
        return [*self._server, *command]


class UnshareLauncher(_HostPaths):
    isolation = Isolation.UNSHARE

    def __init__(
        self, unshare: Path, setpriv: Path | None, *, as_root: bool, runtime: Runtime
    ) -> None:
        self._runtime = runtime
        self._setpriv = setpriv if as_root else None
        self.needs_run_uid = self._setpriv is not None
        notes = ["unshare fallback: no file-system isolation (host files, with the script's uid)"]
        if as_root and setpriv is None:
            notes.append("running as root without setpriv: the process limit does not hold")
        self.notes = tuple(notes)
        prefix = [str(setpriv), "--pdeathsig", "KILL"] if setpriv else []
        prefix.append(str(unshare))
        if not self.needs_run_uid:
            prefix += ["--user", "--map-root-user"]
        prefix += ["--pid", "--fork", "--kill-child=SIGKILL", "--mount", "--mount-proc"]
        prefix += ["--ipc", "--uts"]
        self._prefix = tuple(prefix)

    def argv(self, layout: Layout, command: Sequence[str]) -> list[str]:
        args = list(self._prefix)
        if not layout.host_network:
            args.append("--net")
        root = self._setpriv is not None and layout.uid is not None
        args += prepare_argv(
            self._runtime.executable,
            self._needed(layout),
            layout.tmpfs,
            reveal=root,
            outbound=layout.outbound,
        )
        if self._setpriv is not None and layout.uid is not None:
            args += _drop_argv(self._setpriv, layout.uid)
        return [*args, *command]

    def _needed(self, layout: Layout) -> list[Path]:
        """What the per-run uid must reach: runtime, skill folder, script, work directories."""
        paths = [*self._runtime.roots, self._runtime.executable.parent, layout.skill_dir]
        paths += [layout.script, layout.workdir] + ([layout.tmpdir] if layout.tmpdir else [])
        return [p.resolve() for p in paths]

    def sweep_argv(self, layout: Layout) -> list[str] | None:
        return None  # the PID namespace dies with the script


class BareLauncher(_HostPaths):
    """No isolation: rlimits only (and, as root, the per-run uid)."""

    isolation = Isolation.NONE

    def __init__(self, setpriv: Path | None, kill: Path | None, *, as_root: bool) -> None:
        self._setpriv = setpriv
        self._kill = kill
        self.needs_run_uid = as_root and setpriv is not None
        notes = ["isolation none: the script shares the host's network, processes and files"]
        if as_root and setpriv is None:
            notes.append("running as root without setpriv: the process limit does not hold")
        self.notes = tuple(notes)

    def argv(self, layout: Layout, command: Sequence[str]) -> list[str]:
        if self._setpriv is None:
            return list(command)
        if self.needs_run_uid and layout.uid is not None:
            return [*_drop_argv(self._setpriv, layout.uid), *command]
        return [str(self._setpriv), "--pdeathsig", "KILL", *command]

    def sweep_argv(self, layout: Layout) -> list[str] | None:
        """As the per-run uid, `kill -9 -1` ends whatever the script left running."""
        if not self.needs_run_uid or layout.uid is None or self._kill is None:
            return None
        assert self._setpriv is not None
        uid = str(layout.uid)
        return [str(self._setpriv), "--reuid", uid, "--regid", uid, "--clear-groups",
                str(self._kill), "-9", "-1"]  # fmt: skip
