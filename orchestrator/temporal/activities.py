"""The activities a skillweave worker hosts: attempts, regenerations and probes, on local runners.

A worker keeps, per run it serves, what a local run keeps for its whole life:
a `RunnerContext` over the run's plan (read once from the workflow's input:
the run's LLM client, its MCP sessions, its mcp.json), the runners by
skill kind, the regenerator, and a run directory under the worker's
`--state-dir` (`runs/<run_id>/`) where scripts get their work directories and
artifacts, and where the regenerated code an attempt carries is written before
it runs. They are closed when the run has been idle for `IDLE_S` and when the
worker stops.

An attempt is made as the local backend makes it (`engine.attempt.call_runner`:
the runner boundary, the attempt's timeout) while the activity heartbeats every
few seconds with the attempt's progress (`{"step", "attempt", "elapsed_s"}`),
so Temporal sees a dead worker within the run's heartbeat timeout and runs the
attempt elsewhere under the same key. A skill whose folder (as the plan names
it) is not on this worker is looked up by name in the worker's own catalog
(bundled skills, `--skills-dir`, `SKILLWEAVE_SKILLS_PATH`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from temporalio import activity

from orchestrator.config import Settings
from orchestrator.engine.attempt import call_runner, outer_deadline
from orchestrator.engine.backend import RegenerationCall, RegenerationReply
from orchestrator.engine.runtime import RegeneratorSource, RunnerSet, UnavailableError
from orchestrator.engine.versions import make_version
from orchestrator.journal.store import RUNS_DIR, write_file_atomically
from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import Plan, SpecRef
from orchestrator.policy import ErrorClass
from orchestrator.runner import (
    Regenerator,
    RunnerContext,
    StepFailure,
    StepOutcome,
    StepRequest,
    StepRunner,
)
from orchestrator.temporal.messages import (
    ATTEMPT,
    PROBE,
    REGENERATE,
    AttemptTask,
    ProbeReply,
    ProbeTask,
    RegenerationTask,
    RunOptions,
)

IDLE_S = 300.0  # a run's runners are closed after this long without an activity
HEARTBEAT_EVERY_S = 2.0  # at most; a third of the heartbeat timeout when that is shorter


@dataclass
class _RunResources:
    ctx: RunnerContext
    runners: RunnerSet
    regenerators: RegeneratorSource
    run_dir: Path
    busy: int = 0
    last_used: float = field(default_factory=time.monotonic)


class WorkerRuntime:
    """The activities of one worker process, over the runs it serves."""

    def __init__(
        self, settings: Settings, *, runners: Mapping[str, StepRunner] | None = None,
        regenerator: Regenerator | None = None,
    ) -> None:
        """`runners` and `regenerator`, when given, serve every run (tests, as `execute_run` takes them)."""
        self.settings = settings
        self._given_runners = runners
        self._given_regenerator = regenerator
        self._runs: dict[str, _RunResources] = {}
        self._catalog: dict[str, Path] | None = None

    # -- per-run resources -----------------------------------------------

    def _settings_for(self, options: RunOptions) -> Settings:
        update: dict[str, object] = {}
        if options.mcp_config is not None:
            update["mcp_config"] = Path(options.mcp_config)
        if options.llm_replay is not None:
            update["llm_replay"] = Path(options.llm_replay)
        if options.llm_record is not None:
            update["llm_record"] = Path(options.llm_record)
        if options.model is not None:
            update["model"] = options.model
        if options.require_isolation is not None:
            update["require_isolation"] = options.require_isolation
        return self.settings.model_copy(update=update) if update else self.settings

    async def _resources(self, run_id: str, plan_name: str, options: RunOptions) -> _RunResources:
        found = self._runs.get(run_id)
        if found is None:
            plan = await _run_plan(run_id, plan_name)
            found = self._runs.get(run_id)  # another activity of the run may have made them meanwhile
        if found is None:
            run_dir = Path(self.settings.state_dir) / RUNS_DIR / run_id
            run_dir.mkdir(parents=True, exist_ok=True)
            ctx = RunnerContext(settings=self._settings_for(options), plan=plan, run_id=run_id, run_dir=run_dir)
            found = self._runs[run_id] = _RunResources(
                ctx, RunnerSet(ctx, self._given_runners), RegeneratorSource(ctx, self._given_regenerator), run_dir
            )
        found.last_used = time.monotonic()
        return found

    @contextlib.asynccontextmanager
    async def _using(self, run_id: str, plan_name: str, options: RunOptions) -> AsyncIterator[_RunResources]:
        res = await self._resources(run_id, plan_name, options)
        res.busy += 1
        try:
            yield res
        finally:
            res.busy -= 1
            res.last_used = time.monotonic()

    async def close_idle(self, idle_s: float = IDLE_S) -> None:
        now = time.monotonic()
        for run_id, res in list(self._runs.items()):
            if res.busy == 0 and now - res.last_used >= idle_s:
                del self._runs[run_id]
                await _close(res)

    async def aclose(self) -> None:
        runs, self._runs = list(self._runs.values()), {}
        for res in runs:
            await _close(res)

    def _local_skill(self, skill: BoundSkill) -> BoundSkill:
        """`skill` with its folder on this worker (the plan's, else the catalog's by name)."""
        if Path(skill.path).is_dir():
            return skill
        if self._catalog is None:
            from orchestrator.skills.catalog import load_catalog

            self._catalog = {s.name: s.path for s in load_catalog(self.settings)}
        folder = self._catalog.get(skill.name)
        return skill if folder is None else skill.model_copy(update={"path": str(folder)})

    # -- activities ------------------------------------------------------

    @activity.defn(name=PROBE)
    async def probe(self, task: ProbeTask) -> ProbeReply:
        async with self._using(task.run_id, task.plan_name, task.options) as res:
            try:
                if task.what == "regenerator":
                    res.regenerators.get()
                    return ProbeReply()
                res.runners.get(task.kind)  # made now, so a kind that cannot run says so
            except UnavailableError as exc:
                return ProbeReply(problem=str(exc))
            margin = outer_deadline(res.runners.traits(task.kind), 0.0)
            return ProbeReply(timeout_margin_s=margin or None)

    @activity.defn(name=ATTEMPT)
    async def attempt(self, task: AttemptTask) -> StepOutcome:
        given = task.request
        async with self._using(given.run_id, task.plan_name, task.options) as res:
            try:
                runner = res.runners.get(given.skill.kind)
            except UnavailableError as exc:
                failure = StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=str(exc), kind="no_runner")
                return StepOutcome(failure=failure)
            if task.code_path and task.code is not None:
                _materialize(res.run_dir, task.code_path, task.code)
            request = given.model_copy(update={
                "skill": self._local_skill(given.skill), "run_dir": res.run_dir,
                "script_override": res.run_dir / task.code_path if task.code_path else None,
            })
            heartbeat = asyncio.ensure_future(_heartbeat(request, task.options.heartbeat_timeout_s))
            try:
                return await call_runner(_real_sleep, runner, request, request.timeout_s,
                                         res.runners.traits(given.skill.kind))
            finally:
                heartbeat.cancel()

    @activity.defn(name=REGENERATE)
    async def regenerate(self, task: RegenerationTask) -> RegenerationReply:
        call = task.call
        async with self._using(task.run_id, task.plan_name, task.options) as res:
            if call.code_path and task.code is not None:
                _materialize(res.run_dir, call.code_path, task.code)
            try:
                regenerator = res.regenerators.get()
            except UnavailableError as exc:
                return RegenerationReply(unavailable=str(exc))
            local = _replace_skill(call, self._local_skill(call.skill))
            return await make_version(regenerator, local, task.run_id, res.run_dir, _writer(res.run_dir))


def _replace_skill(call: RegenerationCall, skill: BoundSkill) -> RegenerationCall:
    return call if skill is call.skill else dataclasses.replace(call, skill=skill)


async def _run_plan(run_id: str, plan_name: str) -> Plan:
    """The run's plan, read once per worker and run from the workflow's input: the runners read
    what it says of the run (its mcp.json, the spec's folder, limits, recovery rules)."""
    from orchestrator.temporal.client import run_input

    try:
        return (await run_input(activity.client().get_workflow_handle(run_id))).plan
    except Exception:
        return Plan(name=plan_name, spec=SpecRef(path="", sha256="", format="yaml"), steps=(), skills={})


def _materialize(run_dir: Path, relative: str, text: str) -> None:
    path = run_dir / relative
    data = text.encode()
    if not (path.is_file() and path.read_bytes() == data):
        write_file_atomically(path, data)


def _writer(run_dir: Path) -> Callable[[str, bytes], None]:
    def write(relative: str, data: bytes) -> None:
        write_file_atomically(run_dir / relative, data)

    return write


async def _real_sleep(seconds: float) -> None:
    await asyncio.sleep(max(0.0, seconds))


async def _heartbeat(request: StepRequest, timeout_s: float) -> None:
    """Tell Temporal the attempt is alive, and how far along it is, until cancelled."""
    started = time.monotonic()
    every = min(HEARTBEAT_EVERY_S, max(0.2, timeout_s / 3))
    while True:
        activity.heartbeat(
            {"step": request.step_id, "item": request.item_index, "attempt": request.attempt,
             "elapsed_s": round(time.monotonic() - started, 1)}
        )
        await asyncio.sleep(every)


async def _close(res: _RunResources) -> None:
    try:
        await res.runners.aclose()
    finally:
        await res.ctx.aclose()
