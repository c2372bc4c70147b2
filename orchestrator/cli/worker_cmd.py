"""`skillweave worker`: host skillweave runs on Temporal.

    skillweave worker [--temporal-address HOST:PORT] [--namespace NS] [--task-queue Q]
                      [--skills-dir DIR]... [--mcp-config FILE] [--max-concurrent N]
                      [--state-dir D] [--blob-dir D] [--otel]

Runs until Ctrl-C (or SIGTERM): it then stops taking work, lets the attempts
under way finish (up to --drain seconds; Temporal runs what is cut short again
on another worker), closes its runners and exits 0. Exit 2 when Temporal
cannot be reached or an option is wrong.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import click

from orchestrator.cli._common import (
    debug_option,
    handle_errors,
    settings_from,
    skills_dir_option,
    state_dir_option,
)
from orchestrator.cli._temporal import exits_hard, settings_of, temporal_options


@click.command(name="worker")
@temporal_options
@skills_dir_option
@click.option("--mcp-config", type=click.Path(path_type=Path), default=None,
              help="The mcp.json of this worker's MCP servers (a run's own --mcp-config wins).")
@click.option("--max-concurrent", type=click.IntRange(min=1), default=None,
              help="Attempts this worker runs at once (default: Temporal's, 100).")
@click.option("--drain", "drain_s", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="Seconds the attempts under way get to finish after Ctrl-C.")
@click.option("--require-isolation", is_flag=True, default=None, help="Refuse to run scripts without a real sandbox.")
@click.option("--otel", is_flag=True,
              help="Export the spans of the runs' workflows and attempts over OpenTelemetry (OTLP; see OTEL_*).")
@state_dir_option
@debug_option
@exits_hard
@handle_errors
def worker(
    temporal_address: str | None,
    namespace: str | None,
    task_queue: str | None,
    blob_dir: Path | None,
    skills_dirs: tuple[Path, ...],
    mcp_config: Path | None,
    max_concurrent: int | None,
    drain_s: float,
    require_isolation: bool | None,
    otel: bool,
    state_dir: Path | None,
    debug: bool,
) -> None:
    """Host skillweave workflows and their attempts on Temporal until Ctrl-C."""
    from orchestrator.cli._common import check_mcp_config, check_sandbox_choice
    from orchestrator.temporal.worker import run_worker

    settings = settings_from(
        state_dir=state_dir, skills_dirs=skills_dirs or None, mcp_config=mcp_config,
        require_isolation=require_isolation, debug=debug or None,
    )
    check_sandbox_choice()
    check_mcp_config(settings.mcp_config)
    if otel:  # else the OTEL_* environment decides (`orchestrator.telemetry`)
        from orchestrator import telemetry

        telemetry.enable()
    ts = settings_of(settings, temporal_address, namespace, task_queue, blob_dir)

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, _stopping, stop)

        def ready(identity: str) -> None:
            click.echo(f"worker {identity} polling task queue {ts.task_queue} on {ts.address} "
                       f"(namespace {ts.namespace}); Ctrl-C drains and stops", err=True)

        await run_worker(ts, settings, stop, max_concurrent=max_concurrent, drain_s=drain_s, on_ready=ready)
        click.echo("worker stopped", err=True)

    asyncio.run(serve())


def _stopping(stop: asyncio.Event) -> None:
    if not stop.is_set():
        click.echo("stopping: finishing the attempts under way (Ctrl-C again is ignored; SIGKILL to abandon)", err=True)
    stop.set()
