"""The metrics of DESIGN.md ("Metrics a run reports"), per step, per run and across runs.

They are computed from the engine's summaries of runs, which are folds of the
runs' journals (`orchestrator.engine.state`), so a report never needs more than
the journal. The definitions:

    attempts          executions of a step (or of one `for each` item), fallback skills included
    retries           waits scheduled before another attempt after a transient failure
    regenerations     new code versions asked of the regenerator (refused answers included)
    queue delay       a step's first `step_ready` to its first `attempt_started`
    handoffs          contract checks of step inputs and outputs, passed or failed
    retry burden      retries / attempts                      (null without attempts)
    handoff accuracy  passed checks / all checks              (null without checks)
    success rate      succeeded runs / finished runs          (null when none finished)
    p95               nearest rank: the smallest value with at least 95 % of values at or below it
    trends            the same cross-run metrics over the runs created on one UTC day, or over
                      the runs of one plan version (its sha256), oldest first
    steps             in a finished run, a step cut short is `cancelled` and one never reached is
                      `not_run`; neither is `failed` (the step or limit that ended the run is)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence

from orchestrator.engine.model import RunStatus, RunSummary, StepStatus, StepSummary
from orchestrator.report.model import (
    HistoryMetrics,
    RunListing,
    RunMetrics,
    StepMetrics,
    Tokens,
    TrendBucket,
)
from orchestrator.runner import TokenUsage


def tokens_of(usage: TokenUsage) -> Tokens:
    return Tokens(
        input=usage.input_tokens,
        output=usage.output_tokens,
        cache_read=usage.cache_read_tokens,
        cache_write=usage.cache_write_tokens,
        total=usage.total,
    )


def ratio(part: float, whole: float) -> float | None:
    return None if whole == 0 else part / whole


def percentile(values: Iterable[float], q: float) -> float | None:
    """Nearest-rank percentile (`q` in (0, 100]); None for no values."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def step_metrics(step: StepSummary) -> StepMetrics:
    return StepMetrics(
        attempts=step.attempts,
        retries=step.retries,
        regenerations=step.regenerations,
        items=step.items,
        items_done=step.items_done,
        duration_s=step.duration_s,
        run_time_s=step.run_time_s,
        queue_delay_s=step.queue_delay_s,
        handoff_passed=step.handoff_passed,
        handoff_failed=step.handoff_failed,
        tokens=tokens_of(step.tokens),
    )


def queue_delays(summary: RunSummary) -> list[float]:
    """The queue delay of every step of the run that started."""
    return [s.queue_delay_s for s in summary.steps if s.queue_delay_s is not None]


def run_metrics(summary: RunSummary) -> RunMetrics:
    t = summary.totals
    delays = queue_delays(summary)
    return RunMetrics(
        steps=t.steps,
        succeeded=t.succeeded,
        failed=t.failed,
        skipped=t.skipped,
        cancelled=sum(1 for s in summary.steps if s.status is StepStatus.CANCELLED),
        not_run=sum(1 for s in summary.steps if s.status is StepStatus.NOT_RUN),
        attempts=t.attempts,
        retries=t.retries,
        regenerations=t.regenerations,
        retry_burden=ratio(t.retries, t.attempts),
        duration_s=t.duration_s,
        active_s=t.active_s,
        queue_delay_total_s=sum(delays),
        queue_delay_mean_s=mean(delays),
        queue_delay_max_s=max(delays) if delays else None,
        handoff_passed=t.handoff_passed,
        handoff_failed=t.handoff_failed,
        handoff_accuracy=ratio(t.handoff_passed, t.handoff_passed + t.handoff_failed),
        tokens=tokens_of(t.tokens),
    )


def history_metrics(summaries: Sequence[RunSummary]) -> HistoryMetrics:
    finished = [s for s in summaries if s.status.finished]
    succeeded = sum(1 for s in finished if s.status is RunStatus.SUCCEEDED)
    degraded = sum(1 for s in finished if s.status is RunStatus.DEGRADED)
    attempts = sum(s.totals.attempts for s in summaries)
    retries = sum(s.totals.retries for s in summaries)
    passed = sum(s.totals.handoff_passed for s in summaries)
    failed = sum(s.totals.handoff_failed for s in summaries)
    delays = [d for s in summaries for d in queue_delays(s)]
    usage = TokenUsage()
    for s in summaries:
        usage = usage + s.totals.tokens
    return HistoryMetrics(
        runs=len(summaries),
        finished=len(finished),
        succeeded=succeeded,
        failed=len(finished) - succeeded - degraded,
        degraded=degraded,
        in_progress=len(summaries) - len(finished),
        success_rate=ratio(succeeded, len(finished)),
        attempts=attempts,
        retries=retries,
        retry_burden=ratio(retries, attempts),
        queue_delay_mean_s=mean(delays),
        queue_delay_p95_s=percentile(delays, 95),
        queue_delay_samples=len(delays),
        handoff_passed=passed,
        handoff_failed=failed,
        handoff_accuracy=ratio(passed, passed + failed),
        tokens=tokens_of(usage),
    )


def describe_error(summary: RunSummary) -> str | None:
    if summary.error is None:
        return None
    where = f"{summary.error.where}: " if summary.error.where else ""
    limit = f" [limit {summary.error.limit}]" if summary.error.limit else ""
    return f"{where}{summary.error.message}{limit}"


def listing(summary: RunSummary) -> RunListing:
    t = summary.totals
    return RunListing(
        run_id=summary.run_id,
        plan_name=summary.plan_name,
        status=summary.status.value,
        created_at=summary.created_at,
        started_at=summary.started_at,
        finished_at=summary.finished_at,
        duration_s=t.duration_s,
        steps=t.steps,
        steps_succeeded=t.succeeded,
        attempts=t.attempts,
        retries=t.retries,
        regenerations=t.regenerations,
        handoff_failed=t.handoff_failed,
        error=describe_error(summary),
    )


def day_of(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def trend_buckets(summaries: Sequence[RunSummary], by: str) -> tuple[TrendBucket, ...]:
    """The runs grouped by UTC day of creation (`day`) or by plan hash (`plan-version`), oldest
    first, each with the cross-run metrics of its runs."""
    if by not in ("day", "plan-version"):
        raise ValueError(f"unknown grouping {by!r}; choose day or plan-version")
    groups: dict[str, list[RunSummary]] = {}
    for s in sorted(summaries, key=lambda s: (s.created_at, s.run_id)):
        key = day_of(s.created_at) if by == "day" else s.plan_sha256
        groups.setdefault(key, []).append(s)
    buckets = []
    for key, runs in groups.items():
        versioned = by == "plan-version"
        buckets.append(
            TrendBucket(
                key=key[:12] if versioned else key,
                plan_name=runs[0].plan_name if versioned else None,
                plan_sha256=key if versioned else None,
                first_at=runs[0].created_at,
                last_at=runs[-1].created_at,
                metrics=history_metrics(runs),
            )
        )
    return tuple(buckets)
