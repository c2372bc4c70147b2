"""Reports as Markdown (`runs show`), and the run history as a plain table (`runs`).

Written for a person woken at 2 a.m.: the header says what happened and where,
the step table shows which step to look at, the step sections below show why
(failed attempts with their stderr, regenerated code as diffs, fallbacks,
approvals), then compensations and the metrics.
"""

from __future__ import annotations

import html
import json
import re
import time

from orchestrator.errors import Diagnostic
from orchestrator.hints import Hint, HintAction, HintWording, plain
from orchestrator.report.model import History, RunMetrics, RunReport, StepReport
from orchestrator.wording import count

ATTEMPTS_SHOWN = 5  # failed attempts shown per step (the latest)
INTERRUPTED = "its process ended (a crash or a kill) before it did"


def when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(ts))


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds:.2f}s" if seconds < 10 else f"{seconds:.1f}s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


_FINISHED = ("succeeded", "degraded", "failed", "escalated")


def timing(r: RunReport, now: float | None = None) -> str:
    """When the run ran. A run not finished has no duration yet: how long since it started
    and since its last event, as of `now` (default: the time of rendering; a live run goes
    on, an interrupted one does not)."""
    m = r.metrics
    if r.status in _FINISHED:
        return (f"started {when(r.started_at)}, finished {when(r.finished_at)}; "
                f"duration {duration(m.duration_s)} (active {duration(m.active_s)})")
    if r.started_at is None:
        return f"created {when(r.created_at)}; not started"
    now = time.time() if now is None else now
    last = r.last_event_at or r.started_at
    return (f"started {when(r.started_at)}; not finished ({r.status.replace('_', ' ')}): "
            f"{duration(max(0.0, now - r.started_at))} since it started, last event {when(last)} "
            f"({duration(max(0.0, now - last))} before this report)")


def unfinished_steps(m: RunMetrics) -> str:
    """`, 2 cancelled, 1 not run`: the steps a finished run cut short or never reached."""
    parts = ([f"{m.cancelled} cancelled"] if m.cancelled else []) + ([f"{m.not_run} not run"] if m.not_run else [])
    return "".join(f", {p}" for p in parts)


def _inline(text: str) -> str:
    """Text on one line: line breaks and other control characters as spaces."""
    return _CONTROL.sub(" ", text)


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def _text(text: str) -> str:
    """Prose for Markdown, on one line: HTML's special characters escaped, so that a renderer
    shows the text as it was written (a step name or an error message may hold markup)."""
    return html.escape(_inline(text), quote=False)


def _code(text: str) -> str:
    """A code span holding `text` as it is, whatever backticks it holds."""
    text = _inline(text)
    ticks = "`"
    while ticks in text:
        ticks += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str, lang: str = "", indent: str = "") -> list[str]:
    """A fenced block (longer fences when the text holds one), each line indented."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    body = text.rstrip("\n").splitlines()
    return [indent + line if line else line for line in (f"{ticks}{lang}", *body, ticks)]


def says_more(detail: str, *already: str) -> bool:
    """Whether `detail` says more than the texts already shown."""
    d = detail.strip()
    return bool(d) and not any(d in a for a in already)


def _first_line(text: str, limit: int = 100) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _where(item: int | None, attempt: int | None) -> str:
    parts = []
    if item is not None:
        parts.append(f"item {item}")
    if attempt is not None:
        parts.append(f"attempt {attempt}")
    return ", ".join(parts) or "-"


# -- the run report ---------------------------------------------------------------


def _header(r: RunReport, say: HintWording) -> list[str]:
    m = r.metrics
    lines = [f"# Run {r.run_id}: {r.status.upper()}", ""]
    lines.append(f"- plan: {_code(r.plan_name)} (sha256 {r.plan_sha256[:12]}), spec {_code(r.spec_path)}")
    resumed = sum(1 for s in r.sessions if s.resumed)
    sessions = f", {len(r.sessions)} sessions ({resumed} resumed)" if len(r.sessions) > 1 else ""
    lines.append(f"- {timing(r)}{sessions}")
    interrupted = f" ({m.interrupted} interrupted)" if m.interrupted else ""
    lines.append(
        f"- steps: {m.succeeded}/{m.steps} with output, {m.failed} failed, {m.skipped} skipped{unfinished_steps(m)}; "
        f"{count(m.attempts, 'attempt')}{interrupted}, {count(m.retries, 'retry')}, "
        f"{count(m.regenerations, 'regeneration')}"
    )
    if r.inputs:
        shown = json.dumps(r.inputs, ensure_ascii=False, default=str)
        lines.append(f"- inputs: {_code(shown if len(shown) <= 200 else shown[:199] + '…')}")
    if r.error is not None:
        lines += ["", f"> **Error** at {_code(r.error.where or 'run')}: {_text(_first_line(r.error.message, 300))}"]
        if r.error.limit:
            extra = r.limit.message if r.limit and r.limit.message.strip() not in r.error.message else ""
            lines.append(f"> limit reached: {_code(r.error.limit)}" + (f" ({_text(extra)})" if extra else ""))
    if r.degraded:
        lines += ["", "> **Degraded**: a fallback stood in for these steps:"]
        lines += [f"> - {_text(_first_line(d, 300))}" for d in r.degraded]
    if r.status == "paused":
        lines += ["", "Paused, waiting for approval:"]
        for step in r.awaiting:
            lines.append(f"- {_code(say(Hint(action=HintAction.APPROVE, run_id=r.run_id, step=step)))}")
        lines.append(f"- then {_code(say(Hint(action=HintAction.RESUME, run_id=r.run_id)))}")
    elif r.status in ("running", "pending"):
        lines += ["", f"Not finished (interrupted?): {_code(say(Hint(action=HintAction.RESUME, run_id=r.run_id)))}"]
    return lines


def _step_note(s: StepReport) -> str:
    note = _first_line(s.message) if s.message else ""
    if s.fallbacks:
        note = f"fallback {s.fallbacks[-1].action}" + (f": {note}" if note else "")
    if s.interrupted_attempts:
        cut = f"{len(s.interrupted_attempts)} attempt{'s' if len(s.interrupted_attempts) > 1 else ''} interrupted"
        note = cut + (f"; {note}" if note else "")
    if s.approval is not None:
        state = "waiting" if s.approval.approved is None else "approved" if s.approval.approved else "rejected"
        note = f"approval {state}" + (f"; {note}" if note else "")
    return note


def _step_table(r: RunReport) -> list[str]:
    lines = [
        "## Steps",
        "",
        "| step | status | attempts | retries | regen | duration | queue | handoffs ok/failed | tokens | note |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for s in r.steps:
        m = s.metrics
        items = f" ({m.items_done}/{m.items} items)" if m.items is not None else ""
        lines.append(
            f"| {_code(s.step_id)} {_cell(_text(s.name))} | {s.status}{items} | {m.attempts} | {m.retries} | {m.regenerations} "
            f"| {duration(m.duration_s)} | {duration(m.queue_delay_s)} | {m.handoff_passed}/{m.handoff_failed} "
            f"| {m.tokens.total} | {_cell(_text(_step_note(s)))} |"
        )
    return lines


def _step_detail(s: StepReport) -> list[str]:
    lines = [f"### {_code(s.step_id)} {_text(s.name)}: {s.status}", ""]
    lines.append(f"skill {_code(s.skill)} ({s.kind or '?'})"
                 + (f"; error class {_code(s.error_class)}" if s.error_class else ""))
    if s.status == "skipped" and s.message:
        lines += ["", f"Skipped: {_text(s.message)}"]
    if s.failed_attempts:
        hidden = len(s.failed_attempts) - ATTEMPTS_SHOWN
        lines += ["", "#### Failed attempts", ""]
        if hidden > 0:
            lines.append(f"({hidden} earlier failed attempts not shown; the JSON report has them all)")
        for a in s.failed_attempts[-ATTEMPTS_SHOWN:]:
            kind = f" ({_text(a.kind)})" if a.kind and a.kind != a.error_class else ""
            pointer = f" at {_code(a.pointer)}" if a.pointer else ""
            lines.append(
                f"- {_where(a.item, a.attempt)}: **{_text(a.error_class)}**{kind}{pointer} after "
                f"{duration(a.duration_s)}: {_text(_first_line(a.message, 300))}"
            )
            if says_more(a.detail, a.message, a.stderr_tail):
                lines += ["", *_fence(a.detail, indent="  "), ""]
            if a.stderr_tail:
                lines += ["", f"  stderr (tail, {_code(a.stderr_path or '')}):", "", *_fence(a.stderr_tail, indent="  "), ""]
    if s.interrupted_attempts:
        lines += ["", "#### Interrupted attempts", ""]
        lines += [f"- {_where(a.item, a.attempt)}: started {when(a.ts)}, no outcome: {INTERRUPTED}; "
                  f"the run was resumed at {when(a.resumed_at)}" for a in s.interrupted_attempts]
    if s.violations:
        lines += ["", "#### Contract violations (last failed check)", ""]
        lines += [f"- {_code(v.pointer or '/')}: {_text(v.message)} (expected {_text(v.expected)}, got {_code(v.actual)})"
                  for v in s.violations]
    if s.retries:
        waits = ", ".join(f"{duration(w.delay_s)} after {_where(w.item, w.attempt)} ({_text(w.error_class)})"
                          for w in s.retries)
        lines += ["", f"Retries: {waits}"]
    if s.regenerations or s.regeneration_unavailable:
        lines += ["", "#### Regenerations", ""]
        if s.regeneration_unavailable:
            lines.append(f"- unavailable: {_text(s.regeneration_unavailable)}")
        for g in s.regenerations:
            why = "validator feedback" if g.feedback else f"after {_where(g.item, g.attempt)}"
            tokens = f", {g.tokens.total} tokens" if g.tokens.total else ""
            if g.rejected:
                lines.append(f"- {why}: answer refused: {_text(_first_line(g.rejected, 300))}{tokens}")
                continue
            lines.append(f"- {why}: new version {_code((g.code_sha256 or '')[:12])} at {_code(g.code_path or '')}{tokens}")
            if g.diff:
                lines += ["", *_fence(g.diff, "diff"), ""]
    if s.fallbacks:
        lines += ["", "#### Fallbacks", ""]
        for f in s.fallbacks:
            skill = f" {_code(f.skill)}" if f.skill else ""
            lines.append(f"- {_where(f.item, f.attempt)}: **{_text(f.action)}**{skill}: {_text(_first_line(f.reason, 300))}")
    if s.approval is not None:
        ap = s.approval
        lines += ["", "#### Approval", ""]
        timeout = f" (times out after {duration(ap.timeout_s)} → {_text(ap.on_timeout or '')})" if ap.timeout_s else ""
        lines.append(f"- requested {when(ap.requested_at)}{timeout}")
        if ap.approved is None:
            lines.append("- waiting for a decision")
        else:
            verdict = "approved" if ap.approved else "rejected"
            by = "timeout" if ap.timed_out else (ap.by or "?")
            comment = f": “{_text(ap.comment)}”" if ap.comment else ""
            lines.append(f"- {verdict} by {_text(by)} at {when(ap.decided_at)}{comment}")
    if s.skipped_items:
        lines += ["", f"Items skipped (`when` false): {', '.join(map(str, s.skipped_items))}"]
    return lines


def _metrics(r: RunReport) -> list[str]:
    m = r.metrics
    t = m.tokens
    rows = [
        ("workflow status", r.status),
        ("duration (active)", f"{duration(m.duration_s)} ({duration(m.active_s)})"
                              + ("" if r.status in _FINISHED else " up to the last event, not finished")),
        ("steps with output / failed / skipped", f"{m.succeeded}/{m.failed}/{m.skipped} of {m.steps}"
                                                 + unfinished_steps(m)),
        ("attempts", str(m.attempts)),
        ("retries", str(m.retries)),
        ("retry burden (retries per attempt)", ratio(m.retry_burden)),
        ("regenerations", str(m.regenerations)),
        ("queue delay mean / max / total", f"{duration(m.queue_delay_mean_s)} / {duration(m.queue_delay_max_s)}"
                                           f" / {duration(m.queue_delay_total_s)}"),
        ("handoff checks passed / failed", f"{m.handoff_passed}/{m.handoff_failed}"),
        ("handoff accuracy", percent(m.handoff_accuracy)),
        ("LLM tokens (in/out/cache read/cache write)",
         f"{t.total} ({t.input}/{t.output}/{t.cache_read}/{t.cache_write})"),
    ]
    return ["## Metrics", "", "| metric | value |", "| --- | --- |", *(f"| {k} | {v} |" for k, v in rows)]


def _tidy(lines: list[str]) -> list[str]:
    """Drop repeated blank lines outside fenced blocks."""
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
        elif fence is not None and stripped == fence:
            fence = None
        elif fence is None and not stripped and out and not out[-1].strip():
            continue
        out.append(line)
    return out


SPEC_WARNINGS_SHOWN = 100  # a report lists at most this many of the plan's warnings


def spec_warnings_intro(r: RunReport) -> str:
    """What the list of the plan's warnings is, and where else to see it."""
    shown = min(len(r.spec_warnings), SPEC_WARNINGS_SHOWN)
    more = f" (the first {shown})" if shown < len(r.spec_warnings) else ""
    return (f"The plan was built with {count(len(r.spec_warnings), 'warning')}{more}: places where the spec may say "
            "more than the plan does. The run did what the plan says; check these against what the author meant "
            "(validating the spec lists them too).")


def spec_warning_line(d: Diagnostic) -> str:
    """`line N: message (code)`, one of the plan's warnings as the report lists it."""
    return f"line {d.line}: {d.message} ({d.code})" if d.line else f"{d.message} ({d.code})"


def render_markdown(r: RunReport, say: HintWording = plain) -> str:
    """The report as Markdown; `say` words what to do next (approve, resume)."""
    lines = _header(r, say)
    lines += ["", *_step_table(r)]
    if r.spec_warnings:
        lines += ["", "## How the spec was read", "", _text(spec_warnings_intro(r)), ""]
        lines += [f"- {_text(spec_warning_line(d))}" for d in r.spec_warnings[:SPEC_WARNINGS_SHOWN]]
    lines += ["", "## Graph", "", *_fence(r.mermaid.rstrip("\n"), "mermaid")]
    eventful = [s for s in r.steps if s.eventful]
    if eventful:
        lines += ["", "## Step details"]
        for s in eventful:
            lines += ["", *_step_detail(s)]
    if r.feedback:
        lines += ["", "## Validator feedback", ""]
        for f in r.feedback:
            lines.append(f"- {_code(f.from_step)} → {_code(f.to_step)}: {_text(_first_line(f.detail, 300))}")
    if r.compensations:
        lines += ["", "## Compensations", "", "In the order they ran:", ""]
        for c in r.compensations:
            message = f": {_text(_first_line(c.message, 300))}" if c.message else ""
            lines.append(f"- {_code(c.step)} by {_code(c.skill)}: **{c.status}**{message}")
    if r.artifacts:
        lines += ["", "## Artifacts", "", "Files the scripts wrote, in the run directory:", ""]
        lines += [f"- {_code(a)}" for a in r.artifacts]
    if r.notes:
        lines += ["", "## Notes", "", *(f"- {_text(n)}" for n in r.notes)]
    lines += ["", *_metrics(r)]
    return "\n".join(_tidy(lines)) + "\n"


# -- the history ------------------------------------------------------------------


def render_history_text(h: History) -> str:
    if not h.runs:
        return f"no runs in {h.state_dir}\n"
    header = ("run", "status", "plan", "started", "duration", "steps ok", "attempts", "retries", "regen")
    rows = [
        (
            r.run_id, r.status, r.plan_name, when(r.started_at or r.created_at), duration(r.duration_s),
            f"{r.steps_succeeded}/{r.steps}", str(r.attempts), str(r.retries), str(r.regenerations),
        )
        for r in h.runs
    ]
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(header)).rstrip()]
    for row, run in zip(rows, h.runs, strict=True):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        if run.error:
            lines.append(f"    error: {_first_line(run.error, 160)}")
    m = h.metrics
    lines += [
        "",
        f"{m.runs} run{'' if m.runs == 1 else 's'} ({m.finished} finished, {m.in_progress} in progress): "
        f"success rate {percent(m.success_rate)} ({m.succeeded}/{m.finished})",
        f"retry burden {ratio(m.retry_burden)} ({m.retries} retries / {m.attempts} attempts); "
        f"queue delay mean {duration(m.queue_delay_mean_s)}, p95 {duration(m.queue_delay_p95_s)} "
        f"({m.queue_delay_samples} step{'' if m.queue_delay_samples == 1 else 's'}); handoff accuracy {percent(m.handoff_accuracy)} "
        f"({m.handoff_passed}/{m.handoff_passed + m.handoff_failed})",
    ]
    return "\n".join(lines) + "\n"
