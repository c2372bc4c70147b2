"""Where reports read runs from: the journal of a state directory, and nothing else.

`open_journal` refuses a state directory without a journal (rather than creating
one, as opening a `Journal` would), so `skillweave runs show` on a wrong
`--state-dir` says so and leaves no `.skillweave/` behind. `read_run` loads what
a report needs of one run: its record, its plan, its events in order (replayed
into the engine's state) and its run directory, where the files that events
name (stderr logs, code versions, diffs) live.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from orchestrator.config import Settings
from orchestrator.engine.listing import list_summaries
from orchestrator.engine.model import RunSummary
from orchestrator.engine.state import RunState
from orchestrator.errors import NotFoundError
from orchestrator.hints import Hint, HintAction
from orchestrator.journal import Journal
from orchestrator.journal.session import use_journal
from orchestrator.journal.store import DB_NAME
from orchestrator.plan.model import Plan

TAIL_CHARS = 4000  # of a stderr log or a detail shown in a report
DIFF_CHARS = 20_000


class RunSource(BaseModel):
    """One run as read from the journal."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    run_id: str
    plan: Plan
    state: RunState  # the engine's fold of the run's events: the report's one reading of them
    summary: RunSummary
    run_dir: Path

    def read_file(self, relative: str | None, limit: int, *, tail: bool = True) -> str:
        """A file of the run directory (its end when `tail`, else its start), '' when absent."""
        if not relative:
            return ""
        path = (self.run_dir / relative).resolve()
        if not path.is_relative_to(self.run_dir.resolve()):
            return ""
        try:
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return clip(text, limit, tail=tail)


def clip(text: str, limit: int, *, tail: bool = True) -> str:
    if len(text) <= limit:
        return text
    if tail:
        return "…" + text[-(limit - 1) :]
    return text[: limit - 1] + "…"


def has_journal(state_dir: Path) -> bool:
    return (Path(state_dir) / DB_NAME).is_file()


@contextmanager
def open_journal(settings: Settings) -> Iterator[Journal]:
    """The state directory's journal; NotFoundError when there is none."""
    if not has_journal(settings.state_dir):
        raise NotFoundError(
            f"no runs in {settings.state_dir} (no {DB_NAME} there)", hint=Hint(action=HintAction.CHOOSE_STATE_DIR)
        )
    with use_journal(settings.state_dir) as journal:
        yield journal


def read_run(journal: Journal, run_id: str) -> RunSource:
    """NotFoundError naming the run when the journal has no such run."""
    record = journal.run(run_id)
    plan = Plan.model_validate_json(journal.plan_json(record.run_id))
    state = RunState.replay(record.run_id, plan, journal.events(record.run_id),
                            lambda rel: journal.load_output(record.run_id, rel))
    return RunSource(
        run_id=record.run_id,
        plan=plan,
        state=state,
        summary=state.summary(),
        run_dir=journal.run_dir(record.run_id),
    )


def read_summaries(journal: Journal, limit: int) -> list[RunSummary]:
    """The latest `limit` runs' summaries, newest first (outputs are not loaded)."""
    return list_summaries(journal, journal.runs(limit))


def read_summaries_since(journal: Journal, since: float | None, plan: str | None) -> list[RunSummary]:
    """The summaries of the runs created at or after `since` (None: all), of plan `plan` (None:
    every plan), newest first (outputs are not loaded)."""
    records = [
        r for r in journal.runs(limit=-1)  # SQLite: a negative LIMIT is no limit
        if (since is None or r.created_at >= since) and (plan is None or r.plan_name == plan)
    ]
    return list_summaries(journal, records)
