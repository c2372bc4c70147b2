"""A run's timeline (a Gantt chart) as inline SVG, drawn from its report alone.

One row per step that did something, in plan order; in a row, bars on as many
lanes as overlapping spans need (a `for each` runs items side by side), up to
`MAX_LANES` (more overlap on the last lane):

    queue     ready, waiting for a slot (thin)           class "bar queue"
    attempt   one execution, coloured by its outcome      class "bar attempt <outcome>"
    wait      the pause before a retry                    class "bar wait"
    regen     asking for new code after a failed attempt  class "bar regen"
    approval  a gate waiting for a decision               class "bar approval"

A dashed line marks each time a process resumed the run. Times are seconds from
the run's first start. Each bar's `<title>` is its tooltip. At most `MAX_BARS`
bars are drawn; the caption says how many were left out.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from html import escape

from orchestrator.report.model import RunReport, StepReport
from orchestrator.report.render_md import duration

MAX_BARS = 3000
MAX_LANES = 8
CHART_W = 880.0
LABEL_W = 150.0
LANE_H = 14.0
ROW_PAD = 6.0
AXIS_H = 26.0
MARGIN = 10.0

# outcome or kind -> fill
FILLS = {
    "succeeded": "#43a047",
    "failed": "#e53935",
    "interrupted": "#8e24aa",
    "running": "#1e88e5",
    "wait": "#bdbdbd",
    "approval": "#b39ddb",
    "queue": "#e0e0e0",
    "regen": "#ffb74d",
}


@dataclass(frozen=True)
class _Bar:
    kind: str  # queue | attempt | wait | regen | approval
    start: float
    end: float
    fill: str
    css: str
    tooltip: str
    outlined: bool = False  # a fallback skill's attempt


def _label(step: StepReport, item: int | None) -> str:
    return step.step_id + (f"[{item}]" if item is not None else "")


def _bars(step: StepReport, end_of_report: float) -> list[_Bar]:
    bars: list[_Bar] = []
    if step.ready_at is not None and step.started_at is not None and step.started_at > step.ready_at:
        bars.append(_Bar("queue", step.ready_at, step.started_at, FILLS["queue"], "bar queue",
                         f"{step.step_id}: queued {duration(step.started_at - step.ready_at)} before its first attempt"))
    for a in step.attempts:
        end = a.ended_at if a.ended_at is not None else end_of_report
        what = a.outcome + (f" ({a.error_class})" if a.error_class else "")
        fallback = " of the fallback skill" if a.fallback else ""
        number = f" attempt {a.attempt}" if a.attempt is not None else ""
        bars.append(_Bar("attempt", a.started_at, end, FILLS.get(a.outcome, FILLS["running"]),
                         f"bar attempt {a.outcome}",
                         f"{_label(step, a.item)}{number}{fallback}: {what}, {duration(end - a.started_at)}",
                         outlined=a.fallback))
    for w in step.retries:
        bars.append(_Bar("wait", w.ts, w.ts + w.delay_s, FILLS["wait"], "bar wait",
                         f"{_label(step, w.item)}: waited {duration(w.delay_s)} before retrying ({w.error_class})"))
    failures = {(f.item, f.attempt): f.ts for f in step.failed_attempts}
    for g in step.regenerations:
        began = failures.get((g.item, g.attempt))
        if began is None or g.ts < began:
            continue
        answer = "refused" if g.rejected else f"new version {(g.code_sha256 or '')[:12]}"
        why = "validator feedback" if g.feedback else "a failed attempt"
        bars.append(_Bar("regen", began, g.ts, FILLS["regen"], "bar regen",
                         f"{_label(step, g.item)}: regeneration after {why}: {answer}, {duration(g.ts - began)}"))
    ap = step.approval
    if ap is not None and ap.requested_at is not None:
        end = ap.decided_at if ap.decided_at is not None else end_of_report
        verdict = ("waiting" if ap.approved is None else "timed out" if ap.timed_out
                   else "approved" if ap.approved else "rejected")
        bars.append(_Bar("approval", ap.requested_at, end, FILLS["approval"], "bar approval",
                         f"{step.step_id}: approval {verdict} after {duration(end - ap.requested_at)}"))
    return bars


def _lanes(bars: list[_Bar]) -> list[int]:
    """The lane of each bar: the first whose last bar ended by its start (queue bars on lane 0)."""
    ends: list[float] = []
    lanes = []
    for bar in bars:
        for lane, end in enumerate(ends):
            if end <= bar.start + 1e-9:
                ends[lane] = bar.end
                lanes.append(lane)
                break
        else:
            if len(ends) < MAX_LANES:
                ends.append(bar.end)
                lanes.append(len(ends) - 1)
            else:
                lanes.append(MAX_LANES - 1)
                ends[-1] = max(ends[-1], bar.end)
    return lanes


def _tick_step(span: float) -> float:
    """A round interval giving at most 10 ticks over `span` seconds."""
    raw = span / 10
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def render_timeline_svg(r: RunReport, now: float | None = None) -> str:
    """The timeline as one `<svg>`, with its caption; a `<p>` when nothing ran yet. A run not
    finished is drawn up to `now` (default: the time of rendering)."""
    starts = [s.started_at for s in r.sessions] or ([r.started_at] if r.started_at else [])
    if not starts:
        return '<p class="muted">Nothing ran yet.</p>'
    t0 = min(starts)
    if r.finished_at is not None:
        end_of_report = r.finished_at
    else:
        end_of_report = max(r.last_event_at or t0, time.time() if now is None else now)
    rows: list[tuple[StepReport, list[_Bar], list[int]]] = []
    shown = left_out = 0
    for step in r.steps:
        bars = sorted(_bars(step, end_of_report), key=lambda b: (b.start, b.kind != "queue"))
        if not bars:
            continue
        room = max(0, MAX_BARS - shown)
        left_out += max(0, len(bars) - room)
        bars = bars[:room]
        if bars:
            shown += len(bars)
            rows.append((step, bars, _lanes(bars)))
    if not rows:
        return '<p class="muted">No attempt started yet.</p>'
    t1 = max(end_of_report, *(b.end for _, bars, _ in rows for b in bars))
    span = max(t1 - t0, 1e-3)
    scale = CHART_W / span
    heights = [(max(lanes) + 1) * LANE_H + 2 * ROW_PAD for _, _, lanes in rows]
    height = AXIS_H + sum(heights) + MARGIN
    width = LABEL_W + CHART_W + 2 * MARGIN
    x0 = LABEL_W + MARGIN
    out = [
        f'<svg class="timeline" role="img" aria-label="the run\'s timeline" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#e0e0e0"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9e9e9e" stroke-width="3"/></pattern></defs>',
    ]
    tick = _tick_step(span)
    n = 0
    while n * tick <= span + 1e-9:
        x = x0 + n * tick * scale
        out.append(f'<line x1="{x:.1f}" y1="{AXIS_H - 6:.1f}" x2="{x:.1f}" y2="{height - MARGIN:.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text class="tick" x="{x:.1f}" y="{AXIS_H - 10:.1f}" text-anchor="middle" '
                   f'fill="#666">+{escape(duration(n * tick))}</text>')
        n += 1
    y = AXIS_H
    for (step, bars, lanes), row_h in zip(rows, heights, strict=True):
        out.append(f'<g class="row" data-step="{escape(step.step_id)}">')
        out.append(f'<line x1="{MARGIN}" y1="{y:.1f}" x2="{width - MARGIN:.1f}" y2="{y:.1f}" stroke="#e8e8e8"/>')
        out.append(f'<text class="label" x="{MARGIN}" y="{y + row_h / 2 + 4:.1f}" fill="#333">'
                   f"{escape(_fit(step.step_id))}</text>")
        for bar, lane in zip(bars, lanes, strict=True):
            out.append(_bar(bar, x0 + (bar.start - t0) * scale, y + ROW_PAD + lane * LANE_H, scale))
        out.append("</g>")
        y += row_h
    for session in r.sessions[1:]:
        x = x0 + (session.started_at - t0) * scale
        out.append(f'<line class="resumed" x1="{x:.1f}" y1="{AXIS_H:.1f}" x2="{x:.1f}" y2="{height - MARGIN:.1f}" '
                   f'stroke="#5e35b1" stroke-dasharray="4 3"><title>resumed by process {session.pid}'
                   f"{' (forced)' if session.forced else ''}</title></line>")
    out.append("</svg>")
    caption = f"{shown} bars over {duration(span)}"
    if left_out:
        caption += f"; {left_out} more not drawn (at most {MAX_BARS})"
    return "\n".join(out) + f'\n<p class="muted caption">{escape(caption)}</p>'


def _fit(text: str, chars: int = 20) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _bar(bar: _Bar, x: float, y: float, scale: float) -> str:
    w = max(2.0, (bar.end - bar.start) * scale)
    h = LANE_H - 3 if bar.kind != "queue" else 4.0
    top = y + (LANE_H - 3 - h) / 2
    fill = "url(#hatch)" if bar.kind == "wait" else bar.fill
    outline = ' stroke="#e65100" stroke-width="1.5"' if bar.outlined else ""
    return (f'<rect class="{escape(bar.css)}" x="{x:.1f}" y="{top:.1f}" width="{w:.1f}" height="{h:.1f}" rx="2" '
            f'fill="{fill}"{outline}><title>{escape(bar.tooltip)}</title></rect>')
