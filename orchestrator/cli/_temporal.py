"""The Temporal side of `run`, `resume`, `approve`, `runs` and `runs show` (`--backend temporal`).

Each command parses as it does for a local run, then calls one of the
functions below, which talk to Temporal through `orchestrator.temporal.client`
and print what the local command prints: the same progress display, summary,
JSON keys (`backend` added) and exit codes. The run's report is saved as
`<state-dir>/runs/<run_id>/report.md` beside the files the run's events name
(regenerated code, diffs, stderr), copied out of the workflow.

A short-lived process that used a Temporal client can crash in the SDK's
native code at interpreter exit (temporalio/sdk-python#300), so these commands
end with `os._exit` after flushing their output and exporting their last
spans, if telemetry is on (`exits_hard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from orchestrator.config import Settings

if TYPE_CHECKING:  # imported when used: `--help` and local runs never load temporalio
    from temporalio.client import Client

    from orchestrator.cli.run_view import RunFiles
    from orchestrator.plan.model import Plan
    from orchestrator.report.source import RunSource
    from orchestrator.temporal.client import TemporalRun
    from orchestrator.temporal.config import TemporalSettings

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

_USED = "skillweave.temporal_used"


def backend_option(f: F) -> F:
    return click.option(
        "--backend", type=click.Choice(["local", "temporal"]), default=None,
        help="Where the run executes: local (default, or $SKILLWEAVE_BACKEND) or temporal.",
    )(f)


def temporal_options(f: F) -> F:
    f = click.option("--blob-dir", type=click.Path(path_type=Path), default=None,
                     help="Folder for payloads too big for Temporal, shared by workers and clients "
                          "(default <state-dir>/blobs, or $SKILLWEAVE_BLOB_DIR).")(f)
    f = click.option("--task-queue", default=None, help="Temporal task queue ($SKILLWEAVE_TEMPORAL_TASK_QUEUE, skillweave).")(f)
    f = click.option("--namespace", default=None, help="Temporal namespace ($SKILLWEAVE_TEMPORAL_NAMESPACE, default).")(f)
    f = click.option("--temporal-address", default=None, metavar="HOST:PORT",
                     help="Temporal frontend ($SKILLWEAVE_TEMPORAL_ADDRESS, 127.0.0.1:7233).")(f)
    return f


def exits_hard(f: F) -> F:
    """When the command used a Temporal client, end the process with os._exit (see above)."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = f(*args, **kwargs)
            code = 0
        except SystemExit as exc:
            if not _meta().get(_USED):
                raise
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        else:
            if not _meta().get(_USED):
                return result
        from orchestrator import telemetry

        telemetry.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)

    return wrapper  # type: ignore[return-value]


def _meta() -> dict[str, Any]:
    ctx = click.get_current_context(silent=True)
    return ctx.meta if ctx is not None else {}


def settings_of(settings: Settings, address: str | None, namespace: str | None, task_queue: str | None,
                blob_dir: Path | None) -> TemporalSettings:
    from orchestrator.temporal.config import temporal_settings

    _meta()[_USED] = True
    return temporal_settings(settings.state_dir, address=address, namespace=namespace, task_queue=task_queue,
                             blob_dir=blob_dir)


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` in the caller's trace, when telemetry is on (the client's spans join it)."""
    from orchestrator import telemetry

    with telemetry.joined():
        return asyncio.run(coro)


def resume_hint(run_id: str) -> str:
    return f"skillweave resume {run_id} --backend temporal"


# -- run and resume ---------------------------------------------------------------


def run(
    plan: Plan, inputs: dict[str, Any], settings: Settings, ts: TemporalSettings, *, as_json: bool, no_wait: bool
) -> None:
    from orchestrator.cli._common import echo_json, note_run
    from orchestrator.temporal import client as tc

    async def go(display: Any) -> TemporalRun | str:
        client = await tc.connect(ts)
        run_id = await tc.start_run(client, ts, plan, inputs, settings)
        note_run(run_id)
        if no_wait:
            return run_id
        if not as_json:
            click.echo(f"run {run_id} started ({plan.name}) on Temporal, task queue {ts.task_queue}", err=True)
        return await _follow(client, run_id, plan, display)

    found = _with_display(plan, as_json, go)
    if isinstance(found, str):  # --no-wait: the run id
        if as_json:
            echo_json({"run_id": found, "backend": "temporal", "task_queue": ts.task_queue})
        else:
            click.echo(found)
        return
    _finish(found, settings, as_json)


def resume(run_id: str, settings: Settings, ts: TemporalSettings, *, as_json: bool) -> None:
    from orchestrator.cli._common import note_run
    from orchestrator.temporal import client as tc

    note_run(run_id)

    async def go(display: Any) -> TemporalRun:
        client = await tc.connect(ts)
        plan, seen, done = await tc.resume(client, ts, run_id)
        if done is not None:  # completed: nothing to follow
            return done
        return await _follow(client, run_id, plan, display, seen=seen)

    _finish(_with_display(None, as_json, go), settings, as_json)


async def _follow(client: Client, run_id: str, plan: Plan, display: Any, *, seen: int = 0) -> TemporalRun:
    """Follow the run; on Ctrl-C the run is cancelled on Temporal (resume continues it)."""
    from orchestrator.temporal import client as tc

    if isinstance(display, _Deferred):
        display = display.open(plan)
    try:
        return await tc.follow(client, run_id, plan, display, seen=seen)
    except asyncio.CancelledError:
        await tc.cancel(client, run_id)
        raise


class _Deferred:
    """A live table made once the plan is known (resume learns it from Temporal)."""

    def __init__(self) -> None:
        self.table: Any = None

    def open(self, plan: Plan) -> Any:
        from orchestrator.cli.run_view import LiveTable

        self.table = LiveTable(plan)
        self.table.__enter__()
        return self.table

    def close(self) -> None:
        if self.table is not None:
            self.table.__exit__(None, None, None)


def _with_display(plan: Plan | None, as_json: bool, go: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
    from orchestrator.cli._common import _RUN_ID
    from orchestrator.cli.run_view import PlainLog

    display: Any = None if as_json else (_Deferred() if sys.stderr.isatty() else PlainLog())
    try:
        return _run(go(display))
    except KeyboardInterrupt:
        run_id = _meta().get(_RUN_ID)
        if run_id is None:
            raise
        click.echo(f"interrupted: run {run_id} cancelled on Temporal; continue with: {resume_hint(run_id)}", err=True)
        sys.exit(130)
    finally:
        if isinstance(display, _Deferred):
            display.close()


def _finish(found: TemporalRun, settings: Settings, as_json: bool) -> None:
    from orchestrator.cli.run_cmd import finish_summary

    finish_summary(found.summary(), save_report(found, settings), as_json, backend="temporal")


def save_report(found: TemporalRun, settings: Settings) -> RunFiles:
    """The run's report and files, written under `<state-dir>/runs/<run_id>/`."""
    from orchestrator.cli.run_view import RunFiles
    from orchestrator.errors import SkillweaveError
    from orchestrator.journal.store import RUNS_DIR, write_file_atomically
    from orchestrator.report import render_report
    from orchestrator.report.detail import build_run_report

    run_dir = Path(settings.state_dir) / RUNS_DIR / found.run_id
    try:
        for relative, text in found.history.files.items():
            target = (run_dir / relative).resolve()
            if target.is_relative_to(run_dir.resolve()):
                write_file_atomically(target, text.encode())
        report = build_run_report(_source(found, run_dir))
        path = run_dir / "report.md"
        write_file_atomically(path, render_report(report, "md").encode())
    except (SkillweaveError, OSError) as exc:
        return RunFiles(run_dir, None, None, str(exc))
    return RunFiles(run_dir, report, path)


def _source(found: TemporalRun, run_dir: Path) -> RunSource:
    from orchestrator.report.source import RunSource

    return RunSource(run_id=found.run_id, plan=found.plan, state=found.state(), summary=found.summary(),
                     run_dir=run_dir)


# -- approve ----------------------------------------------------------------------


def approve(
    run_id: str, step: str, ts: TemporalSettings, *, reject: bool, comment: str | None, as_json: bool
) -> None:
    from orchestrator.cli._common import echo_json
    from orchestrator.temporal import client as tc

    async def go() -> None:
        client = await tc.connect(ts)
        await tc.approve(client, run_id, step, reject=reject, comment=comment, by=os.environ.get("USER") or "cli")

    _run(go())
    decision = "rejected" if reject else "approved"
    if as_json:
        echo_json({"run_id": run_id, "step": step, "approved": not reject, "comment": comment, "backend": "temporal"})
    else:
        click.echo(f"{decision} step {step} of run {run_id}; it goes on on Temporal (follow it with: {resume_hint(run_id)})")


# -- runs -------------------------------------------------------------------------


def history(ts: TemporalSettings, limit: int, as_json: bool) -> None:
    from orchestrator.report import History, render_history
    from orchestrator.report.metrics import history_metrics, listing
    from orchestrator.temporal import client as tc

    async def go() -> Any:
        return await tc.list_runs(await tc.connect(ts), limit, ts.task_queue)

    summaries = _run(go())
    found = History(
        state_dir=f"temporal://{ts.address}/{ts.namespace}/{ts.task_queue}", limit=limit,
        runs=tuple(listing(s) for s in summaries), metrics=history_metrics(summaries),
    )
    click.echo(render_history(found, "json" if as_json else "text"), nl=False)


def run_dir(settings: Settings, run_id: str) -> Path:
    """`<state-dir>/runs/<run_id>/`, made if missing (a run on Temporal has no journal folder here)."""
    from orchestrator.journal.store import RUNS_DIR

    found = Path(settings.state_dir) / RUNS_DIR / run_id
    found.mkdir(parents=True, exist_ok=True)
    return found


def show(run_id: str, settings: Settings, ts: TemporalSettings, fmt: str) -> str:
    """The report of a run on Temporal, rendered as `fmt`, from its workflow's history and queries."""
    from orchestrator.journal.store import RUNS_DIR
    from orchestrator.report import render_report
    from orchestrator.report.detail import build_run_report
    from orchestrator.temporal import client as tc

    async def go() -> Any:
        return await tc.read_run(await tc.connect(ts), run_id)

    found = _run(go())
    return render_report(build_run_report(_source(found, Path(settings.state_dir) / RUNS_DIR / run_id)), fmt)  # type: ignore[arg-type]
