"""Engine overhead against a plain asyncio baseline, measured in the same process.

    .venv/bin/python bench/engine_bench.py            # JSON on stdout
    .venv/bin/python bench/engine_bench.py --quick    # fewer repetitions

Workloads, each with a trivial in-process runner (returns a constant payload):

- chain:   200 steps, each depending on the previous one
- fanout:  one root and 1000 steps depending on it, concurrency 64
- chain_marginal: the per-step cost between a 200- and a 600-step chain

Each runs as: the baseline (a task per step under a semaphore, awaiting its
dependencies' futures), the engine with the journal off (`run_in_memory`), the
engine with the SQLite journal on (`create_run` + `execute_run`) on the journal
connection the process keeps open across runs (`journal_on`, as the MCP server
does) and on a connection of its own, opened and closed (with its checkpoint)
within the run's time (`journal_on_fresh`, as one `skillweave run` does), and
the journal on with a 50-field JSON Schema contract checked on every edge
(output and input). The runner says its attempts are contained (as the script
runner does under bwrap without network), so an attempt starts without a commit
of its own; `journal_on_effects` runs the same chain with a runner that does not
say so, standing for MCP tools and model calls: each attempt's start, and the
outputs before it, are committed before it runs. Figures are medians over the
repetitions, with means (`mean_*`) beside them. µs/step subtracts nothing.

Hold the targets against the mean. SQLite checkpoints the WAL every 1000 pages,
in the commit that crosses the mark: a 200-step chain writes ~400 pages, so two
runs in five of a kept connection carry a checkpoint (~5-6 ms: copying the pages
and two fsyncs) and the others none. The run times form two clusters, and with
40 % of the runs in the slow one a median sits near the edge between them and
jumps from one to the other with the phase of the checkpoints. For the kept cases
`checkpoint_runs` counts the runs during which the WAL restarted (its header's
salt changed, which happens only after a checkpoint; one made by a run's very
last commit shows in the next run), and `us_per_step_plain` /
`us_per_step_checkpoint` give the median of each cluster.
Peak memory (max RSS) for a 10 000-step fan-out with journal and contracts is
measured in a fresh subprocess.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.engine import create_run, execute_run, journal_session, plan_hash, run_in_memory
from orchestrator.journal.session import JournalSession
from orchestrator.plan.model import InputBinding, Plan, PlanStep, SpecRef
from orchestrator.policy import Limits
from orchestrator.runner import StepOutcome, StepRequest
from orchestrator.testing import fake_skill

FIELDS = 50
PAYLOAD = {f"field_{i}": f"value {i}" for i in range(FIELDS)}
SCHEMA50 = {
    "type": "object",
    "properties": {f"field_{i}": {"type": "string", "minLength": 1} for i in range(FIELDS)},
    "required": [f"field_{i}" for i in range(FIELDS)],
}
INPUT50 = {"type": "object", "properties": {"data": SCHEMA50}}


class InstantRunner:
    """The trivial runner: answers at once with a constant 50-field payload.

    `contained` says whether it tells the engine so (as the script runner does for
    a script under bwrap without network): a contained attempt starts without a
    commit of its own. Not contained, it stands for a step with outside effects (an
    MCP tool, a model call), whose start is committed before it runs.
    """

    kind = "script"

    def __init__(self, contained: bool = True) -> None:
        self._contained = contained

    def contained(self, skill: Any) -> bool:
        return self._contained

    async def run(self, request: StepRequest) -> StepOutcome:
        return StepOutcome(output=PAYLOAD)

    async def aclose(self) -> None:
        return None


def _step(sid: str, deps: list[str], contracts: bool) -> PlanStep:
    inputs = {"data": InputBinding(source="step", step=deps[0])} if deps else {}
    return PlanStep(
        id=sid,
        name=sid,
        skill="instant",
        depends_on=tuple(deps),
        inputs=inputs,
        input_schema=INPUT50 if contracts and deps else {},
        output_schema=SCHEMA50 if contracts else {},
    )


def build(shape: str, n: int, contracts: bool, concurrency: int) -> Any:
    if shape == "chain":
        steps = [_step(f"s{i}", [f"s{i - 1}"] if i else [], contracts) for i in range(n)]
    else:
        steps = [_step("root", [], contracts)] + [_step(f"s{i}", ["root"], contracts) for i in range(n)]
    limits = Limits(concurrency=concurrency, max_total_attempts=10 * len(steps) + 10)
    plan = Plan(
        name=f"{shape}-{n}",
        spec=SpecRef(path="<bench>", sha256="0" * 64, format="yaml"),
        steps=tuple(steps),
        skills={"instant": fake_skill("instant")},
        limits=limits,
    )
    return plan.model_copy(update={"sha256": plan_hash(plan)})  # hashed step by step: flat memory


async def baseline(shape: str, n: int, concurrency: int) -> float:
    """A task per step under a semaphore, each awaiting its dependencies."""

    async def work(_: Any) -> Any:
        return PAYLOAD

    ids = [f"s{i}" for i in range(n)]
    deps: dict[str, list[str]] = (
        {sid: ([ids[i - 1]] if i else []) for i, sid in enumerate(ids)}
        if shape == "chain"
        else {"root": [], **{sid: ["root"] for sid in ids}}
    )
    sem = asyncio.Semaphore(concurrency)
    t0 = time.perf_counter()
    loop = asyncio.get_running_loop()
    futures: dict[str, asyncio.Future[Any]] = {sid: loop.create_future() for sid in deps}

    async def one(sid: str) -> None:
        inputs = [await futures[d] for d in deps[sid]]
        async with sem:
            futures[sid].set_result(await work(inputs))

    await asyncio.gather(*(one(sid) for sid in deps))
    return time.perf_counter() - t0


class Timing:
    """Wall and CPU seconds of one run; `create` is the part spent in create_run;
    `checkpointed`: whether the WAL restarted during the run (None: not told)."""

    def __init__(self, wall: float, cpu: float, create: float = 0.0, checkpointed: bool | None = None) -> None:
        self.wall, self.cpu, self.create, self.checkpointed = wall, cpu, create, checkpointed


def wal_salt(state_dir: Path) -> bytes | None:
    """The salts of the journal's WAL header: SQLite draws new ones each time it
    restarts the WAL from its start, which it does only after a checkpoint."""
    try:
        with open(state_dir / "journal.db-wal", "rb") as wal:
            return wal.read(24)[16:24]
    except FileNotFoundError:
        return None


async def engine(plan: Any, journal: bool, state_dir: Path, contained: bool = True) -> Timing:
    runners = {"script": InstantRunner(contained)}
    w0, c0 = time.perf_counter(), time.process_time()
    if not journal:
        summary = await run_in_memory(plan, {}, runners=runners)
        create = 0.0
    else:
        settings = Settings(state_dir=state_dir)
        run_id = create_run(plan, {}, settings)
        create = time.perf_counter() - w0
        summary = await execute_run(run_id, settings, runners=runners, plan=plan)
    timing = Timing(time.perf_counter() - w0, time.process_time() - c0, create)
    assert summary.status.value == "succeeded", summary.error
    return timing


def run_once(plan: Any, mode: str, state_dir: Path, kept: JournalSession, contained: bool = True) -> Timing:
    """One run: `off` (no journal), `session` (on `kept`, the journal connection the
    process keeps open across runs, as the MCP server does) or `fresh` (a connection
    opened for the run and closed after it, as one `skillweave run` does: closing the
    last connection to the database checkpoints the WAL, and that is inside the time).

    Give each case a state directory of its own: a kept connection open on the same
    database would make the fresh close not the last one, and one case's runs would
    pay the checkpoints another case's writes made due."""
    if mode == "off":
        return asyncio.run(engine(plan, False, state_dir, contained))
    if mode == "session":
        before = wal_salt(state_dir)
        with journal_session(kept):
            timing = asyncio.run(engine(plan, True, state_dir, contained))
        timing.checkpointed = before is not None and wal_salt(state_dir) != before
        return timing
    w0, c0 = time.perf_counter(), time.process_time()
    with journal_session():
        inner = asyncio.run(engine(plan, True, state_dir, contained))
    return Timing(time.perf_counter() - w0, time.process_time() - c0, inner.create)


CASES = {  # name -> (contracts, mode, contained)
    "journal_off": (False, "off", True),
    "journal_on": (False, "session", True),
    "journal_on_contracts": (True, "session", True),
    "journal_on_fresh": (False, "fresh", True),
    "journal_on_effects": (False, "session", False),  # every attempt's start committed first
}


def measure(shape: str, n: int, concurrency: int, reps: int, state_dir: Path) -> dict[str, Any]:
    steps = n if shape == "chain" else n + 1
    plans = {False: build(shape, n, False, concurrency), True: build(shape, n, True, concurrency)}
    runs: dict[str, list[Timing]] = {"baseline": [], **{name: [] for name in CASES}}
    kept = {name: JournalSession() for name in CASES}  # one database and connection per case
    try:
        for name, (contracts, mode, contained) in CASES.items():  # warm up: imports, validators, connections
            for _ in range(2):
                run_once(plans[contracts], mode, state_dir / name, kept[name], contained)
        for _ in range(reps):
            c0 = time.process_time()
            wall = asyncio.run(baseline(shape, n, concurrency))
            runs["baseline"].append(Timing(wall, time.process_time() - c0))
            for name, (contracts, mode, contained) in CASES.items():
                runs[name].append(run_once(plans[contracts], mode, state_dir / name, kept[name], contained))
    finally:
        for session in kept.values():
            session.close()
    result: dict[str, Any] = {"shape": shape, "steps": steps, "concurrency": concurrency, "reps": reps}
    base = statistics.median(t.wall for t in runs["baseline"])
    for name, timings in runs.items():
        wall = statistics.median(t.wall for t in timings)
        mean = statistics.fmean(t.wall for t in timings)
        result[name] = {
            "total_ms": round(wall * 1e3, 2),
            "mean_ms": round(mean * 1e3, 2),
            "best_ms": round(min(t.wall for t in timings) * 1e3, 2),
            "cpu_ms": round(statistics.median(t.cpu for t in timings) * 1e3, 2),
            "create_run_ms": round(statistics.median(t.create for t in timings) * 1e3, 2),
            "us_per_step": round(wall / steps * 1e6, 1),
            "mean_us_per_step": round(mean / steps * 1e6, 1),
            "execute_us_per_step": round(statistics.median(t.wall - t.create for t in timings) / steps * 1e6, 1),
            "overhead_us_per_step": round((wall - base) / steps * 1e6, 1),
        }
        told = [t for t in timings if t.checkpointed is not None]
        if told:
            result[name].update(checkpoint_split(told, steps))
    return result


def checkpoint_split(timings: list[Timing], steps: int) -> dict[str, Any]:
    """How many runs carried a WAL checkpoint, and the median µs a step of each kind."""

    def per_step(group: list[Timing]) -> float | None:
        return round(statistics.median(t.wall for t in group) / steps * 1e6, 1) if group else None

    with_ckpt = [t for t in timings if t.checkpointed]
    plain = [t for t in timings if not t.checkpointed]
    return {
        "checkpoint_runs": f"{len(with_ckpt)}/{len(timings)}",
        "us_per_step_plain": per_step(plain),
        "us_per_step_checkpoint": per_step(with_ckpt),
    }


def marginal(short: int, long: int, reps: int, state_dir: Path) -> dict[str, Any]:
    """Per-step cost of a longer chain minus a shorter one: the fixed per-run costs
    (creating the run, building the scheduler, the summary) cancel out. Means, so the
    WAL checkpoints SQLite makes every 1000 pages are counted."""
    result: dict[str, Any] = {"steps": [short, long]}
    kept = JournalSession()
    try:
        for journal, key in ((False, "journal_off_us_per_step"), (True, "journal_on_us_per_step")):
            mode = "session" if journal else "off"
            totals = []
            for n in (short, long):
                plan = build("chain", n, False, 64)
                folder = state_dir / f"marginal-{n}"
                run_once(plan, mode, folder, kept)
                totals.append(statistics.fmean(run_once(plan, mode, folder, kept).wall for _ in range(reps)))
            result[key] = round((totals[1] - totals[0]) / (long - short) * 1e6, 1)
    finally:
        kept.close()
    return result


def memory_child(n: int) -> None:
    """Run an n-step fan-out with journal and contracts; print max RSS in MB."""
    with tempfile.TemporaryDirectory() as tmp:
        plan = build("fanout", n - 1, True, 64)
        elapsed = asyncio.run(engine(plan, True, Path(tmp))).wall
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"steps": n, "max_rss_mb": round(rss_kb / 1024, 1), "total_s": round(elapsed, 2)}))


def memory(n: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(n)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, smaller memory plan")
    parser.add_argument("--reps", type=int, default=15, help="repetitions (the chain runs twice as many)")
    parser.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.memory_child)
        return
    reps = 1 if args.quick else args.reps
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        results = {
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
            # twice the repetitions: a mean over ~12 checkpoint cycles (see the module docstring)
            "chain": measure("chain", 200, 64, 2 * reps, state),
            "fanout": measure("fanout", 1000, 64, reps, state),
            "chain_marginal": marginal(200, 600, reps, state),
            "memory": memory(2000 if args.quick else 10_000),
        }
    results["machine"]["load_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]  # before, after
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
