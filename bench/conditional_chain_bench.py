"""CPU time of `skillweave validate` on a chain of conditional steps, 1 000 against 10 000.

Usage: .venv/bin/python bench/conditional_chain_bench.py [--runs N]
Prints one JSON document. Each spec is a YAML chain whose every step has a `when`: one
always false (each step "can never run"), one over a workflow input (the steps follow each
other by order alone). A fresh process each run; the figure is the child's user + system
CPU seconds (min of N), and the ratio 10 000 : 1 000 against 10, what linear time gives
(the start-up, some 0.3 s, makes the small spec relatively dearer, so linear is a bit
under 10). An unconditional chain of the same sizes is the baseline, run in the same sitting.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (1_000, 10_000)
SHAPES = {
    "when always false": "{{id: s{i}, skill: fetch-docs, when: 'false'}}",
    "when over an input": "{{id: s{i}, skill: fetch-docs, when: \"inputs.module_name == 'x{i}'\"}}",
    "no condition (baseline)": "{{id: s{i}, skill: fetch-docs}}",
}


def spec(n: int, step: str) -> str:
    head = ("name: big\ninputs: {module_name: {type: string}}\n"
            "limits: {wall_time: 1000h, max_total_attempts: 100000}\nsteps:\n")
    return head + "".join("  - " + step.format(i=i) + "\n" for i in range(n))


def cpu_of(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(child CPU seconds, wall seconds, exit code) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("skillweave"))
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for shape, step in SHAPES.items():
            row: dict[str, object] = {}
            for n in SIZES:
                path = root / f"chain-{n}.yaml"
                path.write_text(spec(n, step), encoding="utf-8")
                samples = [cpu_of([exe, "validate", str(path)], root) for _ in range(args.runs)]
                row[str(n)] = {"cpu_s": round(min(s[0] for s in samples), 2),
                               "wall_s": round(min(s[1] for s in samples), 2), "exit_code": samples[-1][2]}
            small, big = (row[str(n)]["cpu_s"] for n in SIZES)  # type: ignore[index]
            row["ratio"] = round(big / small, 1) if small else None
            results[shape] = row
    print(json.dumps({"bench": "conditional-chain", "python": platform.python_version(),
                      "load_average": [round(x, 1) for x in os.getloadavg()], "runs": args.runs,
                      "linear_ratio": SIZES[1] / SIZES[0], "results": results}, indent=2))


if __name__ == "__main__":
    main()
