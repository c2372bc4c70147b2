"""Ctrl-C around the run's event loop (`orchestrator.cli.interrupt`), with real signals.

Each test sends SIGINT to this process (to the main thread, or to another thread,
as the kernel does when the main thread has it blocked for a moment) and restores
the handler afterwards: an interrupted `run` leaves its handler in place for the
rest of the command.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.cli import interrupt
from orchestrator.cli.interrupt import Interrupts
from orchestrator.mcp_client.transport import process_gone

WAIT_S = 60.0


@pytest.fixture(autouse=True)
def sigint_handler_restored() -> Iterator[None]:
    previous = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, previous)


class Stops:
    """A `stop_now` that records why and wakes the coroutine waiting for it (any thread)."""

    def __init__(self) -> None:
        self.why: list[str] = []
        self.stopped: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, why: str) -> None:
        self.why.append(why)
        if self.loop is not None and self.stopped is not None:
            self.loop.call_soon_threadsafe(self.stopped.set)

    async def wait(self) -> None:
        assert self.stopped is not None
        await asyncio.wait({asyncio.ensure_future(self.stopped.wait())}, timeout=WAIT_S)

    def attach(self) -> None:
        self.loop, self.stopped = asyncio.get_running_loop(), asyncio.Event()


def asleep(native_id: int) -> bool:
    with open(f"/proc/self/task/{native_id}/stat", "rb") as f:
        stat = f.read()
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] == b"S"


def sigint_from_another_thread_once_asleep(main_id: int) -> threading.Thread:
    """A thread that waits (bounded) until the main thread sleeps in the loop's poll, then
    takes a SIGINT itself: the interpreter notes it there; only a wake-up ends the poll."""

    def send() -> None:
        deadline = time.monotonic() + WAIT_S
        while not asleep(main_id) and time.monotonic() < deadline:
            time.sleep(0.005)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    return threading.Thread(target=send, daemon=True)


def test_a_ctrl_c_taken_by_another_thread_wakes_the_loop_and_ends_the_run_as_interrupted() -> None:
    ended: list[str] = []
    stops = Stops()
    interrupts = Interrupts(stops)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        woken: list[str] = []
        bound = threading.Timer(WAIT_S, loop.call_soon_threadsafe, (woken.append, "bound"))
        bound.start()  # what would wake the loop otherwise: a call's deadline, minutes later
        sigint_from_another_thread_once_asleep(threading.get_native_id()).start()
        try:
            await loop.create_future()  # a call in flight: nothing else wakes the loop
        except asyncio.CancelledError:
            ended.append("cancelled at the bound" if woken else "cancelled at the Ctrl-C")
            raise
        finally:
            bound.cancel()

    try:
        with pytest.raises(KeyboardInterrupt):
            interrupt.run(main(), interrupts)
    finally:
        interrupts.disarm()
    assert ended == ["cancelled at the Ctrl-C"]
    assert stops.why == []


def test_a_second_ctrl_c_stops_the_command_now_while_the_first_is_still_closing() -> None:
    stops = Stops()
    interrupts = Interrupts(stops)

    async def main() -> None:
        stops.attach()
        try:
            signal.raise_signal(signal.SIGINT)
            await asyncio.sleep(WAIT_S)
        except asyncio.CancelledError:
            signal.raise_signal(signal.SIGINT)  # the closing hangs; the person presses again
            await stops.wait()
            raise

    try:
        with pytest.raises(KeyboardInterrupt):
            interrupt.run(main(), interrupts)
    finally:
        interrupts.disarm()
    assert stops.why == ["interrupted again"]
    assert signal.getsignal(signal.SIGINT) == interrupts._on_sigint  # a third one still stops it now


def test_a_run_still_closing_after_the_grace_period_is_stopped_now() -> None:
    stops = Stops()
    interrupts = Interrupts(stops, grace_s=0.2)

    async def main() -> None:
        stops.attach()
        try:
            signal.raise_signal(signal.SIGINT)
            await asyncio.sleep(WAIT_S)
        except asyncio.CancelledError:
            await stops.wait()  # a closing that never ends by itself
            raise

    with pytest.raises(KeyboardInterrupt):
        interrupt.run(main(), interrupts)
    assert stops.why == ["still stopping after 0.2s"]


def test_a_run_not_interrupted_returns_its_value_and_restores_the_handler_and_wakeup_fd() -> None:
    previous = signal.getsignal(signal.SIGINT)
    interrupts = Interrupts(Stops())

    async def main() -> int:
        await asyncio.sleep(0)
        return 7

    assert interrupt.run(main(), interrupts) == 7
    assert signal.getsignal(signal.SIGINT) is previous
    assert signal.set_wakeup_fd(-1) == -1


def test_a_ctrl_c_while_the_command_loads_exits_130_with_one_line_not_clicks_aborted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    import orchestrator.cli as cli_module

    (tmp_path / "ctrl_c_on_import.py").write_text("raise KeyboardInterrupt  # Ctrl-C while it loads\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(cli_module.COMMANDS, "run", ("ctrl_c_on_import", "run", "Run."))
    result = CliRunner().invoke(cli_module.cli, ["run", "spec.md"])
    assert result.exit_code == 130, result.output
    assert result.output == "interrupted\n"


def test_a_run_started_with_sigint_ignored_keeps_ignoring_it_as_a_background_job_should() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    interrupts = Interrupts(Stops())

    async def main() -> str:
        signal.raise_signal(signal.SIGINT)
        await asyncio.sleep(0)
        return "went on"

    assert interrupt.run(main(), interrupts) == "went on"
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


STOP_NOW = """
import subprocess, sys
import click
from orchestrator.cli.run_cmd import _stopper
from orchestrator.mcp_client import process

process.state.process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(process.state.process.pid, flush=True)
with click.Context(click.Command("run"), info_name="run") as ctx:
    ctx.params["state_dir"] = "/tmp/st"
    stop_now = _stopper("20261127-000000-abcdef")
stop_now("interrupted again")
print("went on", flush=True)
"""


def test_stopping_the_command_now_kills_the_mcp_client_process_names_the_resume_and_exits_130() -> None:
    done = subprocess.run([sys.executable, "-c", STOP_NOW], capture_output=True, text=True, timeout=WAIT_S)
    assert done.returncode == 130, done.stderr
    child = int(done.stdout.split()[0])
    assert "went on" not in done.stdout
    assert done.stderr == (
        "interrupted again: run 20261127-000000-abcdef stopped now; "
        "continue with: skillweave resume 20261127-000000-abcdef --state-dir /tmp/st\n"
    )
    deadline = time.monotonic() + WAIT_S
    while not process_gone(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process_gone(child), "the MCP client process outlived the command"
