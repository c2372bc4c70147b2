"""`skillweave runs --stats` as text: the four cross-run metrics per day or per plan version,
one row per bucket (oldest first), then one sparkline per metric across the buckets.

    day (UTC)   runs  success  retry burden  queue mean  queue p95  handoffs
    2026-11-24     4    75.0%         0.125       0.02s      0.05s    100.0%
    ...
    success rate      ▅▁█  75.0% -> 100.0%

A sparkline scales from 0 to the largest value (rates from 0 to 100 %); a bucket
without a value (no finished run, no attempt, no check) is a space.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from orchestrator.report.model import HistoryMetrics, Trends
from orchestrator.report.render_md import duration, percent, ratio, when

BLOCKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float | None], top: float | None = None) -> str:
    """One block per value, scaled from 0 to `top` (default: the largest); None is a space."""
    known = [v for v in values if v is not None]
    high = top if top is not None else max(known, default=0.0)
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        elif high <= 0:
            out.append(BLOCKS[0])
        else:
            out.append(BLOCKS[min(len(BLOCKS) - 1, max(0, round(v / high * (len(BLOCKS) - 1))))])
    return "".join(out)


_Metric = tuple[str, Callable[[HistoryMetrics], float | None], Callable[[float | None], str], float | None]
METRICS: tuple[_Metric, ...] = (
    ("success rate", lambda m: m.success_rate, percent, 1.0),
    ("retry burden", lambda m: m.retry_burden, ratio, None),
    ("queue delay mean", lambda m: m.queue_delay_mean_s, duration, None),
    ("handoff accuracy", lambda m: m.handoff_accuracy, percent, 1.0),
)


def render_trends_text(t: Trends) -> str:
    scope = f"plan {t.plan}" if t.plan else "every plan"
    since = f" since {when(t.since)}" if t.since is not None else ""
    if not t.buckets:
        return f"no runs of {scope}{since} in {t.state_dir}\n"
    first = "plan version" if t.by == "plan-version" else "day (UTC)"
    header = (first, "runs", "finished", "success", "retry burden", "queue mean", "queue p95", "handoffs")
    rows = []
    for b in t.buckets:
        m = b.metrics
        label = f"{b.key} {b.plan_name}" if t.by == "plan-version" and t.plan is None else b.key
        rows.append((label, str(m.runs), str(m.finished), percent(m.success_rate), ratio(m.retry_burden),
                     duration(m.queue_delay_mean_s), duration(m.queue_delay_p95_s), percent(m.handoff_accuracy)))
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(cells)).rstrip()

    lines = [f"runs of {scope}{since}, by {t.by.replace('-', ' ')}", "", line(header), *(line(r) for r in rows), ""]
    name_width = max(len(name) for name, *_ in METRICS)
    for name, read, show, top in METRICS:
        values = [read(b.metrics) for b in t.buckets]
        known = [v for v in values if v is not None]
        span = f"{show(known[0])} -> {show(known[-1])}" if len(known) > 1 else show(known[0]) if known else "-"
        lines.append(f"{name:<{name_width}}  {sparkline(values, top)}  {span}")
    m = t.metrics
    lines += ["", f"{m.runs} run{'' if m.runs == 1 else 's'} ({m.finished} finished): success rate "
              f"{percent(m.success_rate)}, retry burden {ratio(m.retry_burden)}, queue delay mean "
              f"{duration(m.queue_delay_mean_s)} (p95 {duration(m.queue_delay_p95_s)}), handoff accuracy "
              f"{percent(m.handoff_accuracy)}"]
    return "\n".join(lines) + "\n"
