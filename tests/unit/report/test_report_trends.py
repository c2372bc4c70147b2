"""Trends across runs: grouping by UTC day and by plan version, sparklines, the text table."""

from __future__ import annotations

import pytest

from orchestrator.engine.model import RunStatus, RunSummary, RunTotals
from orchestrator.report.metrics import trend_buckets
from orchestrator.report.model import Trends
from orchestrator.report.render_trends import render_trends_text, sparkline

DAY = 86_400.0
T0 = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC


def _run(i: int, created: float, status: RunStatus, *, plan: str = "a" * 64, retries: int = 0) -> RunSummary:
    return RunSummary(run_id=f"r{i}", plan_name="p", plan_sha256=plan, status=status, created_at=created,
                      totals=RunTotals(attempts=4, retries=retries, handoff_passed=3, handoff_failed=1))


def test_runs_are_grouped_by_their_utc_day_oldest_first() -> None:
    runs = [
        _run(1, T0 + DAY, RunStatus.SUCCEEDED, retries=2),
        _run(2, T0, RunStatus.FAILED),
        _run(3, T0 + 60, RunStatus.SUCCEEDED),
        _run(4, T0 + DAY + 5, RunStatus.RUNNING),
    ]
    first, second = trend_buckets(runs, "day")
    assert (first.key, second.key) == ("2023-11-14", "2023-11-15")
    assert (first.metrics.runs, first.metrics.success_rate, first.metrics.retry_burden) == (2, 0.5, 0.0)
    assert (second.metrics.runs, second.metrics.finished, second.metrics.success_rate) == (2, 1, 1.0)
    assert second.metrics.retry_burden == 2 / 8 and second.metrics.handoff_accuracy == 0.75
    assert (first.first_at, first.last_at) == (T0, T0 + 60)


def test_runs_are_grouped_by_plan_version_in_the_order_versions_appeared() -> None:
    runs = [_run(1, T0 + 10, RunStatus.SUCCEEDED, plan="b" * 64), _run(2, T0, RunStatus.FAILED),
            _run(3, T0 + 20, RunStatus.SUCCEEDED)]
    old, new = trend_buckets(runs, "plan-version")
    assert (old.key, old.plan_sha256, old.metrics.runs) == ("a" * 12, "a" * 64, 2)
    assert (new.key, new.plan_name, new.metrics.success_rate) == ("b" * 12, "p", 1.0)
    with pytest.raises(ValueError, match="day or plan-version"):
        trend_buckets(runs, "week")


def test_a_sparkline_scales_to_its_top_and_leaves_gaps_for_missing_values() -> None:
    assert sparkline([0.0, 0.5, 1.0], top=1.0) == "▁▅█"
    assert sparkline([2.0, None, 4.0]) == "▅ █"
    assert sparkline([0.0, 0.0]) == "▁▁" and sparkline([]) == ""


def test_the_text_has_a_row_per_bucket_and_a_sparkline_per_metric() -> None:
    runs = [_run(1, T0, RunStatus.FAILED), _run(2, T0 + DAY, RunStatus.SUCCEEDED, retries=4)]
    trends = Trends(state_dir="s", by="day", buckets=trend_buckets(runs, "day"))
    lines = render_trends_text(trends).splitlines()
    assert lines[3].split()[:4] == ["2023-11-14", "1", "1", "0.0%"]
    assert lines[4].split()[:5] == ["2023-11-15", "1", "1", "100.0%", "1.000"]
    assert "success rate      ▁█  0.0% -> 100.0%" in lines
    assert "retry burden      ▁█  0.000 -> 1.000" in lines
    assert render_trends_text(Trends(state_dir="s", by="day", plan="x")) == "no runs of plan x in s\n"
