"""The fuzz worker (one per session) and the limits every fuzzed input runs under."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

WORKER = Path(__file__).with_name("worker.py")
REPO = Path(__file__).resolve().parents[2]
MEMORY = 512 << 20  # address space an input may add to the worker's
CPU_S = 20
WALL_S = 60.0


@dataclass(frozen=True)
class Verdict:
    code: int | None
    signal: int | None
    timed_out: bool
    grew_mb: float
    cpu_s: float
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return (f"exit {self.code}, signal {self.signal}, timed out {self.timed_out}, grew {self.grew_mb:.0f} MB, "
                f"cpu {self.cpu_s:.1f}s\nstdout: {self.stdout[-3000:]}\nstderr: {self.stderr[-3000:]}")


class Worker:
    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
        env["PYTHONPATH"] = str(REPO)
        self.process = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd=REPO)

    def run(self, *args: str | Path, cwd: Path) -> Verdict:
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"args": [str(a) for a in args], "cwd": str(cwd), "memory": MEMORY, "cpu_s": CPU_S,
                   "wall_s": WALL_S}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the fuzz worker died"
        return Verdict(**json.loads(line))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture(scope="session")
def worker() -> Iterator[Worker]:
    started = Worker()
    try:
        yield started
    finally:
        started.close()
