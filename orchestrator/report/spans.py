"""Every attempt of a run as a span (start, end, outcome), from its events: what a timeline draws.

An attempt starts at its `attempt_started` and ends at the `output_stored` or
`attempt_failed` of the same step and item. One still open when a new process
starts the run (`run_started`) was cut short by the end of the last one: it is
`interrupted`, and ends at the last event that process recorded (it died some
time after). One still open at the end of the events is `running`.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.journal.events import (
    AttemptFailed,
    AttemptStarted,
    Event,
    OutputStored,
    RunStarted,
)
from orchestrator.report.model import AttemptRecord

_Key = tuple[str, int | None]


def attempt_spans(events: Iterable[Event]) -> dict[str, tuple[AttemptRecord, ...]]:
    """Step id -> its attempts in the order they started."""
    spans: dict[str, list[AttemptRecord]] = {}
    open_: dict[_Key, tuple[int, AttemptRecord]] = {}  # (step, item) -> (index in spans[step], record)
    last_ts: float | None = None
    for e in events:
        if isinstance(e, RunStarted):
            for (step, _), (index, record) in open_.items():
                end = last_ts if last_ts is not None else record.started_at
                spans[step][index] = record.model_copy(
                    update={"ended_at": max(end, record.started_at), "outcome": "interrupted"}
                )
            open_.clear()
        elif isinstance(e, AttemptStarted) and e.step is not None:
            record = AttemptRecord(
                item=e.item, attempt=e.attempt, started_at=e.ts, outcome="running", fallback=e.fallback
            )
            found = spans.setdefault(e.step, [])
            open_[(e.step, e.item)] = (len(found), record)
            found.append(record)
        elif isinstance(e, (OutputStored, AttemptFailed)) and e.step is not None:
            known = open_.pop((e.step, e.item), None)
            if known is not None:
                index, record = known
                failed = isinstance(e, AttemptFailed)
                spans[e.step][index] = record.model_copy(
                    update={
                        "ended_at": e.ts,
                        "outcome": "failed" if failed else "succeeded",
                        "error_class": e.error_class if isinstance(e, AttemptFailed) else None,
                    }
                )
        last_ts = e.ts
    return {step: tuple(found) for step, found in spans.items()}
