"""MCP tool-call cost: a reused stdio session against a new session per call; a 100-way fan-out.

    .venv/bin/python bench/mcp_bench.py            # JSON on stdout
    .venv/bin/python bench/mcp_bench.py --quick    # fewer repetitions

The tool is `get_docs` on the bundled docs server (a file read), over real stdio.

- reused:  one ServerPool; after a warm-up call (which starts the server), `calls`
           sequential calls, timed one by one, through `ServerPool.call` (the
           transport + SDK) and through `McpRunner.run` (adds the tool lookup,
           the inputSchema check and the output conversion). Target: ≤ 5 ms/call.
- fresh:   `fresh` calls, each with its own pool: spawn, handshake, tools/list,
           the call, shutdown and reaping. This is what "a new session per call"
           costs; most of it is the server's Python start-up and `import mcp`.
- fanout:  100 concurrent `McpRunner.run` calls on a new runner (the first one
           starts the server), per-server concurrency 4 (the default limit).
           `servers_started` counts sessions the pool opened, `distinct_pids` the
           server pids the outcomes report, `max_server_processes` the most docs
           server processes seen alive at once by a /proc sampler during the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.mcp_client.config import load_mcp_config
from orchestrator.mcp_client.pool import ServerPool
from orchestrator.mcp_client.runner import McpRunner
from orchestrator.plan.model import Plan, PlanStep, SpecRef
from orchestrator.policy import Limits
from orchestrator.runner import RunnerContext, StepRequest

SERVER, TOOL = "docs", "get_docs"
ARGUMENTS = {"module_name": "json"}


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "mean_ms": round(statistics.fmean(values) * 1000, 3),
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 3),
        "n": len(values),
    }


def _runner(run_dir: Path, concurrency: int = 4) -> McpRunner:
    plan = Plan(
        name="bench",
        spec=SpecRef(path=str(run_dir / "spec.md"), sha256="0", format="markdown"),
        steps=(PlanStep(id="fetch", name="Fetch", skill="fetch-docs"),),
        skills={},
        limits=Limits(per_server_concurrency=concurrency),
    )
    ctx = RunnerContext(settings=Settings(), plan=plan, run_id="bench", run_dir=run_dir)
    return McpRunner(ctx, config=load_mcp_config(None, env={}))


def _request(i: int) -> StepRequest:
    skill = BoundSkill(
        name="fetch-docs",
        kind=BuiltinKind.MCP,
        path="/fetch-docs",
        origin="bundled",
        sha256="0",
        server=SERVER,
        tool=TOOL,
    )
    return StepRequest(
        run_id="bench",
        step_id="fetch",
        attempt=1,
        idempotency_key=f"bench:fetch:1:{i}",
        skill=skill,
        input=dict(ARGUMENTS),
        timeout_s=30,
        item_index=i,
    )


async def bench_reused(calls: int, run_dir: Path) -> dict[str, Any]:
    pool = ServerPool(load_mcp_config(None, env={}), log_dir=run_dir / "reused")
    runner = _runner(run_dir / "reused-runner")
    try:
        started = time.perf_counter()
        await pool.call(SERVER, TOOL, ARGUMENTS)
        first_call_s = time.perf_counter() - started
        pool_times = []
        for _ in range(calls):
            t = time.perf_counter()
            await pool.call(SERVER, TOOL, ARGUMENTS)
            pool_times.append(time.perf_counter() - t)
        assert (await runner.run(_request(0))).ok
        runner_times = []
        for i in range(calls):
            t = time.perf_counter()
            outcome = await runner.run(_request(i))
            runner_times.append(time.perf_counter() - t)
            assert outcome.ok, outcome.failure
    finally:
        await pool.aclose()
        await runner.aclose()
    return {
        "first_call_with_server_start_ms": round(first_call_s * 1000, 1),
        "pool_call": _ms(pool_times),
        "runner_run": _ms(runner_times),
        "servers_started": pool.starts.get(SERVER, 0),
    }


async def bench_fresh(calls: int, run_dir: Path) -> dict[str, Any]:
    times = []
    for i in range(calls):
        t = time.perf_counter()
        pool = ServerPool(load_mcp_config(None, env={}), log_dir=run_dir / f"fresh-{i}")
        try:
            await pool.call(SERVER, TOOL, ARGUMENTS)
        finally:
            await pool.aclose()
        times.append(time.perf_counter() - t)
    return _ms(times)


def _docs_servers_alive() -> int:
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if (
            int(fields[1]) == os.getpid()
            and b"mcp_servers.docs" in cmdline
            and fields[0] not in (b"Z", b"X")
        ):
            count += 1
    return count


async def bench_fanout(items: int, run_dir: Path) -> dict[str, Any]:
    runner = _runner(run_dir / "fanout")
    seen: list[int] = []
    done = asyncio.Event()

    async def sample() -> None:
        while not done.is_set():
            seen.append(_docs_servers_alive())
            await asyncio.sleep(0.005)

    sampler = asyncio.create_task(sample())
    try:
        t = time.perf_counter()
        outcomes = await asyncio.gather(*(runner.run(_request(i)) for i in range(items)))
        wall = time.perf_counter() - t
    finally:
        done.set()
        await sampler
        await runner.aclose()
    return {
        "items": items,
        "all_ok": all(o.ok for o in outcomes),
        "wall_s_with_server_start": round(wall, 3),
        "servers_started": runner.pool.starts.get(SERVER, 0),
        "distinct_pids": len({o.meta.get("pid") for o in outcomes}),
        "max_server_processes": max(seen, default=0),
        "alive_after_aclose": _docs_servers_alive(),
    }


async def main(quick: bool) -> dict[str, Any]:
    calls, fresh = (100, 2) if quick else (500, 5)
    with tempfile.TemporaryDirectory(prefix="skillweave-mcp-bench-") as tmp:
        run_dir = Path(tmp)
        reused = await bench_reused(calls, run_dir)
        fresh_session = await bench_fresh(fresh, run_dir)
        fanout = await bench_fanout(100, run_dir)
    per_call = reused["runner_run"]["mean_ms"]
    return {
        "bench": "mcp",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "tool": f"{SERVER}/{TOOL}",
        "reused_session": reused,
        "new_session_per_call": fresh_session,
        "speedup_reused_vs_new": round(fresh_session["mean_ms"] / per_call, 1)
        if per_call
        else None,
        "target_reused_ms": 5.0,
        "target_met": per_call <= 5.0,
        "fanout": fanout,
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "max_rss_children_mb": round(
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
        ),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    json.dump(asyncio.run(main(args.quick)), sys.stdout, indent=2)
    sys.stdout.write("\n")
