"""The sandbox's public data: what to run, under which limits, and what came of it."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

MOUNT_ROOT = "/inputs"  # where a request's read-only mounts go, inside the sandbox


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Isolation(StrEnum):
    BWRAP = "bwrap"
    UNSHARE = "unshare"
    NONE = "none"


class ResourceLimits(_Frozen):
    """Per-attempt limits. Each may be overridden per skill and per step."""

    wall_s: float = Field(default=60.0, gt=0)
    cpu_s: int = Field(default=60, ge=1)
    # address space of each process (RLIMIT_AS), not of the attempt's whole tree:
    # a script may use up to max_procs x memory_mb in all (see the sandbox docs)
    memory_mb: int = Field(default=1024, ge=16)
    file_size_mb: int = Field(default=64, ge=1)  # each file (RLIMIT_FSIZE); /tmp's tmpfs too
    work_dir_mb: int = Field(default=512, ge=1)  # all files in the work directory together
    # files and folders in each of the sandbox's tmpfs /tmp and /dev/shm (their inodes: an
    # empty folder costs no size, but each pins ~1 KB of the kernel's memory)
    max_tmp_files: int = Field(default=8192, ge=16)
    max_procs: int = Field(default=64, ge=1)
    max_open_files: int = Field(default=256, ge=16)
    max_stdout_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    # objects and arrays in the output document: parsed, each costs the orchestrator
    # 60-250 bytes, so 16 MB of `{}` alone would take it ~1 GB
    max_output_containers: int = Field(default=500_000, ge=1)
    max_stderr_bytes: int = Field(default=1024 * 1024, ge=1024)
    stderr_tail_bytes: int = Field(default=8 * 1024, ge=256)
    max_artifact_bytes: int = Field(default=64 * 1024 * 1024, ge=0)

    def merged(self, **overrides: Any) -> ResourceLimits:
        return self.model_copy(update={k: v for k, v in overrides.items() if v is not None})


class FailureKind(StrEnum):
    CODE_ERROR = "code_error"  # exception or non-zero exit
    TIMEOUT = "timeout"  # wall clock
    RESOURCE_LIMIT = "resource_limit"  # CPU, memory, file size, work dir, processes, output cap
    OUTPUT_CONTRACT = "output_contract"  # stdout is not exactly one JSON document
    SETUP = "setup"  # the sandbox itself could not start


class SandboxFailure(_Frozen):
    kind: FailureKind
    message: str  # one line for people


class ResourceUsage(_Frozen):
    cpu_s: float = 0.0
    max_rss_kb: int = 0


class SandboxArtifact(_Frozen):
    path: str  # relative to the work directory
    size: int
    sha256: str


class ReadOnlyMount(_Frozen):
    """A host file or folder shown read-only to the script at `target`, under /inputs.

    Nothing else of the host becomes visible: only `source` (symlinks in it are
    resolved on the host side once, when the run starts). As root the script runs
    under an unprivileged uid: what it should read must be readable by others."""

    source: Path  # on the host
    target: str  # inside the sandbox: an absolute path below MOUNT_ROOT

    @field_validator("target")
    @classmethod
    def _below_the_root(cls, target: str) -> str:
        pure = PurePosixPath(target)
        root = PurePosixPath(MOUNT_ROOT)
        if (
            not pure.is_absolute()
            or str(pure) != target
            or ".." in pure.parts
            or root not in pure.parents
        ):
            raise ValueError(f"a read-only mount goes to a normalised path below {MOUNT_ROOT}/, not {target!r}")
        return target


class SandboxRequest(_Frozen):
    skill_dir: Path  # mounted read-only
    entry: str  # path of the script relative to skill_dir
    script: Path | None = None  # run this file instead of skill_dir/entry (a regenerated version)
    input: Any = None  # sent as JSON on stdin
    limits: ResourceLimits = ResourceLimits()
    network: bool = False
    env: dict[str, str] = Field(default_factory=dict)  # extra, non-secret variables
    keep_workdir: bool = False
    workdir_parent: Path | None = None  # where the per-attempt work directory is made
    artifact_dir: Path | None = None  # collected artifacts are copied here (relative paths kept)
    seed_dir: Path | None = None  # its files are copied into the work directory before the script starts
    # host files and folders shown read-only below /inputs (bwrap only: the unshare
    # fallback and none have no file-system isolation, and refuse a request with mounts)
    mounts: tuple[ReadOnlyMount, ...] = ()

    @field_validator("mounts")
    @classmethod
    def _apart(cls, mounts: tuple[ReadOnlyMount, ...]) -> tuple[ReadOnlyMount, ...]:
        targets = [PurePosixPath(m.target) for m in mounts]
        for i, target in enumerate(targets):
            for other in targets[i + 1 :]:
                if target == other or target in other.parents or other in target.parents:
                    raise ValueError(f"read-only mounts {target} and {other} overlap")
        return mounts


class SandboxResult(_Frozen):
    output: Any = None
    failure: SandboxFailure | None = None
    exit_code: int | None = None
    signal: int | None = None
    stdout_bytes: int = 0
    stderr_tail: str = ""
    duration_s: float = 0.0
    usage: ResourceUsage = ResourceUsage()
    isolation: Isolation
    artifacts: tuple[SandboxArtifact, ...] = ()
    workdir: Path | None = None  # kept only when asked
    notes: tuple[str, ...] = ()  # what people should know: weak isolation, skipped artifacts

    @property
    def ok(self) -> bool:
        return self.failure is None
