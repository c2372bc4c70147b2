"""Keeping journals open across engine calls: one connection per state directory.

Opening a journal costs a connection, its pragmas and the migration check, and
closing the last connection to the database makes SQLite checkpoint the WAL
into the database file, which flushes everything written since the last
checkpoint to disk (about 4.5 ms after a 200-step run on the dev VM). A process
that makes several engine calls in a row (`skillweave run` creating then
executing a run, the MCP server, the benchmarks) opens a session:

    with journal_session():
        run_id = create_run(plan, inputs, settings)
        summary = await execute_run(run_id, settings)

and every engine call in the block, in the thread that opened it (and the
asyncio tasks started from it), uses one open journal per state directory. The
WAL is then checkpointed by SQLite itself every 1000 pages (in the commit that
crosses the mark) and once more when the session closes. Durability is the
same either way: a commit is safe from a crash of the process when it returns
(`db`); what a session defers is only the flush that protects the last commits
against a power loss, which `synchronous=NORMAL` leaves to checkpoints anyway.

A call from another thread (a worker thread that copied the context) never
shares the session's connection: it opens and closes its own, as outside a
session.

What SQLite raises inside either block leaves it as a `JournalError` (busy, full or
damaged, naming the database file), so no caller ever meets a raw `sqlite3.Error`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from orchestrator.errors import JournalError
from orchestrator.hints import Hint, HintAction
from orchestrator.journal.store import DB_NAME, Journal

_BUSY = ("database is locked", "database table is locked", "database is busy")


def journal_error(exc: sqlite3.Error, state_dir: Path | None) -> JournalError:
    """What SQLite said, as the error of the tree that names the journal and the reason."""
    text = str(exc)
    where = str(Path(state_dir) / DB_NAME) if state_dir is not None else None
    if isinstance(exc, sqlite3.OperationalError) and any(b in text.lower() for b in _BUSY):
        return JournalError(f"the journal is busy: another process holds its lock ({text})", reason="busy",
                            where=where)
    if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
        return JournalError(f"the disk holding the journal is full ({text})", reason="full", where=where)
    return JournalError(f"the journal cannot be used ({type(exc).__name__}: {text}); it may be damaged: "
                        "move it aside", reason="damaged", where=where, hint=Hint(action=HintAction.CHOOSE_STATE_DIR))


class JournalSession:
    """The journals kept open by one `journal_session` block, by state directory."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()
        self._open: dict[str, Journal] = {}
        self.last_state_dir: Path | None = None  # the one used last (named by a JournalError)

    def journal(self, state_dir: Path) -> Journal:
        key = os.path.abspath(state_dir)
        self.last_state_dir = Path(state_dir)
        journal = self._open.get(key)
        if journal is None:
            journal = self._open[key] = Journal(Path(key))
        return journal

    def close(self) -> None:
        journals, self._open = list(self._open.values()), {}
        for journal in journals:
            journal.close()


_current: ContextVar[JournalSession | None] = ContextVar("skillweave_journal_session", default=None)


@contextmanager
def journal_session(session: JournalSession | None = None) -> Iterator[JournalSession]:
    """Keep the journals used in this block open until it ends.

    Nested blocks share the outer session. Given `session` (one a long-lived owner
    such as the MCP server's run registry keeps), the block uses it and leaves it
    open: its owner closes it.
    """
    outer = _current.get()
    if session is None and outer is not None and outer.thread == threading.get_ident():
        yield outer
        return
    owned = session is None
    active = session or JournalSession()
    token = _current.set(active)
    try:
        yield active
    except sqlite3.Error as exc:
        raise journal_error(exc, active.last_state_dir) from exc
    finally:
        _current.reset(token)
        if owned:
            active.close()


@contextmanager
def use_journal(state_dir: Path) -> Iterator[Journal]:
    """The open session's journal for `state_dir`, else a journal of its own, closed on exit."""
    try:
        session = _current.get()
        if session is not None and session.thread == threading.get_ident():
            yield session.journal(state_dir)
            return
        with Journal(state_dir) as journal:
            yield journal
    except sqlite3.Error as exc:
        raise journal_error(exc, state_dir) from exc
