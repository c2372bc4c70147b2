"""The journal's SQLite database: connection settings and ordered, recorded migrations.

One database file holds every run of a state directory (`journal.db`), shared by
the CLI and the MCP server. It runs in WAL mode with `synchronous=NORMAL`: a
committed transaction survives the death of the process at any instant (SIGKILL
included), because the WAL is written before COMMIT returns; only a power loss or
an OS crash may drop the last transactions, which the engine then redoes as if
they had been in flight. A busy timeout lets a shell and a server share the file.

Migrations are applied in order, each once, in its own transaction, and recorded
in `_migrations` by name, so an old database is upgraded when it is opened.
Never edit a released migration; append a new one.

Events are keyed by run: each run owns a range of 2**32 sequence numbers,
starting at its `runs.seq_base` (a multiple of 2**32 above every event so far),
and numbers its events base + 1, + 2, ... A run's events are thus one range of
the events table's primary key: reading or appending to a run needs no
secondary index, which would cost a second B-tree page in every commit.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from orchestrator.errors import ConfigError
from orchestrator.hints import Hint, HintAction

BUSY_TIMEOUT_MS = 10_000
SEQ_BITS = 32  # a run's events are numbered within [rowid << SEQ_BITS, (rowid + 1) << SEQ_BITS)

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "m001_plans_runs_events",
        """
        CREATE TABLE plans (
            sha256     TEXT PRIMARY KEY,
            plan_json  TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE runs (
            run_id      TEXT PRIMARY KEY,
            plan_name   TEXT NOT NULL,
            plan_sha256 TEXT NOT NULL REFERENCES plans (sha256),
            status      TEXT NOT NULL,
            created_at  REAL NOT NULL,
            updated_at  REAL NOT NULL,
            inputs_json TEXT NOT NULL
        );
        CREATE INDEX runs_by_created ON runs (created_at);
        CREATE TABLE events (
            seq     INTEGER PRIMARY KEY,
            run_id  TEXT NOT NULL,
            type    TEXT NOT NULL,
            step    TEXT,
            item    INTEGER,
            attempt INTEGER,
            ts      REAL NOT NULL,
            data    TEXT NOT NULL
        );
        CREATE INDEX events_by_run ON events (run_id, seq);
        """,
    ),
    (
        # each run's events move to a range of their own (see the module docstring)
        "m002_events_keyed_by_run",
        """
        ALTER TABLE runs ADD COLUMN seq_base INTEGER;
        UPDATE runs SET seq_base = rowid << 32;
        UPDATE events SET seq = (SELECT runs.seq_base FROM runs WHERE runs.run_id = events.run_id) + seq
            WHERE run_id IN (SELECT run_id FROM runs);
        DROP INDEX events_by_run
        """,
    ),
    (
        # a finished run's listing summary, kept so `runs` need not replay every run
        "m003_run_summaries",
        """
        CREATE TABLE run_summaries (
            run_id       TEXT PRIMARY KEY REFERENCES runs (run_id),
            last_seq     INTEGER NOT NULL,
            form         TEXT NOT NULL,
            summary_json TEXT NOT NULL
        )
        """,
    ),
)


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating it if needed) and migrate the journal database at `path`.

    A state directory that cannot be made, or a file there that is not a journal, is the
    user's to fix: ConfigError naming the path, never a traceback.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot create the state directory: {exc.strerror or exc}",
            where=str(path.parent), hint=Hint(action=HintAction.CHOOSE_STATE_DIR),
        ) from None
    try:
        conn = sqlite3.connect(
            str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
        )
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn)
    except sqlite3.DatabaseError as exc:
        raise ConfigError(
            f"cannot open the journal: {exc}; move the file aside",
            where=str(path), hint=Hint(action=HintAction.CHOOSE_STATE_DIR),
        ) from None
    return conn


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY rowid")]


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply the migrations not yet recorded; returns the names applied now."""
    done = set(applied_migrations(conn))
    applied: list[str] = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # another process may have applied it while we waited for the lock
            if conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("COMMIT")
                continue
            for statement in filter(str.strip, sql.split(";")):
                conn.execute(statement)
            conn.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, time.time()))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT (a full disk) may have rolled back already
                conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied
