"""The journal: an append-only event log per run, plus the run's plan, in SQLite.

Layout of a state directory (default `.skillweave/`):

    journal.db                  every run's events and plans (WAL; see `db`)
    runs/<run_id>/outputs/      outputs too big to keep inline in an event
    runs/<run_id>/code/<step>/  regenerated code versions and their diffs
    runs/<run_id>/logs/         stderr of failed attempts

A file is always written (and renamed into place) before the event that names it
is committed, so an event never points at a missing file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticSerializationError, to_json

from orchestrator.errors import ConfigError, NotFoundError, ResumeError
from orchestrator.journal.db import SEQ_BITS, connect
from orchestrator.journal.events import Event, OutputStored, RunCreated, RunFinished, parse_event
from orchestrator.journal.plans import ENVELOPE, decode_plan
from orchestrator.plan.model import Plan

DB_NAME = "journal.db"
RUNS_DIR = "runs"
INLINE_OUTPUT_LIMIT = 64 * 1024  # bytes of JSON; bigger outputs go to a file

_RANGE = 1 << SEQ_BITS
_FINAL = {"run_finished", "run_paused", "run_started", "run_created"}
_INSERT = "INSERT INTO events (seq, run_id, type, step, item, attempt, ts, data) VALUES "
_ROW = "(?, ?, ?, NULLIF(?, ''), NULLIF(?, -1), NULLIF(?, -1), ?, ?)"
_ONE_STATEMENT_MAX = 8  # events; a chain step commits 4, a fan-out's turn often hundreds


@functools.cache
def _insert_statement(rows: int) -> str:
    """One INSERT of `rows` events (see `Journal.append`)."""
    return _INSERT + ", ".join([_ROW] * rows)


class RunRecord(BaseModel):
    """A row of the runs table: what listing runs needs without replaying them."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    plan_name: str
    plan_sha256: str
    status: str
    created_at: float
    updated_at: float


def encode_output(value: Any) -> bytes:
    """A step output as compact UTF-8 JSON; what JSON cannot hold becomes its str().

    `pydantic_core.to_json` does in Rust what `json.dumps` does in Python, about
    three times faster on a 50-field object (the hot path of every step). A lone
    surrogate (from a `\\ud800` escape), which neither UTF-8 nor the JSON reader
    accepts, is stored as U+FFFD.
    """
    try:
        return to_json(value, fallback=str)
    except PydanticSerializationError:
        return to_json(_scrub(value), fallback=str)


def _scrub(value: Any) -> Any:
    """`value` with every lone surrogate of its strings (keys included) replaced by U+FFFD."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_scrub(v) for v in value]
    return value


def write_file_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename.

    A failure (a full disk) leaves no temporary file behind and names `path`.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc


class Journal:
    """The event store of one state directory. Not shared between threads."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.db_path = self.state_dir / DB_NAME
        self._conn: sqlite3.Connection = connect(self.db_path)
        self._bases: dict[str, int] = {}  # run id -> start of its sequence numbers
        # run id -> the sequence number of its last event as this journal wrote it; a stale
        # one (another process appended since) meets the primary key and is read again
        self._last: dict[str, int] = {}

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run_dir(self, run_id: str) -> Path:
        return self.state_dir / RUNS_DIR / run_id

    # -- writing ---------------------------------------------------------

    def create_run(
        self, run_id: str, plan_json: Callable[[], str], inputs: dict[str, Any], event: RunCreated
    ) -> None:
        """Record a new run: its row, its plan and the run_created event, atomically.

        Plans are stored once per hash (`plan_json` is called only for a new one).
        """
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone():
                raise ValueError(f"run {run_id} already exists")
            if not conn.execute("SELECT 1 FROM plans WHERE sha256 = ?", (event.plan_sha256,)).fetchone():
                conn.execute(
                    "INSERT INTO plans (sha256, plan_json, created_at) VALUES (?, ?, ?)",
                    (event.plan_sha256, plan_json(), event.ts),
                )
            top = conn.execute("SELECT max(seq) FROM events").fetchone()[0] or 0
            base = ((top >> SEQ_BITS) + 1) << SEQ_BITS  # a range above every event so far
            conn.execute(
                "INSERT INTO runs (run_id, plan_name, plan_sha256, status, created_at, updated_at,"
                " inputs_json, seq_base) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)",
                (run_id, event.plan_name, event.plan_sha256, event.ts, event.ts, json.dumps(inputs), base),
            )
            self._insert(run_id, base, [event])
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT (a full disk) may have rolled back already
                conn.execute("ROLLBACK")
            raise
        self._bases[run_id], self._last[run_id] = base, base + 1

    def append(self, run_id: str, events: Sequence[Event], *, unless_started_after: int | None = None) -> None:
        """Commit `events` in one transaction; they are durable when this returns.

        `unless_started_after`: refuse (ResumeError, nothing written) when another
        process recorded a run_started after that sequence number, so two processes
        that loaded the same run at once cannot both execute it.

        The common commit (a few events after this journal's own last write, none
        that changes the run's status) is one INSERT statement, which SQLite runs as
        a transaction of its own: a quarter fewer instructions than BEGIN IMMEDIATE,
        executemany and COMMIT. If another process appended to the run meanwhile,
        the statement fails on the primary key, writes nothing, and the full
        transaction below reads the run's last event and writes after it.
        """
        if not events:
            return
        base = self._base(run_id)
        last = self._last.get(run_id)
        if (
            last is not None
            and unless_started_after is None
            and len(events) <= _ONE_STATEMENT_MAX
            and not any(event.type in _FINAL for event in events)
        ):
            try:
                self._conn.execute(_insert_statement(len(events)), self._flat_rows(run_id, last, events))
            except sqlite3.IntegrityError:
                self._last.pop(run_id, None)
            except BaseException:
                self._last.pop(run_id, None)
                raise
            else:
                self._last[run_id] = last + len(events)
                return
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if unless_started_after is not None and conn.execute(
                "SELECT 1 FROM events WHERE seq > ? AND seq < ? AND type = 'run_started'",
                (max(unless_started_after, base), base + _RANGE),
            ).fetchone():
                raise ResumeError(f"run {run_id} was started by another process just now", where=run_id)
            last = self._last.get(run_id)
            if last is None:
                last = self._last_seq(base)
            try:
                self._insert(run_id, last, events)
            except sqlite3.IntegrityError:  # another process appended to the run since our last write
                last = self._last_seq(base)
                self._insert(run_id, last, events)
            status = None
            for event in events:
                if event.type in _FINAL:
                    status = _status_of(event)
            if status is not None:
                conn.execute(
                    "UPDATE runs SET status = ?, updated_at = ? WHERE run_id = ?",
                    (status, events[-1].ts, run_id),
                )
            conn.execute("COMMIT")
        except BaseException:
            self._last.pop(run_id, None)
            if conn.in_transaction:  # a failed COMMIT (a full disk) may have rolled back already
                conn.execute("ROLLBACK")
            raise
        self._last[run_id] = last + len(events)

    def _last_seq(self, base: int) -> int:
        """The sequence number of the run's last event (`base` when it has none)."""
        row = self._conn.execute(
            "SELECT seq FROM events WHERE seq >= ? AND seq < ? ORDER BY seq DESC LIMIT 1", (base, base + _RANGE)
        ).fetchone()
        return int(row[0]) if row else base

    def _base(self, run_id: str) -> int:
        """Where the run's range of sequence numbers starts (see `db`)."""
        base = self._bases.get(run_id)
        if base is None:
            row = self._conn.execute("SELECT seq_base FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no run {run_id!r} in {self.state_dir}", where=run_id)
            base = self._bases[run_id] = int(row[0])
        return base

    def _insert(self, run_id: str, last: int, events: Iterable[Event]) -> None:
        """Insert `events` numbered after `last`, under the write lock the caller holds.

        No parameter is bound as None: for a None, Python's sqlite3 looks for an
        adapter and formats (then drops) an AttributeError, about 2 k instructions
        each, several per step. An absent step, item or attempt is bound as '' or
        -1, which no real one is, and NULLIF stores NULL.
        """
        self._conn.executemany(_INSERT + _ROW, self._rows(run_id, last, events))

    def _rows(self, run_id: str, last: int, events: Iterable[Event]) -> list[tuple[Any, ...]]:
        rows = []
        for seq, e in enumerate(events, start=last + 1):
            # the columns, read from the model's field dict in one attribute access: every
            # attribute read through pydantic's __getattr__ hook costs a few hundred instructions
            f = e.__dict__
            item, attempt = f["item"], f["attempt"]
            rows.append(
                (
                    seq, run_id, f["type"], f["step"] or "", -1 if item is None else item,
                    -1 if attempt is None else attempt, f["ts"], self._encode(run_id, e),
                )
            )
        return rows

    def _flat_rows(self, run_id: str, last: int, events: Iterable[Event]) -> list[Any]:
        """The parameters of `_insert_statement`: every row's values, one after another."""
        values: list[Any] = []
        for row in self._rows(run_id, last, events):
            values += row
        return values

    def _encode(self, run_id: str, event: Event) -> str:
        """The event as JSON; an output bigger than INLINE_OUTPUT_LIMIT goes to a file first."""
        if type(event) is not OutputStored or event.output is None:  # (see RunState.apply on isinstance)
            # the model's serializer itself: model_dump_json's keyword handling costs more than the JSON
            return event.__pydantic_serializer__.to_json(event, exclude_none=True).decode()
        serializer = event.__pydantic_serializer__
        try:  # the common case, in one pass: plain JSON data, the whole event smaller than the limit
            whole: bytes | None = serializer.to_json(event, exclude_none=True)
        except PydanticSerializationError:  # a value JSON has no type for, or a lone surrogate
            # (fallback=str only here: passing it costs about 40 % more even when it is never used)
            try:
                whole = serializer.to_json(event, exclude_none=True, fallback=str)
            except PydanticSerializationError:
                whole = None
        if whole is not None and len(whole) <= INLINE_OUTPUT_LIMIT:
            return whole.decode()
        data = encode_output(event.output)
        if len(data) > INLINE_OUTPUT_LIMIT:
            suffix = f".{event.item}" if event.item is not None else ""
            relative = f"outputs/{event.step}{suffix}-{event.attempt or 0}.json"
            digest = self.store_blob(run_id, relative, data)
            moved = event.model_copy(update={"output": None, "path": relative, "size": len(data), "sha256": digest})
            return moved.model_dump_json(exclude_none=True)
        head = event.model_dump_json(exclude_none=True, exclude={"output"})
        return f'{head[:-1]},"output":{data.decode()}}}'  # the output serialized once, spliced in

    def store_blob(self, run_id: str, relative: str, data: bytes) -> str:
        """Write a file of the run dir (before the event naming it); returns its sha256."""
        write_file_atomically(self.run_dir(run_id) / relative, data)
        return hashlib.sha256(data).hexdigest()

    # -- reading ---------------------------------------------------------

    def run(self, run_id: str) -> RunRecord:
        row = self._conn.execute(
            "SELECT run_id, plan_name, plan_sha256, status, created_at, updated_at FROM runs WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no run {run_id!r} in {self.state_dir}", where=run_id)
        return _record(row)

    def plan(self, run_id: str) -> Plan:
        """The plan the run was created with."""
        return decode_plan(self._stored_plan(run_id))

    def plan_json(self, run_id: str) -> str:
        """The run's plan as a plain plan document (`Plan.model_validate_json` reads it)."""
        text = self._stored_plan(run_id)
        if text.startswith('{"format":"' + ENVELOPE):
            return decode_plan(text).model_dump_json(by_alias=True)
        return text

    def _stored_plan(self, run_id: str) -> str:
        row = self._conn.execute(
            "SELECT plans.plan_json FROM runs JOIN plans ON plans.sha256 = runs.plan_sha256 WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no run {run_id!r} in {self.state_dir}", where=run_id)
        return str(row[0])

    def runs(self, limit: int = 50) -> list[RunRecord]:
        rows = self._conn.execute(
            "SELECT run_id, plan_name, plan_sha256, status, created_at, updated_at FROM runs"
            " ORDER BY created_at DESC, run_id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [_record(r) for r in rows]

    def events(self, run_id: str, after: int = 0) -> list[Event]:
        """The run's events in order, those with `seq > after` (none for an unknown run)."""
        try:
            base = self._base(run_id)
        except NotFoundError:
            return []
        rows = self._conn.execute(
            "SELECT seq, data FROM events WHERE seq > ? AND seq < ? ORDER BY seq", (max(after, base), base + _RANGE)
        ).fetchall()
        events: list[Event] = []
        for seq, data in rows:
            try:
                events.append(parse_event(data, seq))
            except ValueError as exc:  # not JSON, or not an event (ValidationError)
                why = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
                raise ConfigError(
                    f"event {seq - base} of run {run_id} cannot be read ({why}): the journal is damaged",
                    where=str(self.db_path),
                ) from None
        return events

    def kept_summary(self, run_id: str, form: str) -> str | None:
        """The listing summary kept for the run, if it was made in `form` from the
        run's events as they are now (none was appended since)."""
        row = self._conn.execute(
            "SELECT last_seq, form, summary_json FROM run_summaries WHERE run_id = ?", (run_id,)
        ).fetchone()
        if row is None or row[1] != form or row[0] != self._last_seq(self._base(run_id)):
            return None
        return str(row[2])

    def keep_summary(self, run_id: str, form: str, last_seq: int, summary_json: str) -> None:
        """Keep a listing summary made from the run's events up to `last_seq`. A cache:
        a journal this process may not write (another user's) keeps nothing, silently."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute(
                "INSERT OR REPLACE INTO run_summaries (run_id, last_seq, form, summary_json) VALUES (?, ?, ?, ?)",
                (run_id, last_seq, form, summary_json),
            )

    def load_output(self, run_id: str, relative: str) -> Any:
        return json.loads((self.run_dir(run_id) / relative).read_bytes())


def _status_of(event: Event) -> str:
    if isinstance(event, RunFinished):
        return str(event.status)
    return {"run_created": "pending", "run_started": "running", "run_paused": "paused"}[event.type]


def _record(row: tuple[Any, ...]) -> RunRecord:
    return RunRecord(
        run_id=row[0], plan_name=row[1], plan_sha256=row[2], status=row[3], created_at=row[4], updated_at=row[5]
    )
