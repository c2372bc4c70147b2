"""Ctrl-C around a proxied MCP call, many times, under busy loops (issue 25, the hang).

Each round starts `skillweave run --json` on a spec whose one step calls a tool that
answers only once a release file exists, and sends SIGINT at a random moment of one
window:

- early:  from the start to just after the call reaches the server (imports, plan, the
          session's start, the call on its way through the client process);
- flight: while the server holds the call;
- reply:  just after the release file appears (the answer on its way back);
- thread: while the server holds the call, to one of the run's other threads (what the
          kernel does when the main thread has the signal blocked for a moment).

A round fails when the run is still there BOUND_S after the signal, when it ends
with a traceback or with another code than 130 (0 allowed in the reply window, where
the call may have ended the run first), or when the client process or the server
outlives it.

    .venv/bin/python scripts/ctrl_c_stress.py [--rounds 60] [--busy 2] [--windows early,flight,reply,thread]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BOUND_S = 30.0
SKILLWEAVE = Path(sys.executable).parent / "skillweave"
SYS_TGKILL = 234  # x86-64

SERVER = r"""
import json, os, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": msg["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "holder", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [
            {"name": "hold", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]}})
    elif method == "tools/call":
        with open(os.environ["CALLS"], "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "ppid": os.getppid()}) + "\n")
        while not os.path.exists(os.environ["RELEASE"]):
            time.sleep(0.01)
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": "{}"}]}})
"""


def project(root: Path) -> Path:
    skill = root / "skills" / "hold-call"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: hold-call\ndescription: Calls a tool that answers when released.\n"
        "metadata:\n  skillweave.kind: mcp\n  skillweave.server: holder\n"
        '  skillweave.tool: hold\n  skillweave.timeout: "120"\n---\n\n# Hold\n\nCalls it.\n'
    )
    (root / "server.py").write_text(SERVER)
    env = {"CALLS": str(root / "calls.jsonl"), "RELEASE": str(root / "release")}
    server = {"command": sys.executable, "args": [str(root / "server.py")], "env": env}
    (root / "mcp.json").write_text(json.dumps({"mcpServers": {"holder": server}}))
    spec = root / "spec.md"
    spec.write_text("# Hold\n\n## Intent\nCall it.\n\n## Workflow Steps\n\n### Step 1: Call\n- Skill: `hold-call`\n")
    return spec


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return True
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] in (b"Z", b"X")


def wait_gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while not gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def logged(root: Path) -> list[dict[str, int]]:
    path = root / "calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def one_round(root: Path, window: str, call_after: float) -> tuple[str, float, str]:
    spec = project(root)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "OTEL_"))}
    run = subprocess.Popen(
        [str(SKILLWEAVE), "run", str(spec), "--json", "--state-dir", str(root / "state")],
        cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, start_new_session=True,
    )
    started = time.monotonic()
    if window == "early":
        delay = random.uniform(0, call_after * 1.1)
        while time.monotonic() - started < delay and not logged(root) and run.poll() is None:
            time.sleep(0.002)
    else:
        while not logged(root) and run.poll() is None and time.monotonic() - started < 60:
            time.sleep(0.005)
        if window == "flight":
            time.sleep(random.uniform(0, 0.3))
        elif window == "reply":
            (root / "release").touch()
            time.sleep(random.uniform(0, 0.05))
    took = time.monotonic() - started
    if window == "thread":
        others = [int(t) for t in os.listdir(f"/proc/{run.pid}/task") if int(t) != run.pid]
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall(SYS_TGKILL, run.pid, random.choice(others), signal.SIGINT)
    else:
        with_group = run.poll() is None
        if with_group:
            os.killpg(run.pid, signal.SIGINT)
    sent = time.monotonic()
    try:
        _, err = run.communicate(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        _, err = run.communicate()
        return "hang", took, err.strip().replace("\n", " | ")[-300:]
    ended = time.monotonic() - sent
    calls = logged(root)
    leftover = [c for c in calls if not (wait_gone(c["pid"], 15) and wait_gone(c["ppid"], 15))]
    for c in leftover:
        for pid in (c["pid"], c["ppid"]):
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
    allowed = {130, 0} if window in ("reply", "early") else {130}
    if leftover:
        return "left a process", ended, err[-300:]
    if "Traceback" in err or run.returncode not in allowed:
        return f"exit {run.returncode}", ended, err.strip().replace("\n", " | ")[-300:]
    return "ok", ended, ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--busy", type=int, default=2, help="busy loops to start (python3 -c 'while True: pass')")
    parser.add_argument("--windows", default="early,flight,reply,thread")
    parser.add_argument("--call-after", type=float, default=1.5, help="about when the call reaches the server (s)")
    args = parser.parse_args()
    windows = args.windows.split(",")
    # started as a background job, we would pass on SIGINT ignored, and the runs would keep it so
    signal.signal(signal.SIGINT, signal.default_int_handler)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    tally: dict[str, dict[str, int]] = {w: {} for w in windows}
    slowest = 0.0
    try:
        for n in range(args.rounds):
            window = windows[n % len(windows)]
            root = Path(tempfile.mkdtemp(prefix="ctrl-c-"))
            try:
                outcome, seconds, err = one_round(root, window, args.call_after)
            finally:
                shutil.rmtree(root, ignore_errors=True)
            tally[window][outcome] = tally[window].get(outcome, 0) + 1
            if outcome == "ok":
                slowest = max(slowest, seconds)
            else:
                print(f"round {n} ({window}): {outcome} {seconds:.2f}s {err}", file=sys.stderr, flush=True)
    finally:
        for loop in busy:
            loop.kill()
            loop.wait()
    print(json.dumps({"rounds": args.rounds, "busy_loops": args.busy, "outcomes": tally,
                      "slowest_exit_after_sigint_s": round(slowest, 2), "bound_s": BOUND_S}))


if __name__ == "__main__":
    main()
