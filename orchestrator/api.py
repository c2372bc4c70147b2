"""The Python API: compile a spec, look at its plan, run it, resume it, approve its gates,
read its runs. `orchestrator/__init__.py` exports it (docs/api.md).

    flow = Workflow.from_spec("workflow.md", state_dir=".skillweave")
    flow.plan                              # the reviewable Plan
    result = flow.run({"city": "Oslo"})   # RunResult; `await flow.arun(...)` in async code
    flow.approve(result.run_id, "publish")
    result = flow.resume(result.run_id)
    flow.runs()                            # the latest runs of the state directory

Errors are the tree of `orchestrator.errors`: a spec that does not compile raises
SpecError or PlanError carrying every diagnostic; bad inputs raise ConfigError; an
unknown run NotFoundError; a run that cannot be resumed ResumeError. A step that
fails does not raise: the run ends failed (or escalated) and the result says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from orchestrator.config import Settings, load_settings
from orchestrator.engine.model import RunEvent, RunSummary
from orchestrator.errors import Diagnostic, SkillweaveError, UserError
from orchestrator.plan.model import Plan
from orchestrator.runner import StepRunner

if TYPE_CHECKING:  # the report's models load with the report (`skillweave run` imports them in the background)
    from orchestrator.report.model import RunReport

T = TypeVar("T")
PathLike = str | Path


class RunResult(RunSummary):
    """A run's summary, and where its files are (absolute paths): what `Workflow.run`
    returns and `skillweave run --json` prints."""

    run_dir: str | None = None
    report: str | None = None  # the saved report (<run_dir>/report.md); null when it could not be written
    artifacts: tuple[str, ...] = ()  # files under <run_dir>/artifacts/, sorted
    backend: str = "local"  # where the run executed; in the JSON of runs on Temporal only ("temporal")
    spec_warnings: tuple[Diagnostic, ...] = ()  # the plan's warnings: where the spec may say more than ran

    @property
    def ok(self) -> bool:
        return self.status.value == "succeeded"


def settings_for(
    *,
    state_dir: PathLike | None = None,
    skills_dirs: tuple[PathLike, ...] | list[PathLike] = (),
    mcp_config: PathLike | None = None,
    llm_replay: PathLike | None = None,
    settings: Settings | None = None,
) -> Settings:
    """Settings from the arguments given, over the environment (SKILLWEAVE_*, ANTHROPIC_API_KEY)."""
    if settings is not None:
        return settings
    return load_settings(
        state_dir=Path(state_dir) if state_dir is not None else None,
        skills_dirs=tuple(Path(p) for p in skills_dirs) or None,
        mcp_config=Path(mcp_config) if mcp_config is not None else None,
        llm_replay=Path(llm_replay) if llm_replay is not None else None,
    )


def _sync(work: Callable[[], Coroutine[Any, Any, T]], instead: str) -> T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work())
    raise UserError(f"called from a running event loop: use `await {instead}` there")


def compile_spec(path: PathLike, settings: Settings | None = None) -> Plan:
    """The checked Plan of the spec at `path` (SpecError / PlanError with every diagnostic)."""
    from orchestrator.compile import compile_spec as compile_

    return compile_(Path(path), settings or load_settings())


def load_plan(path: PathLike) -> Plan:
    """A plan saved as JSON (`skillweave plan --format json`); ConfigError when it is not one."""
    from orchestrator.plan import load_plan as load

    return load(Path(path))


def result_of(summary: RunSummary, settings: Settings) -> RunResult:
    """The summary, with the run's report saved and its files listed."""
    from orchestrator.journal.store import RUNS_DIR
    from orchestrator.report import write_report

    run_dir = (Path(settings.state_dir) / RUNS_DIR / summary.run_id).absolute()
    try:
        built, path = write_report(summary.run_id, settings)
        report: str | None = str(path.absolute())
        warnings = built.spec_warnings
    except (SkillweaveError, OSError):
        report, warnings = None, ()
    folder = run_dir / "artifacts"
    artifacts = sorted(str(p) for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
    return RunResult(**summary.model_dump(), run_dir=str(run_dir), report=report, artifacts=tuple(artifacts),
                     spec_warnings=warnings)


class Workflow:
    """A compiled workflow and the state directory its runs are kept in."""

    def __init__(self, plan: Plan, settings: Settings | None = None) -> None:
        self._plan = plan
        self.settings = settings or load_settings()

    @classmethod
    def from_spec(
        cls,
        path: PathLike,
        *,
        skills_dirs: tuple[PathLike, ...] | list[PathLike] = (),
        state_dir: PathLike | None = None,
        mcp_config: PathLike | None = None,
        llm_replay: PathLike | None = None,
        settings: Settings | None = None,
    ) -> Workflow:
        """Compile the spec at `path` (a `.json` path is a saved plan). Raises SpecError or
        PlanError carrying every diagnostic (file:line) when it does not compile."""
        from orchestrator.compile import load_spec_or_plan

        chosen = settings_for(state_dir=state_dir, skills_dirs=skills_dirs, mcp_config=mcp_config,
                              llm_replay=llm_replay, settings=settings)
        return cls(load_spec_or_plan(Path(path), chosen), chosen)

    @property
    def plan(self) -> Plan:
        """The reviewable plan: steps bound to skills, dependencies, contracts, policies."""
        return self._plan

    async def arun(
        self,
        inputs: Mapping[str, Any] | None = None,
        *,
        runners: Mapping[str, StepRunner] | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
    ) -> RunResult:
        """Create a run of the plan with `inputs` and execute it until it finishes or pauses
        at an approval gate. ConfigError for inputs the plan does not take."""
        from orchestrator.engine import create_run, execute_run, journal_session

        with journal_session():
            run_id = create_run(self._plan, dict(inputs or {}), self.settings)
            summary = await execute_run(run_id, self.settings, runners=runners, on_event=on_event, plan=self._plan)
            return result_of(summary, self.settings)

    def run(self, inputs: Mapping[str, Any] | None = None, **options: Any) -> RunResult:
        """`arun`, for code that is not async."""
        return _sync(lambda: self.arun(inputs, **options), "Workflow.arun(...)")

    async def aresume(self, run_id: str, *, force: bool = False, **options: Any) -> RunResult:
        """Continue a paused or interrupted run. ResumeError when it finished, when another
        live process executes it, or when its spec or skills changed (unless `force`)."""
        from orchestrator.engine import execute_run, journal_session

        with journal_session():
            summary = await execute_run(run_id, self.settings, force=force, **options)
            return result_of(summary, self.settings)

    def resume(self, run_id: str, *, force: bool = False, **options: Any) -> RunResult:
        """`aresume`, for code that is not async."""
        return _sync(lambda: self.aresume(run_id, force=force, **options), "Workflow.aresume(...)")

    def approve(self, run_id: str, step: str, *, reject: bool = False, comment: str | None = None,
                by: str | None = None) -> None:
        """Decide a step waiting at its approval gate; `resume` then continues the run."""
        from orchestrator.engine import approve_step

        approve_step(run_id, step, self.settings, reject=reject, comment=comment, by=by)

    def get(self, run_id: str) -> RunSummary:
        """One run's summary, replayed from the journal (NotFoundError for an unknown run)."""
        from orchestrator.engine import get_run

        return get_run(run_id, self.settings)

    def runs(self, limit: int = 20) -> list[RunSummary]:
        """The latest runs of the state directory (of every workflow), newest first."""
        from orchestrator.engine import list_runs

        return list_runs(self.settings, limit)

    def report(self, run_id: str) -> RunReport:
        """One run's full report: metrics, every failed attempt, retries, regenerations, ..."""
        from orchestrator.report import build_report

        return build_report(run_id, self.settings)
