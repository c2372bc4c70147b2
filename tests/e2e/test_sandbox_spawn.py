"""The spawner on its own, with a real process: the work directory it may remove."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from orchestrator.sandbox import SpawnRequest, spawn_process

pytestmark = pytest.mark.e2e


def _request(workdir: Path, script: str, *, remove: bool) -> SpawnRequest:
    return SpawnRequest(
        argv=(sys.executable, "-c", script),
        env={},
        workdir=workdir,
        wall_s=15,
        max_stdout_bytes=1 << 16,
        max_stderr_bytes=1 << 16,
        stderr_tail_bytes=1024,
        remove_empty_workdir=remove,
    )


@pytest.mark.parametrize("remove", [True, False])
async def test_an_empty_work_directory_goes_once_the_command_exits_when_asked(
    tmp_path: Path, remove: bool
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    result = await spawn_process(_request(work, "import os; os.listdir('.')", remove=remove))
    assert result.returncode == 0
    assert result.workdir_removed is remove
    assert work.exists() is not remove


async def test_a_work_directory_with_files_stays_for_the_artifact_scan(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    script = f"open({str(work / 'out.txt')!r}, 'w').write('x')"
    result = await spawn_process(_request(work, script, remove=True))
    assert result.returncode == 0 and not result.workdir_removed
    assert (work / "out.txt").read_text() == "x"
