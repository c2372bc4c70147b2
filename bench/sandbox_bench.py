"""Cold start of a trivial JSON-in/JSON-out script: bare interpreter vs the sandbox.

    .venv/bin/python bench/sandbox_bench.py            # 30 runs of each, interleaved
    .venv/bin/python bench/sandbox_bench.py --runs 50
    .venv/bin/python bench/sandbox_bench.py --quick    # 10 runs, for a smoke check

Prints one JSON document. Every case spawns the same script with the same
input, round-robin (so drift on a shared machine hits every case alike), after
a few warm-up runs:

- bare_subprocess  `python3 -I -S script.py` with subprocess.run (the real
                   interpreter, resolved: no pyenv shim)
- bare_spawn       the same command through the sandbox's own spawner
                   (`spawn_process`: posix_spawn, pipes, pidfd, wait4)
- raw_bwrap        the sandbox's complete bwrap command and bootstrap through
                   `spawn_process`, without the per-attempt bookkeeping
- sandbox_<iso>    `Sandbox(force=iso).run(request)` end to end: work
                   directory, environment, spawn, classification, artifact
                   scan, clean-up
- sandbox_warm     `Sandbox(force=bwrap, warm=True).run(request)` end to end:
                   the same per run, the job forked from a pre-started server
                   (started during the warm-up rounds)
- path_python3     `python3` as found on PATH (a pyenv shim, when there is one)

`ratio` is sandbox_bwrap over bare_spawn (same spawning code on both sides),
`overhead_ms` their difference;
`ratio_vs_subprocess` is over bare_subprocess; `ratio_warm` is sandbox_warm
over bare_spawn. Targets: cold <= 1.3x bare, warm <= 5 ms per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from orchestrator.sandbox import (
    Isolation,
    Sandbox,
    SandboxRequest,
    SpawnRequest,
    probe_isolation,
    spawn_process,
)
from orchestrator.sandbox.bootstrap import bootstrap_command, precompile
from orchestrator.sandbox.detect import make_launcher, run_uid
from orchestrator.sandbox.environment import build_env
from orchestrator.sandbox.host import find_runtime, find_tools, running_as_root
from orchestrator.sandbox.launcher import Layout
from orchestrator.sandbox.model import ResourceLimits
from orchestrator.sandbox.workspace import make_attempt, remove_attempt

SCRIPT = 'import json, sys\njson.dump({"n": json.load(sys.stdin)["n"] + 1}, sys.stdout)\n'
INPUT = {"n": 41}
EXPECTED = b'{"n": 42}'
WARMUP = 3

Case = Callable[[], Awaitable[None]]


def _check(ok: bool, name: str) -> None:
    if not ok:
        raise SystemExit(f"{name}: the script did not answer {EXPECTED!r}")


def _subprocess_case(argv: list[str], name: str) -> Case:
    async def case() -> None:
        done = subprocess.run(argv, input=json.dumps(INPUT).encode(), capture_output=True)
        _check(done.stdout == EXPECTED, name)

    return case


def _spawn_case(
    argv: list[str], workdir: Path, name: str, env: dict[str, str], info_fd: int | None = None
) -> Case:
    request = SpawnRequest(
        argv=tuple(argv),
        env=env,
        stdin=json.dumps(INPUT).encode(),
        workdir=workdir,
        wall_s=30,
        max_stdout_bytes=1 << 20,
        max_stderr_bytes=1 << 20,
        stderr_tail_bytes=4096,
        info_fd=info_fd,
    )

    async def case() -> None:
        result = await spawn_process(request)
        _check(result.stdout == EXPECTED, name)

    return case


def _sandbox_case(sandbox: Sandbox, skill: Path, name: str) -> Case:
    request = SandboxRequest(skill_dir=skill, entry="main.py", input=INPUT)

    async def case() -> None:
        result = await sandbox.run(request)
        _check(result.ok and result.output == {"n": 42}, name)
        if any("warm path unavailable" in note for note in result.notes):
            raise SystemExit(f"{name}: {result.notes}")

    return case


def _raw_bwrap_case(skill: Path, scratch: Path) -> tuple[Case, Path] | None:
    runtime = find_runtime()
    launcher = make_launcher(Isolation.BWRAP, runtime, find_tools(), as_root=running_as_root())
    if isinstance(launcher, str):
        return None
    uid = run_uid(launcher)
    root, work, tmp = make_attempt(scratch, uid, private_tmp=launcher.private_tmp)
    layout = Layout(
        skill_dir=skill,
        entry="main.py",
        script=skill / "main.py",
        workdir=work,
        tmpdir=tmp,
        uid=uid,
    )
    inside = launcher.inside(layout)
    command = bootstrap_command(
        str(runtime.executable),
        limits=ResourceLimits(),
        workdir=inside.workdir,
        script=inside.script,
        import_paths=inside.import_paths,
        uid=inside.bootstrap_uid,
        code=precompile(SCRIPT.encode(), inside.script),
    )
    env, _ = build_env({}, home=inside.workdir, tmpdir=inside.tmpdir)
    argv = launcher.argv(layout, command)
    return _spawn_case(argv, work, "raw_bwrap", env, launcher.info_fd), root


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
        "p10_ms": round(ordered[int(0.1 * (len(ordered) - 1))] * 1000, 2),  # ~ a quiet host
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))] * 1000, 2),
        "min_ms": round(ordered[0] * 1000, 2),
        "n": len(ordered),
    }


async def measure(runs: int) -> dict[str, object]:
    load_before = list(os.getloadavg())
    python = str(find_runtime().executable)
    scratch = Path(tempfile.mkdtemp(prefix="skillweave-bench-"))
    cleanup: list[Path] = []
    sandboxes: list[Sandbox] = []
    try:
        skill = scratch / "skill"
        skill.mkdir(mode=0o755)
        (skill / "main.py").write_text(SCRIPT)
        (skill / "main.py").chmod(0o644)
        bare = [python, "-I", "-S", str(skill / "main.py")]
        cases: dict[str, Case] = {
            "bare_subprocess": _subprocess_case(bare, "bare_subprocess"),
            "bare_spawn": _spawn_case(bare, scratch, "bare_spawn", {}),
        }
        skipped: dict[str, str] = {}
        raw = _raw_bwrap_case(skill, scratch)
        if raw is not None:
            cases["raw_bwrap"], root = raw
            cleanup.append(root)
        for isolation in (Isolation.BWRAP, Isolation.UNSHARE, Isolation.NONE):
            reason = None if isolation is Isolation.NONE else probe_isolation(isolation)
            if reason is None:
                sandbox = Sandbox(force=isolation)
                cases[f"sandbox_{isolation}"] = _sandbox_case(sandbox, skill, str(isolation))
            else:
                skipped[f"sandbox_{isolation}"] = reason
        if "sandbox_bwrap" in cases:
            warm = Sandbox(force=Isolation.BWRAP, warm=True)
            sandboxes.append(warm)
            cases["sandbox_warm"] = _sandbox_case(warm, skill, "sandbox_warm")
        else:
            skipped["sandbox_warm"] = "the warm path needs bwrap"
        on_path = shutil.which("python3")
        if on_path and Path(on_path).resolve() != Path(python):
            shim = [on_path, "-I", "-S", str(skill / "main.py")]
            cases["path_python3"] = _subprocess_case(shim, "path_python3")

        samples: dict[str, list[float]] = {name: [] for name in cases}
        for round_ in range(WARMUP + runs):
            for name, case in cases.items():
                start = time.perf_counter()
                await case()
                if round_ >= WARMUP:
                    samples[name].append(time.perf_counter() - start)
    finally:
        for sandbox in sandboxes:
            await sandbox.aclose()
        for root in cleanup:
            remove_attempt(root)
        shutil.rmtree(scratch, ignore_errors=True)

    results = {name: _summary(values) for name, values in samples.items()}
    report: dict[str, object] = {
        "bench": "sandbox cold start",
        "python": python,
        "python_on_path": on_path,
        "kernel": platform.release(),
        "cpus": os.cpu_count(),
        "as_root": running_as_root(),
        "runs": runs,
        "results": results,
        "skipped": skipped,
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    if "sandbox_bwrap" in results:
        bwrap = results["sandbox_bwrap"]["median_ms"]
        report["ratio"] = round(bwrap / results["bare_spawn"]["median_ms"], 2)
        # what the sandbox adds, in ms: steadier than the ratio when the host's speed drifts
        report["overhead_ms"] = round(bwrap - results["bare_spawn"]["median_ms"], 2)
        report["ratio_vs_subprocess"] = round(bwrap / results["bare_subprocess"]["median_ms"], 2)
        report["target"] = "sandbox_bwrap <= 1.3 x bare"
    if "sandbox_warm" in results:
        warm = results["sandbox_warm"]["median_ms"]
        report["ratio_warm"] = round(warm / results["bare_spawn"]["median_ms"], 2)
        report["target_warm"] = "sandbox_warm <= 5 ms per run"
    report["loadavg_before"], report["loadavg_after"] = load_before, list(os.getloadavg())
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="measured runs per case (>= 30)")
    parser.add_argument("--quick", action="store_true", help="10 runs per case")
    args = parser.parse_args()
    runs = 10 if args.quick else args.runs
    json.dump(asyncio.run(measure(runs)), sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
