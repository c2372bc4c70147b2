"""Housekeeping's connection to the journal: what SQLite raises leaves as a JournalError."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import JournalError
from orchestrator.journal import Journal
from orchestrator.journal.housekeeping import Housekeeper


def test_an_error_of_sqlite_inside_the_block_leaves_it_as_a_journal_error(tmp_path: Path) -> None:
    with Journal(tmp_path):
        pass
    with pytest.raises(JournalError, match="the journal cannot be used"), Housekeeper(tmp_path) as keeper:
        keeper._conn.execute("SELECT * FROM no_such_table")


def test_other_errors_pass_through_unchanged(tmp_path: Path) -> None:
    with Journal(tmp_path):
        pass
    with pytest.raises(KeyError), Housekeeper(tmp_path):
        raise KeyError("mine")
