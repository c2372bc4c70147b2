"""The spawner on its own, with real processes: the work directory it may remove, the kill."""

from __future__ import annotations

import os
import select
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.sandbox import SpawnRequest, spawn_process
from orchestrator.sandbox.process import _Child

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


# A command that outlives its child and then exits 1, as util-linux 2.38's unshare does
# when its child (the PID-namespace init) dies of SIGKILL: it cannot re-raise SIGKILL.
_EXITS_1_AFTER_ITS_CHILD = """
import os, signal, sys
kid = os.fork()
if kid == 0:
    signal.pause()
print(kid, flush=True)
_, status = os.waitpid(kid, 0)
sys.exit(1 if os.WIFSIGNALED(status) else 0)
"""


async def test_a_killed_tree_reports_the_kill_even_when_the_command_would_exit_after_its_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out_r, out_w = os.pipe()
    pid = os.posix_spawn(
        sys.executable,
        [sys.executable, "-c", _EXITS_1_AFTER_ITS_CHILD],
        dict(os.environ),
        file_actions=[(os.POSIX_SPAWN_DUP2, out_w, 1)],
        setsid=True,
    )
    os.close(out_w)
    child = _Child(pid)
    try:
        assert child.pidfd is not None, "this kernel has no pidfd"
        assert select.select([out_r], [], [], 30)[0], "the command did not start its child"
        kid = int(os.read(out_r, 64).split()[0])
        kid_fd = os.pidfd_open(kid)
        real = {"kill": os.kill, "killpg": os.killpg, "pidfd": signal.pidfd_send_signal}

        def descheduled(send: Callable[..., None]) -> Callable[..., None]:
            """Send the signal, then lose the CPU until the command could react (as under load)."""

            def _send(*args: int) -> None:
                send(*args)
                select.select([child.pidfd], [], [], 5)

            return _send

        monkeypatch.setattr(os, "kill", descheduled(real["kill"]))
        monkeypatch.setattr(os, "killpg", descheduled(real["killpg"]))
        monkeypatch.setattr(signal, "pidfd_send_signal", descheduled(real["pidfd"]))
        await child.kill_tree()
        monkeypatch.undo()
        child.reap()
        assert child.status is not None
        assert os.waitstatus_to_exitcode(child.status) == -signal.SIGKILL
        assert select.select([kid_fd], [], [], 0)[0], "its child outlived the kill"
        os.close(kid_fd)
    finally:
        child.kill_now()
        os.close(out_r)
