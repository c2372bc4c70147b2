"""Real `skillweave worker` and `skillweave` client processes against the session's dev server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from orchestrator.temporal.config import TemporalSettings

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
ROOT = Path(__file__).resolve().parents[3]
READY = "polling task queue"
T = TypeVar("T")


def wait_for(check: Callable[[], T], timeout: float, what: str) -> T:
    """`check()` once it is truthy, polled until `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(0.05)


@dataclass
class WorkerProcess:
    name: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def identity(self) -> str:
        for line in self.log.read_text().splitlines():
            if READY in line:
                return line.split()[1]
        return ""

    def output(self) -> str:
        return self.log.read_text()


@dataclass
class Kit:
    address: str
    task_queue: str
    root: Path
    workers: list[WorkerProcess] = field(default_factory=list)

    @property
    def blob_dir(self) -> Path:
        return self.root / "blobs"

    def env(self, **extra: str) -> dict[str, str]:
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
        return {
            **clean,
            "SKILLWEAVE_TEMPORAL_ADDRESS": self.address,
            "SKILLWEAVE_TEMPORAL_TASK_QUEUE": self.task_queue,
            "SKILLWEAVE_BLOB_DIR": str(self.blob_dir),
            **extra,
        }

    def settings(self) -> TemporalSettings:
        return TemporalSettings(address=self.address, task_queue=self.task_queue, blob_dir=self.blob_dir)

    # -- workers ---------------------------------------------------------

    def worker(self, name: str, *args: str, **env: str) -> WorkerProcess:
        """A `skillweave worker` with a state directory of its own, once it polls."""
        state = self.root / name
        log = self.root / f"{name}.log"
        with log.open("wb") as sink:  # the child keeps its own copy of the descriptor
            process = subprocess.Popen(
                [SKILLWEAVE, "worker", "--state-dir", str(state), *args],
                stdout=subprocess.DEVNULL, stderr=sink, cwd=self.root, env=self.env(**env),
                start_new_session=True,
            )
        found = WorkerProcess(name, process, log)
        self.workers.append(found)
        wait_for(lambda: READY in log.read_text() or process.poll() is not None, 60, f"worker {name} to poll")
        assert process.poll() is None, f"worker {name} exited:\n{log.read_text()}"
        return found

    def kill(self, worker: WorkerProcess) -> None:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.process.wait(timeout=10)

    def stop_workers(self) -> None:
        for worker in self.workers:
            if worker.process.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in self.workers:
            try:
                worker.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.process.wait()

    # -- the client ------------------------------------------------------

    def skillweave(self, *args: str | Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
        command = [SKILLWEAVE, *map(str, args)]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=self.root, env=self.env(**env),
            check=False,
        )
        assert "Traceback" not in done.stdout + done.stderr, done.stderr
        return done

    def run_json(self, *args: str | Path, timeout: float = 120, **env: str) -> tuple[int, dict[str, Any]]:
        """`skillweave ... --json --backend temporal --state-dir <root>/client`: (exit code, document)."""
        done = self.skillweave(*args, "--json", "--backend", "temporal", "--state-dir", self.root / "client",
                               timeout=timeout, **env)
        try:
            return done.returncode, json.loads(done.stdout)
        except ValueError:
            raise AssertionError(f"not one JSON document (exit {done.returncode}):\n{done.stdout}\n{done.stderr}") from None
