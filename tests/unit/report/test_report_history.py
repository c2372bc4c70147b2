"""Metrics across runs: success rate, retry burden, queue delay (mean, p95), handoff accuracy."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.engine import create_run
from orchestrator.plan.model import PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, Limits, RetryPolicy
from orchestrator.report import build_history, render_history
from orchestrator.testing import Fail, FakeRunner, Sleep, fake_plan

COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def pair(retries: int = 0) -> list[PlanStep]:
    """Two steps ready at once, one slot: the second waits for the first."""
    return [
        PlanStep(id="a", name="A", skill="s", output_schema=COUNT),
        PlanStep(id="b", name="B", skill="s", policy=StepPolicy(retry=RetryPolicy(max_retries=retries, delays_s=(1,)))),
    ]


async def test_history_metrics_span_the_runs(execute, settings: Settings, clock) -> None:
    plan = fake_plan(pair(retries=1), limits=Limits(concurrency=1))
    transient = Fail(ErrorClass.TRANSIENT, "reset")
    # 1: succeeds; b waits 2 s for a; b is retried once
    await execute(plan, FakeRunner({"a": [Sleep(2, {"n": 1})], "b": [transient, {}]}, clock=clock))
    # 2: a breaks its contract (no regeneration): fails; b waited 4 s
    await execute(plan, FakeRunner({"a": [Sleep(4, {"n": "x"})]}, clock=clock))
    # 3: b fails, is retried once, fails again: the run fails
    await execute(plan, FakeRunner({"a": [{"n": 2}], "b": [transient, transient]}, clock=clock))
    # 4: created, never executed
    create_run(plan, {}, settings)

    history = build_history(settings, limit=10)
    m = history.metrics
    assert (m.runs, m.finished, m.succeeded, m.failed, m.in_progress) == (4, 3, 1, 2, 1)
    assert m.success_rate == pytest.approx(1 / 3)
    # attempts: run 1: a 1 + b 2; run 2: a 1 + b 1; run 3: a 1 + b 2
    assert (m.attempts, m.retries) == (8, 2)
    assert m.retry_burden == 0.25
    # queue delays of every started step: run 1: 0, 2; run 2: 0, 4; run 3: 0, 0
    assert m.queue_delay_samples == 6
    assert m.queue_delay_mean_s == 1.0
    assert m.queue_delay_p95_s == 4.0
    # output checks of a: passed in runs 1 and 3, failed in run 2
    assert (m.handoff_passed, m.handoff_failed) == (2, 1)
    assert m.handoff_accuracy == pytest.approx(2 / 3)
    assert [r.status for r in history.runs] == ["pending", "failed", "failed", "succeeded"]  # newest first
    assert history.runs[1].error is not None and history.runs[1].error.startswith("b/2: ")


async def test_the_limit_keeps_the_newest_runs(execute, settings: Settings) -> None:
    plan = fake_plan(pair())
    ids = [await execute(plan, FakeRunner()) for _ in range(3)]
    history = build_history(settings, limit=2)
    assert [r.run_id for r in history.runs] == ids[:0:-1]
    assert history.metrics.runs == 2


def test_no_journal_is_an_empty_history(tmp_path) -> None:
    missing = tmp_path / "none"
    history = build_history(Settings(state_dir=missing))
    assert history.runs == () and history.metrics.success_rate is None
    assert render_history(history, "text") == f"no runs in {missing}\n"
    assert not missing.exists()


async def test_the_history_renders_as_a_table_and_as_json_with_stable_keys(execute, settings: Settings) -> None:
    run_id = await execute(fake_plan(pair()), FakeRunner({"a": [{"n": 1}]}))
    history = build_history(settings)
    text = render_history(history, "text")
    header, row = text.splitlines()[:2]
    assert header.split() == ["run", "status", "plan", "started", "duration", "steps", "ok", "attempts", "retries", "regen"]
    assert row.startswith(f"{run_id}  succeeded  test-plan")
    assert "success rate 100.0% (1/1)" in text
    data = json.loads(render_history(history, "json"))
    assert list(data) == ["format", "state_dir", "limit", "runs", "metrics"]
    assert list(data["runs"][0]) == [
        "run_id", "plan_name", "status", "created_at", "started_at", "finished_at", "duration_s", "steps",
        "steps_succeeded", "attempts", "retries", "regenerations", "handoff_failed", "error",
    ]
    assert list(data["metrics"]) == [
        "runs", "finished", "succeeded", "failed", "in_progress", "success_rate", "attempts", "retries",
        "retry_burden", "queue_delay_mean_s", "queue_delay_p95_s", "queue_delay_samples", "handoff_passed",
        "handoff_failed", "handoff_accuracy", "tokens", "degraded",
    ]


async def test_a_run_with_a_damaged_event_is_listed_with_why_and_the_others_still_count(execute, settings: Settings) -> None:
    plan = fake_plan([PlanStep(id="a", name="A", skill="s")])
    intact = await execute(plan, FakeRunner())
    damaged = await execute(plan, FakeRunner())
    with sqlite3.connect(Path(settings.state_dir) / "journal.db") as conn:
        conn.execute("UPDATE events SET data = '{bad' WHERE type = 'output_stored' AND run_id = ?", (damaged,))
    runs = {r.run_id: r for r in build_history(settings, limit=10).runs}
    assert runs[intact].status == "succeeded" and runs[intact].error is None
    assert runs[damaged].error is not None and "cannot be read" in runs[damaged].error
    assert f"{damaged} cannot be read" in render_history(build_history(settings, limit=10), "text")
