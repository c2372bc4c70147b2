"""Instructions per engine step, counted by valgrind: a figure the host's load does not move.

    .venv/bin/python bench/engine_instructions.py              # journal on (kept), 200-step chain
    .venv/bin/python bench/engine_instructions.py --journal off
    .venv/bin/python bench/engine_instructions.py --effects    # each attempt's start committed first

The VM this project is measured on shares its host, and its speed moves by up to
1.7x between two runs of `engine_bench.py`. Instructions do not: this script
runs the 200-step chain of `engine_bench.py` under `valgrind --tool=cachegrind`
twice, 2 runs and 12 runs after the same imports, and prints the difference
divided by 2 000 steps (repeatable to about 0.1 %). It counts work, not waits:
system calls and flushes to disk are not in it. Compare two commits with it, not
a commit with a time. Takes about 20 s; needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

STEPS = 200
WARM, TIMED = 2, 10


def inner(mode: str, runs: int, contained: bool) -> None:
    """The measured process: WARM + runs chain runs in one process."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import engine_bench

    from orchestrator.journal.session import JournalSession

    plan = engine_bench.build("chain", STEPS, False, 64)
    kept = JournalSession()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for _ in range(WARM + runs):
                engine_bench.run_once(plan, mode, Path(tmp), kept, contained)
        finally:
            kept.close()


def instructions(journal: str, runs: int, effects: bool) -> int:
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__, "--inner", str(runs), "--journal", journal, *(["--effects"] if effects else []),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the measured run failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journal", choices=("on", "off"), default="on")
    parser.add_argument(
        "--effects", action="store_true", help="a runner that is not contained: each attempt's start is committed first"
    )
    parser.add_argument("--inner", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner is not None:
        inner("session" if args.journal == "on" else "off", args.inner, not args.effects)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    timed, bare = instructions(args.journal, TIMED, args.effects), instructions(args.journal, 0, args.effects)
    per_step = (timed - bare) / (TIMED * STEPS)
    print(
        json.dumps(
            {
                "journal": args.journal, "effects": args.effects, "steps": STEPS, "runs": TIMED,
                "instructions_per_step": round(per_step),
            }
        )
    )


if __name__ == "__main__":
    main()
