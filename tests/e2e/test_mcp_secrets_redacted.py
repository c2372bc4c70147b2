"""Issue 25.4: a value an mcp.json takes from the environment (`${VAR}`) is never recorded.
A real `skillweave run` starts a server that echoes its arguments and environment to stderr
and dies; the secret reaches the server, but no file of the run, no output of `run` or
`runs show`, holds it: `${VAR}` stands in its place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from serverkit import SKILLWEAVE

pytestmark = pytest.mark.e2e

SECRET = "sk-test-9f8e7d6c5b4a39281706"
ECHO = """\
import os, sys
print("argv:", sys.argv[1:], file=sys.stderr, flush=True)
print("env K=" + os.environ.get("K", ""), file=sys.stderr, flush=True)
open(os.environ["SEEN"], "w").write(" ".join(sys.argv[1:]))
sys.stderr.write("dying with " + sys.argv[-1])  # no newline: the last words still arrive, redacted
sys.exit(3)
"""
SKILL = (
    "---\nname: echo-call\ndescription: Calls a tool of the echoing server.\n"
    "metadata:\n  skillweave.kind: mcp\n  skillweave.server: echo\n  skillweave.tool: anything\n"
    '  skillweave.timeout: "10"\n---\n\n# Echo\n\nCalls it.\n'
)
SPEC = "# Echo\n\n## Intent\nStart the server.\n\n## Workflow Steps\n\n### Step 1: Call\n- Skill: `echo-call`\n- Retries: 0\n"


def test_a_secret_the_server_echoes_is_in_no_record_of_the_run(tmp_path: Path) -> None:
    (tmp_path / "skills" / "echo-call").mkdir(parents=True)
    (tmp_path / "skills" / "echo-call" / "SKILL.md").write_text(SKILL)
    (tmp_path / "echo.py").write_text(ECHO)
    server = {
        "command": sys.executable,
        "args": [str(tmp_path / "echo.py"), "--key", "${SW_TEST_SECRET}"],
        "env": {"K": "${SW_TEST_SECRET}", "SEEN": str(tmp_path / "seen.txt")},
    }
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"echo": server}}))
    (tmp_path / "spec.md").write_text(SPEC)
    state = tmp_path / "state"
    env = {**os.environ, "SW_TEST_SECRET": SECRET}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SKILLWEAVE), *args, "--state-dir", str(state)],
            cwd=tmp_path, capture_output=True, text=True, timeout=180, env=env,
        )

    run = cli("run", "spec.md", "--json")
    assert run.returncode == 1, run.stderr + run.stdout  # the step failed: the server died
    run_id = json.loads(run.stdout)["run_id"]
    shown = cli("runs", "show", run_id)
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "seen.txt").read_text() == f"--key {SECRET}"  # the server did get it

    for output in (run.stdout, run.stderr, shown.stdout, shown.stderr):
        assert SECRET not in output
    leaks = [p for p in state.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaks == []
    logs = list(state.rglob("echo.stderr.log"))
    assert logs, sorted(str(p) for p in state.rglob("*"))
    log = logs[0].read_text()
    assert "'--key', '${SW_TEST_SECRET}'" in log and "env K=${SW_TEST_SECRET}" in log
    assert "dying with ${SW_TEST_SECRET}" in log
    report = next(state.rglob("report.md")).read_text()
    assert "${SW_TEST_SECRET}" in report  # the stderr tail is recorded, redacted


WORKING = r"""
import json, sys
print("started with", sys.argv[1:], file=sys.stderr, flush=True)
for line in sys.stdin:
    msg = json.loads(line) if line.strip() else {}
    mid, method = msg.get("id"), msg.get("method")
    if mid is None:
        continue
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "echo", "version": "0"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "anything", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        print("called; key " + sys.argv[-1], file=sys.stderr, flush=True)
        result = {"content": [{"type": "text", "text": json.dumps({"ok": True})}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
"""


def test_a_working_server_with_a_secret_serves_and_its_log_is_redacted(tmp_path: Path) -> None:
    (tmp_path / "skills" / "echo-call").mkdir(parents=True)
    (tmp_path / "skills" / "echo-call" / "SKILL.md").write_text(SKILL)
    (tmp_path / "echo.py").write_text(WORKING)
    server = {"command": sys.executable, "args": [str(tmp_path / "echo.py"), "--key", "${SW_TEST_SECRET}"]}
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"echo": server}}))
    (tmp_path / "spec.md").write_text(SPEC)
    state = tmp_path / "state"
    run = subprocess.run(
        [str(SKILLWEAVE), "run", "spec.md", "--json", "--state-dir", str(state)],
        cwd=tmp_path, capture_output=True, text=True, timeout=180, env={**os.environ, "SW_TEST_SECRET": SECRET},
    )
    assert run.returncode == 0, run.stderr + run.stdout
    assert json.loads(run.stdout)["outputs"]["step-1"] == {"ok": True}
    log = next(state.rglob("echo.stderr.log")).read_text()
    assert "started with ['--key', '${SW_TEST_SECRET}']" in log and "called; key ${SW_TEST_SECRET}" in log
    assert not [p for p in state.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
