"""`skillweave validate` of the seed, this tree against another checkout, in one sitting.

Usage: .venv/bin/python bench/validate_ab.py BASELINE_DIR [--runs N] [--spec PATH] [-- ARGS...]

Runs `validate SPEC` (or ARGS) in fresh processes, alternating this tree and BASELINE_DIR
(a git worktree of the commit to compare with, run with this venv: `PYTHONPATH=DIR`),
and prints one JSON document: per tree the median and minimum wall time and CPU time
(user + system of the child, which a loaded machine disturbs less), and the ratios.
`--no-regex-cache` runs this tree with `SKILLWEAVE_REGEX_CACHE=0` (the first run after
an install, before the grammar's compiled patterns are cached).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEED = REPO.parent / "shared" / "fixtures" / "specs" / "fetch-analyze-document.seed.md"
_MAIN = "import sys; from orchestrator.cli import main; sys.argv = ['skillweave', *sys.argv[1:]]; sys.exit(main())"


def _run(root: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", _MAIN, *args], env={**env, "PYTHONPATH": str(root)},
                   capture_output=True, check=False, cwd="/")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--spec", type=Path, default=SEED)
    parser.add_argument("--tree", type=Path, default=REPO, help="the tree to measure (default: this one)")
    parser.add_argument("--no-regex-cache", action="store_true")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    ns = parser.parse_args(argv[:cut])
    args = argv[cut + 1:] or ["validate", str(ns.spec.resolve())]
    env = dict(os.environ)
    here_env = {**env, "SKILLWEAVE_REGEX_CACHE": "0"} if ns.no_regex_cache else env
    trees = {"baseline": (ns.baseline.resolve(), env), "this": (ns.tree.resolve(), here_env)}
    walls: dict[str, list[float]] = {k: [] for k in trees}
    cpus: dict[str, list[float]] = {k: [] for k in trees}
    for _ in range(ns.runs):
        for name, (root, run_env) in trees.items():
            wall, cpu = _run(root, args, run_env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    out: dict[str, object] = {"args": args, "runs": ns.runs, "load": os.getloadavg()}
    for name in trees:
        out[name] = {"wall_median_s": round(statistics.median(walls[name]), 3), "wall_min_s": round(min(walls[name]), 3),
                     "cpu_median_s": round(statistics.median(cpus[name]), 3), "cpu_min_s": round(min(cpus[name]), 3)}
    for key in ("wall_median_s", "wall_min_s", "cpu_median_s", "cpu_min_s"):
        this, base = out["this"], out["baseline"]
        assert isinstance(this, dict) and isinstance(base, dict)
        out[f"ratio_{key[:-2]}"] = round(this[key] / base[key], 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
