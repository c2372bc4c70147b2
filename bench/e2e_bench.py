"""The README's main job end to end, as a fresh process, against a bare start and the steps' own work.

    .venv/bin/python bench/e2e_bench.py                          # JSON on stdout
    .venv/bin/python bench/e2e_bench.py --runs 11 --before bd2c667 --before 5520a8c

In each round, one after the other (the order rotates from round to round):

- `pass`:  `python -c pass` with this venv's interpreter, the floor of any process;
- `run`:   `skillweave run specs/fetch-analyze-document.md --input module_name=json --json`
           of this tree, a fresh process with a new state directory each time;
- `run (cold docs server)`: the same with SKILLWEAVE_DOCS_WARM=0: the bundled
           docs server starts from scratch, as on the first run of a session;
- `run (warm CLI host)`: the same with SKILLWEAVE_RUN_WARM=1: the command is
           served by a fork of a warm host with the CLI's imports done;
- `run (MCP client in-process)`: the same with SKILLWEAVE_MCP_PROCESS=0: the
           run imports the SDK's client itself instead of its client process;
- `run (cold MCP client)`: the same with SKILLWEAVE_MCP_WARM=0: the client
           process imports the SDK itself instead of being forked from its warm host;
- `run (compile cache miss)`: the same with a `SKILLWEAVE_*` variable of a new value
           each time, so the compiled-plan cache (`orchestrator.compile_cache`) misses:
           the key computed, the spec compiled, the entry stored (`run` hits it);
- `run@C`: the same run of each `--before` commit C, checked out in a temporary
           worktree and run by the same interpreter (PYTHONPATH), so old and new
           code share the machine's mood of the moment;
- `serve`, `serve@C`: `skillweave serve` (stdio) started in an empty project:
           the time until it answers `initialize`, and until it has listed its tools;
- `docs`, `docs (cold)`, `docs@C`: the bundled docs server (`python -m
           mcp_servers.docs`) alone: the time until it answers `initialize`, from
           its warm host, started from scratch, and as commit C has it;
- `profiled`: one more run of this tree with SKILLWEAVE_PROFILE=json; its spans,
           medians over the rounds, are the breakdown.

The bundled docs server is reused between runs when warm servers are on (the
default, `run`); `run (cold docs server)` shows a start without one. The warm
hosts of a sitting live in a folder of its own (XDG_RUNTIME_DIR) and are stopped
at its end. The steps'
own work is the `get_docs` call plus steps 2-4 (three sandboxed scripts), read
from the profile. Figures are medians with
their spread (min, quartiles, max); the ratios divide medians of one sitting.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from orchestrator import warmhost

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SPEC = Path("specs") / "fetch-analyze-document.md"
PREFIX = "skillweave profile: "
TIMEOUT_S = 300


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_", "PYTHON"))}
    env.update(extra)
    return env


class Tree:
    """A source tree whose `skillweave` we run: this one, or a commit in a temporary worktree."""

    def __init__(self, name: str, root: Path, env: dict[str, str]) -> None:
        self.name = name
        self.root = root
        self.env = env

    def command(self, *args: str) -> list[str]:
        return [PYTHON, "-m", "orchestrator", *args]

    def environ(self, **extra: str) -> dict[str, str]:
        return _clean_env(PYTHONPATH=str(self.root), **self.env, **extra)


def _worktree(commit: str, into: Path) -> Path:
    path = into / commit
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(path), commit],
                   check=True, capture_output=True)
    return path


def _remove_worktree(path: Path) -> None:
    subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)], check=False,
                   capture_output=True)


def time_process(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """Wall seconds of one process; its stderr (the profile, when asked for)."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return wall, done.stderr


def time_run(tree: Tree, scratch: Path, **env: str) -> tuple[float, str]:
    state = Path(tempfile.mkdtemp(prefix="state-", dir=scratch))
    try:
        return time_process(
            tree.command("run", str(tree.root / SPEC), "--input", "module_name=json", "--json",
                         "--state-dir", str(state)),
            tree.environ(**env), scratch,
        )
    finally:
        shutil.rmtree(state, ignore_errors=True)


def time_serve(tree: Tree, scratch: Path, command: list[str] | None = None, **env: str) -> tuple[float, float]:
    """Seconds until `skillweave serve` (or `command`) answers initialize, and until it has listed its tools."""
    project = Path(tempfile.mkdtemp(prefix="serve-", dir=scratch))
    start = time.perf_counter()
    proc = subprocess.Popen(command or tree.command("serve"), env=tree.environ(**env), cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        def send(message: dict[str, Any]) -> None:
            assert proc.stdin is not None
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()

        def answer(request_id: int) -> dict[str, Any]:
            assert proc.stdout is not None
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit("skillweave serve closed its stdout")
                message = json.loads(line)
                if message.get("id") == request_id:
                    return dict(message)

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        answer(1)
        initialized = time.perf_counter() - start
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = answer(2)["result"]["tools"]
        listed = time.perf_counter() - start
        if not tools:
            raise SystemExit("skillweave serve listed no tools")
        return initialized, listed
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(project, ignore_errors=True)


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 3
    return {
        "n": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "min_ms": round(ordered[0] * 1000, 1),
        "p25_ms": round(quartiles[0] * 1000, 1),
        "p75_ms": round(quartiles[2] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def profile_of(stderr: str) -> dict[str, Any]:
    for line in stderr.splitlines():
        if line.startswith(PREFIX):
            return dict(json.loads(line[len(PREFIX):]))
    raise SystemExit("the profiled run printed no profile")


def breakdown(profiles: list[dict[str, Any]], walls: list[float]) -> dict[str, Any]:
    """Median of each span over the profiled runs, and the steps' own work."""
    spans: dict[str, list[float]] = {}
    own: list[float] = []
    for data in profiles:
        work = 0.0
        for row in data["spans"]:
            spans.setdefault(row["name"], []).append(row["ms"])
            if row["name"].startswith(("step step-2", "step step-3", "step step-4", "mcp docs/get_docs: call")):
                work += row["ms"]
        own.append(work / 1000)
        spans.setdefault("(profile printed at)", []).append(data["total_ms"])
    return {
        "spans_median_ms": {name: round(statistics.median(v), 1) for name, v in spans.items()},
        "own_work": spread(own),
        "wall": spread(walls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--before", action="append", default=[], metavar="COMMIT",
                        help="also time this commit's code (repeatable)")
    parser.add_argument("--no-cold", action="store_true", help="leave out the run without a warm docs server")
    parser.add_argument("--no-serve", action="store_true", help="leave out `skillweave serve`")
    parser.add_argument("--servers-only", action="store_true", help="only `serve` and the docs server, no runs")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="skillweave-e2e-"))
    runtime = scratch / "xdg-runtime"  # the warm hosts of this sitting: none of the user's, none left
    runtime.mkdir(mode=0o700)
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    os.environ["XDG_CACHE_HOME"] = str(scratch / "xdg-cache")  # the sitting's compiled plans, none of the user's
    trees = [Tree("", REPO, {})]
    cold = Tree(" (cold docs server)", REPO, {"SKILLWEAVE_DOCS_WARM": "0"})
    hosted = Tree(" (warm CLI host)", REPO, {"SKILLWEAVE_RUN_WARM": "1"})
    in_process = Tree(" (MCP client in-process)", REPO, {"SKILLWEAVE_MCP_PROCESS": "0"})
    cold_client = Tree(" (cold MCP client)", REPO, {"SKILLWEAVE_MCP_WARM": "0"})
    missed = Tree(" (compile cache miss)", REPO, {})
    made: list[Path] = []
    try:
        for commit in args.before:
            path = _worktree(commit, scratch)
            made.append(path)
            trees.append(Tree(f"@{commit}", path, {}))
        cases: list[tuple[str, Callable[[], None]]] = []
        walls: dict[str, list[float]] = {}
        profiles: list[dict[str, Any]] = []
        profiled_walls: list[float] = []

        def bare() -> None:
            walls.setdefault("pass", []).append(time_process([PYTHON, "-c", "pass"], _clean_env(), scratch)[0])

        cases.append(("pass", bare))
        docs = [PYTHON, "-m", "mcp_servers.docs"]
        for tree in trees:
            def docs_server(tree: Tree = tree) -> None:
                walls.setdefault("docs" + tree.name + " initialize", []).append(time_serve(tree, scratch, docs)[0])

            cases.append(("docs" + tree.name, docs_server))

        def docs_cold() -> None:
            walls.setdefault("docs (cold) initialize", []).append(
                time_serve(trees[0], scratch, docs, SKILLWEAVE_DOCS_WARM="0")[0])

        cases.append(("docs (cold)", docs_cold))
        if not args.no_cold and not args.servers_only:
            def run_cold() -> None:
                walls.setdefault("run" + cold.name, []).append(time_run(cold, scratch)[0])

            cases.append(("run" + cold.name, run_cold))
        if not args.servers_only:
            def run_hosted() -> None:
                walls.setdefault("run" + hosted.name, []).append(time_run(hosted, scratch)[0])

            cases.append(("run" + hosted.name, run_hosted))

            def run_in_process() -> None:
                walls.setdefault("run" + in_process.name, []).append(time_run(in_process, scratch)[0])

            cases.append(("run" + in_process.name, run_in_process))

            def run_cold_client() -> None:
                walls.setdefault("run" + cold_client.name, []).append(time_run(cold_client, scratch)[0])

            cases.append(("run" + cold_client.name, run_cold_client))

            def run_missed() -> None:  # a key never seen: a new value of a variable the key reads
                walls.setdefault("run" + missed.name, []).append(
                    time_run(missed, scratch, SKILLWEAVE_BENCH_MISS=str(time.time_ns()))[0])

            cases.append(("run" + missed.name, run_missed))
        for tree in trees:
            def run(tree: Tree = tree) -> None:
                walls.setdefault("run" + tree.name, []).append(time_run(tree, scratch)[0])

            if not args.servers_only:
                cases.append(("run" + tree.name, run))
            if not args.no_serve:
                def serve(tree: Tree = tree) -> None:
                    initialized, listed = time_serve(tree, scratch)
                    walls.setdefault("serve" + tree.name + " initialize", []).append(initialized)
                    walls.setdefault("serve" + tree.name + " tools/list", []).append(listed)

                cases.append(("serve" + tree.name, serve))

        def profiled() -> None:
            wall, stderr = time_run(trees[0], scratch, SKILLWEAVE_PROFILE="json")
            profiles.append(profile_of(stderr))
            profiled_walls.append(wall)

        if not args.servers_only:
            cases.append(("profiled", profiled))
        load_before = os.getloadavg()
        # one round unmeasured: compiled bytecode, the page cache and a warm docs server for every tree
        for _, case in cases:
            case()
        walls.clear()
        profiles.clear()
        profiled_walls.clear()
        for round_no in range(args.runs):
            shift = round_no % len(cases)
            for _, case in cases[shift:] + cases[:shift]:
                case()
        load_after = os.getloadavg()
    finally:
        warmhost.stop_hosts(runtime / "skillweave")
        for path in made:
            _remove_worktree(path)
        shutil.rmtree(scratch, ignore_errors=True)

    figures = {name: spread(values) for name, values in walls.items()}
    bare_ms = figures["pass"]["median_ms"]
    ratios: dict[str, float] = {}
    for name, fig in figures.items():
        if name != "pass":
            ratios[f"{name} / pass"] = round(fig["median_ms"] / bare_ms, 1)
    split = breakdown(profiles, profiled_walls) if profiles else {}
    if split:
        ratios["run / the steps' own work"] = round(figures["run"]["median_ms"] / split["own_work"]["median_ms"], 2)
    for name in ("docs (cold) initialize", *(f"docs{t.name} initialize" for t in trees[1:])):
        if name in figures:
            ratios[f"{name} / docs initialize"] = round(
                figures[name]["median_ms"] / figures["docs initialize"]["median_ms"], 2)
    for variant in (cold, hosted, in_process, cold_client, missed):
        if "run" + variant.name in figures:
            ratios[f"run{variant.name} / run"] = round(
                figures["run" + variant.name]["median_ms"] / figures["run"]["median_ms"], 2)
    for tree in trees[1:]:
        if "run" + tree.name in figures and "run" + hosted.name in figures:
            ratios[f"run{tree.name} / run{hosted.name}"] = round(
                figures["run" + tree.name]["median_ms"] / figures["run" + hosted.name]["median_ms"], 2)
    for tree in trees[1:]:
        if "run" in figures:
            ratios[f"run{tree.name} / run"] = round(
                figures["run" + tree.name]["median_ms"] / figures["run"]["median_ms"], 2)
        key = f"serve{tree.name} initialize"
        if key in figures:
            ratios[f"serve{tree.name} / serve (initialize)"] = round(
                figures[key]["median_ms"] / figures["serve initialize"]["median_ms"], 2)
    # round by round (each round ran every case once, close together): the median of the ratios
    for name in ["run" + in_process.name, "run" + cold_client.name, "run" + missed.name,
                 *("run" + tree.name for tree in trees[1:])]:
        if name in walls and "run" in walls:
            pairs = [a / b for a, b in zip(walls[name], walls["run"], strict=True)]
            ratios[f"{name} / run, paired by round"] = round(statistics.median(pairs), 2)
    print(json.dumps({
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in load_after]},
        "runs": args.runs,
        "wall": figures,
        "ratios": ratios,
        "breakdown": split,
    }, indent=2))


if __name__ == "__main__":
    main()
