"""`skillweave runs` (history and metrics across runs) and `skillweave runs show RUN_ID` (one report).

    skillweave runs [--json] [--limit N] [--state-dir D] [--backend temporal ...]
    skillweave runs --stats [--plan NAME] [--since 7d] [--by day|plan-version] [--json]
    skillweave runs show RUN_ID [--format md|json|html] [-o FILE] [--open] [--state-dir D] [--backend temporal ...]

    skillweave runs prune ... / skillweave runs rm RUN_ID...   (`orchestrator.cli.runs_prune`)

They read the journal of the state directory only, or, with --backend temporal,
the runs Temporal holds (their workflows' results and queries; --stats, prune and
rm are for the local journal). Exit codes: 0 the listing or
report was written (whatever the runs' own status), 2 an unknown run id, a state
directory without runs, or a bad option.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from orchestrator.cli._common import (
    debug_option,
    handle_errors,
    json_option,
    settings_from,
    state_dir_option,
)
from orchestrator.cli._temporal import backend_option, exits_hard, temporal_options
from orchestrator.errors import ConfigError


def _state_dir(ctx: click.Context, given: Path | None) -> Path | None:
    """The subcommand's --state-dir, else the group's."""
    if given is not None:
        return given
    parent = ctx.parent.params.get("state_dir") if ctx.parent is not None else None
    return parent if isinstance(parent, Path) else None


@click.group(name="runs", invoke_without_command=True)
@json_option
@click.option("--limit", "-n", type=click.IntRange(min=1), default=20, show_default=True, help="How many runs.")
@click.option("--stats", is_flag=True, help="The metrics per day or per plan version instead, with sparklines.")
@click.option("--plan", "plan_name", default=None, help="--stats: only runs of this plan.")
@click.option("--since", default=None, metavar="AGE", help="--stats: only runs created in the last AGE (7d, 12h).")
@click.option("--by", type=click.Choice(["day", "plan-version"]), default="day", show_default=True,
              help="--stats: group runs by UTC day or by plan version.")
@state_dir_option
@backend_option
@temporal_options
@debug_option
@click.pass_context
@exits_hard
@handle_errors
def runs(
    ctx: click.Context, as_json: bool, limit: int, stats: bool, plan_name: str | None, since: str | None, by: str,
    state_dir: Path | None, backend: str | None, temporal_address: str | None, namespace: str | None,
    task_queue: str | None, blob_dir: Path | None, debug: bool,
) -> None:
    """The latest runs, newest first, with workflow success rate, retry burden,
    queue delay (mean, p95) and handoff accuracy across them. With --stats, those
    four metrics per day (UTC) or per plan version, each with a sparkline.

    `skillweave runs show RUN_ID` prints one run's report; `runs prune` and
    `runs rm` remove runs and their files. With --backend temporal, the runs
    are those of the Temporal task queue.
    """
    if ctx.invoked_subcommand is not None:
        return
    from orchestrator.temporal.config import backend_from

    settings = settings_from(state_dir=state_dir, debug=debug or None)
    if backend_from(backend) == "temporal":
        if stats:
            raise ConfigError("--stats reads the local journal; drop --backend temporal", where="--stats")
        from orchestrator.cli import _temporal

        _temporal.history(_temporal.settings_of(settings, temporal_address, namespace, task_queue, blob_dir),
                          limit, as_json)
        return
    if not stats:
        for name in ("plan_name", "since", "by"):
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
                raise ConfigError(f"--{name.removesuffix('_name')} goes with --stats", where="runs")
        from orchestrator.report import build_history, render_history

        history = build_history(settings, limit)
        if as_json:
            click.echo(render_history(history, "json"), nl=False)
            return
        from orchestrator.cli.colour import colour_wanted, paint

        text, use = render_history(history, "text"), colour_wanted(sys.stdout)
        if use:  # each run's status word, in its row
            for run in history.runs:
                text = text.replace(f"{run.run_id}  {run.status}", f"{run.run_id}  {paint(run.status, run.status, True)}", 1)
        click.echo(text, nl=False, color=use)
        return
    import time

    from orchestrator.cli.runs_prune import parse_age
    from orchestrator.report import build_trends, render_trends

    cutoff = time.time() - parse_age(since, "--since") if since is not None else None
    trends = build_trends(settings, by=by, since=cutoff, plan=plan_name)
    click.echo(render_trends(trends, "json" if as_json else "text"), nl=False)


@runs.command(name="show")
@click.argument("run_id")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["md", "json", "html"]), default="md", show_default=True,
    help="Markdown for people, JSON for machines, one self-contained HTML file.",
)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the report to FILE instead of stdout.")
@click.option("--open", "open_it", is_flag=True,
              help="Write the HTML report (to -o FILE, else <run dir>/report.html) and open it in a browser.")
@state_dir_option
@backend_option
@temporal_options
@debug_option
@click.pass_context
@exits_hard
@handle_errors
def show(
    ctx: click.Context, run_id: str, fmt: str, output: Path | None, open_it: bool, state_dir: Path | None,
    backend: str | None, temporal_address: str | None, namespace: str | None, task_queue: str | None,
    blob_dir: Path | None, debug: bool,
) -> None:
    """The report of RUN_ID: status, error, steps, failed attempts with their
    stderr, regenerations with their diffs, fallbacks, compensations, approvals,
    the metrics, and the plan's graph coloured by status. The HTML report draws
    the graph and a timeline of the attempts, retry waits and approval pauses
    in one self-contained file (no script, nothing fetched); --open opens it."""
    from orchestrator.report import build_report, render_report, write_report
    from orchestrator.temporal.config import backend_from

    settings = settings_from(state_dir=_state_dir(ctx, state_dir), debug=debug or None)
    from orchestrator.cli.wording import say

    if open_it and ctx.get_parameter_source("fmt") is click.core.ParameterSource.COMMANDLINE and fmt != "html":
        raise ConfigError(f"--open shows the HTML report; drop --format {fmt}", where="--open")
    group = ctx.parent.params if ctx.parent is not None else {}
    if backend_from(backend or group.get("backend")) == "temporal":
        from orchestrator.cli import _temporal

        ts = _temporal.settings_of(
            settings, temporal_address or group.get("temporal_address"), namespace or group.get("namespace"),
            task_queue or group.get("task_queue"), blob_dir or group.get("blob_dir"),
        )
        if open_it:
            output = output or _temporal.run_dir(settings, run_id) / "report.html"
            _write(output, _temporal.show(run_id, settings, ts, "html"))
            _open_in_browser(output)
            return
        _print_or_write(_temporal.show(run_id, settings, ts, fmt), output)
        return
    if open_it:
        if output is None:
            _, output = write_report(run_id, settings, "html", say=say)
        else:
            _write(output, render_report(build_report(run_id, settings), "html", say=say))
        _open_in_browser(output)
        return
    _print_or_write(render_report(build_report(run_id, settings), fmt, say=say), output)  # type: ignore[arg-type]


def _print_or_write(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    _write(output, text)
    click.echo(f"wrote {output}", err=True)


def _write(output: Path, text: str) -> None:
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the report: {exc.strerror}", where=str(output)) from exc


def _open_in_browser(path: Path) -> None:
    """Open the written report; without a browser, say where the file is (it is written either way)."""
    import webbrowser

    url = path.resolve().as_uri()
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if opened:
        click.echo(f"wrote {path}; opened {url}", err=True)
    else:
        click.echo(f"wrote {path}; no web browser could be opened here (set BROWSER to one); open {url}", err=True)


def _register() -> None:
    from orchestrator.cli.runs_prune import prune, rm

    runs.add_command(prune)
    runs.add_command(rm)


_register()
