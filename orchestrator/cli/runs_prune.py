"""`skillweave runs prune` and `skillweave runs rm`: removing runs and their files.

    skillweave runs prune [--older-than 30d] [--keep N] [--status S]... [--plan NAME] [--dry-run] [--json]
    skillweave runs rm RUN_ID... [--force] [--json]

`prune` removes finished runs (succeeded, degraded, failed, escalated) last changed more
than `--older-than` ago (default 30d; `0` for any age), except the `--keep` newest
of those selected. A running, paused or pending run is never pruned. `rm` removes
the runs named; a running, paused or pending one only with `--force`, and never one
that a live process is executing. Each run goes in one journal transaction, then
its folder; folders that a removal cut short left behind go with the next prune
(see `orchestrator.journal.housekeeping`, which also states when the journal is
vacuumed). One line per removed run as it goes; `--json`: one document at the end.

Exit codes: 0 done (nothing to remove included), 2 a bad option, an unknown run,
or (`rm`) a run refused.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import click
from pydantic import BaseModel

from orchestrator.cli._common import (
    EXIT_OK,
    EXIT_USAGE,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    settings_from,
    state_dir_option,
)
from orchestrator.config import Settings
from orchestrator.errors import NotFoundError, UserError
from orchestrator.journal.housekeeping import FINISHED, Housekeeper
from orchestrator.journal.store import DB_NAME, RunRecord

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_AGE = re.compile(r"(\d+(?:\.\d+)?)([smhdw]?)")


def parse_age(text: str, option: str = "--older-than") -> float:
    """`30d`, `12h`, `90m`, `45s`, `2w` or plain seconds; ConfigError-like UserError otherwise."""
    found = _AGE.fullmatch(text.strip())
    if not found:
        raise UserError(f"{option} takes an age such as 30d, 12h, 90m or 0; got {text!r}", where=option)
    return float(found[1]) * _UNITS[found[2] or "s"]


class RemovedRun(BaseModel):
    run_id: str
    plan_name: str
    status: str
    created_at: float
    finished_at: float | None = None  # when its status last changed (a finished run: finished)
    bytes: int = 0  # of its folder's files


class OrphanFolder(BaseModel):
    run_id: str
    bytes: int


class JournalSpace(BaseModel):
    bytes_before: int
    bytes_after: int
    vacuumed: bool
    vacuum_note: str = ""


class PruneResult(BaseModel):
    """`runs prune --json`."""

    dry_run: bool
    removed: list[RemovedRun]
    orphan_folders: list[OrphanFolder]
    unfinished_kept: int  # running, paused or pending runs: never pruned
    journal: JournalSpace | None = None


class Refusal(BaseModel):
    run_id: str
    status: str | None
    reason: str


class RemoveResult(BaseModel):
    """`runs rm --json`."""

    removed: list[RemovedRun]
    refused: list[Refusal]


def _settings(ctx: click.Context, state_dir: Path | None, debug: bool) -> Settings:
    parent = ctx.parent.params.get("state_dir") if ctx.parent is not None else None
    given = state_dir if state_dir is not None else parent if isinstance(parent, Path) else None
    return settings_from(state_dir=given, debug=debug or None)


def _keeper(settings: Settings) -> Housekeeper:
    if not (Path(settings.state_dir) / DB_NAME).is_file():
        raise NotFoundError(
            f"no runs in {settings.state_dir} (no {DB_NAME} there; pass --state-dir or set SKILLWEAVE_STATE_DIR)"
        )
    return Housekeeper(Path(settings.state_dir))


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def _line(verb: str, run: RemovedRun) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(run.finished_at or run.created_at))
    size = f", {_size(run.bytes)} of files" if run.bytes else ""
    return f"{verb} {run.run_id}  {run.status:<9} {run.plan_name}  (last change {when}Z{size})"


def _removed(record: RunRecord, files: int) -> RemovedRun:
    return RemovedRun(run_id=record.run_id, plan_name=record.plan_name, status=record.status,
                      created_at=record.created_at, finished_at=record.updated_at, bytes=files)


@click.command(name="prune")
@click.option("--older-than", "older_than", default="30d", show_default=True, metavar="AGE",
              help="Only runs finished longer ago than AGE (30d, 12h, 90m; 0: any age).")
@click.option("--keep", type=click.IntRange(min=0), default=0, show_default=True,
              help="Keep the N newest of the runs selected.")
@click.option("--status", "statuses", multiple=True, type=click.Choice(sorted(FINISHED)),
              help="Only runs that ended so (repeatable; default: every finished run).")
@click.option("--plan", "plan_name", default=None, help="Only runs of this plan.")
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
@json_option
@state_dir_option
@debug_option
@click.pass_context
@handle_errors
def prune(
    ctx: click.Context, older_than: str, keep: int, statuses: tuple[str, ...], plan_name: str | None,
    dry_run: bool, as_json: bool, state_dir: Path | None, debug: bool,
) -> None:
    """Remove finished runs and their files: never a running, paused or pending one."""
    age = parse_age(older_than)
    settings = _settings(ctx, state_dir, debug)
    chosen = set(statuses or FINISHED)
    with _keeper(settings) as keeper:
        before = keeper.size()
        records = keeper.select(statuses=chosen, before=time.time() - age if age > 0 else None, keep=keep,
                                plan_name=plan_name)
        unfinished = len(keeper.select(statuses={"running", "paused", "pending"}, plan_name=plan_name))
        removed: list[RemovedRun] = []
        for record in records:
            if dry_run:
                run = _removed(record, 0)
            elif keeper.remove(record.run_id, statuses=chosen) == "removed":
                run = _removed(record, keeper.remove_folder(record.run_id))
            else:
                continue  # removed by another prune meanwhile
            removed.append(run)
            if not as_json:
                click.echo(_line("would remove" if dry_run else "removed", run))
        orphans: list[OrphanFolder] = []
        space: JournalSpace | None = None
        if not dry_run:
            orphans = [OrphanFolder(run_id=rid, bytes=size) for rid, size in keeper.remove_orphan_folders()]
            vacuumed, note = keeper.vacuum_if_shrunk() if removed else (False, "nothing removed")
            space = JournalSpace(bytes_before=before.bytes, bytes_after=keeper.size().bytes, vacuumed=vacuumed,
                                 vacuum_note=note)
    result = PruneResult(dry_run=dry_run, removed=removed, orphan_folders=orphans, unfinished_kept=unfinished,
                         journal=space)
    if as_json:
        echo_json(result)
        return
    for orphan in orphans:
        click.echo(f"removed the folder of {orphan.run_id} ({_size(orphan.bytes)}): its run was no longer in the journal")
    files = sum(r.bytes for r in removed) + sum(o.bytes for o in orphans)
    verb = "would remove" if dry_run else "removed"
    summary = f"{verb} {len(removed)} run{'' if len(removed) == 1 else 's'}"
    if not dry_run:
        summary += f" ({_size(files)} of files)"
    if unfinished:
        summary += f"; {unfinished} running, paused or pending kept"
    if space is not None:
        shrink = f"; journal {_size(space.bytes_before)}"
        shrink += f" -> {_size(space.bytes_after)} (vacuumed)" if space.vacuumed else " (not vacuumed: little to gain)"
        summary += shrink
    click.echo(summary)


@click.command(name="rm")
@click.argument("run_ids", nargs=-1, required=True, metavar="RUN_ID...")
@click.option("--force", is_flag=True,
              help="Also remove a paused, pending or interrupted run (never one a live process executes).")
@json_option
@state_dir_option
@debug_option
@click.pass_context
@handle_errors
def rm(ctx: click.Context, run_ids: tuple[str, ...], force: bool, as_json: bool, state_dir: Path | None,
       debug: bool) -> None:
    """Remove runs and their files. A running or paused run is refused (--force for one
    that is paused, pending or interrupted)."""
    settings = _settings(ctx, state_dir, debug)
    removed: list[RemovedRun] = []
    refused: list[Refusal] = []
    with _keeper(settings) as keeper:
        for run_id in dict.fromkeys(run_ids):
            record = keeper.record(run_id)
            if record is None:
                refused.append(Refusal(run_id=run_id, status=None, reason=f"no run {run_id!r} in {settings.state_dir}"))
                continue
            why, since = _why_not(record, force, settings, keeper)
            if why:
                refused.append(Refusal(run_id=run_id, status=record.status, reason=why))
                continue
            allowed = {record.status} if force else FINISHED
            outcome = keeper.remove(run_id, statuses=allowed, unchanged_since=since)
            if outcome == "removed":
                run = _removed(record, keeper.remove_folder(run_id))
                removed.append(run)
                if not as_json:
                    click.echo(_line("removed", run))
            elif outcome != "gone":
                refused.append(Refusal(run_id=run_id, status=record.status,
                                       reason=f"run {run_id} changed while it was being removed (another process "
                                              "wrote to it); nothing was removed"))
    if as_json:
        echo_json(RemoveResult(removed=removed, refused=refused))
    else:
        for r in refused:
            click.echo(f"refused: {r.reason}", err=True)
    ctx.exit(EXIT_USAGE if refused else EXIT_OK)


def _why_not(record: RunRecord, force: bool, settings: Settings, keeper: Housekeeper) -> tuple[str, int | None]:
    """Why the run may not be removed ('' if it may), and its last event when that was checked."""
    if record.status in FINISHED:
        return "", None
    rid = record.run_id
    if not force:
        if record.status == "paused":
            return (f"run {rid} is paused awaiting approval: approve or reject it and resume it, or remove it "
                    "with --force"), None
        if record.status == "pending":
            return f"run {rid} is pending (never started): resume it, or remove it with --force", None
        return (f"run {rid} is running (or was interrupted): let it finish, or if its process is gone, "
                f"remove it with --force"), None
    since = keeper.last_seq(rid)
    from orchestrator.engine import executing_elsewhere, replay_run

    pid = executing_elsewhere(replay_run(rid, settings))
    if pid is not None:
        return f"run {rid} is being executed by process {pid}: it cannot be removed while it runs", since
    return "", since
