"""Reports as one self-contained HTML file: inline CSS and SVG, no script, nothing fetched.

The page draws the plan's graph (`graph_svg`: a layered layout, each step
coloured by its status, its attempts, duration and handoff checks in the box and
its tooltip, linked to its section) and the run's timeline (`timeline_svg`:
attempts, retry waits, approval pauses). Then the step table, each eventful
step's story (failed attempts with their stderr, regenerations with their diffs
coloured line by line, fallbacks, approvals), compensations, the metrics, and
the Mermaid source of the graph (for pasting into docs). A Content-Security-Policy
forbids every script and every load from anywhere: the file is all there is.
Every text from a run (names, messages, stderr, comments) is escaped.
"""

from __future__ import annotations

import json
from html import escape

from orchestrator.hints import Hint, HintAction, HintWording, plain
from orchestrator.report.graph_svg import GraphStep, palette, render_graph_svg
from orchestrator.report.mermaid import STATUS_STYLES
from orchestrator.report.model import RunReport, StepReport
from orchestrator.report.render_md import (
    ATTEMPTS_SHOWN,
    INTERRUPTED,
    SPEC_WARNINGS_SHOWN,
    duration,
    percent,
    ratio,
    says_more,
    spec_warning_line,
    spec_warnings_intro,
    timing,
    unfinished_steps,
    when,
)
from orchestrator.report.timeline_svg import FILLS, render_timeline_svg
from orchestrator.wording import count

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 76em;
       padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
h3 { margin-top: 1.4em; } h4 { margin: 1em 0 .3em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f8fa; padding: .6em .8em; overflow-x: auto; border-radius: 4px; }
.status { padding: .05em .5em; border-radius: 3px; border: 1px solid; white-space: nowrap; }
.error { background: #fdecea; border-left: 4px solid #c62828; padding: .5em 1em; }
.hint { background: #ede7f6; border-left: 4px solid #5e35b1; padding: .5em 1em; }
.diff .add { color: #1b5e20; background: #e6ffed; display: block; }
.diff .del { color: #7f0000; background: #ffeef0; display: block; }
.diff .hunk { color: #5e35b1; display: block; }
.diff .ctx { display: block; }
.muted { color: #666; }
nav a { margin-right: 1em; }
.figure { overflow-x: auto; border: 1px solid #e4e4e4; border-radius: 6px; padding: .5em; background: #fcfcfc; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; }
svg .node-link:hover rect { stroke-width: 3px; }
.legend { margin: .4em 0; } .legend span { margin-right: .8em; white-space: nowrap; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #999; vertical-align: -.1em;
          margin-right: .25em; border-radius: 2px; }
h3:target, tr:target { background: #fff8c5; }
details > summary { cursor: pointer; }
"""

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _css_of(style: str) -> str:
    """A Mermaid style (`fill:#..,stroke:#..`) as CSS for a status badge."""
    parts = dict(p.split(":", 1) for p in style.split(",") if ":" in p)
    return f"background:{parts.get('fill', '#fff')};border-color:{parts.get('stroke', '#999')};color:{parts.get('color', '#000')}"


def _status(status: str, label: str | None = None) -> str:
    style = _css_of(STATUS_STYLES.get(status, STATUS_STYLES["pending"]))
    text = label or status.replace("_", " ")
    return f'<span class="status" style="{style}">{escape(text)}</span>'


def _pre(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<pre{attr}>{escape(text.rstrip())}</pre>"


def _diff(text: str) -> str:
    """A diff, one block per line (additions and removals coloured across the width)."""
    out = []
    for line in text.rstrip("\n").splitlines():
        cls = "hunk" if line.startswith("@@") else "add" if line.startswith("+") else "del" if line.startswith("-") else "ctx"
        out.append(f'<span class="{cls}">{escape(line) or " "}</span>')
    return '<pre class="diff">' + "".join(out) + "</pre>"


def _where(item: int | None, attempt: int | None) -> str:
    parts = ([f"item {item}"] if item is not None else []) + ([f"attempt {attempt}"] if attempt is not None else [])
    return ", ".join(parts) or "-"


def _header(r: RunReport, say: HintWording) -> list[str]:
    m = r.metrics
    out = [f"<h1>Run <code>{escape(r.run_id)}</code> {_status(r.status)}</h1>", "<ul>"]
    out.append(f"<li>plan <code>{escape(r.plan_name)}</code> (sha256 {escape(r.plan_sha256[:12])}), "
               f"spec <code>{escape(r.spec_path)}</code></li>")
    out.append(f"<li>{escape(timing(r))}; {len(r.sessions)} session(s)</li>")
    interrupted = f" ({m.interrupted} interrupted)" if m.interrupted else ""
    out.append(f"<li>steps: {m.succeeded}/{m.steps} with output, {m.failed} failed, {m.skipped} skipped"
               f"{escape(unfinished_steps(m))}; "
               f"{count(m.attempts, 'attempt')}{interrupted}, {count(m.retries, 'retry')}, "
               f"{count(m.regenerations, 'regeneration')}</li>")
    if r.inputs:
        out.append(f"<li>inputs: <code>{escape(json.dumps(r.inputs, ensure_ascii=False, default=str)[:400])}</code></li>")
    out.append("</ul>")
    if r.error is not None:
        limit = f"<br>limit reached: <code>{escape(r.error.limit)}</code>" if r.error.limit else ""
        out.append(f'<div class="error"><strong>Error</strong> at <code>{escape(r.error.where or "run")}</code>: '
                   f"{escape(r.error.message)}{limit}</div>")
    if r.degraded:
        items = "".join(f"<li>{escape(d)}</li>" for d in r.degraded)
        out.append(f'<div class="error"><strong>Degraded</strong>: a fallback stood in for these steps:<ul>{items}'
                   "</ul></div>")
    if r.status == "paused":
        cmds = "".join(f"<li><code>{escape(say(Hint(action=HintAction.APPROVE, run_id=r.run_id, step=s)))}</code></li>"
                       for s in r.awaiting)
        resume = escape(say(Hint(action=HintAction.RESUME, run_id=r.run_id)))
        out.append(f'<div class="hint">Paused, waiting for approval:<ul>{cmds}'
                   f"<li>then <code>{resume}</code></li></ul></div>")
    elif r.status in ("running", "pending"):
        resume = escape(say(Hint(action=HintAction.RESUME, run_id=r.run_id)))
        out.append(f'<div class="hint">Not finished: <code>{resume}</code></div>')
    return out


def _step_table(r: RunReport) -> list[str]:
    out = ['<h2 id="steps">Steps</h2>', "<table><tr><th>step</th><th>status</th><th>attempts</th><th>retries</th>"
           "<th>regen</th><th>duration</th><th>queue</th><th>handoffs ok/failed</th><th>tokens</th><th>note</th></tr>"]
    for s in r.steps:
        m = s.metrics
        items = f" ({m.items_done}/{m.items} items)" if m.items is not None else ""
        note = s.message.strip().splitlines()[0] if s.message.strip() else ""
        if s.fallbacks:
            note = f"fallback {s.fallbacks[-1].action}" + (f": {note}" if note else "")
        if s.interrupted_attempts:
            note = f"{len(s.interrupted_attempts)} interrupted" + (f"; {note}" if note else "")
        out.append(
            f'<tr id="row-{escape(s.step_id)}"><td><a href="{_href(s)}"><code>{escape(s.step_id)}</code></a> '
            f"{escape(s.name)}</td>"
            f"<td>{_status(s.status)}{escape(items)}</td><td class=n>{m.attempts}</td><td class=n>{m.retries}</td>"
            f"<td class=n>{m.regenerations}</td><td class=n>{duration(m.duration_s)}</td>"
            f"<td class=n>{duration(m.queue_delay_s)}</td><td class=n>{m.handoff_passed}/{m.handoff_failed}</td>"
            f"<td class=n>{m.tokens.total}</td><td>{escape(note[:200])}</td></tr>"
        )
    out.append("</table>")
    return out


def _step_detail(s: StepReport) -> list[str]:
    out = [f'<h3 id="step-{escape(s.step_id)}"><code>{escape(s.step_id)}</code> {escape(s.name)} {_status(s.status)}</h3>',
           f"<p>skill <code>{escape(s.skill)}</code> ({escape(s.kind or '?')})"
           + (f"; error class <code>{escape(s.error_class)}</code>" if s.error_class else "") + "</p>"]
    if s.status == "skipped" and s.message:
        out.append(f"<p>Skipped: {escape(s.message)}</p>")
    if s.failed_attempts:
        out.append("<h4>Failed attempts</h4><ul>")
        for a in s.failed_attempts[-ATTEMPTS_SHOWN:]:
            kind = f" ({escape(a.kind)})" if a.kind and a.kind != a.error_class else ""
            pointer = f" at <code>{escape(a.pointer)}</code>" if a.pointer else ""
            body = f"<li>{_where(a.item, a.attempt)}: <strong>{escape(a.error_class)}</strong>{kind}{pointer} after " \
                   f"{duration(a.duration_s)}: {escape(a.message)}"
            if says_more(a.detail, a.message, a.stderr_tail):
                body += _pre(a.detail)
            if a.stderr_tail:
                body += f'<div class="muted">stderr (tail, {escape(a.stderr_path or "")}):</div>' + _pre(a.stderr_tail)
            out.append(body + "</li>")
        out.append("</ul>")
    if s.interrupted_attempts:
        out.append("<h4>Interrupted attempts</h4><ul>")
        out += [f"<li>{_where(a.item, a.attempt)}: started {when(a.ts)}, no outcome: {escape(INTERRUPTED)}; "
                f"the run was resumed at {when(a.resumed_at)}</li>" for a in s.interrupted_attempts]
        out.append("</ul>")
    if s.violations:
        out.append("<h4>Contract violations (last failed check)</h4><ul>")
        out += [f"<li><code>{escape(v.pointer or '/')}</code>: {escape(v.message)} (expected {escape(v.expected)}, "
                f"got <code>{escape(v.actual)}</code>)</li>" for v in s.violations]
        out.append("</ul>")
    if s.retries:
        waits = ", ".join(
            f"{duration(w.delay_s)} after {_where(w.item, w.attempt)} ({escape(w.error_class)})" for w in s.retries
        )
        out.append(f"<p>Retries: {waits}</p>")
    if s.regenerations or s.regeneration_unavailable:
        out.append("<h4>Regenerations</h4><ul>")
        if s.regeneration_unavailable:
            out.append(f"<li>unavailable: {escape(s.regeneration_unavailable)}</li>")
        for g in s.regenerations:
            why = "validator feedback" if g.feedback else f"after {_where(g.item, g.attempt)}"
            if g.rejected:
                out.append(f"<li>{why}: answer refused: {escape(g.rejected)}</li>")
                continue
            out.append(f"<li>{why}: new version <code>{escape((g.code_sha256 or '')[:12])}</code> at "
                       f"<code>{escape(g.code_path or '')}</code>" + (_diff(g.diff) if g.diff else "") + "</li>")
        out.append("</ul>")
    if s.fallbacks:
        out.append("<h4>Fallbacks</h4><ul>")
        out += [f"<li>{_where(f.item, f.attempt)}: <strong>{escape(f.action)}</strong>"
                + (f" <code>{escape(f.skill)}</code>" if f.skill else "") + f": {escape(f.reason)}</li>"
                for f in s.fallbacks]
        out.append("</ul>")
    if s.approval is not None:
        ap = s.approval
        timeout = (f" (times out after {duration(ap.timeout_s)} → {escape(ap.on_timeout or '')})"
                   if ap.timeout_s else "")
        out.append(f"<h4>Approval</h4><ul><li>requested {when(ap.requested_at)}{timeout}</li>")
        if ap.approved is None:
            out.append("<li>waiting for a decision</li>")
        else:
            by = "timeout" if ap.timed_out else (ap.by or "?")
            comment = f": “{escape(ap.comment)}”" if ap.comment else ""
            out.append(f"<li>{'approved' if ap.approved else 'rejected'} by {escape(by)} at {when(ap.decided_at)}"
                       f"{comment}</li>")
        out.append("</ul>")
    if s.skipped_items:
        out.append(f"<p>Items skipped (<code>when</code> false): {', '.join(map(str, s.skipped_items))}</p>")
    return out


def _metrics(r: RunReport) -> list[str]:
    m = r.metrics
    rows = [
        ("attempts", str(m.attempts)), ("retries", str(m.retries)),
        ("retry burden (retries per attempt)", ratio(m.retry_burden)), ("regenerations", str(m.regenerations)),
        ("queue delay mean / max / total",
         f"{duration(m.queue_delay_mean_s)} / {duration(m.queue_delay_max_s)} / {duration(m.queue_delay_total_s)}"),
        ("handoff checks passed / failed", f"{m.handoff_passed}/{m.handoff_failed}"),
        ("handoff accuracy", percent(m.handoff_accuracy)),
        ("LLM tokens", str(m.tokens.total)),
        ("duration (active)", f"{duration(m.duration_s)} ({duration(m.active_s)})"
                              + ("" if r.finished_at is not None else " up to the last event, not finished")),
    ]
    return ['<h2 id="metrics">Metrics</h2><table>', *(f"<tr><th>{k}</th><td class=n>{escape(v)}</td></tr>" for k, v in rows),
            "</table>"]


def _href(s: StepReport) -> str:
    """Where a step's link goes: its story when it has one, else its row of the step table."""
    return f"#step-{escape(s.step_id)}" if s.eventful else f"#row-{escape(s.step_id)}"


def _graph_step(s: StepReport) -> GraphStep:
    m = s.metrics
    figures = [s.status.replace("_", " ")]
    if m.items is not None:
        figures.append(f"{m.items_done}/{m.items} items")
    if m.attempts:
        figures.append(count(m.attempts, "attempt"))
    if m.duration_s is not None:
        figures.append(duration(m.duration_s))
    if m.handoff_failed:
        figures.append(f"{m.handoff_failed} handoff ✗")
    tooltip = [f"{s.step_id}: {s.name}", f"status: {s.status.replace('_', ' ')}", f"skill: {s.skill} ({s.kind or '?'})",
               f"attempts {m.attempts}, retries {m.retries}, regenerations {m.regenerations}"
               + (f", {m.interrupted} interrupted" if m.interrupted else ""),
               f"duration {duration(m.duration_s)}, queue delay {duration(m.queue_delay_s)}, "
               f"run time {duration(m.run_time_s)}",
               f"handoff checks: {m.handoff_passed} passed, {m.handoff_failed} failed"]
    if m.items is not None:
        tooltip.append(f"items: {m.items_done} of {m.items} done")
    tooltip += [f"violation {v.pointer or '/'}: {v.message}" for v in s.violations[:3]]
    if s.error_class:
        tooltip.append(f"error class: {s.error_class}")
    if s.message.strip():
        tooltip.append(s.message.strip().splitlines()[0][:300])
    if s.approval is not None:
        ap = s.approval
        state = "waiting" if ap.approved is None else "approved" if ap.approved else "rejected"
        tooltip.append(f"approval: {state}")
    return GraphStep(step_id=s.step_id, depends_on=s.depends_on, status=s.status,
                     lines=(s.step_id, s.name, " · ".join(figures)), tooltip="\n".join(tooltip),
                     href=f"#step-{s.step_id}" if s.eventful else f"#row-{s.step_id}", feedback_to=s.feedback_to)


def _legend(entries: list[tuple[str, str, str]]) -> str:
    """(css class, fill, label) swatches."""
    spans = "".join(f'<span class="{escape(cls)}"><i class="swatch" style="background:{escape(fill)}"></i>'
                    f"{escape(label)}</span>" for cls, fill, label in entries)
    return f'<div class="legend">{spans}</div>'


def _graph(r: RunReport) -> list[str]:
    used = list(dict.fromkeys(s.status for s in r.steps))
    legend = _legend([(f"st-{st}", palette(st).get("fill", "#fff"), st.replace("_", " ")) for st in used])
    svg = render_graph_svg([_graph_step(s) for s in r.steps])
    return ['<h2 id="graph">Graph</h2>', legend, f'<div class="figure">{svg}</div>',
            '<p class="muted">Hover a step for its figures; click it for its story.</p>']


def _timeline(r: RunReport) -> list[str]:
    legend = _legend([("attempt", FILLS["succeeded"], "attempt succeeded"), ("attempt", FILLS["failed"], "failed"),
                      ("attempt", FILLS["interrupted"], "interrupted"), ("attempt", FILLS["running"], "running"),
                      ("wait", FILLS["wait"], "retry wait"), ("regen", FILLS["regen"], "regeneration"),
                      ("approval", FILLS["approval"], "approval pause"),
                      ("queue", FILLS["queue"], "queued")])
    return ['<h2 id="timeline">Timeline</h2>', legend, f'<div class="figure">{render_timeline_svg(r)}</div>']


def render_html(r: RunReport, say: HintWording = plain) -> str:
    """The report as one HTML page; `say` words what to do next (approve, resume)."""
    body = _header(r, say)
    body.append('<nav><a href="#graph">graph</a><a href="#timeline">timeline</a><a href="#steps">steps</a>'
                '<a href="#details">details</a><a href="#metrics">metrics</a></nav>')
    body += _graph(r) + _timeline(r) + _step_table(r)
    eventful = [s for s in r.steps if s.eventful]
    if eventful:
        body.append('<h2 id="details">Step details</h2>')
        for s in eventful:
            body += _step_detail(s)
    if r.feedback:
        body.append("<h2>Validator feedback</h2><ul>")
        body += [f"<li><code>{escape(f.from_step)}</code> → <code>{escape(f.to_step)}</code>: {escape(f.detail[:500])}"
                 "</li>" for f in r.feedback]
        body.append("</ul>")
    if r.compensations:
        body.append("<h2>Compensations</h2><ol>")
        body += [f"<li><code>{escape(c.step)}</code> by <code>{escape(c.skill)}</code>: {_status_word(c.status)}"
                 + (f": {escape(c.message)}" if c.message else "") + "</li>" for c in r.compensations]
        body.append("</ol>")
    if r.artifacts:
        body.append("<h2>Artifacts</h2><ul>" + "".join(f"<li><code>{escape(a)}</code></li>" for a in r.artifacts)
                    + "</ul>")
    if r.notes:
        body.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in r.notes) + "</ul>")
    if r.spec_warnings:
        body.append("<h2>How the spec was read</h2><p>" + escape(spec_warnings_intro(r)) + "</p><ul>"
                    + "".join(f"<li>{escape(spec_warning_line(d))}</li>" for d in r.spec_warnings[:SPEC_WARNINGS_SHOWN])
                    + "</ul>")
    body += _metrics(r)
    body.append("<details><summary>The graph as Mermaid source (for docs)</summary>"
                + _pre(r.mermaid, "mermaid") + "</details>")
    title = f"skillweave: run {r.run_id}: {r.status}"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _status_word(status: str) -> str:
    return _status({"finished": "succeeded", "started": "running"}.get(status, status), status)
