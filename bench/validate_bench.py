"""Wall time of `skillweave validate` (and `plan`, `--help`) as a user sees it: a fresh process.

Usage: .venv/bin/python bench/validate_bench.py [--runs N] [--spec PATH]
Prints one JSON document: the median, min and max seconds of N runs per command,
and a bare `python -c pass` start for reference. Target: validate under 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEED = REPO.parent / "shared" / "fixtures" / "specs" / "fetch-analyze-document.seed.md"
CLEAN = REPO / "specs" / "fetch-analyze-document.md"
TARGET_S = 0.3


def _time(argv: list[str], runs: int) -> dict[str, float | int | str]:
    samples = []
    code = 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, check=False, cwd=REPO)
        samples.append(time.perf_counter() - start)
        code = done.returncode
    return {
        "median_s": round(statistics.median(samples), 4),
        "min_s": round(min(samples), 4),
        "max_s": round(max(samples), 4),
        "runs": runs,
        "exit_code": code,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--spec", type=Path, default=SEED if SEED.is_file() else CLEAN)
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("skillweave"))
    spec = str(args.spec.resolve())
    results = {
        "python_start": _time([sys.executable, "-c", "pass"], args.runs),
        "help": _time([exe, "--help"], args.runs),
        "validate": _time([exe, "validate", spec], args.runs),
        "plan_json": _time([exe, "plan", spec, "--format", "json"], args.runs),
    }
    validate = results["validate"]
    print(json.dumps({
        "bench": "validate",
        "spec": os.path.relpath(spec, REPO),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "target_s": TARGET_S,
        "validate_under_target": float(validate["median_s"]) < TARGET_S,
        "results": results,
    }, indent=2))


if __name__ == "__main__":
    main()
