"""The `script` runner: a skill's Python script, run in the sandbox, JSON in and out.

The script reads its input as one JSON document on stdin and writes its output
as one JSON document on stdout. Conventions a script can rely on:

- `SKILLWEAVE_IDEMPOTENCY_KEY` (run:step:attempt[:item]) in its environment, to
  make side effects idempotent across retries, with `SKILLWEAVE_RUN_ID`,
  `SKILLWEAVE_STEP_ID`, `SKILLWEAVE_ATTEMPT` and, in a `for each`,
  `SKILLWEAVE_ITEM`. With telemetry on (`orchestrator.telemetry`), `TRACEPARENT`
  (and `TRACESTATE`) carry the W3C context of the attempt's sandbox span, so
  the script can continue the run's trace.
- **Exit code 2 means "invalid input"**: the engine fails the step fast, without
  retry or regeneration. Any other non-zero exit, an exception, or stdout that is
  not one JSON document is a code error (regenerated while the budget lasts).

How sandbox failures are classified:

    code_error (exit != 0, != 2) → CODE_ERROR    exit 2          → INVALID_INPUT
    output_contract              → CODE_ERROR    timeout         → TIMEOUT
    resource_limit               → CODE_ERROR    setup           → UNRECOVERABLE

A regenerated version (`StepRequest.script_override`) runs instead of the skill's
entry, with the skill folder still mounted for its data files. A skill with no
script at all fails as a code error (`missing_code`), so the regenerator writes
its first version.

A path workflow input (`format: path`, `(path)` in a spec) the step takes whole
(`StepRequest.paths`) is mounted read-only: a folder at `/inputs/<field>`, a file
at `/inputs/<field>/<name>`, and the script's input holds that path instead of the
host's. Nothing else of the host shows (bwrap; unshare and none refuse mounts).

Files a script writes in its working directory are its artifacts (all of them,
or the ones its output lists under `artifacts`): they are copied to
`<run_dir>/artifacts/<step>/` (`.../<step>/<item>/` in a `for each`), emptied
before each attempt so that it holds the latest attempt's files, and listed in
`StepOutcome.artifacts` (paths relative to that folder; `meta["artifact_dir"]`
names the folder relative to the run directory). A compensation
(`StepRequest.compensation`) starts with its step's files in its working
directory, and what it leaves there replaces them when it succeeds; a failed
one changes nothing. A full disk while the artifacts are copied (the run
directory's disk) is raised as the `OSError`: the engine stops the run, which
`resume` continues once there is space; no truncated copy is listed.
"""

from __future__ import annotations

import shutil
from collections.abc import Collection
from pathlib import Path
from typing import Any

from orchestrator import telemetry
from orchestrator.errors import IsolationError
from orchestrator.kinds import BoundSkill
from orchestrator.policy import ErrorClass
from orchestrator.runner import Artifact, RunnerContext, StepFailure, StepOutcome, StepRequest
from orchestrator.sandbox.model import (
    MOUNT_ROOT,
    FailureKind,
    Isolation,
    ReadOnlyMount,
    ResourceLimits,
    SandboxRequest,
    SandboxResult,
)

INVALID_INPUT_EXIT = 2

_CLASS_OF: dict[FailureKind, ErrorClass] = {
    FailureKind.CODE_ERROR: ErrorClass.CODE_ERROR,
    FailureKind.OUTPUT_CONTRACT: ErrorClass.CODE_ERROR,
    FailureKind.TIMEOUT: ErrorClass.TIMEOUT,
    FailureKind.RESOURCE_LIMIT: ErrorClass.CODE_ERROR,
    FailureKind.SETUP: ErrorClass.UNRECOVERABLE,
}


def classify(result: SandboxResult) -> StepFailure | None:
    """The step failure a sandbox result stands for (None when it succeeded)."""
    failure = result.failure
    if failure is None:
        return None
    error_class = _CLASS_OF[failure.kind]
    kind = failure.kind.value
    message = failure.message
    if failure.kind is FailureKind.CODE_ERROR and result.exit_code == INVALID_INPUT_EXIT:
        error_class = ErrorClass.INVALID_INPUT
        kind = "invalid_input"
        message = f"the script refused its input (exit {INVALID_INPUT_EXIT}): {_last_line(result.stderr_tail) or message}"
    elif failure.kind is FailureKind.CODE_ERROR:
        last = _last_line(result.stderr_tail)
        if last and last not in message:
            message = f"{message}: {last}"
    return StepFailure(error_class=error_class, message=message, detail=result.stderr_tail, kind=kind)


def artifact_dir(request: StepRequest) -> str | None:
    """Where an attempt's artifacts are kept, relative to the run directory (None: no run directory)."""
    if request.run_dir is None:
        return None
    folder = f"artifacts/{request.step_id}"
    return folder if request.item_index is None else f"{folder}/{request.item_index}"


def _fresh(folder: Path) -> Path:
    """`folder`, emptied of an earlier attempt's files."""
    if folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _settle_compensation(staging: Path, step_files: Path, *, succeeded: bool) -> None:
    """What a successful compensation left becomes its step's files; a failed one leaves them be."""
    if succeeded:
        if step_files.is_dir() and not step_files.is_symlink():
            shutil.rmtree(step_files)
        staging.rename(step_files)
    else:
        shutil.rmtree(staging, ignore_errors=True)


def shown_paths(payload: Any, fields: tuple[str, ...]) -> tuple[Any, tuple[ReadOnlyMount, ...]]:
    """The input with each path field's host path replaced by where the script sees it, read-only:
    a folder at `/inputs/<field>`, a file at `/inputs/<field>/<its name>`; and the mounts."""
    if not fields or not isinstance(payload, dict):
        return payload, ()
    shown = dict(payload)
    mounts: list[ReadOnlyMount] = []
    for name in fields:
        value = shown.get(name)
        if not isinstance(value, str) or not value:
            continue
        host = Path(value)
        target = f"{MOUNT_ROOT}/{name}" if host.is_dir() else f"{MOUNT_ROOT}/{name}/{host.name}"
        mounts.append(ReadOnlyMount(source=host, target=target))
        shown[name] = target
    return shown, tuple(mounts)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


class ScriptRunner:
    kind = "script"

    def __init__(self, sandbox: Any, limits: ResourceLimits | None = None) -> None:
        self._sandbox = sandbox
        self._limits = limits or ResourceLimits()

    def contained(self, skill: BoundSkill) -> bool:
        """An attempt under bwrap without network can change nothing outside its run:
        its runtime and skill folder are read-only, it writes only its own fresh work
        and artifact folders, and it has no network (a Unix socket file in the runtime
        or the skill folder is the one way out; the README says to keep none there).
        The engine need not make its start durable first (see
        `orchestrator.engine.attempt.contained`)."""
        return not skill.network and self._sandbox.isolation is Isolation.BWRAP

    async def run(self, request: StepRequest) -> StepOutcome:
        skill = request.skill
        entry = skill.entry or (request.script_override.name if request.script_override else None)
        if request.script_override is None and (not entry or not (Path(skill.path) / entry).is_file()):
            return StepOutcome(
                failure=StepFailure(
                    error_class=ErrorClass.CODE_ERROR,
                    message=f"skill {skill.name} has no script yet ({entry or 'no skillweave.entry'})",
                    kind="missing_code",
                )
            )
        assert entry is not None
        env = {
            "SKILLWEAVE_IDEMPOTENCY_KEY": request.idempotency_key,
            "SKILLWEAVE_RUN_ID": request.run_id,
            "SKILLWEAVE_STEP_ID": request.step_id,
            "SKILLWEAVE_ATTEMPT": str(request.attempt),
        }
        if request.item_index is not None:
            env["SKILLWEAVE_ITEM"] = str(request.item_index)
        limits = self._limits
        if request.timeout_s is not None and request.timeout_s > 0:
            limits = limits.merged(wall_s=request.timeout_s, cpu_s=max(1, int(request.timeout_s) + 1))
        kept = artifact_dir(request)
        step_files = staging = None
        if request.compensation and request.run_dir is not None and kept is not None:
            # a compensation works on its step's files: they are its work directory, and what
            # it leaves there replaces them once it succeeds (a failed one changes nothing)
            step_files = request.run_dir / kept
            staging = _fresh(request.run_dir / f"{kept}.compensation")
        payload, mounts = shown_paths(request.input, request.paths)
        sandbox_request = SandboxRequest(
            skill_dir=Path(skill.path),
            entry=entry,
            script=request.script_override,
            input=payload,
            mounts=mounts,
            limits=limits,
            network=skill.network,
            env=env,
            workdir_parent=(request.run_dir / "work") if request.run_dir else None,
            artifact_dir=staging or (_fresh(request.run_dir / kept) if request.run_dir and kept else None),
            seed_dir=step_files,
        )
        result: SandboxResult | None = None
        try:
            result = await self._sandboxed(sandbox_request, skill)
        except IsolationError as exc:
            return StepOutcome(
                failure=StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=exc.render(), kind="isolation")
            )
        finally:
            if staging is not None and step_files is not None:
                _settle_compensation(staging, step_files, succeeded=result is not None and result.ok)
        meta = {"isolation": result.isolation.value}
        if result.exit_code is not None:
            meta["exit_code"] = str(result.exit_code)
        if kept is not None and result.artifacts:
            meta["artifact_dir"] = kept
        return StepOutcome(
            output=result.output,
            failure=classify(result),
            stderr_tail=result.stderr_tail,
            duration_s=result.duration_s,
            artifacts=tuple(Artifact(path=a.path, size=a.size, sha256=a.sha256) for a in result.artifacts),
            meta=meta,
        )

    async def _sandboxed(self, request: SandboxRequest, skill: BoundSkill) -> SandboxResult:
        """The sandbox run, in its own span whose context the script gets as TRACEPARENT."""
        with telemetry.span(f"sandbox {skill.name}", {"skillweave.skill.name": skill.name,
                                                      "skillweave.sandbox.network": skill.network}) as traced:
            context = telemetry.environment()
            if context:
                request = request.model_copy(update={"env": {**request.env, **context}})
            result: SandboxResult = await self._sandbox.run(request)
            traced.set({"skillweave.sandbox.isolation": result.isolation.value, "process.exit.code": result.exit_code,
                        "skillweave.sandbox.duration_s": result.duration_s})
            if result.failure is not None:
                traced.fail(result.failure.kind.value, result.failure.message)
            return result

    def prepare(self, steps: Collection[str]) -> None:
        """As the run starts (the kind's `prepared_at_start`): the sandbox probes the host in
        the background, while the first steps go, instead of on the first attempt."""
        choose_soon = getattr(self._sandbox, "choose_soon", None)
        if callable(choose_soon):
            choose_soon()

    async def aclose(self) -> None:
        return None


def create_runner(ctx: RunnerContext) -> ScriptRunner:
    """The run's script runner. Sandboxes an earlier, killed process of this run left
    behind are reaped first (only one process executes a run at a time)."""
    from orchestrator.sandbox import Sandbox, reap_leftovers

    reap_leftovers(ctx.run_dir / "work", ctx.run_id)
    return ScriptRunner(Sandbox(require_isolation=ctx.settings.require_isolation))
