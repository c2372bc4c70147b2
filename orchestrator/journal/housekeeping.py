"""Removing runs from a state directory: their journal rows, then their folder.

    with Housekeeper(state_dir) as keeper:
        for record in keeper.select(statuses=FINISHED, before=cutoff, keep=10):
            if keeper.remove(record.run_id, statuses=FINISHED) == "removed":
                keeper.remove_folder(record.run_id)
        keeper.remove_orphan_folders()
        keeper.vacuum_if_shrunk()

`remove` deletes a run's events, kept summary, row and (when no other run uses
it) its plan in one transaction, under the write lock, after reading the run's
status again inside it: a run whose status is not one of `statuses` (a run that
is running, paused or pending, unless the caller allows it) is refused, and so is
one with an event after `unchanged_since` (another process wrote to it since it
was inspected). A run is thus either wholly in the journal or wholly gone.

Its folder (`runs/<id>/`) is removed after that commit, never before: a process
killed in between leaves the folder of a run the journal no longer has, which no
event points into, and which the next `remove_orphan_folders` removes (a folder is
made only after its run's row is committed, so a folder listed before the run ids
are read is an orphan exactly when its run is not among them).

The database file does not shrink when rows go: freed pages are reused. It is
vacuumed when at least a quarter of its pages are free and they add up to at least
1 MiB (`VACUUM_FREE_SHARE`, `VACUUM_FREE_BYTES`), then its WAL is truncated. A
vacuum that cannot have the lock (another process writes) is skipped, and said.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from orchestrator.journal.db import SEQ_BITS, connect
from orchestrator.journal.session import journal_error
from orchestrator.journal.store import DB_NAME, RUNS_DIR, RunRecord

FINISHED = frozenset({"succeeded", "degraded", "failed", "escalated"})
VACUUM_FREE_SHARE = 0.25
VACUUM_FREE_BYTES = 1 << 20

_RANGE = 1 << SEQ_BITS
Removal = Literal["removed", "gone", "refused", "changed"]


class JournalSize(BaseModel):
    model_config = ConfigDict(frozen=True)

    pages: int
    free_pages: int
    page_size: int

    @property
    def bytes(self) -> int:
        return self.pages * self.page_size

    @property
    def free_bytes(self) -> int:
        return self.free_pages * self.page_size

    @property
    def worth_vacuuming(self) -> bool:
        return self.free_bytes >= VACUUM_FREE_BYTES and self.free_pages >= VACUUM_FREE_SHARE * self.pages


class Housekeeper:
    """One connection to a state directory's journal, for removing runs. Not shared between threads.

    What SQLite raises, opening it or within a `with` block, leaves as a `JournalError`
    (busy, full or damaged), as from `orchestrator.journal.session`."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        try:
            self._conn = connect(self.state_dir / DB_NAME)
        except sqlite3.Error as exc:
            raise journal_error(exc, self.state_dir) from exc

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Housekeeper:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        self.close()
        if isinstance(exc, sqlite3.Error):
            raise journal_error(exc, self.state_dir) from exc

    def run_dir(self, run_id: str) -> Path:
        return self.state_dir / RUNS_DIR / run_id

    # -- choosing ------------------------------------------------------------

    def select(
        self,
        *,
        statuses: Iterable[str] = FINISHED,
        before: float | None = None,
        keep: int = 0,
        plan_name: str | None = None,
    ) -> list[RunRecord]:
        """Runs with one of `statuses` (and of `plan_name`), newest first, less the `keep`
        newest of them, last changed (a finished run: finished) before `before`."""
        wanted = sorted(set(statuses))
        if not wanted:
            return []
        where = f"status IN ({', '.join('?' * len(wanted))})"
        params: list[object] = list(wanted)
        if plan_name is not None:
            where += " AND plan_name = ?"
            params.append(plan_name)
        rows = self._conn.execute(
            "SELECT run_id, plan_name, plan_sha256, status, created_at, updated_at FROM runs"
            f" WHERE {where} ORDER BY created_at DESC, run_id DESC",
            params,
        ).fetchall()
        records = [
            RunRecord(run_id=r[0], plan_name=r[1], plan_sha256=r[2], status=r[3], created_at=r[4], updated_at=r[5])
            for r in rows[keep:]
        ]
        return [r for r in records if before is None or r.updated_at < before]

    def record(self, run_id: str) -> RunRecord | None:
        row = self._conn.execute(
            "SELECT run_id, plan_name, plan_sha256, status, created_at, updated_at FROM runs WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            return None
        return RunRecord(run_id=row[0], plan_name=row[1], plan_sha256=row[2], status=row[3], created_at=row[4],
                         updated_at=row[5])

    def last_seq(self, run_id: str) -> int | None:
        """The sequence number of the run's latest event (None: no such run)."""
        row = self._conn.execute("SELECT seq_base FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return self._last_seq(int(row[0]))

    def _last_seq(self, base: int) -> int:
        row = self._conn.execute(
            "SELECT max(seq) FROM events WHERE seq >= ? AND seq < ?", (base, base + _RANGE)
        ).fetchone()
        return int(row[0]) if row and row[0] is not None else base

    # -- removing ------------------------------------------------------------

    def remove(self, run_id: str, *, statuses: Iterable[str] = FINISHED, unchanged_since: int | None = None) -> Removal:
        """Delete the run from the journal in one transaction (see the module docstring)."""
        allowed = set(statuses)
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT status, seq_base, plan_sha256 FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                conn.execute("ROLLBACK")
                return "gone"
            status, base, plan = str(row[0]), int(row[1]), str(row[2])
            if status not in allowed:
                conn.execute("ROLLBACK")
                return "refused"
            if unchanged_since is not None and self._last_seq(base) != unchanged_since:
                conn.execute("ROLLBACK")
                return "changed"
            conn.execute("DELETE FROM events WHERE seq >= ? AND seq < ?", (base, base + _RANGE))
            conn.execute("DELETE FROM run_summaries WHERE run_id = ?", (run_id,))
            conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
            conn.execute(
                "DELETE FROM plans WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM runs WHERE plan_sha256 = ?)",
                (plan, plan),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT (a full disk) may have rolled back already
                conn.execute("ROLLBACK")
            raise
        return "removed"

    def remove_folder(self, run_id: str) -> int:
        """Remove the run's folder (after `remove`); the bytes its files held."""
        return _remove_tree(self.run_dir(run_id))

    def remove_orphan_folders(self) -> list[tuple[str, int]]:
        """Remove the folders of runs the journal does not have (left by a removal cut short);
        (run id, bytes) of each."""
        root = self.state_dir / RUNS_DIR
        try:
            folders = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        except FileNotFoundError:
            return []
        known = {row[0] for row in self._conn.execute("SELECT run_id FROM runs")}  # read after listing
        return [(name, _remove_tree(root / name)) for name in folders if name not in known]

    # -- space ---------------------------------------------------------------

    def size(self) -> JournalSize:
        pages = int(self._conn.execute("PRAGMA page_count").fetchone()[0])
        free = int(self._conn.execute("PRAGMA freelist_count").fetchone()[0])
        page_size = int(self._conn.execute("PRAGMA page_size").fetchone()[0])
        return JournalSize(pages=pages, free_pages=free, page_size=page_size)

    def vacuum_if_shrunk(self) -> tuple[bool, str]:
        """VACUUM when enough of the file is free (see the module docstring); (done, why not)."""
        size = self.size()
        if not size.worth_vacuuming:
            return False, (f"{size.free_bytes} of {size.bytes} bytes free: under a quarter or under 1 MiB")
        try:
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:  # another process holds the lock
            return False, f"not vacuumed: {exc}"
        return True, ""


def _remove_tree(folder: Path) -> int:
    total = 0
    if not folder.is_dir():
        return 0
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)
    return total
