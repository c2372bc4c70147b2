"""The durable journal of runs: SQLite (WAL) events, plans and big outputs on disk."""

from orchestrator.journal.events import Event, parse_event
from orchestrator.journal.store import INLINE_OUTPUT_LIMIT, Journal, RunRecord

__all__ = ["INLINE_OUTPUT_LIMIT", "Event", "Journal", "RunRecord", "parse_event"]
