"""A report reads the engine's own fold of the journal: the events are folded once, by
`RunState.apply`, and the report's story is what that fold kept."""

from __future__ import annotations

import pytest

from orchestrator.engine.state import RunState
from orchestrator.journal.session import use_journal
from orchestrator.plan.model import PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, RetryPolicy
from orchestrator.report import build_report
from orchestrator.testing import Fail, FakeRunner, fake_plan


async def test_building_a_report_folds_each_event_once_with_the_engine_s_fold(
    execute, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1,)))
    plan = fake_plan([PlanStep(id="fetch", name="Fetch", skill="s", policy=policy)])
    run_id = await execute(plan, FakeRunner({"fetch": [Fail(ErrorClass.TRANSIENT, "reset"), {"ok": True}]}))
    with use_journal(settings.state_dir) as journal:
        events = len(list(journal.events(run_id)))
    applied: list[str] = []
    fold = RunState.apply

    def counting(self: RunState, e) -> None:  # type: ignore[no-untyped-def]
        applied.append(e.type)
        fold(self, e)

    monkeypatch.setattr(RunState, "apply", counting)
    report = build_report(run_id, settings)
    assert len(applied) == events
    step = report.step("fetch")
    assert [(a.attempt, a.message) for a in step.failed_attempts] == [(1, "reset")]
    assert [(w.attempt, w.delay_s) for w in step.retries] == [(1, 1.0)]
    assert [s.pid for s in report.sessions] and report.error is None
