"""QA of contained attempts through real processes: real `skillweave run`/`resume`, real
bwrap sandboxes, real SIGKILLs of the process group, a real stdio MCP server.

A contained attempt (a script under bwrap without network) starts before its start is
durable; its events follow within FLUSH_DELAY_S (50 ms) or with the next commit. Anything
that can reach outside the run (an MCP tool, a script with network, any script under the
unshare fallback) runs only once its own start and every output before it are in the
journal. The outside steps here read the journal from a connection of their own at the
moment they run (the MCP tool in its server process, a network or unshare script through
an observer socket of the test) and report what they saw.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from engine_plans import (
    approval_plan,
    calc,
    read_events,
    sandboxes_under,
    skill,
    skillweave_command,
    write_plan,
)
from sandbox_modes import write_script

from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.build import seal
from orchestrator.plan.model import (
    ForEach,
    InputBinding,
    Plan,
    PlanInput,
    PlanStep,
    SpecRef,
    StepPolicy,
)
from orchestrator.policy import Limits
from orchestrator.sandbox import Isolation, probe_isolation

pytestmark = [pytest.mark.e2e]

WAIT_S = 60.0  # bound on every wait for a process or the journal
Row = tuple[str, str | None, int | None, int | None]  # (type, step, item, attempt) of an event

# -- a stdio MCP server whose tools read the journal when they are called ----------------

PEEK_SERVER = '''
import json
import os
import sqlite3
import sys
import time
from typing import Any

from mcp.server.mcpserver import MCPServer

DB, LOG, HOLD = sys.argv[1], sys.argv[2], sys.argv[3]
server = MCPServer("peek", log_level="WARNING")


def seen() -> list[list[Any]]:
    if not os.path.exists(DB):
        return []
    conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True, timeout=10)
    try:
        rows = conn.execute("SELECT type, step, item, attempt FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [list(row) for row in rows]


def note(tag: str, rows: list[list[Any]]) -> None:
    with open(LOG, "a") as fh:
        fh.write(json.dumps({"tag": tag, "seen": rows}) + "\\n")


@server.tool(structured_output=True)
def peek(tag: str, prev: Any = None) -> dict[str, Any]:
    """What the journal holds now; waits while the HOLD file exists."""
    rows = seen()
    note(tag, rows)
    deadline = time.monotonic() + 60
    while os.path.exists(HOLD) and time.monotonic() < deadline:
        time.sleep(0.05)
    return {"tag": tag, "seen": rows}


@server.tool(structured_output=True)
def undo(step: str, input: Any = None, output: Any = None) -> dict[str, Any]:
    """A compensation: notes what the journal holds now."""
    note("undo:" + step, seen())
    return {"undone": step}


server.run("stdio")
'''


class Peek:
    """The peek server's files: its mcp.json, its log of calls, its hold switch."""

    def __init__(self, folder: Path, db: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.server = folder / "peek_server.py"
        self.server.write_text(PEEK_SERVER)
        self.log = folder / "peek.log"
        self.hold = folder / "peek.hold"
        self.config = folder / "mcp.json"
        args = [str(self.server), str(db), str(self.log), str(self.hold)]
        self.config.write_text(json.dumps({"mcpServers": {"peek": {"command": sys.executable, "args": args}}}))
        self.skill_dir = folder / "skill"  # empty: the log and the hold file change, the skill does not
        self.skill_dir.mkdir(exist_ok=True)

    def skill(self, tool: str) -> BoundSkill:
        return BoundSkill(
            name=tool, kind=BuiltinKind.MCP, path=str(self.skill_dir), origin="dir", sha256="0",
            server="peek", tool=tool, timeout_s=60,
        )

    def calls(self) -> dict[str, list[Row]]:
        if not self.log.exists():
            return {}
        found = {}
        for line in self.log.read_text().splitlines():
            if line.endswith("}"):
                entry = json.loads(line)
                found[entry["tag"]] = [tuple(row) for row in entry["seen"]]
        return found


# -- a script that reports to an observer of the test, which reads the journal then -------

OBSERVE_SCRIPT = """
import json
import os
import socket
import sys

data = json.load(sys.stdin)
where = data["addr"]
if where.startswith("tcp:"):
    conn = socket.create_connection(("127.0.0.1", int(where[4:])), timeout=30)
else:
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(30)
    conn.connect(os.path.join(os.path.dirname(os.path.abspath(__file__)), where))
env = os.environ
tag = "|".join([env["SKILLWEAVE_STEP_ID"], env.get("SKILLWEAVE_ITEM", ""), env["SKILLWEAVE_ATTEMPT"]])
conn.sendall(tag.encode() + b"\\n")
reply = b""
while not reply.endswith(b"\\n"):
    chunk = conn.recv(64)
    if not chunk:
        break
    reply += chunk
conn.close()
json.dump({"value": data["value"] + 1, "trail": [*data.get("trail", []), env["SKILLWEAVE_STEP_ID"]]}, sys.stdout)
"""


class Observer:
    """Answers each connection after reading the journal: {tag: the events it held then}."""

    def __init__(self, db: Path, unix_path: Path) -> None:
        self.db = db
        self.seen: dict[str, list[Row]] = {}
        self.errors: list[str] = []
        self._lock = threading.Lock()
        tcp = socket.socket()
        tcp.bind(("127.0.0.1", 0))
        self.port = tcp.getsockname()[1]
        unix = socket.socket(socket.AF_UNIX)
        unix.bind(str(unix_path))
        unix_path.chmod(0o777)  # the sandbox runs the script under an unprivileged uid
        self._socks = [tcp, unix]
        self._stop = threading.Event()
        self._threads = []
        for sock in self._socks:
            sock.listen(16)
            sock.settimeout(0.2)
            thread = threading.Thread(target=self._serve, args=(sock,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _serve(self, sock: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                self._answer(conn)
            except Exception as exc:  # reported by the test, never raised in a thread
                self.errors.append(repr(exc))
            finally:
                conn.close()

    def _answer(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        data = b""
        while not data.endswith(b"\n"):
            chunk = conn.recv(64)
            if not chunk:
                return
            data += chunk
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            rows = db.execute("SELECT type, step, item, attempt FROM events ORDER BY seq").fetchall()
        finally:
            db.close()
        with self._lock:
            self.seen[data.decode().strip()] = [tuple(r) for r in rows]
        conn.sendall(b"ok\n")

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
        for sock in self._socks:
            sock.close()


# -- plans and processes --------------------------------------------------------------------


def _bwrap() -> None:
    reason = probe_isolation(Isolation.BWRAP)
    if reason is not None:
        pytest.skip(f"bwrap cannot run scripts here: {reason}")


def _env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Our environment without state-dir or sandbox choices, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_STATE", "SKILLWEAVE_SANDBOX"))}
    env.update(extra or {})
    return env


def _sw(*args: str | Path, env: Mapping[str, str] | None = None, timeout: float = WAIT_S) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        skillweave_command(*args), capture_output=True, text=True, timeout=timeout, env=_env(env), check=False
    )


def _spawn(*args: str | Path, env: Mapping[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        skillweave_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env=_env(env),
    )


def _kill(proc: subprocess.Popen[str]) -> None:
    """SIGKILL the whole process group, as a crash would, and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)


def _rows(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """What another process reads from the journal now ([] before it is made)."""
    if not db.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    except sqlite3.Error:
        return []
    try:
        return conn.execute(sql, args).fetchall()
    except sqlite3.Error:  # created, not migrated yet
        return []
    finally:
        conn.close()


def _wait_for(what: str, check: Callable[[], Any], proc: subprocess.Popen[str] | None = None) -> Any:
    deadline = time.monotonic() + WAIT_S
    while True:
        found = check()
        if found:
            return found
        if proc is not None and proc.poll() is not None:
            _, err = proc.communicate()
            raise AssertionError(f"the process ended (exit {proc.returncode}) before {what}: {err[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {WAIT_S:g}s")
        time.sleep(0.01)


def _run_id(db: Path, proc: subprocess.Popen[str] | None = None) -> str:
    return str(_wait_for("run in the journal", lambda: _rows(db, "SELECT run_id FROM runs"), proc)[0][0])


def _stored(db: Path, step: str) -> bool:
    return bool(_rows(db, "SELECT 1 FROM events WHERE type = 'output_stored' AND step = ?", (step,)))


def _plan(
    name: str, steps: list[PlanStep], skills: dict[str, BoundSkill], *inputs: PlanInput, concurrency: int = 8,
    mcp_config: Path | None = None,
) -> Plan:
    return seal(
        Plan(
            name=name,
            mcp_config=str(mcp_config) if mcp_config else None,  # what `resume` uses
            spec=SpecRef(path="<qa>", sha256="0" * 64, format="yaml"),
            inputs=inputs or (PlanInput(name="start", schema={"type": "integer"}),),
            steps=tuple(steps),
            skills=skills,
            limits=Limits(concurrency=concurrency),
        )
    )


def _chain(first: int, last: int, after: str | None, *, sleep_ms: int = 0) -> list[PlanStep]:
    """c<first> .. c<last>, each adding its number to `value` (the first reads `after`, else the input)."""
    steps = []
    for i in range(first, last + 1):
        steps.append(calc(f"c{i}", after, add=i, sleep_ms=sleep_ms))
        after = f"c{i}"
    return steps


def _done_before(rows: list[Row], step: str, item: int | None, attempt: int, earlier: list[str]) -> list[str]:
    """What an outside effect found missing from the journal when it ran (nothing, if all is well)."""
    missing = [f"output_stored {s}" for s in earlier if not any(r[0] == "output_stored" and r[1] == s for r in rows)]
    if ("attempt_started", step, item, attempt) not in rows:
        missing.append(f"its own attempt_started {step}[{item}]#{attempt}")
    return missing


def _peek_step(sid: str, after: str, **fields: Any) -> PlanStep:
    inputs = {"tag": InputBinding(source="literal", value=sid), "prev": InputBinding(source="step", step=after)}
    return PlanStep(id=sid, name=sid, skill="peek", inputs=inputs, **fields)


# -- 2. uncontained steps: an MCP tool ---------------------------------------------------------


def test_an_mcp_tool_finds_its_start_and_every_earlier_output_in_the_journal(tmp_path: Path) -> None:
    """A chain of contained steps, then a fan-out of MCP tool calls beside another contained
    chain, then one more tool call after both: each call reads the journal as it runs."""
    _bwrap()
    state = tmp_path / "state"
    peek = Peek(tmp_path / "peek", state / "journal.db")
    steps = _chain(1, 3, None)
    steps.append(
        PlanStep(
            id="fan", name="fan", skill="peek", depends_on=("c3",),
            for_each=ForEach(item="n", source=InputBinding(source="input", name="numbers")),
            inputs={"tag": InputBinding(source="template", template="fan{{ item }}")},
        )
    )
    steps += _chain(4, 9, "c3")
    steps.append(_peek_step("last", "c9", depends_on=("fan",)))
    numbers = PlanInput(name="numbers", schema={"type": "array"})
    plan = _plan("qa-mcp", steps, {"step-calc": skill("step-calc"), "peek": peek.skill("peek")},
                 PlanInput(name="start", schema={"type": "integer"}), numbers)
    done = _sw("run", write_plan(plan, tmp_path), "-i", "start=1", "-i", "numbers=[1, 2, 3, 4, 5, 6]", "--json",
               "--state-dir", state, "--mcp-config", peek.config)
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout)["outputs"]
    assert outputs["c9"]["value"] == 1 + sum(range(1, 10))
    for index, item in enumerate(outputs["fan"]):
        seen = [tuple(r) for r in item["seen"]]
        assert _done_before(seen, "fan", index, 1, ["c1", "c2", "c3"]) == [], f"item {index} ran too early"
    seen = [tuple(r) for r in outputs["last"]["seen"]]
    assert _done_before(seen, "last", None, 1, [f"c{i}" for i in range(1, 10)]) == []
    assert sorted(r[2] for r in seen if r[:2] == ("output_stored", "fan")) == list(range(6))


def test_a_kill_while_an_mcp_tool_runs_finds_the_steps_before_it_durable_and_resume_finishes(tmp_path: Path) -> None:
    """The plan names no mcp.json: `resume` finds the tool's server through the run's
    own --mcp-config, which the run recorded when it was created."""
    _bwrap()
    state = tmp_path / "state"
    db = state / "journal.db"
    peek = Peek(tmp_path / "peek", db)
    peek.hold.write_text("hold")
    steps = [*_chain(1, 5, None), _peek_step("tool", "c5"), calc("c6", "c5", add=6, sleep_ms=0)]
    steps[-1] = steps[-1].model_copy(update={"depends_on": ("tool",)})
    skills = {"step-calc": skill("step-calc"), "peek": peek.skill("peek")}
    plan_file = write_plan(_plan("qa-mcp-kill", steps, skills), tmp_path)
    proc = _spawn("run", plan_file, "-i", "start=1", "--json", "--state-dir", state, "--mcp-config", peek.config)
    try:
        run_id = _run_id(db, proc)
        _wait_for("the tool's call", lambda: "tool" in peek.calls(), proc)
    finally:
        _kill(proc)
    # what the tool saw as it ran, and what the journal holds after the kill
    assert _done_before(peek.calls()["tool"], "tool", None, 1, [f"c{i}" for i in range(1, 6)]) == []
    rows = [(kind, step, item, data.get("attempt")) for _, kind, step, item, data in read_events(state, run_id)]
    assert _done_before(rows, "tool", None, 1, [f"c{i}" for i in range(1, 6)]) == []
    last_seq = read_events(state, run_id)[-1][0]

    peek.hold.unlink()
    resumed = _sw("resume", run_id, "--json", "--state-dir", state)  # no --mcp-config
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["c6"] == {"value": 1 + sum(range(1, 7)), "trail": ["c1", "c2", "c3", "c4", "c5", "c6"]}
    again = [(step, data["attempt"]) for seq, kind, step, _, data in read_events(state, run_id)
             if seq > last_seq and kind == "attempt_started"]
    assert again == [("tool", 2), ("c6", 1)], "a step completed before the kill started again"


# -- 2. uncontained steps: a script with network, any script under unshare ----------------------


@pytest.mark.parametrize("mode", ["network", "unshare"])
def test_an_uncontained_script_finds_its_start_and_every_earlier_output_in_the_journal(tmp_path: Path, mode: str) -> None:
    if mode == "unshare":
        reason = probe_isolation(Isolation.UNSHARE)
        if reason is not None:
            pytest.skip(f"unshare cannot run scripts here: {reason}")
    else:
        _bwrap()
    state = tmp_path / "state"
    state.mkdir()
    folder = tmp_path / "observe"
    write_script(folder, OBSERVE_SCRIPT)
    observer = Observer(state / "journal.db", folder / "observer.sock")
    try:
        addr = "observer.sock"  # a script with network has its own: the host's loopback is out of reach
        observe = BoundSkill(
            name="observe", kind=BuiltinKind.SCRIPT, path=str(folder), origin="dir", sha256="0",
            entry="main.py", timeout_s=30, network=mode == "network",
        )

        def watched(sid: str, after: str) -> PlanStep:
            inputs = {
                "addr": InputBinding(source="literal", value=addr),
                "value": InputBinding(source="step", step=after, pointer="/value"),
                "trail": InputBinding(source="step", step=after, pointer="/trail"),
            }
            return PlanStep(id=sid, name=sid, skill="observe", inputs=inputs)

        steps = [*_chain(1, 4, None), watched("o1", "c4"), *_chain(5, 7, "o1"), watched("o2", "c7")]
        plan = _plan("qa-outside", steps, {"step-calc": skill("step-calc"), "observe": observe})
        env = {"SKILLWEAVE_SANDBOX": "unshare"} if mode == "unshare" else None
        done = _sw("run", write_plan(plan, tmp_path), "-i", "start=1", "--json", "--state-dir", state, env=env)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["outputs"]["o2"]["trail"] == ["c1", "c2", "c3", "c4", "o1", "c5", "c6", "c7", "o2"]
        isolation = {s["step_id"]: s["isolation"] for s in summary["steps"]}
        assert isolation["o1"] == ("bwrap" if mode == "network" else "unshare"), isolation
        assert sorted(observer.seen) == ["o1||1", "o2||1"], (observer.seen, observer.errors)
        assert _done_before(observer.seen["o1||1"], "o1", None, 1, ["c1", "c2", "c3", "c4"]) == []
        earlier = ["c1", "c2", "c3", "c4", "o1", "c5", "c6", "c7"]
        assert _done_before(observer.seen["o2||1"], "o2", None, 1, earlier) == []
    finally:
        observer.close()
    assert observer.errors == []


# -- 3. a long contained script is in the journal while it runs ---------------------------------


def test_a_long_contained_script_is_in_the_journal_while_it_runs_and_a_kill_leaves_it_interrupted(
    tmp_path: Path,
) -> None:
    """The start of a contained attempt is written by the 50 ms timer, not at its end: read
    from another process it shows well within a second (its ts against the wall clock), and
    a SIGKILL half a second into the script (found by its sandbox's age, not the journal)
    leaves an interrupted attempt that the report of the resumed run names. The script
    cannot end before the kill: it waits for a gate the test opens only for the resume."""
    _bwrap()
    state = tmp_path / "state"
    db = state / "journal.db"
    gate = tmp_path / "gate"
    gate.mkdir()
    long = calc("long", "c2", add=100, sleep_ms=0)
    long = long.model_copy(update={"inputs": {**long.inputs, "gate": InputBinding(source="input", name="gate")}})
    steps = [*_chain(1, 2, None), long, calc("c4", "long", add=4, sleep_ms=0)]
    inputs = (PlanInput(name="start", schema={"type": "integer"}),
              PlanInput(name="gate", schema={"type": "string", "format": "path"}))
    plan_file = write_plan(_plan("qa-long", steps, {"step-calc": skill("step-calc")}, *inputs), tmp_path)
    proc = _spawn("run", plan_file, "-i", "start=1", "-i", f"gate={gate}", "--json", "--state-dir", state)
    try:
        run_id = _run_id(db, proc)
        _wait_for("the output of c2", lambda: _stored(db, "c2"), proc)
        work = state / "runs" / run_id / "work"
        first_seen: dict[int, float] = {}
        visible_after: float | None = None
        deadline = time.monotonic() + WAIT_S
        while True:  # until a sandbox of this run has lived 0.5 s: only `long` lives that long
            now = time.monotonic()
            for pid in sandboxes_under(work):
                first_seen.setdefault(pid, now)
            if visible_after is None:
                started = _rows(db, "SELECT data FROM events WHERE type = 'attempt_started' AND step = 'long'")
                if started:
                    visible_after = time.time() - json.loads(started[0][0])["ts"]
            if any(now - t >= 0.5 for t in first_seen.values()):
                break
            assert proc.poll() is None and now < deadline, "the long step's sandbox never showed"
            time.sleep(0.005)
        assert not _stored(db, "long"), "the gated script ended before its gate opened"
    finally:
        _kill(proc)
    (gate / "open").touch()  # the resumed attempt may finish
    assert visible_after is not None, "attempt_started of `long` not in the journal 0.5 s into the script"
    assert visible_after < 1.0, f"attempt_started of `long` took {visible_after:.2f}s to become durable"

    resumed = _sw("resume", run_id, "--json", "--state-dir", state, timeout=WAIT_S)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["c4"]["value"] == 1 + 1 + 2 + 100 + 4
    shown = _sw("runs", "show", run_id, "--format", "json", "--state-dir", state)
    assert shown.returncode == 0, shown.stderr
    report = {s["step_id"]: s for s in json.loads(shown.stdout)["steps"]}
    assert report["long"]["metrics"]["attempts"] == 2
    assert [a["attempt"] for a in report["long"]["interrupted_attempts"]] == [1]
    assert report["c2"]["metrics"]["attempts"] == 1 and report["c2"]["interrupted_attempts"] == []


# -- 4. the journal cannot be written during a chain of contained steps -------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A 16 MB tmpfs (root with CAP_SYS_ADMIN only); unmounted after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


def _fill_disk_after(proc: subprocess.Popen[str], db: Path, step: str, filler: Path) -> tuple[str, str, list[str]]:
    """Once `step`'s output is stored, fill the disk; the run's id, its stderr, and the
    stderr lines that are not progress."""
    try:
        run_id = _run_id(db, proc)
        _wait_for(f"the output of {step}", lambda: _stored(db, step), proc)
        with open(filler, "wb") as fh, pytest.raises(OSError):
            while True:
                fh.write(b"\0" * (1 << 16))
        _, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            _kill(proc)
    lines = [line for line in err.splitlines() if line and not line[:2].isdigit() and not line.startswith("run ")]
    return run_id, err, lines


def test_a_full_disk_during_contained_steps_is_one_line_naming_the_journal_and_resume_finishes(
    tmp_path: Path, small_disk: Path
) -> None:
    """The disk fills while a chain of contained steps runs: the run stops at its next step
    with one line that names the journal and says the disk is full (not a second error
    raised while rolling back), no traceback; with space again, `resume` finishes it."""
    _bwrap()
    state = small_disk / "state"
    db = state / "journal.db"
    plan_file = write_plan(_plan("qa-full", _chain(1, 30, None, sleep_ms=20), {"step-calc": skill("step-calc")}), tmp_path)
    proc = _spawn("run", plan_file, "-i", "start=1", "--state-dir", state)
    run_id, err, lines = _fill_disk_after(proc, db, "c5", small_disk / "filler")
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{db}: "), lines[0]
    assert "cannot rollback" not in lines[0], f"the disk-full error was masked: {lines[0]}"
    assert "disk is full" in lines[0], lines[0]
    assert f"skillweave resume {run_id}" in lines[0]

    (small_disk / "filler").unlink()
    resumed = _sw("resume", run_id, "--json", "--state-dir", state)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["c30"]["value"] == 1 + sum(range(1, 31))


BIG_SCRIPT = """
import json
import sys
import time

data = json.load(sys.stdin)
time.sleep(0.02)
json.dump({"value": data["value"] + 1, "pad": "x" * 100000}, sys.stdout)
"""


def test_a_full_disk_while_storing_a_big_contained_output_is_a_journal_error_not_an_internal_one(
    tmp_path: Path, small_disk: Path
) -> None:
    """Outputs over 64 KB go to a file of the run beside the journal, written with the
    event: a full disk there is the journal's failure too. It must read as one line naming
    the state directory, with the resume command, not as "internal error ... a skillweave bug"."""
    _bwrap()
    folder = tmp_path / "big"
    write_script(folder, BIG_SCRIPT)
    big = BoundSkill(name="big", kind=BuiltinKind.SCRIPT, path=str(folder), origin="dir", sha256="0",
                     entry="main.py", timeout_s=30)
    steps = []
    for i in range(1, 16):
        source = InputBinding(source="step", step=f"b{i - 1}", pointer="/value") if i > 1 else InputBinding(source="input", name="start")
        steps.append(PlanStep(id=f"b{i}", name=f"b{i}", skill="big", inputs={"value": source}))
    state = small_disk / "state"
    db = state / "journal.db"
    proc = _spawn("run", write_plan(_plan("qa-full-big", steps, {"big": big}), tmp_path), "-i", "start=0", "--state-dir", state)
    run_id, err, lines = _fill_disk_after(proc, db, "b3", small_disk / "filler")
    assert proc.returncode == 1, err
    assert len(lines) == 1, lines
    assert "internal error" not in lines[0] and "skillweave bug" not in lines[0], lines[0]
    assert str(state) in lines[0], lines[0]
    assert f"skillweave resume {run_id}" in lines[0], lines[0]

    (small_disk / "filler").unlink()
    resumed = _sw("resume", run_id, "--json", "--state-dir", state)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["b15"]["value"] == 15


# -- 5. progress and --json ---------------------------------------------------------------------

RESULT_KEYS = [
    "run_id", "plan_name", "plan_sha256", "status", "created_at", "started_at", "finished_at", "error",
    "awaiting", "inputs", "outputs", "steps", "totals", "compensations", "notes", "degraded", "run_dir", "report",
    "artifacts", "spec_warnings",
]
STEP_KEYS = [
    "step_id", "name", "skill", "status", "attempts", "retries", "regenerations", "items", "items_done",
    "ready_at", "started_at", "finished_at", "duration_s", "queue_delay_s", "run_time_s", "handoff_passed",
    "handoff_failed", "violations", "tokens", "error_class", "message", "fallback", "code_sha256", "approval",
    "isolation",
]


def _fan_plan(name: str, *, sleep_ms: int, chain: int) -> Plan:
    """A chain of contained steps, a contained fan-out beside it (items where n % 4 == 0 left
    out), a step skipped by its condition, and a merge of both."""
    steps = _chain(1, chain, None, sleep_ms=sleep_ms)
    steps.append(
        PlanStep(
            id="squares", name="squares", skill="fan-square", when="item % 4 != 0",
            for_each=ForEach(item="n", source=InputBinding(source="input", name="numbers")),
            inputs={"n": InputBinding(source="item"), "sleep_ms": InputBinding(source="literal", value=sleep_ms)},
            output_schema={"type": "object", "required": ["n", "square"]},
        )
    )
    steps.append(calc("never", "c2", add=1000, sleep_ms=0).model_copy(update={"when": "steps.c2.value > 1000"}))
    steps.append(
        PlanStep(
            id="merge", name="merge", skill="merge-total",
            inputs={
                "squares": InputBinding(source="step", step="squares"),
                "value": InputBinding(source="step", step=f"c{chain}", pointer="/value"),
            },
        )
    )
    return _plan(
        name, steps, {n: skill(n) for n in ("step-calc", "fan-square", "merge-total")},
        PlanInput(name="start", schema={"type": "integer"}), PlanInput(name="numbers", schema={"type": "array"}),
        concurrency=4,
    )


def test_progress_lists_every_step_and_json_keeps_its_shape(tmp_path: Path) -> None:
    _bwrap()
    plan_file = write_plan(_fan_plan("qa-progress", sleep_ms=0, chain=8), tmp_path)
    inputs = ("-i", "start=1", "-i", "numbers=[1, 2, 3, 4, 5, 6, 7, 8]")
    plain = _sw("run", plan_file, *inputs, "--state-dir", tmp_path / "plain")
    assert plain.returncode == 0, plain.stderr
    lines = [line.split()[1:3] for line in plain.stderr.splitlines() if line[:2].isdigit()]
    for i in range(1, 9):
        for kind in ("attempt_started", "output_stored", "step_finished"):
            assert [kind, f"c{i}#1"] in lines, (kind, i, plain.stderr)
    kept = [0, 1, 2, 4, 5, 6]  # the items where n % 4 != 0 (n = 1..8)
    for index in range(8):
        expected = [["attempt_started", f"squares[{index}]#1"], ["output_stored", f"squares[{index}]#1"]]
        assert all((line in lines) == (index in kept) for line in expected), (index, plain.stderr)
    assert ["step_skipped", "never"] in lines and ["step_finished", "merge#1"] in lines
    assert lines[-1][0] == "run_finished"
    assert "output of merge:" in plain.stdout

    as_json = _sw("run", plan_file, *inputs, "--json", "--state-dir", tmp_path / "json")
    assert as_json.returncode == 0, as_json.stderr
    result = json.loads(as_json.stdout)
    assert list(result) == RESULT_KEYS
    assert [list(s) for s in result["steps"]] == [STEP_KEYS] * len(result["steps"])
    assert {s["step_id"]: s["status"] for s in result["steps"]} == {
        **{f"c{i}": "succeeded" for i in range(1, 9)}, "squares": "succeeded", "never": "skipped", "merge": "succeeded",
    }
    squares = [n * n for n in (1, 2, 3, 5, 6, 7)]
    assert result["outputs"]["merge"] == {"total": sum(squares) + 1 + sum(range(1, 9)), "count": 6}
    assert result["totals"]["attempts"] == 8 + 6 + 1


# -- 6. SIGKILL in the middle of a fan-out of contained items ------------------------------------


def test_a_contained_fan_out_killed_mid_way_resumes_without_starting_a_completed_item_again(tmp_path: Path) -> None:
    _bwrap()
    plan_file = write_plan(_fan_plan("qa-fan-kill", sleep_ms=120, chain=6), tmp_path)
    inputs = ("-i", "start=1", "-i", "numbers=" + json.dumps(list(range(1, 21))))
    reference = _sw("run", plan_file, *inputs, "--json", "--state-dir", tmp_path / "reference")
    assert reference.returncode == 0, reference.stderr
    expected = json.loads(reference.stdout)["outputs"]

    state = tmp_path / "state"
    db = state / "journal.db"
    proc = _spawn("run", plan_file, *inputs, "--json", "--state-dir", state)
    run_id = _run_id(db, proc)
    snapshots: list[tuple[int, set[tuple[str, int | None]]]] = []
    # kill once 3, 8 and 13 item outputs are durable, at 0 ms, 20 ms and 45 ms after (inside the timer's window)
    for stored, pause in ((3, 0.0), (8, 0.02), (13, 0.045)):
        _wait_for(
            f"{stored} item outputs",
            lambda stored=stored: len(_rows(db, "SELECT 1 FROM events WHERE type = 'output_stored' AND step = 'squares'")) >= stored,
            proc,
        )
        time.sleep(pause)
        _kill(proc)
        events = read_events(state, run_id)
        assert events[-1][1] != "run_finished", "the run finished before the kill"
        snapshots.append((events[-1][0], {(s, i) for _, kind, s, i, _ in events if kind == "output_stored"}))
        proc = _spawn("resume", run_id, "--json", "--state-dir", state)
    out, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err
    summary = json.loads(out)
    assert summary["status"] == "succeeded"
    assert summary["outputs"] == expected

    events = read_events(state, run_id)
    for last_seq, completed in snapshots:
        restarted = {(s, i) for seq, kind, s, i, _ in events if seq > last_seq and kind == "attempt_started"}
        assert not restarted & completed, f"completed before the kill at seq {last_seq}, started again"
    stores = [(s, i) for _, kind, s, i, _ in events if kind == "output_stored"]
    assert len(stores) == len(set(stores)) == 6 + 15 + 1  # 15 of the 20 items pass `when`
    assert {i for _, kind, s, i, _ in events if kind == "item_skipped" and s == "squares"} == {3, 7, 11, 15, 19}
    keys = [(s, i, d["attempt"]) for _, kind, s, i, d in events if kind == "attempt_started"]
    assert len(keys) == len(set(keys)), "one attempt number started twice in the journal"
    assert sandboxes_under(state / "runs" / run_id / "work") == []


# -- 6. approvals and compensations after contained steps ----------------------------------------


def test_an_approval_after_a_contained_step_pauses_with_its_output_durable(tmp_path: Path) -> None:
    _bwrap()
    state = tmp_path / "state"
    paused = _sw("run", write_plan(approval_plan(), tmp_path), "-i", "start=1", "--json", "--state-dir", state)
    assert paused.returncode == 3, paused.stderr
    run_id = json.loads(paused.stdout)["run_id"]
    order = [(kind, step) for _, kind, step, _, _ in read_events(state, run_id)]
    assert order.index(("output_stored", "prepare")) < order.index(("approval_requested", "publish"))
    assert order[-1] == ("run_paused", None)
    approved = _sw("approve", run_id, "publish", "--state-dir", state)
    assert approved.returncode == 0, approved.stderr
    resumed = _sw("resume", run_id, "--json", "--state-dir", state)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["publish"]["published"] == 2


def test_compensations_after_contained_steps_find_them_durable(tmp_path: Path) -> None:
    """Two contained steps with an MCP compensation, then a step that fails: each compensation
    reads the journal as it runs and finds the outputs it undoes, the failure and its own start."""
    _bwrap()
    state = tmp_path / "state"
    peek = Peek(tmp_path / "peek", state / "journal.db")
    undo = StepPolicy(compensation="undo")
    steps = [
        calc("c1", None, add=1, sleep_ms=0, policy=undo),
        calc("c2", "c1", add=2, sleep_ms=0, policy=undo),
        *_chain(3, 5, "c2"),
        PlanStep(id="bad", name="bad", skill="refuse-input", inputs={"v": InputBinding(source="step", step="c5", pointer="/value")}),
    ]
    skills = {"step-calc": skill("step-calc"), "refuse-input": skill("refuse-input"), "undo": peek.skill("undo")}
    failed = _sw("run", write_plan(_plan("qa-saga", steps, skills), tmp_path), "-i", "start=1", "--json",
                 "--state-dir", state, "--mcp-config", peek.config)
    assert failed.returncode == 1, failed.stderr
    summary = json.loads(failed.stdout)
    assert summary["status"] == "failed"
    calls = peek.calls()
    assert sorted(calls) == ["undo:c1", "undo:c2"]
    for step in ("c1", "c2"):
        seen = calls[f"undo:{step}"]
        assert ("run_failing", None, None, None) in seen
        assert ("compensation_started", step, None, None) in seen
        assert all(("output_stored", s, None, 1) in seen for s in ("c1", "c2", "c3", "c4", "c5"))
