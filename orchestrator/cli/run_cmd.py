"""`skillweave run`, `skillweave resume` and `skillweave approve`.

Exit codes: 0 the run succeeded, 1 it failed or escalated, 2 usage or spec
error, 3 it paused at an approval gate (the message says how to continue),
130 interrupted by Ctrl-C (the message names the run and its `skillweave
resume` command): the run stops its steps and closes its sessions; a second
Ctrl-C, or a close still going 30 s later, stops the command at once
(`orchestrator.cli.interrupt`). When standard output is closed early (`| head`) the rest of
the summary is dropped quietly and the exit code is still the run's.
Progress goes to stderr (a live table on a terminal, one line per event
otherwise); the final summary goes to stdout. Whatever the ending (finished,
failed or paused) the run's report is saved as `<run_dir>/report.md`, and the
summary ends with where the run's files are: the report, the artifacts the
steps wrote, and each regeneration with its diff (cut short; the whole one is
in the report and the run directory).

`--otel` (or an exporter in the `OTEL_*` environment) exports the run's trace
and metrics over OpenTelemetry (`orchestrator.telemetry`); a resume continues
the run's trace.

`--json` prints one JSON document on stdout: the RunSummary with three more
keys, `run_dir`, `report` (the saved report, null if it could not be written)
and `artifacts` (absolute paths of the files under `<run_dir>/artifacts/`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from orchestrator import profiling
from orchestrator.api import RunResult
from orchestrator.cli import interrupt
from orchestrator.cli._common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PAUSED,
    check_mcp_config,
    check_sandbox_choice,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    note_run,
    quiet_broken_pipe,
    resume_command,
    settings_from,
    skills_dir_option,
    state_dir_option,
)
from orchestrator.cli._temporal import backend_option, exits_hard, temporal_options
from orchestrator.cli.run_view import (
    LiveTable,
    PlainLog,
    RunFiles,
    echo_summary,
    final_outputs,
    render_files,
    render_regenerations,
    save_report,
    spec_warnings_said,
)
from orchestrator.config import ENV_MAX_DATA_BYTES, Settings, file_caps
from orchestrator.engine.model import RunEvent, RunStatus, RunSummary
from orchestrator.errors import ConfigError, Severity, SpecError
from orchestrator.filecap import FileCapError, read_capped
from orchestrator.plan.model import Plan
from orchestrator.preload import preload, resume_gc

_EXIT_OF = {
    RunStatus.SUCCEEDED: EXIT_OK,
    RunStatus.DEGRADED: EXIT_OK,
    RunStatus.PAUSED: EXIT_PAUSED,
    RunStatus.FAILED: EXIT_FAILED,
    RunStatus.ESCALATED: EXIT_FAILED,
    RunStatus.RUNNING: EXIT_FAILED,
    RunStatus.PENDING: EXIT_FAILED,
}


def _llm_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--profile", is_flag=True, help="Print where the time went, on stderr (also SKILLWEAVE_PROFILE=1)."
    )(f)
    f = click.option(
        "--otel", is_flag=True, help="Export the run's trace and metrics over OpenTelemetry (OTLP; see OTEL_*)."
    )(f)
    f = click.option("--promote", is_flag=True, default=None, help="Write repaired scripts back into their skills.")(f)
    f = click.option("--llm-replay", type=click.Path(path_type=Path), help="Answer LLM calls from this recording.")(f)
    f = click.option("--llm-record", type=click.Path(path_type=Path), help="Record LLM calls to this file.")(f)
    f = click.option("--model", default=None, help="The LLM model for regeneration and llm steps.")(f)
    f = click.option(
        "--require-isolation", is_flag=True, default=None, help="Refuse to run scripts without a real sandbox."
    )(f)
    return f


def _run_settings(
    state_dir: Path | None,
    mcp_config: Path | None,
    require_isolation: bool | None,
    model: str | None,
    llm_record: Path | None,
    llm_replay: Path | None,
    promote: bool | None,
    debug: bool,
    *,
    skills_dirs: tuple[Path, ...] = (),
) -> Settings:
    """The settings of `run` and `resume`: their flags over the environment."""
    return settings_from(
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


def parse_inputs(plan: Plan, pairs: tuple[str, ...], files: tuple[Path, ...],
                 max_bytes: int | None = None) -> dict[str, Any]:
    """`--input-file` documents (regular files of at most `max_bytes`, by default the
    SKILLWEAVE_MAX_DATA_BYTES cap), then `--input k=v` (JSON unless the input is a string)."""
    values: dict[str, Any] = {}
    limit = file_caps().data_bytes if max_bytes is None else max_bytes
    for path in files:
        try:
            text = read_capped(path, limit, ENV_MAX_DATA_BYTES).decode("utf-8")
        except FileCapError as exc:
            raise ConfigError(f"the input file is {exc.strerror}", where=str(path)) from None
        except OSError as exc:
            raise ConfigError(f"cannot read input file: {exc.strerror}", where=str(path)) from exc
        except UnicodeDecodeError:
            raise ConfigError("not UTF-8 text", where=str(path)) from None
        try:
            if path.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                from orchestrator import yamlsafe

                data = yamlsafe.load(text)  # aliases and integers bounded
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
    """A saved plan (.json) or a spec compiled on the fly (or its plan from the compile cache,
    `orchestrator.compile_cache`, when nothing the compile reads has changed)."""
    from orchestrator.spec.json_kind import is_saved_plan

    if is_saved_plan(path):  # any other .json is a spec in JSON (`spec.json_kind`)
        from orchestrator.plan import load_plan

        return load_plan(path, settings.caps.data_bytes)  # chosen above: not `load_spec_or_plan`, which asks again
    from orchestrator.compile_cache import compile_cached

    return compile_cached(path, settings)


# -- progress ---------------------------------------------------------------------


def _check_files(settings: Settings) -> None:
    """Read the files a run would read late (--mcp-config, --llm-replay) before it starts,
    so that a broken one is a usage error rather than a failed step or a stuck run."""
    check_sandbox_choice()
    check_mcp_config(settings.mcp_config)
    if settings.llm_replay is not None:
        from orchestrator.llm.record import load_recording

        load_recording(settings.llm_replay, settings.caps.data_bytes)


def _telemetry(otel: bool) -> None:
    """--otel turns telemetry on; without it the OTEL_* environment decides (`orchestrator.telemetry`)."""
    if otel:
        from orchestrator import telemetry

        telemetry.enable(asked_by="--otel")


def _finish(summary: RunSummary, as_json: bool, settings: Settings) -> None:
    with profiling.span("report: save report.md, print the summary"):
        files = save_report(summary.run_id, settings)
        finish_summary(summary, files, as_json)


def finish_summary(summary: RunSummary, files: RunFiles, as_json: bool, *, backend: str = "local") -> None:
    """Print the run's result and exit with the run's code (whatever the backend)."""
    try:
        _print_result(summary, files, as_json, backend)
    except BrokenPipeError:  # `| head`: the run's outcome, not the pipe's, is the exit status
        quiet_broken_pipe()
    sys.exit(_EXIT_OF.get(summary.status, EXIT_FAILED))


def _print_result(summary: RunSummary, files: RunFiles, as_json: bool, backend: str = "local") -> None:
    if as_json:
        result = RunResult(
            **summary.model_dump(),
            run_dir=str(files.run_dir.absolute()),
            report=str(files.report_path.absolute()) if files.report_path is not None else None,
            artifacts=tuple(str(p.absolute()) for p in files.artifacts),
            backend=backend,
            spec_warnings=files.report.spec_warnings if files.report is not None else (),
        )
        # a local run's document keeps its shape; a run elsewhere says where (an added key)
        click.echo(result.model_dump_json(indent=2, by_alias=True, exclude={"backend"} if backend == "local" else None))
    else:
        echo_summary(summary, backend)
        if files.report is not None and files.report.spec_warnings:
            click.echo(spec_warnings_said(files.report))
        if files.report is not None:
            for line in render_regenerations(files.report, files.run_dir):
                click.echo(line)
        if summary.status.ok:
            outputs = final_outputs(summary)
            if outputs:
                click.echo(outputs)
        click.echo("\n".join(render_files(files)))


def _execute(run_id: str, settings: Settings, plan: Plan, *, force: bool = False) -> RunSummary:
    with profiling.span("execute: the run, from the engine's start to its end"):
        from orchestrator.engine import execute_run

        # the plan in hand spares decoding the journal's copy (execute_run checks it is the run's)
        interrupts = interrupt.Interrupts(_stopper(run_id))  # Ctrl-C ends it in bounded time
        if sys.stderr.isatty():
            with LiveTable(plan) as table:
                return interrupt.run(
                    execute_run(run_id, settings, on_event=_observed(table, plan), force=force, plan=plan),
                    interrupts,
                )
        return interrupt.run(
            execute_run(run_id, settings, on_event=_observed(PlainLog(), plan), force=force, plan=plan), interrupts
        )


def _stopper(run_id: str) -> Callable[[str], NoReturn]:
    """What stops the command at once (a second Ctrl-C, or a first one the run's end did not follow
    in time): the MCP client process killed, one line, exit 130; the journal is as a SIGKILL leaves it."""
    resume = resume_command(run_id)  # here: the click context is this thread's
    show_cursor = "\x1b[?25h\n" if sys.stderr.isatty() else ""  # the live table hid it

    def stop_now(why: str) -> NoReturn:
        from orchestrator.mcp_client import process

        process.kill_now()
        with contextlib.suppress(OSError):
            os.write(2, f"{show_cursor}{why}: run {run_id} stopped now; continue with: {resume}\n".encode())
        os._exit(EXIT_INTERRUPTED)

    return stop_now


def _observed(show: Callable[[RunEvent], None], plan: Plan) -> Callable[[RunEvent], None]:
    """`show`, and: once a sandboxed script starts (the process waits for it), the report's
    modules are imported in the background; with --profile, a span per step (its first
    attempt's start to its end)."""
    scripts = {s.id for s in plan.steps if plan.skills.get(s.skill) and plan.skills[s.skill].kind == "script"}
    started: dict[str, float] = {}
    timed = profiling.enabled()

    def on_event(event: RunEvent) -> None:
        if event.type == "attempt_started" and event.step in scripts:
            preload("orchestrator.report", "orchestrator.report.render_md")
        if timed and event.step is not None and event.item is None:
            # at the event's own time: a contained step's events may reach us together, when written
            at = time.perf_counter() - max(time.time() - event.ts, 0.0) if event.ts else time.perf_counter()
            if event.type == "attempt_started":
                started.setdefault(event.step, at)
            elif event.type == "step_finished" and event.step in started:
                profiling.add(f"step {event.step}: {event.status or 'finished'}", started.pop(event.step), at)
        show(event)

    return on_event


def _keep_mcp_process(plan: Plan, wanted: bool) -> None:
    """End the MCP client process the command started (`orchestrator.mcp_client.process`)
    when this process will open no MCP session (no `mcp` skill, another backend), or when
    telemetry is on: the SDK's own spans and the context it sends are this process's."""
    from orchestrator import telemetry

    if not wanted or telemetry.requested() is not None or not any(
        skill.kind == "mcp" for skill in plan.skills.values()
    ):
        from orchestrator.mcp_client import process

        process.discard()


def _start_profile(flag: bool) -> None:
    if flag:
        profiling.enable()
    profiling.since_first_import("CLI: imports, argument parsing")


# -- commands ---------------------------------------------------------------------


@click.command(name="run")
@click.argument("spec_or_plan", type=click.Path(path_type=Path))
@click.option("--strict", is_flag=True,
              help="Refuse to start when the plan has warnings (each an error, as `validate --strict`): exit 2.")
@click.option("--input", "-i", "pairs", multiple=True, metavar="NAME=VALUE", help="A workflow input (repeatable).")
@click.option("--input-file", "input_files", multiple=True, type=click.Path(path_type=Path), help="Inputs as JSON or YAML.")
@click.option("--mcp-config", type=click.Path(path_type=Path), default=None, help="The mcp.json to use.")
@json_option
@state_dir_option
@skills_dir_option
@_llm_options
@backend_option
@temporal_options
@click.option("--no-wait", is_flag=True, help="Temporal: print the run id and return; the workers run it.")
@debug_option
@exits_hard
@handle_errors
def run(
    spec_or_plan: Path,
    strict: bool,
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
    otel: bool,
    profile: bool,
    backend: str | None,
    temporal_address: str | None,
    namespace: str | None,
    task_queue: str | None,
    blob_dir: Path | None,
    no_wait: bool,
    debug: bool,
) -> None:
    """Compile SPEC_OR_PLAN if needed, execute it durably and print the report.

    Exit 0 when the run succeeded, 1 when it failed, 2 on a usage or spec error,
    3 when it paused at an approval gate; 130 when interrupted (the message says
    how to resume). A missing or broken --mcp-config or --llm-replay file is
    exit 2 before the run starts; so is, with --strict, a plan with warnings. With
    --backend temporal the run is one Temporal workflow (its id is the run id)
    executed by `skillweave worker` processes; this command follows it as it would
    a local run, or returns at once with --no-wait.
    """
    _start_profile(profile)
    with profiling.span("imports: the engine"):
        from orchestrator.engine import create_run, input_alias_notes, journal_session
        from orchestrator.temporal.config import backend_from

    with profiling.span("settings, --mcp-config, --llm-replay, the sandbox choice"):
        settings = _run_settings(
            state_dir, mcp_config, require_isolation, model, llm_record, llm_replay, promote, debug,
            skills_dirs=skills_dirs,
        )
        _check_files(settings)
        _telemetry(otel)
    with profiling.span("plan: compile the spec (or read the plan)"):
        plan = load_plan_file(spec_or_plan, settings)
        if strict and plan.warnings:
            raise SpecError(d.model_copy(update={"severity": Severity.ERROR}) for d in plan.warnings)
        inputs = parse_inputs(plan, pairs, input_files, settings.caps.data_bytes)
        for note in input_alias_notes(plan, inputs):  # `comp_rates` for the plan's `rates`: taken, said
            click.echo(f"warning: {note}", err=True)
    resume_gc()  # paused by the CLI's start (`orchestrator.cli.main`)
    _keep_mcp_process(plan, backend_from(backend) == "local" and not otel)
    if backend_from(backend) == "temporal":
        from orchestrator.cli import _temporal

        if settings.promote:
            raise ConfigError("--promote is for local runs: on Temporal the repaired scripts are on the workers",
                              where="--promote")
        ts = _temporal.settings_of(settings, temporal_address, namespace, task_queue, blob_dir)
        _temporal.run(plan, inputs, settings, ts, as_json=as_json, no_wait=no_wait)
        return
    if no_wait:
        raise ConfigError("--no-wait is for --backend temporal: a local run is executed by this process",
                          where="--no-wait")
    with journal_session():  # one journal connection for creating, executing and reporting
        with profiling.span("journal: create the run"):
            run_id = create_run(plan, inputs, settings)
        note_run(run_id)
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
@backend_option
@temporal_options
@debug_option
@exits_hard
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
    otel: bool,
    profile: bool,
    backend: str | None,
    temporal_address: str | None,
    namespace: str | None,
    task_queue: str | None,
    blob_dir: Path | None,
    debug: bool,
) -> None:
    """Continue a paused or interrupted run from its journal.

    Completed steps are not run again; attempts cut short run again as new attempts.
    With --backend temporal: follow a running or paused run again, or start a
    cancelled one anew from what it recorded.
    """
    _start_profile(profile)
    from orchestrator.engine import journal_session, replay_run
    from orchestrator.temporal.config import backend_from

    settings = _run_settings(
        state_dir, mcp_config, require_isolation, model, llm_record, llm_replay, promote, debug
    )
    resume_gc()  # paused by the CLI's start (`orchestrator.cli.main`)
    _telemetry(otel)
    if backend_from(backend) == "temporal":
        from orchestrator.cli import _temporal

        ts = _temporal.settings_of(settings, temporal_address, namespace, task_queue, blob_dir)
        _temporal.resume(run_id, settings, ts, as_json=as_json)
        return
    _check_files(settings)
    with journal_session():
        plan = replay_run(run_id, settings).plan
        _keep_mcp_process(plan, not otel)
        note_run(run_id)
        _finish(_execute(run_id, settings, plan, force=force), as_json, settings)


@click.command(name="approve")
@click.argument("run_id")
@click.argument("step")
@click.option("--reject", is_flag=True, help="Reject instead: the step fails with its fallback.")
@click.option("--comment", default=None, help="Why; kept in the journal.")
@json_option
@state_dir_option
@backend_option
@temporal_options
@debug_option
@exits_hard
@handle_errors
def approve(
    run_id: str, step: str, reject: bool, comment: str | None, as_json: bool, state_dir: Path | None,
    backend: str | None, temporal_address: str | None, namespace: str | None, task_queue: str | None,
    blob_dir: Path | None, debug: bool,
) -> None:
    """Approve (or --reject) STEP of RUN_ID, which is waiting at its gate; then `skillweave resume`.

    With --backend temporal the decision goes to the run's workflow, which goes on by itself.
    """
    from orchestrator.engine import approve_step
    from orchestrator.temporal.config import backend_from

    settings = settings_from(state_dir=state_dir, debug=debug or None)
    if backend_from(backend) == "temporal":
        from orchestrator.cli import _temporal

        ts = _temporal.settings_of(settings, temporal_address, namespace, task_queue, blob_dir)
        _temporal.approve(run_id, step, ts, reject=reject, comment=comment, as_json=as_json)
        return
    approve_step(run_id, step, settings, reject=reject, comment=comment)
    decision = "rejected" if reject else "approved"
    if as_json:
        echo_json({"run_id": run_id, "step": step, "approved": not reject, "comment": comment})
    else:
        click.echo(f"{decision} step {step} of run {run_id}; continue with: skillweave resume {run_id}")
