"""QA of `skillweave serve` as a demanding MCP client uses it: real server processes
over stdio, cancelled and abandoned calls, a state dir shared with the CLI, bad input,
and the process's hygiene (stdout, stderr, children)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from serverkit import SKILLWEAVE, make_project, ok, stdio_client, text

pytestmark = [pytest.mark.e2e]

def gated_count(project: Path, text: str) -> tuple[dict[str, Any], Path]:
    """run_workflow's arguments for a run whose one step waits until the test opens the gate
    (creates `open` in the returned folder): "still in flight" is a fact, not a race."""
    gate = project.parent / "gate"
    gate.mkdir()
    return {"spec": "specs/gated-count.md", "inputs": {"text": text, "gate": str(gate)}}, gate
GATED = {"spec": "specs/shout-approved.md", "inputs": {"text": "ship it"}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SKILLWEAVE), *args, "--state-dir", str(project / ".skillweave")],
        cwd=project,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def processes_mentioning(marker: str) -> list[str]:
    """Command lines of live processes (zombies aside) that mention `marker`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z" and int(pid) != os.getpid():
            found.append(cmdline)
    return found


def add_script_skill(project: Path, name: str, code: str, timeout_s: int = 3) -> None:
    """A script skill beside the specs, and a one-step spec `specs/<name>.md` using it."""
    folder = project / "specs" / "skills" / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: A QA skill.\nmetadata:\n  skillweave.kind: script\n"
        f'  skillweave.entry: scripts/main.py\n  skillweave.timeout: "{timeout_s}"\n'
        f"  skillweave.network: deny\n---\n\n# {name}\n\nQA.\n"
    )
    (folder / "scripts" / "main.py").write_text(code)
    (project / "specs" / f"{name}.md").write_text(
        f"# {name} Workflow\n\n## Intent\nQA.\n\n## Inputs\n- text (string): the text\n\n"
        f"## Workflow Steps\n\n### Step 1: Do\n- Skill: `{name}`\n- Input: text (string)\n"
        "- Output: words (integer)\n- Retries: 0\n- Success criteria: words counted\n"
    )


class RawServer:
    """`skillweave serve` on pipes, every stdout line kept, for what the SDK client hides."""

    def __init__(self, project: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [str(SKILLWEAVE), "serve", "--state-dir", str(project / ".skillweave"), *extra],
            cwd=project,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: list[bytes] = []
        self.stderr: list[bytes] = []
        self._arrived = threading.Condition()
        self._next = 0
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "qa", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._arrived:
                self.lines.append(line)
                self._arrived.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        self._next += 1
        wanted = self._next
        self.send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for line in self.lines:
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    if message.get("id") == wanted and ("result" in message or "error" in message):
                        return dict(message)
                left = deadline - time.monotonic()
                assert left > 0, f"no answer to {method} within {timeout}s"
                self._arrived.wait(timeout=left)

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})["result"]
        assert not result.get("isError"), result
        return dict(result["structuredContent"])

    def not_json_rpc(self) -> list[bytes]:
        bad = []
        for line in self.lines:
            try:
                if json.loads(line).get("jsonrpc") != "2.0":
                    bad.append(line)
            except ValueError:
                bad.append(line)
        return bad

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def kill(self) -> None:
        """Kill the server if it still runs, let the readers drain, close every pipe."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for reader in self._readers:
            reader.join(timeout=10)
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()


def wait_for_attempt(server: RawServer, run_id: str) -> None:
    deadline = time.monotonic() + 15
    while not server.call("get_run", {"run_id": run_id})["steps"][0]["attempts"]:
        assert time.monotonic() < deadline, "the step never started"
        time.sleep(0.05)


# Bugs ------------------------------------------------------------------------------------


async def test_after_a_shell_approval_get_run_says_to_resume_not_to_approve(project: Path) -> None:
    """A gate decided from the shell leaves the run paused with nothing awaiting; the view
    must point the agent at resume_run, not at approve_step (which then refuses)."""
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            paused = ok(await client.call_tool("run_workflow", GATED))
            assert paused["awaiting_approval"] == ["step-2"]
            approved = cli(project, "approve", paused["run_id"], "step-2")
            assert approved.returncode == 0, approved.stderr
            view = ok(await client.call_tool("get_run", {"run_id": paused["run_id"]}))
            done = ok(await client.call_tool("resume_run", {"run_id": paused["run_id"]}))
    assert view["status"] == "paused" and view["awaiting_approval"] == []
    assert "resume_run" in view["next"], view["next"]
    assert "approve_step" not in view["next"], view["next"]
    assert done["status"] == "succeeded"


async def test_a_run_the_cli_is_executing_is_not_reported_as_interrupted(project: Path) -> None:
    """The server shares the state dir with the CLI: a run a `skillweave run` process is
    executing must not be called interrupted, with advice to resume it."""
    gate = project.parent / "gate"
    gate.mkdir()
    running = subprocess.Popen(
        [str(SKILLWEAVE), "run", "specs/gated-count.md", "--input", "text=a b", "--input", f"gate={gate}",
         "--state-dir", str(project / ".skillweave"), "--json"],
        cwd=project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with anyio.fail_after(60):
            async with stdio_client(project) as client:
                deadline = time.monotonic() + 15
                while True:
                    runs = ok(await client.call_tool("list_runs", {}))["runs"]
                    if runs:
                        view = ok(await client.call_tool("get_run", {"run_id": runs[0]["run_id"]}))
                        if view["steps"][0]["attempts"]:
                            break
                    assert time.monotonic() < deadline, "the CLI's run never started"
                    await anyio.sleep(0.1)
    finally:
        (gate / "open").touch()
        assert running.wait(timeout=60) == 0
    assert view["status"] == "running"
    assert "interrupted" not in view["next"], view["next"]
    assert "resume_run" not in view["next"], view["next"]


async def test_cancelling_the_call_that_asks_for_approval_withdraws_the_question(project: Path) -> None:
    """An older client (asked mid-call) cancels run_workflow while the person is being asked:
    the run must pause at once so approve_step works, not stay `executing` until the
    approval timeout runs out."""
    asked = anyio.Event()

    async def person_who_never_answers(context: Any, params: Any) -> Any:
        asked.set()
        await anyio.sleep(3600)

    with anyio.fail_after(60):
        async with stdio_client(
            project, "--approval-timeout", "60", mode="legacy", elicitation_callback=person_who_never_answers
        ) as client:
            async with anyio.create_task_group() as group:

                async def run_then_cancel() -> None:
                    await client.call_tool("run_workflow", GATED)

                group.start_soon(run_then_cancel)
                with anyio.fail_after(20):
                    await asked.wait()
                group.cancel_scope.cancel()  # the client sends notifications/cancelled
            run_id = ok(await client.call_tool("list_runs", {}))["runs"][0]["run_id"]
            deadline = time.monotonic() + 10
            while True:
                view = ok(await client.call_tool("get_run", {"run_id": run_id}))
                if view["status"] == "paused" or time.monotonic() > deadline:
                    break
                await anyio.sleep(0.2)
            assert view["status"] == "paused", "the question outlived the call that asked it"
            done = ok(await client.call_tool("approve_step", {"run_id": run_id, "step": "step-2"}))
    assert done["status"] == "succeeded"


async def test_a_misspelled_argument_is_refused_not_ignored(project: Path) -> None:
    """`rejected: true` for `reject: true` must not silently approve the step."""
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            paused = ok(await client.call_tool("run_workflow", GATED))
            answer = await client.call_tool(
                "approve_step", {"run_id": paused["run_id"], "step": "step-2", "rejected": True}
            )
            view = ok(await client.call_tool("get_run", {"run_id": paused["run_id"]}))
    assert answer.is_error, "an unknown argument was ignored and the step approved"
    assert "rejected" in text(answer)
    assert view["status"] == "paused" and view["awaiting_approval"] == ["step-2"]


def test_serve_debug_logs_skillweave_not_the_markdown_parser(project: Path) -> None:
    """`serve --debug` is for skillweave's own diagnostics; one validation must not pour
    thousands of markdown-it tokenizer lines onto stderr."""
    server = RawServer(project, "--debug")
    try:
        server.call("validate_spec", {"spec": "specs/shout-approved.md"})
        server.close_stdin()
        assert server.process.wait(timeout=20) == 0
    finally:
        server.kill()
    noise = [line for line in server.stderr if b"StateBlock" in line or b"entering " in line]
    assert len(noise) < 10, f"{len(noise)} markdown-it debug lines on stderr"


# Behaviours that hold ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_cancelled_run_call_stops_the_watch_not_the_run(project: Path, mode: str) -> None:
    messages: list[str] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    with anyio.fail_after(60):
        async with stdio_client(project, mode=mode) as client:
            arguments, gate = gated_count(project, "a b c")
            with anyio.move_on_after(1):
                await client.call_tool("run_workflow", arguments, progress_callback=progress)
                pytest.fail("the run finished before the call was cancelled")
            [brief] = ok(await client.call_tool("list_runs", {}))["runs"]
            assert brief["status"] == "running" and brief["executing"] is True
            (gate / "open").touch()
            run = ok(await client.call_tool("get_run", {"run_id": brief["run_id"], "wait_s": 30}))
    assert any("attempt started" in m for m in messages), messages
    assert run["status"] == "succeeded", run
    assert run["steps"][0]["attempts"] == 1
    assert run["outputs"]["step-1"]["words"] == 3


CLIENT = """
import sys
import anyio
sys.path.insert(0, {kit!r})
from serverkit import ok, stdio_client
from pathlib import Path

async def main():
    async with stdio_client(Path({project!r})) as client:
        async def progress(value, total, message):
            print(message, flush=True)
        await client.call_tool("run_workflow", {arguments!r}, progress_callback=progress)
        print("finished", flush=True)

anyio.run(main)
"""


def test_stdin_eof_mid_run_ends_the_server_cleanly_and_the_cli_resumes_the_run(project: Path) -> None:
    server = RawServer(project)
    try:
        arguments, gate = gated_count(project, "x y")
        run_id = server.call("run_workflow", {**arguments, "wait": False})["run_id"]
        wait_for_attempt(server, run_id)
        assert processes_mentioning(str(project / "specs" / "skills")), "no sandbox running the step"
        server.close_stdin()  # the host closed the pipe
        assert server.process.wait(timeout=20) == 0
    finally:
        server.kill()
    deadline = time.monotonic() + 10
    while processes_mentioning(str(project)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_mentioning(str(project)) == []
    assert server.not_json_rpc() == []
    listed = json.loads(cli(project, "runs", "--json").stdout)["runs"]
    assert [r["status"] for r in listed if r["run_id"] == run_id] == ["running"]
    (gate / "open").touch()
    resumed = cli(project, "resume", run_id, "--json")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "succeeded"


def test_a_client_killed_mid_run_takes_the_server_and_its_sandboxes_down_resumably(project: Path) -> None:
    arguments, gate = gated_count(project, "x y z")
    script = CLIENT.format(kit=str(Path(__file__).parent), project=str(project), arguments=arguments)
    client = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert client.stdout is not None
        for line in client.stdout:  # progress arrives through the real client
            if "attempt started" in line:
                break
        else:
            pytest.fail("no progress notification before the client ended")
    finally:
        client.kill()
        client.wait(timeout=10)
        assert client.stdout is not None
        client.stdout.close()
    deadline = time.monotonic() + 20
    while processes_mentioning(str(project)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_mentioning(str(project)) == [], "the server or a sandbox outlived its client"
    [run] = json.loads(cli(project, "runs", "--json").stdout)["runs"]
    (gate / "open").touch()
    resumed = cli(project, "resume", run["run_id"], "--json")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    done = json.loads(resumed.stdout)
    assert done["status"] == "succeeded"


async def test_bad_specs_and_runaway_scripts_are_clean_answers_and_the_server_lives_on(project: Path) -> None:
    add_script_skill(project, "loop-forever", "while True:\n    pass\n", timeout_s=2)
    add_script_skill(project, "flood", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    (project / "specs" / "cycle.yaml").write_text(
        "name: cyc\nsteps:\n  - id: a\n    skill: count-words\n    depends_on: [b]\n"
        "  - id: b\n    skill: count-words\n    depends_on: [a]\n"
    )
    (project / "specs" / "missing.md").write_text(
        (project / "specs" / "count.md").read_text().replace("`count-words`", "`no-such-skill`")
    )
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            cycle = await client.call_tool("run_workflow", {"spec": "specs/cycle.yaml"})
            missing = await client.call_tool("validate_spec", {"spec": "specs/missing.md"})
            typed = await client.call_tool("validate_spec", {"spec": 5})
            looped = ok(await client.call_tool("run_workflow", {"spec": "specs/loop-forever.md", "inputs": {"text": "a"}}))
            flooded = ok(await client.call_tool("run_workflow", {"spec": "specs/flood.md", "inputs": {"text": "a"}}))
            still = ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a b"}}))
    assert cycle.is_error and "cycle.yaml:" in text(cycle) and "dependency cycle" in text(cycle)
    assert missing.is_error and "missing.md:" in text(missing) and "no-such-skill" in text(missing)
    assert typed.is_error and "spec" in text(typed)
    for answer in (cycle, missing, typed):
        assert "Traceback" not in text(answer)
    assert looped["status"] == "failed" and looped["error"].startswith("step-1/1: ") and "timed out" in looped["error"]
    assert flooded["status"] == "failed" and "stdout" in flooded["error"]
    assert still["status"] == "succeeded"


async def test_a_server_run_is_approved_and_resumed_from_the_shell_and_guarded_while_executing(
    project: Path,
) -> None:
    arguments, gate = gated_count(project, "a")
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            paused = ok(await client.call_tool("run_workflow", GATED))
            slow = ok(await client.call_tool("run_workflow", {**arguments, "wait": False}))
            refused = cli(project, "resume", slow["run_id"], "--json")  # the server is executing it
            (gate / "open").touch()
            assert cli(project, "approve", paused["run_id"], "step-2").returncode == 0
            resumed = cli(project, "resume", paused["run_id"], "--json")
            seen = ok(await client.call_tool("get_run", {"run_id": paused["run_id"]}))
            slow_done = ok(await client.call_tool("get_run", {"run_id": slow["run_id"], "wait_s": 20}))
    assert refused.returncode == 2 and "being executed by process" in refused.stderr
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert seen["status"] == "succeeded"
    assert seen["outputs"]["step-2"] == {"shouted": "SHIP IT (2 words)"}
    assert slow_done["status"] == "succeeded" and slow_done["steps"][0]["attempts"] == 1


async def test_concurrent_runs_through_one_stdio_session_all_succeed(project: Path) -> None:
    results: list[dict[str, Any]] = []
    with anyio.fail_after(60):
        async with stdio_client(project) as client, anyio.create_task_group() as group:
            for n in range(1, 6):

                async def run(words: int = n) -> None:
                    inputs = {"text": " ".join(["w"] * words)}
                    results.append(ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": inputs})))

                group.start_soon(run)
    assert sorted(r["outputs"]["step-1"]["words"] for r in results) == [1, 2, 3, 4, 5]
    assert len({r["run_id"] for r in results}) == 5
    assert all(r["status"] == "succeeded" for r in results)
