"""`skillweave runs` (history and metrics across runs) and `skillweave runs show RUN_ID` (one report).

    skillweave runs [--json] [--limit N] [--state-dir D] [--backend temporal ...]
    skillweave runs show RUN_ID [--format md|json|html] [-o FILE] [--state-dir D] [--backend temporal ...]

Both read the journal of the state directory only, or, with --backend temporal,
the runs Temporal holds (their workflows' results and queries). Exit codes: 0 the listing or
report was written (whatever the runs' own status), 2 an unknown run id, a state
directory without runs, or a bad option.
"""

from __future__ import annotations

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
@state_dir_option
@backend_option
@temporal_options
@debug_option
@click.pass_context
@exits_hard
@handle_errors
def runs(
    ctx: click.Context, as_json: bool, limit: int, state_dir: Path | None, backend: str | None,
    temporal_address: str | None, namespace: str | None, task_queue: str | None, blob_dir: Path | None, debug: bool,
) -> None:
    """The latest runs, newest first, with workflow success rate, retry burden,
    queue delay (mean, p95) and handoff accuracy across them.

    `skillweave runs show RUN_ID` prints one run's report. With --backend
    temporal, the runs are those of the Temporal namespace.
    """
    if ctx.invoked_subcommand is not None:
        return
    from orchestrator.report import build_history, render_history
    from orchestrator.temporal.config import backend_from

    settings = settings_from(state_dir=state_dir, debug=debug or None)
    if backend_from(backend) == "temporal":
        from orchestrator.cli import _temporal

        _temporal.history(_temporal.settings_of(settings, temporal_address, namespace, task_queue, blob_dir),
                          limit, as_json)
        return
    history = build_history(settings, limit)
    click.echo(render_history(history, "json" if as_json else "text"), nl=False)


@runs.command(name="show")
@click.argument("run_id")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["md", "json", "html"]), default="md", show_default=True,
    help="Markdown for people, JSON for machines, one self-contained HTML file.",
)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the report to FILE instead of stdout.")
@state_dir_option
@backend_option
@temporal_options
@debug_option
@click.pass_context
@exits_hard
@handle_errors
def show(
    ctx: click.Context, run_id: str, fmt: str, output: Path | None, state_dir: Path | None, backend: str | None,
    temporal_address: str | None, namespace: str | None, task_queue: str | None, blob_dir: Path | None, debug: bool,
) -> None:
    """The report of RUN_ID: status, error, steps, failed attempts with their
    stderr, regenerations with their diffs, fallbacks, compensations, approvals,
    the metrics, and the plan's graph coloured by status."""
    from orchestrator.report import build_report, render_report
    from orchestrator.temporal.config import backend_from

    settings = settings_from(state_dir=_state_dir(ctx, state_dir), debug=debug or None)
    group = ctx.parent.params if ctx.parent is not None else {}
    if backend_from(backend or group.get("backend")) == "temporal":
        from orchestrator.cli import _temporal

        ts = _temporal.settings_of(
            settings, temporal_address or group.get("temporal_address"), namespace or group.get("namespace"),
            task_queue or group.get("task_queue"), blob_dir or group.get("blob_dir"),
        )
        _temporal.show(run_id, settings, ts, fmt, output)
        return
    text = render_report(build_report(run_id, settings), fmt)  # type: ignore[arg-type]
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the report: {exc.strerror}", where=str(output)) from exc
    click.echo(f"wrote {output}", err=True)
