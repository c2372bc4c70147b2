"""The report of a run cut by SIGKILL and resumed says which attempt the kill cut short.

A real `skillweave run` is killed while its second step's script sleeps; `skillweave resume`
runs that step again and finishes. The step then has two attempts and no failure: the
report must say that the first one was interrupted, not leave the count unexplained.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from counter_workflow import skillweave

pytestmark = pytest.mark.e2e

SKILL_MD = """\
---
name: qa-nap
description: Test skill. Sleeps for `nap` seconds, then echoes x as value.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "60"
---

Reads `{"x": ..., "nap": seconds}` and writes `{"value": x}`.
"""

SCRIPT = """\
import json
import sys
import time

d = json.load(sys.stdin)
time.sleep(float(d.get("nap", 0)))
json.dump({"value": d.get("x")}, sys.stdout)
"""

SPEC = """\
name: qa-interrupted
description: a step long enough to be killed in
inputs:
  x: {type: string}
steps:
  - id: first
    skill: qa-nap
    input: {x: "{{ inputs.x }}"}
  - id: second
    skill: qa-nap
    depends_on: [first]
    input: {x: "{{ inputs.x }}", nap: 2}
"""


def _events(state: Path) -> list[dict[str, object]]:
    with sqlite3.connect(state / "journal.db") as db:
        return [json.loads(data) for (data,) in db.execute("SELECT data FROM events ORDER BY seq")]


def _kill_when_second_starts(process: subprocess.Popen[str], state: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (state / "journal.db").is_file():
            try:
                started = [e for e in _events(state) if e["type"] == "attempt_started" and e["step"] == "second"]
            except sqlite3.OperationalError:  # the journal is being created
                started = []
            if started:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
                return
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("step `second` never started")


@pytest.fixture(scope="module")
def resumed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("interrupted")
    skill = folder / "skills" / "qa-nap"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    (folder / "spec.yaml").write_text(SPEC)
    state = folder / "state"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    command = [str(Path(sys.executable).with_name("skillweave")), "run", "spec.yaml", "--input", "x=k",
               "--state-dir", str(state), "--json"]
    process = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    try:
        _kill_when_second_starts(process, state)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
    with sqlite3.connect(state / "journal.db") as db:
        (run_id,) = db.execute("SELECT run_id FROM runs").fetchone()
    done = skillweave("resume", run_id, "--json", "--state-dir", state, cwd=folder)
    assert done.returncode == 0, done.stderr
    return state, run_id


def test_the_json_report_names_the_attempt_the_kill_cut_short(resumed: tuple[Path, str]) -> None:
    state, run_id = resumed
    shown = skillweave("runs", "show", run_id, "--format", "json", "--state-dir", state, cwd=state.parent)
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["status"] == "succeeded" and [s["resumed"] for s in report["sessions"]] == [False, True]
    second = next(s for s in report["steps"] if s["step_id"] == "second")
    # what the journal says: two attempts of `second`, the first with no outcome before the resume
    events = _events(state)
    started = [e for e in events if e["type"] == "attempt_started" and e["step"] == "second"]
    resumed_at = [e["ts"] for e in events if e["type"] == "run_started"][1]
    assert second["metrics"]["attempts"] == len(started) == 2
    assert second["failed_attempts"] == []
    assert second["interrupted_attempts"] == [
        {"ts": started[0]["ts"], "item": None, "attempt": 1, "resumed_at": resumed_at}
    ]
    assert second["metrics"]["interrupted"] == 1 and report["metrics"]["interrupted"] == 1
    first = next(s for s in report["steps"] if s["step_id"] == "first")
    assert first["interrupted_attempts"] == [] and first["metrics"]["interrupted"] == 0


def test_markdown_and_html_say_the_attempt_was_interrupted(resumed: tuple[Path, str]) -> None:
    state, run_id = resumed
    md = skillweave("runs", "show", run_id, "--state-dir", state, cwd=state.parent)
    assert md.returncode == 0, md.stderr
    assert "; 3 attempts (1 interrupted), 0 retries" in md.stdout.splitlines()[4]
    assert "| `second` second | succeeded | 2 |" in md.stdout and "| 1 attempt interrupted |" in md.stdout
    detail = md.stdout.split("### `second` second: succeeded")[1]
    assert "#### Interrupted attempts" in detail
    assert "- attempt 1: started " in detail and "its process ended (a crash or a kill)" in detail
    page = skillweave("runs", "show", run_id, "--format", "html", "--state-dir", state, cwd=state.parent)
    assert page.returncode == 0, page.stderr
    assert "<h4>Interrupted attempts</h4>" in page.stdout
