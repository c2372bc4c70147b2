"""A `for each` of 200 trivial sandboxed scripts against 200 bare interpreters, same concurrency.

    .venv/bin/python bench/fanout_bench.py                    # JSON on stdout
    .venv/bin/python bench/fanout_bench.py --items 200 --concurrency 4 --runs 5

In a temporary project, one skill (`bump`: JSON in, `{"n": n + 1}` out) and a
one-step spec whose step runs it `for each` item of a list. In each round, one
after the other (the order rotates):

- `bare`:   the same script as `python3 -I -S script.py` (the interpreter the
            sandbox runs, resolved), `--items` times, `--concurrency` at once,
            through the sandbox's own spawner (`spawn_process`), input on stdin;
- `raw_bwrap`: the sandbox's complete bwrap command and bootstrap, the same way,
            without the per-attempt bookkeeping (what bwrap and the namespaces cost);
- `sandbox`: `Sandbox.run` per item, the same concurrency, without the engine
            (work folders, environment, classification, artifact scan, clean-up);
- `engine`: the spec's run in this process (`create_run` + `execute_run`, the
            journal on, contracts checked), the sandbox as configured (bwrap here);
- `engine_warm`: the same with the opt-in fork server (SKILLWEAVE_SANDBOX_WARM=1).

Figures are wall times of the fan-out alone (the plan is compiled once, before);
the ratio divides the engine's median by the bare one's. Target: <= 1.3x.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.engine import RunStatus, create_run, execute_run
from orchestrator.plan.model import Plan
from orchestrator.sandbox import Isolation, Sandbox, SandboxRequest, SpawnRequest, spawn_process
from orchestrator.sandbox.bootstrap import bootstrap_command, precompile
from orchestrator.sandbox.detect import make_launcher, run_uid
from orchestrator.sandbox.environment import build_env
from orchestrator.sandbox.host import find_runtime, find_tools, running_as_root
from orchestrator.sandbox.launcher import Layout
from orchestrator.sandbox.model import ResourceLimits
from orchestrator.sandbox.workspace import make_attempt

SCRIPT = 'import json, sys\njson.dump({"n": json.load(sys.stdin)["n"] + 1}, sys.stdout)\n'
SKILL = """---
name: bump
description: Bench skill. Adds one to a number.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
---

Reads `{"n": int}` and writes `{"n": n + 1}`.
"""
SPEC = """name: fanout
description: bump each number of a list
inputs:
  numbers: {{type: array}}
steps:
  - id: bump
    skill: bump
    for_each: "n in numbers"
    input:
      n: "{{{{ n }}}}"
limits:
  concurrency: {concurrency}
  max_total_attempts: {attempts}
"""


def project(root: Path, concurrency: int, items: int) -> Path:
    skill = root / "skills" / "bump"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    spec = root / "fanout.yaml"
    spec.write_text(SPEC.format(concurrency=concurrency, attempts=items * 2 + 10))
    return spec


async def bare(script: Path, items: int, concurrency: int, workdir: Path) -> None:
    python = str(find_runtime().executable)
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> None:
        async with gate:
            result = await spawn_process(SpawnRequest(
                argv=(python, "-I", "-S", str(script)), env={"PATH": "/usr/bin:/bin"}, workdir=workdir,
                stdin=json.dumps({"n": n}).encode(), wall_s=60, max_stdout_bytes=1 << 20,
                max_stderr_bytes=1 << 20, stderr_tail_bytes=4096,
            ))  # fmt: skip
            if result.stdout != json.dumps({"n": n + 1}).encode():
                raise SystemExit(f"bare run {n}: {result.stdout!r} {result.stderr_tail!r}")

    await asyncio.gather(*(one(n) for n in range(items)))


def raw_bwrap_spawn(skill: Path, scratch: Path) -> Callable[[int], SpawnRequest] | None:
    """The sandbox's bwrap command and bootstrap for the skill's script, one work folder."""
    runtime = find_runtime()
    launcher = make_launcher(Isolation.BWRAP, runtime, find_tools(), as_root=running_as_root())
    if isinstance(launcher, str):
        return None
    uid = run_uid(launcher)
    _root, work, tmp = make_attempt(scratch, uid, private_tmp=launcher.private_tmp)
    layout = Layout(skill_dir=skill, entry="scripts/main.py", script=skill / "scripts" / "main.py",
                    workdir=work, tmpdir=tmp, uid=uid)  # fmt: skip
    inside = launcher.inside(layout)
    command = bootstrap_command(
        str(runtime.executable), limits=ResourceLimits(), workdir=inside.workdir, script=inside.script,
        import_paths=inside.import_paths, uid=inside.bootstrap_uid, code=precompile(SCRIPT.encode(), inside.script),
    )  # fmt: skip
    env, _ = build_env({}, home=inside.workdir, tmpdir=inside.tmpdir)
    argv = tuple(launcher.argv(layout, command))

    def request(n: int) -> SpawnRequest:
        return SpawnRequest(argv=argv, env=env, workdir=work, stdin=json.dumps({"n": n}).encode(), wall_s=60,
                            max_stdout_bytes=1 << 20, max_stderr_bytes=1 << 20, stderr_tail_bytes=4096,
                            info_fd=launcher.info_fd)  # fmt: skip

    return request


async def raw(make: Callable[[int], SpawnRequest], items: int, concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> None:
        async with gate:
            result = await spawn_process(make(n))
            if result.stdout != json.dumps({"n": n + 1}).encode():
                raise SystemExit(f"raw bwrap run {n}: {result.stdout!r} {result.stderr_tail!r}")

    await asyncio.gather(*(one(n) for n in range(items)))


async def sandboxed(skill: Path, items: int, concurrency: int) -> None:
    sandbox = Sandbox()
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> None:
        async with gate:
            result = await sandbox.run(SandboxRequest(skill_dir=skill, entry="scripts/main.py", input={"n": n}))
            if not result.ok or result.output != {"n": n + 1}:
                raise SystemExit(f"sandboxed run {n}: {result}")

    await asyncio.gather(*(one(n) for n in range(items)))


async def engine(plan: Plan, items: int, state: Path) -> None:
    settings = Settings(state_dir=state)
    run_id = create_run(plan, {"numbers": list(range(items))}, settings)
    summary = await execute_run(run_id, settings, plan=plan)
    if summary.status is not RunStatus.SUCCEEDED:
        raise SystemExit(f"the fan-out run ended {summary.status}: {summary.error}")
    if summary.outputs["bump"] != [{"n": n + 1} for n in range(items)]:
        raise SystemExit("the fan-out's outputs are not the items plus one")


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "median_s": round(statistics.median(ordered), 3),
        "min_s": round(ordered[0], 3),
        "max_s": round(ordered[-1], 3),
        "per_item_ms": round(statistics.median(ordered) * 1000 / max(1, ARGS_ITEMS[0]), 2),
    }


ARGS_ITEMS = [200]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--no-warm", action="store_true", help="leave out the fork-server case")
    args = parser.parse_args()
    ARGS_ITEMS[0] = args.items

    root = Path(tempfile.mkdtemp(prefix="skillweave-fanout-"))
    try:
        spec = project(root, args.concurrency, args.items)
        plan = compile_spec(spec, Settings(state_dir=root / "plan-state", skills_dirs=(root / "skills",)))
        script = root / "skills" / "bump" / "scripts" / "main.py"
        work = root / "bare"
        work.mkdir()
        walls: dict[str, list[float]] = {}
        counter = [0]

        def state() -> Path:
            counter[0] += 1
            return root / f"state-{counter[0]}"

        skill = root / "skills" / "bump"
        make = raw_bwrap_spawn(skill, root)
        cold = {"SKILLWEAVE_SANDBOX_WARM": "0"}
        cases: list[tuple[str, Callable[[], Awaitable[None]], dict[str, str]]] = [
            ("bare", lambda: bare(script, args.items, args.concurrency, work), {}),
            ("sandbox", lambda: sandboxed(skill, args.items, args.concurrency), cold),
            ("engine", lambda: engine(plan, args.items, state()), cold),
        ]
        if make is not None:
            cases.insert(1, ("raw_bwrap", lambda: raw(make, args.items, args.concurrency), {}))
        if not args.no_warm:
            cases.append(("engine_warm", lambda: engine(plan, args.items, state()), {"SKILLWEAVE_SANDBOX_WARM": "1"}))

        def timed(name: str, case: Callable[[], Awaitable[None]], env: dict[str, str], keep: bool) -> None:
            saved = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            try:
                start = time.perf_counter()
                asyncio.run(case())
                wall = time.perf_counter() - start
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            if keep:
                walls.setdefault(name, []).append(wall)

        load_before = os.getloadavg()
        for name, case, env in cases:  # warm-up: page cache, compiled bytecode, the sandbox probe
            timed(name, case, env, keep=False)
        for round_no in range(args.runs):
            shift = round_no % len(cases)
            for name, case, env in cases[shift:] + cases[:shift]:
                timed(name, case, env, keep=True)
        load_after = os.getloadavg()
    finally:
        shutil.rmtree(root, ignore_errors=True)

    figures = {name: spread(values) for name, values in walls.items()}
    base = figures["bare"]["median_s"]
    ratios = {f"{name} / bare": round(fig["median_s"] / base, 2) for name, fig in figures.items() if name != "bare"}
    result: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in load_after]},
        "items": args.items,
        "concurrency": args.concurrency,
        "runs": args.runs,
        "wall": figures,
        "ratios": ratios,
        "target": "engine / bare <= 1.3",
    }
    print(json.dumps(result, indent=2))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
