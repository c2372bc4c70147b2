"""Opening the journal: a bad state directory or file is the user's error, named, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.journal.db import connect


def test_a_file_that_is_not_a_journal_is_a_config_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "journal.db"
    bad.write_text("not a database at all, just text " * 100)

    with pytest.raises(ConfigError, match="cannot open the journal: file is not a database") as caught:
        connect(bad)
    assert caught.value.where == str(bad)


def test_a_state_directory_that_cannot_be_made_is_a_config_error_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state directory should be")

    with pytest.raises(ConfigError, match="cannot create the state directory") as caught:
        connect(blocker / "journal.db")
    assert caught.value.where == str(blocker)
