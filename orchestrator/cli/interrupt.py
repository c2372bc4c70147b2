"""Ctrl-C for `run` and `resume`: the run's event loop, stopped in bounded time.

`run(main, Interrupts(stop_now))` is `asyncio.run(main)` with three differences while the
loop runs (and, after a Ctrl-C, until the process ends):

- a SIGINT wakes the loop whichever thread the kernel gave it to. The kernel hands
  a process's signal to another thread when the main thread has it blocked for a
  moment (glibc blocks every signal while it starts a thread, CPython while it
  forks); the interpreter then only notes it, and a loop asleep in `epoll_wait`
  (a call in flight, its deadline minutes away) would not see it until then.
  A wake-up pipe (`signal.set_wakeup_fd`) that the loop reads ends that sleep;
- the first Ctrl-C cancels the run's task, which stops its steps and closes its
  sessions as before, and the command exits 130 (KeyboardInterrupt, as asyncio.run
  gives). It also arms a watchdog: a command still there `GRACE_S` later is stopped
  now (`stop_now`), whatever it waits for;
- a second Ctrl-C stops it now (`stop_now(why)`): the command's `stop_now` ends the
  MCP client process (its servers die with it, as sandboxed scripts die with the
  command) and exits 130 without waiting, which leaves the journal as a SIGKILL
  does: resumable.

A command started with SIGINT ignored (a background job without job control,
`nohup`) keeps it ignored, as Python and asyncio.run leave it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

GRACE_S = 30.0  # the closing of a run after Ctrl-C takes seconds; longer than this, it is stuck


class Interrupts:
    """The SIGINT handler, the wake-up pipe and the watchdog of one `run`."""

    def __init__(self, stop_now: Callable[[str], None], grace_s: float = GRACE_S) -> None:
        self.count = 0
        self.task: asyncio.Task[Any] | None = None
        self._stop_now = stop_now
        self._grace_s = grace_s
        self._watchdog: threading.Timer | None = None
        self._wake_r = self._wake_w = -1
        self._previous: Any = None
        self._previous_fd = -1

    def install(self) -> None:
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            os.set_blocking(fd, False)
        self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        self._previous_fd = signal.set_wakeup_fd(self._wake_w, warn_on_full_buffer=False)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Have `loop` read the wake-up pipe: a SIGINT caught by any thread wakes it."""
        loop.add_reader(self._wake_r, self._drain)

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self._wake_r, 4096):
                pass

    def _on_sigint(self, signum: int, frame: Any) -> None:
        """In the main thread, at its next bytecode (the wake-up pipe makes that soon)."""
        self.count += 1
        if self.count > 1:
            self._stop_now("interrupted again")  # the command's does not return
            return
        self._watchdog = threading.Timer(self._grace_s, self._stop_now, (f"still stopping after {self._grace_s:g}s",))
        self._watchdog.daemon = True
        self._watchdog.start()
        task = self.task
        if task is not None and not task.done():
            task.cancel()

    async def guard(self, main: Coroutine[Any, Any, T]) -> T:
        self.task = asyncio.current_task()
        if self.count:  # Ctrl-C before the task existed
            main.close()
            raise asyncio.CancelledError
        return await main

    def leave(self) -> None:
        """After the loop: stop reading the pipe. Interrupted, the handler and the
        watchdog stay (a second Ctrl-C still stops the command now, and so does the
        watchdog if the command's end hangs); otherwise the previous handler returns."""
        signal.set_wakeup_fd(self._previous_fd)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if not self.count:
            signal.signal(signal.SIGINT, self._previous)

    def disarm(self) -> None:
        """Cancel the watchdog (for callers that go on in the same process: tests)."""
        if self._watchdog is not None:
            self._watchdog.cancel()


def run(main: Coroutine[Any, Any, T], interrupts: Interrupts) -> T:
    """`asyncio.run(main)`, where Ctrl-C ends it in bounded time (module docstring).
    Interrupted, it raises KeyboardInterrupt. Off the main thread, or where SIGINT is not
    Python's default (ignored, as a background job starts), plain asyncio.run."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):  # SIGINT ignored (a background job, nohup) or handled by our caller: theirs, as asyncio.run leaves it
        return asyncio.run(main)
    interrupts.install()  # before the runner: asyncio.Runner installs none of its own then
    try:
        with asyncio.Runner() as runner:
            interrupts.attach(runner.get_loop())
            try:
                return runner.run(interrupts.guard(main))
            except asyncio.CancelledError:
                if interrupts.count:
                    raise KeyboardInterrupt from None
                raise
    finally:
        interrupts.leave()
