"""The few lines of Python that run inside the sandbox before the script.

They travel on the command line, so nothing has to be mounted for them: compiled
here once and marshalled (`BOOTSTRAP_CODE`), behind a one-line `-c` loader
(`LOADER`) that takes them off `sys.argv` and runs them. Compiling their source
in every sandboxed interpreter instead (`-c BOOTSTRAP`) cost about 0.6 ms of
each cold start. They import only the builtin `posix` and `atexit` modules and
the small `resource` and `_ctypes` extensions (`_ctypes` alone, ~0.6 ms: the
`ctypes` package would cost ~4 ms). In order they

1. fork once when they are PID 1 of their namespace (unshare forks straight
   into it): the kernel drops default-action signals sent to a namespace
   init, SIGXCPU included, so the script must not be PID 1. The parent reaps
   orphans until the script exits, then exits with its status (128+N for a
   signal, as bwrap's own reaper reports it), which kills whatever else is
   left in the namespace before the launcher reports back;
2. when asked (`tmpfs`, a cold start under bwrap), mount a fresh tmpfs on /tmp
   and on /dev/shm with a size *and an inode* cap (bwrap's own `--tmpfs` takes
   a size only, and an empty folder costs no size: a script could pin millions
   of inodes in the kernel's memory), in a mount namespace of their own;
   bwrap leaves CAP_SYS_ADMIN for this;
3. drop to the per-run unprivileged uid when asked (bwrap as root, see
   `launcher`), which clears every capability; or, as an ordinary user, clear
   the one the mounts needed (capset);
4. join a new, empty session keyring (keyctl JOIN_SESSION_KEYRING): the
   orchestrator's is inherited otherwise, and possessing it lets any uid read
   its keys and add to it. Where the kernel or a seccomp filter refuses keyctl
   (ENOSYS, EPERM) the script cannot use keyrings at all and it goes on;
5. set the rlimits (CPU seconds with a one-second grace before SIGKILL, address
   space, file size, processes, open files), never above an existing hard limit;
6. change into the work directory and load the script: the code object the
   orchestrator compiled (`precompile`, passed marshalled in hex), else the
   source file, compiled here;
7. write `S` on fd 3, the status pipe: the sandbox is up and the script is
   about to run. A run that ends without it failed to *start*, which is a
   setup failure and not the script's fault. At exit a line `U <cpu s> <max rss kb>`
   reports the script's own resource use (bwrap's init does not pass it up, and
   after a vfork+exec the kernel's peak RSS still counts the orchestrator; the
   peak of the script's own memory map, VmHWM, does not);
8. close every inherited descriptor above 3 (fd 3 becomes close-on-exec);
9. make the script look like `python script.py`: `sys.argv`, `__file__`,
   `__name__ == "__main__"`, its own folder then the skill folder first on
   `sys.path`, a clean `__main__` namespace;
10. end as `python script.py` would for everything the script can see, without
   the interpreter's full finalization (`_END`); the warm path's fork server
   runs the same bootstrap, so warm and cold runs end alike.
"""

from __future__ import annotations

import marshal
from collections.abc import Sequence

from orchestrator.sandbox.model import ResourceLimits

STATUS_FD = 3
MAX_CODE_ARG = 100_000  # hex characters; Linux caps one argument at 128 KiB
STARTED = b"S"
TMPFS_ARG = 9  # where `bootstrap_args` puts the tmpfs mount options ("-": no mounts)
MB = 1024 * 1024

# Interpreter flags: no site (-S, so no site-packages), no user site (-s), no
# bytecode writes (-B), no unsafe path entry (-P). Not -E/-I: PYTHONHASHSEED,
# PYTHONUTF8 and friends come from the allowlisted environment we build.
PYTHON_FLAGS = ("-s", "-S", "-B", "-P")

_BOOT = """\
def _boot():
    import posix, sys, atexit, resource as r
    a = sys.argv
    if posix.getpid() == 1:
        child = posix.fork()
        if child:
            posix.close(0)
            posix.close(1)
            while True:
                pid, status = posix.wait()
                if pid == child:
                    code = posix.waitstatus_to_exitcode(status)
                    posix._exit(code if code >= 0 else 128 - code)
    import _ctypes

    class L(_ctypes._SimpleCData):
        _type_ = "l"

    class F(_ctypes.CFuncPtr):
        _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
        _restype_ = L

    class C:
        _handle = _ctypes.dlopen(None)

    def call(name, *args, what):
        if F((name, C))(*args) < 0:
            e = _ctypes.get_errno()
            raise OSError(e, "sandbox: cannot " + what + ": " + posix.strerror(e))

    uid = int(a[1])
    if a[10] != "-":
        # a mount namespace of the bootstrap's own: as an ordinary user bwrap's is owned
        # by the user namespace above the one it nests for --uid, where we have no caps
        call("unshare", L(0x20000), what="make a mount namespace")
        for target in ("/tmp", "/dev/shm"):
            call("mount", b"tmpfs", target.encode(), b"tmpfs", L(6), a[10].encode(),
                 what="mount a private " + target)
    if uid >= 0:
        posix.setgroups([])
        posix.setresgid(uid, uid, uid)
        posix.setresuid(uid, uid, uid)
    elif a[10] != "-":
        head = (0x20080522).to_bytes(4, sys.byteorder) + bytes(4)
        call("capset", head, bytes(24), what="drop the capability the mounts needed")
    nr = {"x86_64": 250, "aarch64": 219, "riscv64": 219, "i686": 288, "armv7l": 311,
          "ppc64le": 280, "s390x": 280}.get(posix.uname().machine)  # keyctl(2)
    try:
        if nr is None:
            raise OSError(38, "no keyctl number for " + posix.uname().machine)
        call("syscall", L(nr), L(1), None, what="join a session keyring of its own")
    except OSError as exc:
        if exc.errno not in (1, 38):  # EPERM, ENOSYS: keyrings are closed to the script too
            raise
    kinds = (r.RLIMIT_CPU, r.RLIMIT_AS, r.RLIMIT_FSIZE, r.RLIMIT_NPROC, r.RLIMIT_NOFILE)
    for kind, value in zip(kinds, a[2:7]):
        soft = int(value)
        hard = r.getrlimit(kind)[1]
        if hard != r.RLIM_INFINITY:
            soft = min(soft, hard)
        top = soft
        if kind == r.RLIMIT_CPU and (hard == r.RLIM_INFINITY or soft < hard):
            top = soft + 1
        r.setrlimit(kind, (soft, top))
    posix.chdir(a[7])
    path = a[8]
    if a[9] == "-":
        with open(path, "rb") as f:
            code = f.read()
    else:
        import marshal
        code = marshal.loads(bytes.fromhex(a[9]))
    posix.write(3, b"S")
    posix.set_inheritable(3, False)
    posix.closerange(4, 1 << 30)

    def report():
        s = r.getrusage(r.RUSAGE_SELF)
        c = r.getrusage(r.RUSAGE_CHILDREN)
        cpu = s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
        rss = s.ru_maxrss
        try:
            fd = posix.open("/proc/self/status", posix.O_RDONLY)
            try:
                status = posix.read(fd, 1 << 16)
            finally:
                posix.close(fd)
            at = status.find(b"\\nVmHWM:")
            if at >= 0:
                rss = int(status[at + 7 : status.find(b"\\n", at + 1)].split()[0])
        except (OSError, ValueError, IndexError):
            pass
        try:
            posix.write(3, b"\\nU %.6f %d\\n" % (cpu, max(rss, c.ru_maxrss)))
        except OSError:
            pass

    atexit.register(report)
    sys.argv = [path]
    sys.path[0:0] = a[11:]
    g = globals()
    del g["_boot"]
    g["__file__"] = path
    if isinstance(code, bytes):
        code = compile(code, path, "exec", dont_inherit=True)
    return code
"""

# How a run ends, cold or warm: the script, then what the interpreter's exit
# does for it, then `_exit`. Python's full finalization (every module torn
# down, every object freed) costs ~1.5 ms of a ~16 ms start and does nothing a
# script can see beyond what this does: threads joined, atexit run, streams
# flushed, the globals of `__main__` and of the script's own modules (those
# from outside the runtime: the skill folder, the work directory) released last
# defined first, so files left open are flushed and `__del__` methods run,
# cycles collected. (In the warm path the fork server's objects are frozen, so
# the collection walks only the job's.)
_END = """\
def _run(code):
    import gc, posix, sys
    g = globals()
    del g["_run"]
    status = 0
    try:
        exec(code, g)
    except SystemExit as exc:
        status = exc.code
        if status is None:
            status = 0
        elif not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
    except BaseException as exc:
        sys.excepthook(type(exc), exc, exc.with_traceback(exc.__traceback__.tb_next).__traceback__)
        status = 1
    del code
    try:
        sys.modules["threading"]._shutdown()
    except BaseException:
        pass
    import atexit
    atexit._run_exitfuncs()
    runtime = tuple({p + "/" for p in (sys.base_prefix, sys.base_exec_prefix, sys.prefix)})
    for release in (True, False):
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                stream.closed or stream.flush()
            except OSError:
                status = 120
            except BaseException:
                pass
        if release:
            try:
                for space in [g] + [
                    m.__dict__ for m in reversed(list(sys.modules.values()))
                    if not str(getattr(m, "__file__", None) or runtime[0]).startswith(runtime)
                ]:
                    for name in reversed(list(space)):
                        if name[:2] != "__" or name[-2:] != "__":
                            space[name] = None
                del space
                gc.collect()
            except BaseException:
                pass
    posix._exit(status & 0xFF)
_run(_boot())
"""


# The loader `-c` runs: it pops the marshalled bootstrap (argv[1]) off sys.argv,
# which leaves the bootstrap the argv `-c BOOTSTRAP` would give it, and binds no
# name in `__main__`.
LOADER = "exec(__import__('marshal').loads(bytes.fromhex(__import__('sys').argv.pop(1))))"
# The cold bootstrap compiled by this interpreter, which is the one the sandbox runs
# (see `host.find_runtime`), so its marshal format is the sandbox's.
BOOTSTRAP = _BOOT + _END
BOOTSTRAP_CODE = marshal.dumps(
    compile(BOOTSTRAP, "<string>", "exec", dont_inherit=True, optimize=0)
).hex()


def bootstrap_command(
    python: str,
    *,
    limits: ResourceLimits,
    workdir: str,
    script: str,
    import_paths: Sequence[str],
    uid: int | None = None,
    code: bytes | None = None,
    tmpfs: str | None = None,
) -> list[str]:
    """The interpreter command line that runs `script` under `limits`.

    `code` is the script already compiled by `precompile` (marshalled); without
    it the bootstrap reads and compiles the script inside the sandbox. `tmpfs`
    (see `tmpfs_options`): mount /tmp and /dev/shm with these options first.
    """
    args = bootstrap_args(
        limits=limits,
        workdir=workdir,
        script=script,
        import_paths=import_paths,
        uid=uid,
        code=code,
        tmpfs=tmpfs,
    )
    return [*loader_command(python), *args]


def loader_command(python: str) -> list[str]:
    """The interpreter command line up to the bootstrap's own arguments."""
    return [python, *PYTHON_FLAGS, "-c", LOADER, BOOTSTRAP_CODE]


def bootstrap_args(
    *,
    limits: ResourceLimits,
    workdir: str,
    script: str,
    import_paths: Sequence[str],
    uid: int | None = None,
    code: bytes | None = None,
    tmpfs: str | None = None,
) -> list[str]:
    """The bootstrap's own arguments (what follows `loader_command`; the warm path sends these)."""
    return [
        str(-1 if uid is None else uid),
        str(limits.cpu_s),
        str(limits.memory_mb * MB),
        str(limits.file_size_mb * MB),
        str(limits.max_procs),
        str(limits.max_open_files),
        workdir,
        script,
        code.hex() if code is not None else "-",
        tmpfs or "-",
        *import_paths,
    ]


def tmpfs_options(limits: ResourceLimits) -> str:
    """Mount options of a sandbox's /tmp and /dev/shm: mode, size and inode caps."""
    size = limits.file_size_mb * MB
    return f"mode=1777,size={size},nr_inodes={limits.max_tmp_files}"


def precompile(source: bytes, filename: str) -> bytes | None:
    """The script compiled here, marshalled, for the bootstrap to load; None to let it compile.

    Compiling is the same work inside or outside the sandbox, except that
    Python's first `compile()` call in a process builds the AST type table,
    about a millisecond of every sandboxed start. The orchestrator pays it
    once. The sandbox runs the same interpreter as the orchestrator (see
    `host.find_runtime`), so the marshalled code is valid there. A script that
    does not compile, or whose code would not fit in one argument, is left to
    the bootstrap, which reports the error from inside like any other.
    """
    try:
        code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    except (SyntaxError, ValueError):
        return None
    data = marshal.dumps(code)
    return data if 2 * len(data) <= MAX_CODE_ARG else None
