"""Runs on Temporal through real processes: `skillweave worker`s, `skillweave run --backend temporal`,
`approve`, `resume`, `runs`, `runs show`, against the session's dev server.

With SKILLWEAVE_RECORD_HISTORIES=1 each test also writes its run's Temporal
history to `histories/` (the fixtures `tests/unit/temporal/test_temporal_replay.py`
replays): re-record them after a deliberate change to the workflow's decisions.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from temporal_kit import ROOT, Kit, wait_for
from temporalio.api.enums.v1 import EventType

from orchestrator.temporal.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/e2e: the plans of the engine's e2e tests
from engine_plans import calc, skill, write_plan

from orchestrator.plan.build import seal
from orchestrator.plan.model import InputBinding, Plan, PlanInput, SpecRef
from orchestrator.policy import Limits

pytestmark = pytest.mark.e2e

SEED = ROOT / "specs" / "fetch-analyze-document.md"
EXAMPLES = ROOT / "specs" / "examples"
HISTORIES = Path(__file__).resolve().parent / "histories"
SAGA = Path(__file__).resolve().parent / "specs" / "saga.yaml"


def keep_history(kit: Kit, run_id: str, name: str) -> None:
    """Write the run's history as a replay fixture, when asked to (see the module docstring)."""
    if not os.environ.get("SKILLWEAVE_RECORD_HISTORIES"):
        return

    async def fetch() -> str:
        client = await connect(kit.settings())
        return (await client.get_workflow_handle(run_id).fetch_history()).to_json()

    HISTORIES.mkdir(exist_ok=True)
    (HISTORIES / f"{name}.json").write_text(asyncio.run(fetch()))


def history_events(kit: Kit, run_id: str) -> list[Any]:
    async def fetch() -> list[Any]:
        client = await connect(kit.settings())
        return list((await client.get_workflow_handle(run_id).fetch_history()).events)

    return asyncio.run(fetch())


def test_the_seed_workflow_succeeds_on_temporal_and_is_read_back_from_it(kit: Kit) -> None:
    kit.worker("w1")
    code, summary = kit.run_json("run", SEED, "--input", "module_name=json")
    assert code == 0, summary
    assert summary["status"] == "succeeded" and summary["backend"] == "temporal"
    assert [s["status"] for s in summary["steps"]] == ["succeeded"] * 4
    assert summary["outputs"]["step-4"]["validation_result"] is True
    run_id = summary["run_id"]
    keep_history(kit, run_id, "seed")

    code, listing = kit.run_json("runs")
    assert code == 0
    assert [(r["run_id"], r["status"]) for r in listing["runs"]] == [(run_id, "succeeded")]
    shown = kit.skillweave("runs", "show", run_id, "--backend", "temporal", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    assert '"status": "succeeded"' in shown.stdout and "step-4" in shown.stdout
    opened = kit.skillweave("runs", "show", run_id, "--backend", "temporal", "--open", "--state-dir",
                            kit.root / "client", BROWSER="true")  # a "browser" that opens nothing
    assert opened.returncode == 0, opened.stderr
    page = kit.root / "client" / "runs" / run_id / "report.html"
    assert f"wrote {page}" in opened.stderr
    assert "<svg" in page.read_text() and "step-4" in page.read_text()


def test_an_approval_pauses_the_run_and_skillweave_approve_lets_it_finish(kit: Kit) -> None:
    kit.worker("w1")
    code, paused = kit.run_json("run", EXAMPLES / "approval-compensation.md", "--input", "module_name=shlex")
    assert code == 3, paused
    assert paused["status"] == "paused" and paused["awaiting"] == ["step-3"]
    run_id = paused["run_id"]

    not_waiting = kit.skillweave("approve", run_id, "step-1", "--backend", "temporal")
    assert not_waiting.returncode == 2
    assert "step step-1 is not awaiting approval (awaiting: step-3)" in not_waiting.stderr
    approved = kit.skillweave("approve", run_id, "step-3", "--backend", "temporal", "--comment", "looks right")
    assert approved.returncode == 0, approved.stderr

    code, done = kit.run_json("resume", run_id)
    assert code == 0, done
    assert done["status"] == "succeeded"
    assert done["steps"][2]["approval"] == "approved"
    keep_history(kit, run_id, "approval")


def test_a_failing_step_runs_the_compensations_of_the_steps_before_it_in_reverse_order(kit: Kit) -> None:
    kit.worker("w1")
    code, summary = kit.run_json("run", SAGA, "--input", "start=1")
    assert code == 1, summary
    assert summary["status"] == "failed"
    assert summary["steps"][2]["status"] == "failed"
    assert summary["compensations"] == ["second: finished", "first: finished"]
    started = [e.activity_task_scheduled_event_attributes.activity_id for e in history_events(kit, summary["run_id"])
               if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED]
    compensations = [a.split(":")[1] for a in started if ":compensate:" in a]
    assert compensations == ["second", "first"]  # the activities themselves ran in that order
    keep_history(kit, summary["run_id"], "saga")


def test_a_regeneration_on_temporal_is_replayed_from_a_recording_and_never_asked_again(kit: Kit) -> None:
    kit.worker("w1")
    demo = EXAMPLES / "repair-demo"
    code, summary = kit.run_json(
        "run", demo / "repair-demo.md", "--input-file", demo / "contacts.json",
        "--llm-replay", demo / "repair-demo.replay.jsonl",
    )
    assert code == 0, summary
    assert summary["status"] == "succeeded"
    assert summary["totals"]["regenerations"] == 1
    step = summary["steps"][0]
    assert step["attempts"] == 2 and step["code_sha256"]
    events = history_events(kit, summary["run_id"])
    regenerations = [e for e in events if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
                     and e.activity_task_scheduled_event_attributes.activity_type.name == "skillweave.regenerate"]
    assert len(regenerations) == 1
    report = Path(summary["report"]).read_text()
    assert "record.get(" in report or "get(\"email\"" in report or ".get(" in report  # the repair's diff, copied out
    keep_history(kit, summary["run_id"], "regeneration")


def twelve_step_chain(folder: Path, sleep_ms: int, slow: dict[str, int] | None = None, gated: str | None = None) -> Path:
    """c01 → … → c12, each sleeping `sleep_ms` (the steps named in `slow`: their own time); the
    step named `gated` also waits until the folder given as input `gate` holds a file `open`."""
    nap = {f"c{i:02d}": sleep_ms for i in range(1, 13)} | (slow or {})
    steps = [calc("c01", None, add=1, sleep_ms=nap["c01"])]
    steps += [calc(f"c{i:02d}", f"c{i - 1:02d}", add=i, sleep_ms=nap[f"c{i:02d}"]) for i in range(2, 13)]
    inputs = [PlanInput(name="start", schema={"type": "integer"})]
    if gated is not None:
        inputs.append(PlanInput(name="gate", schema={"type": "string", "format": "path"}))
        steps = [s.model_copy(update={"inputs": {**s.inputs, "gate": InputBinding(source="input", name="gate")}})
                 if s.id == gated else s for s in steps]
    plan = seal(Plan(
        name="chain12", spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
        inputs=tuple(inputs), steps=tuple(steps),
        skills={"step-calc": skill("step-calc")}, limits=Limits(concurrency=1),
    ))
    return write_plan(plan, folder)


def test_a_worker_killed_mid_run_loses_nothing_done_and_the_chain_ends_right_on_the_other(kit: Kit) -> None:
    gate = kit.root / "gate"  # c06 cannot finish before the test opens it (after the kill)
    gate.mkdir()
    plan = twelve_step_chain(kit.root, sleep_ms=100, gated="c06")
    first, second = kit.worker("w1"), kit.worker("w2")
    code, started = kit.run_json("run", plan, "--input", "start=100", "--input", f"gate={gate}", "--no-wait",
                                 SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT="3")
    assert code == 0, started
    run_id = started["run_id"]

    async def running_on() -> tuple[str, str, set[str]] | None:
        """(key, worker identity) of the attempt under way once five steps are done, and the done ones."""
        client = await connect(kit.settings())
        handle = client.get_workflow_handle(run_id)
        scheduled: dict[int, str] = {}
        done: set[str] = set()
        async for e in handle.fetch_history_events():
            if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
                scheduled[e.event_id] = e.activity_task_scheduled_event_attributes.activity_id
            elif e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
                done.add(scheduled[e.activity_task_completed_event_attributes.scheduled_event_id])
        described = await handle.describe()
        pending = [p for p in described.raw_description.pending_activities
                   if p.last_worker_identity and p.heartbeat_details.payloads]
        if len(done) < 5 or not pending:  # five steps done, the sixth under way and heartbeating
            return None
        [progress] = await client.data_converter.decode(pending[0].heartbeat_details.payloads)
        assert progress["step"] == "c06" and progress["attempt"] == 1 and progress["elapsed_s"] >= 0, progress
        return pending[0].activity_id, pending[0].last_worker_identity, done

    found = wait_for(lambda: asyncio.run(running_on()), 90, "the sixth step to run")
    key, identity, done_before = found
    victim = first if identity == first.identity else second
    survivor = second if victim is first else first
    assert identity == victim.identity
    kit.kill(victim)
    (gate / "open").touch()

    code, summary = kit.run_json("resume", run_id, timeout=180)
    assert code == 0, summary
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["c12"]["value"] == 100 + sum(range(1, 13))
    assert summary["outputs"]["c12"]["trail"] == [f"c{i:02d}" for i in range(1, 13)]
    assert all(s["attempts"] == 1 for s in summary["steps"])  # the lost attempt ran again under its own key

    events = history_events(kit, run_id)
    by_id: dict[int, str] = {}
    started: dict[str, list[tuple[int, str]]] = {}
    for e in events:
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            by_id[e.event_id] = e.activity_task_scheduled_event_attributes.activity_id
        elif e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            a = e.activity_task_started_event_attributes
            started.setdefault(by_id[a.scheduled_event_id], []).append((a.attempt, a.identity))
    attempts = {k: v for k, v in started.items() if ":compensate:" not in k}
    assert len(done_before) >= 5
    for done in done_before:  # each step done before the kill ran exactly once, before it
        assert len(attempts[done]) == 1 and attempts[done][0][0] == 1, (done, attempts[done])
    [(attempt, by)] = attempts[key]  # the step under way at the kill: taken over after the heartbeat timeout
    assert attempt >= 2 and by == survivor.identity
    keep_history(kit, run_id, "worker-killed")


def test_ctrl_c_drains_a_worker_the_attempt_under_way_finishes_there_and_it_exits_cleanly(kit: Kit) -> None:
    gate = kit.root / "gate"  # c01 cannot finish before the test opens it: under way at the Ctrl-C
    gate.mkdir()
    plan = twelve_step_chain(kit.root, sleep_ms=100, gated="c01")
    first = kit.worker("w1")
    code, started = kit.run_json("run", plan, "--input", "start=0", "--input", f"gate={gate}", "--no-wait")
    assert code == 0, started
    run_id = started["run_id"]

    async def under_way() -> str | None:
        client = await connect(kit.settings())
        described = await client.get_workflow_handle(run_id).describe()
        pending = [p for p in described.raw_description.pending_activities if p.last_worker_identity]
        return pending[0].activity_id if pending else None

    key = wait_for(lambda: asyncio.run(under_way()), 60, "the first step to run")
    first.process.send_signal(signal.SIGINT)
    wait_for(lambda: "stopping: finishing the attempts under way" in first.output(), 60, "the worker to hear the Ctrl-C")
    (gate / "open").touch()  # the drained attempt may finish now
    assert first.process.wait(timeout=60) == 0, first.output()
    assert "stopping: finishing the attempts under way" in first.output()
    assert "worker stopped" in first.output()
    kit.worker("w2")  # the run goes on here
    code, summary = kit.run_json("resume", run_id, timeout=180)
    assert code == 0, summary
    assert summary["outputs"]["c12"]["value"] == sum(range(1, 13))
    events = history_events(kit, run_id)
    scheduled = {e.event_id: e.activity_task_scheduled_event_attributes.activity_id for e in events
                 if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED}
    [drained] = [e.activity_task_started_event_attributes for e in events
                 if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
                 and scheduled[e.activity_task_started_event_attributes.scheduled_event_id] == key]
    assert drained.attempt == 1 and drained.identity == first.identity  # finished where it started


def test_ctrl_c_while_following_cancels_the_run_and_resume_starts_it_again_without_redoing_steps(kit: Kit) -> None:
    import subprocess

    from temporal_kit import SKILLWEAVE

    # c04 cannot finish until the test opens its gate (after the Ctrl-C): however late the
    # follower hears of the third step, the run is still going when the signal comes
    gate = kit.root / "gate"
    gate.mkdir()
    plan = twelve_step_chain(kit.root, sleep_ms=0, gated="c04")
    kit.worker("w1")
    # Ctrl-C at its default even when the suite was started with SIGINT ignored (a background job)
    default_sigint = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
    follower = subprocess.Popen(
        [sys.executable, "-c", default_sigint, SKILLWEAVE, "run", str(plan), "--input", "start=0", "--input", f"gate={gate}", "--backend", "temporal",
         "--state-dir", str(kit.root / "client")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=kit.root, env=kit.env(),
    )

    # the follower's own log says when three steps are done: no polling that a loaded host
    # could make slower than the run (it once saw all twelve done before it looked)
    assert follower.stderr is not None
    seen: list[str] = []
    for line in follower.stderr:
        seen.append(line)
        if sum("step_finished" in s for s in seen) >= 3:
            break
    else:
        raise AssertionError("the follower ended before three steps were done:\n" + "".join(seen))
    follower.send_signal(signal.SIGINT)
    _, rest = follower.communicate(timeout=60)
    (gate / "open").touch()  # the cancelled attempt ends; the resumed one may finish
    err = "".join(seen) + rest
    started = re.search(r"run (\S+) started", err)
    assert started is not None, err
    run_id = started.group(1)
    assert follower.returncode == 130, err
    assert f"interrupted: run {run_id} cancelled on Temporal; continue with: skillweave resume {run_id} --backend temporal" in err

    code, summary = kit.run_json("resume", run_id, timeout=180)
    assert code == 0, summary
    assert summary["status"] == "succeeded", summary
    assert summary["outputs"]["c12"]["value"] == sum(range(1, 13))
    attempts = {s["step_id"]: s["attempts"] for s in summary["steps"]}
    assert attempts["c01"] == attempts["c02"] == attempts["c03"] == 1  # done before the cancel: not run again
    assert sum(attempts.values()) <= 13  # at most the one cut short ran twice


def test_a_worker_finds_a_skill_the_plan_names_elsewhere_in_its_own_skills_dir(kit: Kit) -> None:
    moved = skill("step-calc").model_copy(update={"path": "/nowhere/on/this/worker/step-calc"})
    plan = seal(Plan(
        name="moved", spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
        inputs=(PlanInput(name="start", schema={"type": "integer"}),),
        steps=(calc("c01", None, add=5, sleep_ms=0),), skills={"step-calc": moved},
    ))
    kit.worker("w1", "--skills-dir", str(ROOT / "tests" / "e2e" / "skills"))
    code, summary = kit.run_json("run", write_plan(plan, kit.root), "--input", "start=1")
    assert code == 0, summary
    assert summary["outputs"]["c01"]["value"] == 6


def test_a_worker_reaches_an_mcp_server_declared_beside_the_spec_through_the_run_s_plan(kit: Kit) -> None:
    import json
    import shutil

    time_server = Path(sys.executable).with_name("mcp-server-time")
    assert time_server.is_file(), "mcp-server-time comes with the test extra"
    spec_dir = shutil.copytree(Path(__file__).resolve().parent / "specs" / "clock", kit.root / "clock")
    (spec_dir / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"clock": {"command": str(time_server), "args": ["--local-timezone", "UTC"]}}}
    ))
    kit.worker("w1")  # no --mcp-config: the server is known only from the spec's folder
    code, summary = kit.run_json("run", spec_dir / "clock.yaml")
    assert code == 0, summary
    assert summary["outputs"]["now"]["timezone"] == "UTC"
