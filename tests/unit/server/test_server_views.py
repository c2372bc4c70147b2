"""What `get_run` says of a run that finished degraded: done, and which steps a fallback stood in for."""

from __future__ import annotations

from orchestrator.engine.model import DegradedStep, RunStatus, RunSummary
from orchestrator.server.views import run_view


def test_a_degraded_run_is_finished_lists_each_degraded_step_with_why_and_says_what_next() -> None:
    summary = RunSummary(run_id="r1", plan_name="p", plan_sha256="x", status=RunStatus.DEGRADED, created_at=0.0,
                         degraded=(DegradedStep(step_id="step-1", fallback="default", reason="the classifier is down"),))
    view = run_view(summary, executing=False)
    assert (view.status, view.finished, view.error) == ("degraded", True, None)
    assert view.degraded == ["step-1: default: the classifier is down"]
    assert view.next.startswith("Done, degraded: a fallback stood in for step-1")
