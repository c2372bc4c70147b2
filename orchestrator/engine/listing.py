"""Summaries of many runs for listings (`skillweave runs`, the server's `list_runs`).

A summary is a replay of the run's events, and replaying a history of large runs
took seconds. A finished run's events no longer change, so its listing summary is
kept in the journal (`run_summaries`) the first time it is made and read back
after: keyed by the run's last event (a run appended to since is replayed again)
and by the summary's form, a digest of the `RunSummary` schema (a summary kept by
another version of skillweave is made again). A listing summary has no outputs:
no listing shows them, and a kept summary stays small.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable

from pydantic import ValidationError

from orchestrator.engine.model import RunErrorInfo, RunStatus, RunSummary
from orchestrator.engine.state import RunState
from orchestrator.errors import ConfigError
from orchestrator.journal.store import Journal, RunRecord
from orchestrator.plan.model import Plan


@functools.cache
def summary_form() -> str:
    """What a kept summary must have been made as: the summary schema's digest."""
    schema = json.dumps(RunSummary.model_json_schema(), sort_keys=True).encode()
    return hashlib.sha256(schema).hexdigest()[:16]


def list_summaries(journal: Journal, records: Iterable[RunRecord]) -> list[RunSummary]:
    """The summaries of `records`' runs, in their order; a run whose events cannot be
    read is listed as such (`unreadable_run`) and the others still are."""
    plans: dict[str, Plan] = {}  # runs of one plan share it
    found: list[RunSummary] = []
    for record in records:
        try:
            found.append(_summary(journal, record, plans))
        except ConfigError as exc:
            found.append(unreadable_run(record, exc))
    return found


def _summary(journal: Journal, record: RunRecord, plans: dict[str, Plan]) -> RunSummary:
    finished = RunStatus(record.status).finished
    if finished:
        kept = journal.kept_summary(record.run_id, summary_form())
        if kept is not None:
            try:
                return RunSummary.model_validate_json(kept)
            except ValidationError:
                pass  # made from another form after all: make it again
    plan = plans.get(record.plan_sha256)
    if plan is None:
        plan = plans[record.plan_sha256] = Plan.model_validate_json(journal.plan_json(record.run_id))
    events = journal.events(record.run_id)
    summary = RunState.replay(record.run_id, plan, events, _no_output).summary()
    summary = summary.model_copy(update={"outputs": {}})  # a listing shows none (and keeps none)
    if finished and summary.status.finished and events and events[-1].seq is not None:
        journal.keep_summary(record.run_id, summary_form(), events[-1].seq, summary.model_dump_json())
    return summary


def _no_output(relative: str) -> None:
    return None


def unreadable_run(record: RunRecord, exc: ConfigError) -> RunSummary:
    """How a listing shows a run whose events cannot be read: its recorded status, and why."""
    return RunSummary(
        run_id=record.run_id, plan_name=record.plan_name, plan_sha256=record.plan_sha256,
        status=RunStatus(record.status), created_at=record.created_at,
        error=RunErrorInfo(where=exc.where, message=exc.message),
    )
