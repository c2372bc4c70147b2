"""`skillweave run`, `skillweave resume` and `skillweave approve`.

Exit codes: 0 the run succeeded, 1 it failed or escalated, 2 usage or spec
error, 3 it paused at an approval gate (the message says how to continue).
Progress goes to stderr (a live table on a terminal, one line per event
otherwise); the final summary goes to stdout. Whatever the ending (finished,
failed or paused) the run's report is saved as `<run_dir>/report.md`, and the
summary ends with where the run's files are: the report, the artifacts the
steps wrote, and each regeneration with its diff (cut short; the whole one is
in the report and the run directory).

`--json` prints one JSON document on stdout: the RunSummary with three more
keys, `run_dir`, `report` (the saved report, null if it could not be written)
and `artifacts` (absolute paths of the files under `<run_dir>/artifacts/`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from orchestrator.cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PAUSED,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    settings_from,
    skills_dir_option,
    state_dir_option,
)
from orchestrator.config import Settings
from orchestrator.engine.model import RunEvent, RunStatus, RunSummary, StepStatus
from orchestrator.errors import ConfigError, SkillweaveError
from orchestrator.plan.model import Plan

if TYPE_CHECKING:
    from orchestrator.report import RunReport

_EXIT_OF = {
    RunStatus.SUCCEEDED: EXIT_OK,
    RunStatus.PAUSED: EXIT_PAUSED,
    RunStatus.FAILED: EXIT_FAILED,
    RunStatus.ESCALATED: EXIT_FAILED,
    RunStatus.RUNNING: EXIT_FAILED,
    RunStatus.PENDING: EXIT_FAILED,
}
# events too frequent or too internal for the plain log
_QUIET = {"handoff_checked", "step_ready"}
DIFF_LINES = 40  # of each regeneration's diff in the summary
ARTIFACTS_LISTED = 20


def _llm_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--promote", is_flag=True, default=None, help="Write repaired scripts back into their skills.")(f)
    f = click.option("--llm-replay", type=click.Path(path_type=Path), help="Answer LLM calls from this recording.")(f)
    f = click.option("--llm-record", type=click.Path(path_type=Path), help="Record LLM calls to this file.")(f)
    f = click.option("--model", default=None, help="The LLM model for regeneration and llm steps.")(f)
    f = click.option(
        "--require-isolation", is_flag=True, default=None, help="Refuse to run scripts without a real sandbox."
    )(f)
    return f


# -- inputs -----------------------------------------------------------------------


def _schema_types(plan: Plan, name: str) -> set[str]:
    for spec in plan.inputs:
        if spec.name == name:
            kind = spec.schema_.get("type")
            if isinstance(kind, str):
                return {kind}
            if isinstance(kind, list):
                return {str(k) for k in kind}
    return set()


def parse_inputs(plan: Plan, pairs: tuple[str, ...], files: tuple[Path, ...]) -> dict[str, Any]:
    """`--input-file` documents, then `--input k=v` (JSON unless the input is a string)."""
    values: dict[str, Any] = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read input file: {exc.strerror}", where=str(path)) from exc
        try:
            if path.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                import yaml

                data = yaml.safe_load(text)
        except (ValueError, ImportError) as exc:
            raise ConfigError(f"not a JSON or YAML document: {exc}", where=str(path)) from exc
        except Exception as exc:  # yaml.YAMLError and friends: the user's file is broken
            raise ConfigError(f"not a JSON or YAML document: {exc}", where=str(path)) from exc
        if not isinstance(data, dict):
            raise ConfigError("an input file must hold a mapping of input names to values", where=str(path))
        values.update(data)
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise ConfigError(f"--input takes NAME=VALUE, got {pair!r}", where="--input")
        types = _schema_types(plan, name)
        if "string" in types:
            values[name] = raw
            continue
        try:
            values[name] = json.loads(raw)
        except ValueError:
            values[name] = raw  # the contract check names what was expected
    return values


def load_plan_file(path: Path, settings: Settings) -> Plan:
    """A saved plan (.json) or a spec compiled on the fly."""
    try:
        from orchestrator.plan import load_spec_or_plan
    except ImportError:
        load_spec_or_plan = None  # type: ignore[assignment]
    if load_spec_or_plan is not None:
        return load_spec_or_plan(path, settings)
    if path.suffix != ".json":
        raise ConfigError("compiling specs is not available in this build; pass a plan .json", where=str(path))
    from pydantic import ValidationError

    try:
        return Plan.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError) as exc:
        raise ConfigError(f"not a plan: {exc}", where=str(path)) from exc


# -- progress ---------------------------------------------------------------------


class PlainLog:
    """One line per event on stderr, for logs and CI."""

    def __init__(self, stream: Any = None) -> None:
        self._stream = stream or sys.stderr

    def __call__(self, event: RunEvent) -> None:
        if event.type in _QUIET:
            return
        where = event.step or ""
        if event.item is not None:
            where += f"[{event.item}]"
        if event.attempt is not None:
            where += f"#{event.attempt}"
        stamp = time.strftime("%H:%M:%S", time.localtime(event.ts))
        message = f" {event.message}" if event.message else ""
        print(f"{stamp} {event.type:<24} {where}{message}", file=self._stream, flush=True)


class LiveTable:
    """A live table of steps (status, attempts, retries) on a terminal."""

    def __init__(self, plan: Plan) -> None:
        from rich.console import Console
        from rich.live import Live

        self._rows: dict[str, dict[str, Any]] = {
            s.id: {"status": "pending", "attempts": 0, "retries": 0, "note": ""} for s in plan.steps
        }
        self._live = Live(self._table(), console=Console(stderr=True), refresh_per_second=8, transient=False)

    def __enter__(self) -> LiveTable:
        self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._live.update(self._table())
        self._live.__exit__(None, None, None)

    def _table(self) -> Any:
        from rich.table import Table

        table = Table(box=None, pad_edge=False)
        for col in ("step", "status", "attempts", "retries", ""):
            table.add_column(col)
        for sid, row in self._rows.items():
            table.add_row(sid, row["status"], str(row["attempts"]), str(row["retries"]), row["note"][:70])
        return table

    def __call__(self, event: RunEvent) -> None:
        if event.type == "run_finished" and event.status != "succeeded":
            for other in self._rows.values():
                if other["status"] in ("pending", "ready", "awaiting approval"):
                    other["status"] = "not run"
            self._live.update(self._table())
            return
        row = self._rows.get(event.step or "")
        if row is None:
            return
        status = {
            "step_ready": "ready",
            "attempt_started": "running",
            "approval_requested": "awaiting approval",
            "step_skipped": "skipped",
        }.get(event.type)
        if event.type == "attempt_started":
            row["attempts"] += 1
        elif event.type == "retry_scheduled":
            row["retries"] += 1
        elif event.type == "step_finished":
            status = event.status or "finished"
        noted = event.type in ("attempt_failed", "retry_scheduled", "regeneration", "fallback_used", "step_skipped")
        if noted or (event.type == "step_finished" and event.message != event.status):
            row["note"] = event.message
        if status:
            row["status"] = status
        self._live.update(self._table())


# -- the summary ------------------------------------------------------------------


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def render_summary(summary: RunSummary) -> str:
    t = summary.totals
    lines = [
        f"run {summary.run_id}  {summary.status.value}  ({summary.plan_name})",
        f"  {t.steps} steps: {t.succeeded} with output, {t.failed} failed, {t.skipped} skipped; "
        f"{t.attempts} attempts, {t.retries} retries, {t.regenerations} regenerations; "
        f"handoffs {t.handoff_passed} passed, {t.handoff_failed} failed; {t.tokens.total} LLM tokens",
    ]
    width = max((len(s.step_id) for s in summary.steps), default=4)
    for s in summary.steps:
        note = s.message.splitlines()[0][:80] if s.message else ""
        if s.fallback:
            note = f"fallback {s.fallback}" + (f": {note}" if note else "")
        items = f" items {s.items_done}/{s.items}" if s.items is not None else ""
        lines.append(
            f"  {s.step_id:<{width}}  {s.status.value:<17} attempts {s.attempts:<2} retries {s.retries:<2} "
            f"regen {s.regenerations:<2} {_seconds(s.duration_s):>8}{items}  {note}".rstrip()
        )
    if summary.error is not None:
        where = f"{summary.error.where}: " if summary.error.where else ""
        limit = f" [limit {summary.error.limit}]" if summary.error.limit else ""
        lines.append(f"error: {where}{summary.error.message}{limit}")
    lines.extend(f"compensation {c}" for c in summary.compensations)
    lines.extend(summary.notes)
    if summary.status is RunStatus.PAUSED:
        for step in summary.awaiting:
            lines.append(f"paused: step {step} awaiting approval. To continue:")
            lines.append(f"  skillweave approve {summary.run_id} {step}    (or --reject)")
        lines.append(f"  skillweave resume {summary.run_id}")
    elif summary.status is RunStatus.RUNNING:
        lines.append(f"interrupted; continue with: skillweave resume {summary.run_id}")
    return "\n".join(lines)


def _final_outputs(summary: RunSummary) -> str:
    done = [s for s in summary.steps if s.status in (StepStatus.SUCCEEDED, StepStatus.DEFAULTED)]
    if not done:
        return ""
    last = done[-1].step_id
    text = json.dumps(summary.outputs.get(last), indent=2, ensure_ascii=False, default=str)
    if len(text) > 2000:
        text = text[:2000] + "\n..."
    return f"output of {last}:\n{text}"


class RunResult(RunSummary):
    """`skillweave run --json`: the RunSummary, and where the run's files are (absolute paths)."""

    run_dir: str | None = None
    report: str | None = None  # the saved report; null when it could not be written
    artifacts: tuple[str, ...] = ()  # files under <run_dir>/artifacts/, sorted


class RunFiles:
    """Where a run's files are, and its report (when it could be built)."""

    def __init__(self, run_dir: Path, report: RunReport | None, report_path: Path | None, problem: str = "") -> None:
        self.run_dir = run_dir
        self.report = report
        self.report_path = report_path
        self.problem = problem  # why the report could not be written
        folder = run_dir / "artifacts"
        self.artifacts = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def save_report(run_id: str, settings: Settings) -> RunFiles:
    """Write `<run_dir>/report.md`; a failure to do so is reported, never fatal to the run's exit code."""
    from orchestrator.journal.store import RUNS_DIR
    from orchestrator.report import write_report

    run_dir = Path(settings.state_dir) / RUNS_DIR / run_id
    try:
        report, path = write_report(run_id, settings)
    except SkillweaveError as exc:
        return RunFiles(run_dir, None, None, exc.render())
    except Exception as exc:  # the CLI edge: a report that cannot be written must not hide the run's result
        return RunFiles(run_dir, None, None, f"{type(exc).__name__}: {exc}")
    return RunFiles(path.parent, report, path)


def shown(path: Path) -> str:
    """`path` relative to the working directory when it is below it, else absolute."""
    absolute = path.absolute()
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def _short_diff(diff: str, limit: int = DIFF_LINES) -> list[str]:
    lines = diff.rstrip("\n").splitlines()
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... {len(lines) - limit} more lines"]


def render_regenerations(report: RunReport, run_dir: Path) -> list[str]:
    """Each regeneration: what failed, then the new version's diff (short), or why there is none."""
    lines: list[str] = []
    for step in report.steps:
        failures = {(f.item, f.attempt): f for f in step.failed_attempts}
        for g in step.regenerations:
            where = step.step_id + (f"[{g.item}]" if g.item is not None else "")
            failed = failures.get((g.item, g.attempt))
            cause = "the validator's findings" if g.feedback else (failed.message if failed is not None else "a failure")
            after = f" after attempt {g.attempt}" if g.attempt else ""
            if g.code_path is None:
                why = (g.rejected or "no reason given").strip().splitlines()[0]
                lines.append(f"regeneration of {where}{after} refused: {why}")
                continue
            lines.append(f"regeneration of {where}{after} ({cause}): new version {shown(run_dir / g.code_path)}")
            lines.extend(f"  {line}".rstrip() for line in _short_diff(g.diff))
        reason = step.regeneration_unavailable
        if reason and not step.regenerations:
            said = reason if reason.startswith("regeneration") else f"regeneration is unavailable: {reason}"
            lines.append(f"{step.step_id}: {said}")
    return lines


def render_files(files: RunFiles) -> list[str]:
    """Where the report and the artifacts are."""
    lines: list[str] = []
    if files.report_path is not None:
        lines.append(f"report:    {shown(files.report_path)}")
    else:
        lines.append(f"report:    not written ({files.problem})")
    for path in files.artifacts[:ARTIFACTS_LISTED]:
        lines.append(f"artifacts: {shown(path)}")
    if len(files.artifacts) > ARTIFACTS_LISTED:
        more = len(files.artifacts) - ARTIFACTS_LISTED
        lines.append(f"artifacts: ... {more} more in {shown(files.run_dir / 'artifacts')}")
    return lines


def _finish(summary: RunSummary, as_json: bool, settings: Settings) -> None:
    files = save_report(summary.run_id, settings)
    if as_json:
        echo_json(
            RunResult(
                **summary.model_dump(),
                run_dir=str(files.run_dir.absolute()),
                report=str(files.report_path.absolute()) if files.report_path is not None else None,
                artifacts=tuple(str(p.absolute()) for p in files.artifacts),
            )
        )
    else:
        click.echo(render_summary(summary))
        if files.report is not None:
            for line in render_regenerations(files.report, files.run_dir):
                click.echo(line)
        if summary.status is RunStatus.SUCCEEDED:
            outputs = _final_outputs(summary)
            if outputs:
                click.echo(outputs)
        click.echo("\n".join(render_files(files)))
    sys.exit(_EXIT_OF.get(summary.status, EXIT_FAILED))


def _execute(run_id: str, settings: Settings, plan: Plan, *, force: bool = False) -> RunSummary:
    from orchestrator.engine import execute_run

    if sys.stderr.isatty():
        with LiveTable(plan) as table:
            return asyncio.run(execute_run(run_id, settings, on_event=table, force=force))
    return asyncio.run(execute_run(run_id, settings, on_event=PlainLog(), force=force))


# -- commands ---------------------------------------------------------------------


@click.command(name="run")
@click.argument("spec_or_plan", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--input", "-i", "pairs", multiple=True, metavar="NAME=VALUE", help="A workflow input (repeatable).")
@click.option("--input-file", "input_files", multiple=True, type=click.Path(path_type=Path), help="Inputs as JSON or YAML.")
@click.option("--mcp-config", type=click.Path(path_type=Path), default=None, help="The mcp.json to use.")
@json_option
@state_dir_option
@skills_dir_option
@_llm_options
@debug_option
@handle_errors
def run(
    spec_or_plan: Path,
    pairs: tuple[str, ...],
    input_files: tuple[Path, ...],
    mcp_config: Path | None,
    as_json: bool,
    state_dir: Path | None,
    skills_dirs: tuple[Path, ...],
    require_isolation: bool | None,
    model: str | None,
    llm_record: Path | None,
    llm_replay: Path | None,
    promote: bool | None,
    debug: bool,
) -> None:
    """Compile SPEC_OR_PLAN if needed, execute it durably and print the report.

    Exit 0 when the run succeeded, 1 when it failed, 2 on a usage or spec error,
    3 when it paused at an approval gate.
    """
    from orchestrator.engine import create_run

    settings = settings_from(
        state_dir=state_dir,
        skills_dirs=skills_dirs or None,
        mcp_config=mcp_config,
        require_isolation=require_isolation,
        model=model,
        llm_record=llm_record,
        llm_replay=llm_replay,
        promote=promote,
        debug=debug or None,
    )
    plan = load_plan_file(spec_or_plan, settings)
    inputs = parse_inputs(plan, pairs, input_files)
    run_id = create_run(plan, inputs, settings)
    if not as_json:
        click.echo(f"run {run_id} started ({plan.name})", err=True)
    _finish(_execute(run_id, settings, plan), as_json, settings)


@click.command(name="resume")
@click.argument("run_id")
@click.option("--force", is_flag=True, help="Resume even if the spec or a skill changed, or another process holds it.")
@click.option("--mcp-config", type=click.Path(path_type=Path), default=None, help="The mcp.json (default: the run's).")
@json_option
@state_dir_option
@_llm_options
@debug_option
@handle_errors
def resume(
    run_id: str,
    force: bool,
    mcp_config: Path | None,
    as_json: bool,
    state_dir: Path | None,
    require_isolation: bool | None,
    model: str | None,
    llm_record: Path | None,
    llm_replay: Path | None,
    promote: bool | None,
    debug: bool,
) -> None:
    """Continue a paused or interrupted run from its journal.

    Completed steps are not run again; attempts cut short run again as new attempts.
    """
    from orchestrator.engine import replay_run

    settings = settings_from(
        state_dir=state_dir,
        mcp_config=mcp_config,
        require_isolation=require_isolation,
        model=model,
        llm_record=llm_record,
        llm_replay=llm_replay,
        promote=promote,
        debug=debug or None,
    )
    plan = replay_run(run_id, settings).plan
    _finish(_execute(run_id, settings, plan, force=force), as_json, settings)


@click.command(name="approve")
@click.argument("run_id")
@click.argument("step")
@click.option("--reject", is_flag=True, help="Reject instead: the step fails with its fallback.")
@click.option("--comment", default=None, help="Why; kept in the journal.")
@json_option
@state_dir_option
@debug_option
@handle_errors
def approve(
    run_id: str, step: str, reject: bool, comment: str | None, as_json: bool, state_dir: Path | None, debug: bool
) -> None:
    """Approve (or --reject) STEP of RUN_ID, which is waiting at its gate; then `skillweave resume`."""
    from orchestrator.engine import approve_step

    settings = settings_from(state_dir=state_dir, debug=debug or None)
    approve_step(run_id, step, settings, reject=reject, comment=comment)
    decision = "rejected" if reject else "approved"
    if as_json:
        echo_json({"run_id": run_id, "step": step, "approved": not reject, "comment": comment})
    else:
        click.echo(f"{decision} step {step} of run {run_id}; continue with: skillweave resume {run_id}")
