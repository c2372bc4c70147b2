"""`skillweave run` holds its stdio MCP sessions in a client process started with it
(`orchestrator.mcp_client.proxy`), through the real CLI: where the server lives, and
what a SIGKILL, a Ctrl-C or the client process's own crash does to the run.

The server (`SERVER`, raw JSON-RPC lines) logs each call with its pid and its
parent's pid (the process that spawned it: the client process, or the run when
the session is in-process). `hold` answers only once a marker file exists, so a
test can act while the call is in flight.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from orchestrator.mcp_client.transport import process_gone

pytestmark = pytest.mark.e2e

WAIT_S = 60.0
SYS_TGKILL = 234  # x86-64
SKILLWEAVE = Path(sys.executable).parent / "skillweave"
SEED = Path(__file__).resolve().parents[2] / "specs" / "fetch-analyze-document.md"

SERVER = r"""
import json, os, sys, time

CALLS, RELEASE = os.environ["CALLS"], os.environ["RELEASE"]


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


ANNOTATIONS = {"hold": {"readOnlyHint": True}, "hold_destructive": {"destructiveHint": True, "idempotentHint": False}}
TOOLS = [{"name": n, "inputSchema": {"type": "object"}, "annotations": a} for n, a in ANNOTATIONS.items()]

for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"]["protocolVersion"],
            "capabilities": {"tools": {}}, "serverInfo": {"name": "holder", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        with open(CALLS, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "ppid": os.getppid()}) + "\n")
        while not os.path.exists(RELEASE):
            time.sleep(0.02)
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "content": [{"type": "text", "text": json.dumps({"served_by": os.getpid()})}]}})
    else:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no"}})
"""


def write_project(root: Path, tool: str = "hold", timeout: str = "120") -> Path:
    skill = root / "skills" / "hold-call"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: hold-call\ndescription: Calls a tool that answers when released.\n"
        "metadata:\n  skillweave.kind: mcp\n  skillweave.server: holder\n"
        f'  skillweave.tool: {tool}\n  skillweave.timeout: "{timeout}"\n---\n\n# Hold\n\nCalls it.\n'
    )
    (root / "server.py").write_text(SERVER)
    env = {"CALLS": str(root / "calls.jsonl"), "RELEASE": str(root / "release")}
    server = {"command": sys.executable, "args": [str(root / "server.py")], "env": env}
    (root / "mcp.json").write_text(json.dumps({"mcpServers": {"holder": server}}))
    spec = root / "spec.md"
    spec.write_text(
        "# Hold\n\n## Intent\nCall the holder server.\n\n## Workflow Steps\n\n"
        "### Step 1: Call\n- Skill: `hold-call`\n"
    )
    return spec


def environment(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "OTEL_"))}
    return {**env, **more}


# A suite started as a background job (no job control) starts every child with SIGINT
# ignored, and a run keeps it so, as it should: each run gets Python's default back
# (exec keeps the pid), or a Ctrl-C test waits out the call (what failed once under load).
WITH_SIGINT = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"


def start(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WITH_SIGINT, str(SKILLWEAVE), *args, "--json", "--state-dir", str(root / "state")],
        cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(**env), start_new_session=True,
    )


def calls(root: Path, count: int, run: subprocess.Popen[str]) -> list[dict[str, int]]:
    """The first `count` calls the server logged (waits for them, bounded)."""
    log = root / "calls.jsonl"
    deadline = time.monotonic() + WAIT_S
    while True:
        lines = log.read_text().splitlines() if log.exists() else []
        if len(lines) >= count:
            return [json.loads(line) for line in lines[:count]]
        assert run.poll() is None, f"the run ended before call {count}: {run.communicate()[1]}"
        assert time.monotonic() < deadline, f"no call {count} within {WAIT_S}s"
        time.sleep(0.02)


def gone_soon(pid: int) -> bool:
    deadline = time.monotonic() + WAIT_S
    while not process_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def finish(run: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = run.communicate(timeout=WAIT_S * 2)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()  # reaps it and closes its pipes (left open, the next test's GC warns)
    return run.returncode, out, err


def cleanup(*pids: int) -> None:
    for pid in pids:
        if not process_gone(pid):
            os.kill(pid, signal.SIGKILL)


def test_the_seed_run_spends_no_sdk_import_of_its_own_and_gives_the_same_output(tmp_path: Path) -> None:
    results = {}
    for mode in ("1", "0"):
        done = subprocess.run(
            [str(SKILLWEAVE), "run", str(SEED), "-i", "module_name=json", "--json",
             "--state-dir", str(tmp_path / f"state-{mode}")],
            cwd=tmp_path, capture_output=True, text=True, timeout=WAIT_S * 3,
            env=environment(SKILLWEAVE_MCP_PROCESS=mode, SKILLWEAVE_PROFILE="json"),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        profile = json.loads(done.stderr.split("skillweave profile: ", 1)[1].splitlines()[0])
        results[mode] = (json.loads(done.stdout)["outputs"], {row["name"] for row in profile["spans"]})
    (outputs, spans), (cold_outputs, cold_spans) = results["1"], results["0"]
    assert outputs == cold_outputs
    assert "mcp: the client process imports the SDK (another process, from the start)" in spans
    assert "mcp: import the SDK's client (stdio)" not in spans
    assert "mcp: import the SDK's client (stdio)" in cold_spans
    assert "mcp: the client process imports the SDK (another process, from the start)" not in cold_spans


def test_the_server_is_the_client_process_child_and_in_process_when_turned_off(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    (tmp_path / "release").touch()
    for mode in ("1", "0"):
        run = start(tmp_path, "run", str(spec), SKILLWEAVE_MCP_PROCESS=mode)
        code, out, err = finish(run)
        assert code == 0, err
        logged = json.loads((tmp_path / "calls.jsonl").read_text().splitlines()[-1])
        assert json.loads(out)["outputs"]["step-1"] == {"served_by": logged["pid"]}
        if mode == "1":
            assert logged["ppid"] != run.pid and gone_soon(logged["ppid"])  # the client process, ended
        else:
            assert logged["ppid"] == run.pid


def test_a_sigkilled_run_takes_the_client_process_and_its_server_along_and_resumes(tmp_path: Path) -> None:
    spec = write_project(tmp_path)
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        os.kill(run.pid, signal.SIGKILL)
        run.communicate(timeout=WAIT_S)  # its pipes closed
        assert gone_soon(first["ppid"]), "the client process outlived the run"
        assert gone_soon(first["pid"]), "the server outlived the run"
    finally:
        cleanup(first["ppid"], first["pid"])
    (run_id,) = [p.name for p in (tmp_path / "state" / "runs").iterdir() if p.is_dir()]
    (tmp_path / "release").touch()
    code, out, err = finish(start(tmp_path, "resume", run_id))
    assert code == 0, err
    summary = json.loads(out)
    assert summary["status"] == "succeeded"
    second = calls_logged(tmp_path)[1]
    assert summary["outputs"]["step-1"] == {"served_by": second["pid"]}


def calls_logged(root: Path) -> list[dict[str, int]]:
    return [json.loads(line) for line in (root / "calls.jsonl").read_text().splitlines()]


def test_ctrl_c_during_a_call_ends_the_run_with_130_and_stops_the_client_process_and_server(
    tmp_path: Path,
) -> None:
    spec = write_project(tmp_path)
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        os.killpg(run.pid, signal.SIGINT)  # the terminal's Ctrl-C: the run's process group
        code, _, err = finish(run)
        assert code == 130, err
        assert "Traceback" not in err
        assert gone_soon(first["pid"]) and gone_soon(first["ppid"])
    finally:
        cleanup(first["ppid"], first["pid"])


def test_a_ctrl_c_the_kernel_gives_to_another_thread_of_the_run_ends_it_with_130_all_the_same(
    tmp_path: Path,
) -> None:
    """The kernel hands a process's SIGINT to another thread when the main thread has it
    blocked for a moment; the run's loop, asleep until the call's deadline (here 600 s),
    must still wake. tgkill gives it to the other thread for certain."""
    spec = write_project(tmp_path, timeout="600")
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        others = [int(tid) for tid in os.listdir(f"/proc/{run.pid}/task") if int(tid) != run.pid]
        assert others, "the run has one thread: nothing to test"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.syscall(SYS_TGKILL, run.pid, others[-1], signal.SIGINT) == 0
        code, _, err = finish(run)
        assert code == 130, err
        assert "interrupted: run " in err and "Traceback" not in err
        assert gone_soon(first["pid"]) and gone_soon(first["ppid"])
    finally:
        cleanup(first["ppid"], first["pid"])
    (run_id,) = [p.name for p in (tmp_path / "state" / "runs").iterdir() if p.is_dir()]
    (tmp_path / "release").touch()
    code, out, err = finish(start(tmp_path, "resume", run_id))
    assert code == 0, err
    assert json.loads(out)["status"] == "succeeded"


def test_a_crashed_client_process_is_a_lost_connection_and_a_safe_call_is_replayed_in_process(
    tmp_path: Path,
) -> None:
    spec = write_project(tmp_path, tool="hold")
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        os.kill(first["ppid"], signal.SIGKILL)  # the client process dies mid-call
        assert gone_soon(first["pid"]), "the server outlived its client process"
        second = calls(tmp_path, 2, run)[1]
        assert second["ppid"] == run.pid  # the replay's session is in-process
        (tmp_path / "release").touch()
        code, out, err = finish(run)
    finally:
        cleanup(first["ppid"], first["pid"])
    assert code == 0, err
    assert json.loads(out)["outputs"]["step-1"] == {"served_by": second["pid"]}


def test_a_crashed_client_process_fails_a_destructive_call_as_a_lost_connection_not_retried(
    tmp_path: Path,
) -> None:
    spec = write_project(tmp_path, tool="hold_destructive")
    run = start(tmp_path, "run", str(spec))
    first = calls(tmp_path, 1, run)[0]
    try:
        os.kill(first["ppid"], signal.SIGKILL)
        code, out, err = finish(run)
    finally:
        cleanup(first["ppid"], first["pid"])
    assert code == 1, err
    assert "Traceback" not in err
    step = json.loads(out)["steps"][0]
    assert step["status"] in ("failed", "escalated")
    assert step["error_class"] == "unrecoverable"  # ambiguous on a destructive tool: never retried
    assert "connection to 'holder' lost: the MCP client process exited" in step["message"]
    assert len(calls_logged(tmp_path)) == 1
