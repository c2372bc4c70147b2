"""What `skillweave run` and `resume` show: progress while a run goes, then its summary.

Progress goes to stderr (a live table on a terminal, one line per event
otherwise); the summary, the regenerations with their diffs and where the run's
files are go to stdout. Status words are coloured where the stream is a terminal
(`orchestrator.cli.colour`: NO_COLOR, FORCE_COLOR, --no-color); notes are wrapped
at the terminal's width there, and never cut in the middle of a word.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orchestrator.cli.colour import paint, rich_style
from orchestrator.cli.wording import render_error, say
from orchestrator.config import Settings
from orchestrator.engine.model import RunEvent, RunStatus, RunSummary, StepStatus
from orchestrator.errors import SkillweaveError
from orchestrator.plan.model import Plan
from orchestrator.wording import count

if TYPE_CHECKING:
    from orchestrator.report import RunReport

# events too frequent or too internal for the plain log
_QUIET = {"handoff_checked", "step_ready"}
DIFF_LINES = 40  # of each regeneration's diff in the summary
NOTE_CHARS = 300  # of a step's note (the first line of its message), cut at a word
ARTIFACTS_LISTED = 20


class PlainLog:
    """One line per event on stderr, for logs and CI."""

    def __init__(self, stream: Any = None) -> None:
        self._stream = stream or sys.stderr

    def __call__(self, event: RunEvent) -> None:
        if event.type in _QUIET:
            return
        where = event.step or ""
        if event.item is not None:
            where += f"[{event.item}]"
        if event.attempt is not None:
            where += f"#{event.attempt}"
        stamp = time.strftime("%H:%M:%S", time.localtime(event.ts))
        message = f" {event.message}" if event.message else ""
        print(f"{stamp} {event.type:<24} {where}{message}", file=self._stream, flush=True)


class LiveTable:
    """A live table of steps on a terminal: status (coloured), attempts, retries, time
    since the step's first attempt (still counting while it runs), `done/total` items of
    a `for each`, and the latest note, wrapped to the terminal's width."""

    def __init__(self, plan: Plan, *, clock: Callable[[], float] = time.time) -> None:
        from rich.console import Console
        from rich.live import Live

        self._clock = clock
        self._rows: dict[str, dict[str, Any]] = {
            s.id: {"status": "pending", "attempts": 0, "retries": 0, "note": "", "started": None, "ended": None,
                   "items": None, "done": set()}
            for s in plan.steps
        }
        self._live = Live(get_renderable=self._table, console=Console(stderr=True), refresh_per_second=4,
                          transient=False)

    def __enter__(self) -> LiveTable:
        self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._live.refresh()
        self._live.__exit__(None, None, None)

    def _table(self) -> Any:
        from rich.table import Table
        from rich.text import Text

        now = self._clock()
        table = Table(box=None, pad_edge=False, expand=False)
        for col in ("step", "status", "attempts", "retries", "time", "items"):
            table.add_column(col, no_wrap=True, justify="right" if col in ("attempts", "retries", "time") else "left")
        table.add_column("", overflow="fold", ratio=1)
        for sid, row in self._rows.items():
            started, ended = row["started"], row["ended"]
            elapsed = "" if started is None else _seconds_short((ended if ended is not None else now) - started)
            items = "" if row["items"] is None else f"{len(row['done'])}/{row['items']}"
            table.add_row(sid, Text(row["status"], style=rich_style(row["status"])), str(row["attempts"]),
                          str(row["retries"]), elapsed, items, row["note"][:NOTE_CHARS])
        return table

    def __call__(self, event: RunEvent) -> None:
        if event.type == "run_finished" and event.status not in ("succeeded", "degraded"):
            for other in self._rows.values():
                if other["status"] in ("pending", "ready", "awaiting approval"):
                    other["status"] = "not run"
                elif other["status"] == "running":
                    other["status"] = "cancelled"
                    other["ended"] = event.ts
            self._live.refresh()
            return
        row = self._rows.get(event.step or "")
        if row is None:
            return
        status = {
            "step_ready": "ready",
            "attempt_started": "running",
            "approval_requested": "awaiting approval",
            "step_skipped": "skipped",
        }.get(event.type)
        if event.type == "attempt_started":
            row["attempts"] += 1
            if row["started"] is None:
                row["started"] = event.ts
            row["ended"] = None
        elif event.type == "retry_scheduled":
            row["retries"] += 1
        elif event.type == "fan_out" and event.total is not None:
            row["items"] = event.total
        elif event.type in ("output_stored", "item_skipped") and event.item is not None:
            row["done"].add(event.item)
        elif event.type in ("step_finished", "step_skipped"):
            status = event.status or "finished" if event.type == "step_finished" else status
            row["ended"] = event.ts
        noted = event.type in ("attempt_failed", "retry_scheduled", "regeneration", "fallback_used", "step_skipped")
        if noted or (event.type == "step_finished" and event.message != event.status):
            row["note"] = event.message
        if status:
            row["status"] = status
        self._live.refresh()


def _seconds_short(value: float) -> str:
    value = max(0.0, value)
    if value < 60:
        return f"{value:.1f}s"
    minutes, seconds = divmod(int(value), 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


# -- the summary ------------------------------------------------------------------


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def _note(text: str, limit: int = NOTE_CHARS) -> str:
    """The first line of a message, whole, or cut at a word before `limit` characters (with …)."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    if len(line) <= limit:
        return line
    cut = line[: limit - 1].rsplit(" ", 1)[0] if " " in line[: limit - 1] else line[: limit - 1]
    return cut.rstrip() + "…"


def _wrapped(head: str, note: str, width: int | None, painted: str | None = None) -> list[str]:
    """`head` (`painted`: the same with colour) then `note`, the note wrapped at `width` (none:
    one line) under its own column, or under a small indent when the head is over half the width."""
    painted = head if painted is None else painted
    if not note:
        return [painted.rstrip()]
    if width is None or len(head) + len(note) <= width:
        return [f"{painted}{note}"]
    indent = len(head) if len(head) <= width // 2 else 6
    lines = textwrap.wrap(note, width=max(20, width - indent), break_long_words=False, break_on_hyphens=False)
    if len(head) > width // 2:
        return [painted.rstrip(), *(" " * indent + line for line in lines)]
    return [painted + lines[0], *(" " * indent + line for line in lines[1:])]


def render_summary(
    summary: RunSummary, backend: str = "local", *, colour: bool = False, width: int | None = None
) -> str:
    """The run's summary: its status, counts, a line per step and how it ended. `backend`: where the
    run executes (the commands to go on name it); `colour`: status words in colour (ANSI); `width`:
    notes wrapped at that many columns, never cut mid-word."""
    t = summary.totals
    cancelled = sum(1 for s in summary.steps if s.status is StepStatus.CANCELLED)
    not_run = sum(1 for s in summary.steps if s.status is StepStatus.NOT_RUN)
    unfinished = (f", {cancelled} cancelled" if cancelled else "") + (f", {not_run} not run" if not_run else "")
    status = summary.status.value
    counts = (
        f"{count(t.steps, 'step')}: {t.succeeded} with output, {t.failed} failed, {t.skipped} skipped{unfinished}; "
        f"{count(t.attempts, 'attempt')}, {count(t.retries, 'retry')}, {count(t.regenerations, 'regeneration')}; "
        f"handoffs {t.handoff_passed} passed, {t.handoff_failed} failed; {t.tokens.total} LLM tokens"
    )
    lines = [f"run {summary.run_id}  {paint(status, status, colour)}  ({summary.plan_name})"]
    lines += _wrapped("  ", counts, width)
    width_id = max((len(s.step_id) for s in summary.steps), default=4)
    for s in summary.steps:
        note = _note(s.message)
        if s.fallback:
            note = f"fallback {s.fallback}" + (f": {note}" if note else "")
        items = f" items {s.items_done}/{s.items}" if s.items is not None else ""
        word = s.status.value
        rest = (f" attempts {s.attempts:<2} retries {s.retries:<2} regen {s.regenerations:<2} "
                f"{_seconds(s.duration_s):>8}{items}  ")
        head = f"  {s.step_id:<{width_id}}  {word:<17}{rest}"
        lines += _wrapped(head, note, width, f"  {s.step_id:<{width_id}}  {paint(f'{word:<17}', word, colour)}{rest}")
    if summary.error is not None:
        where = f"{summary.error.where}: " if summary.error.where else ""
        limit = f" [limit {summary.error.limit}]" if summary.error.limit else ""
        lines += _wrapped("error: ", f"{where}{summary.error.message}{limit}", width)
    lines.extend(f"compensation {c}" for c in summary.compensations)
    for note in summary.notes:
        lines += _wrapped("", note, width)
    if summary.degraded:
        lines.append("degraded: a fallback stood in for " + ", ".join(d.step_id for d in summary.degraded) + ":")
        for d in summary.degraded:
            lines += _wrapped("  ", f"{d.step_id}: {d.fallback}: {d.reason}", width)
    on = " --backend temporal" if backend == "temporal" else ""
    if summary.status is RunStatus.PAUSED:
        for step in summary.awaiting:
            lines.append(f"paused: step {step} awaiting approval. To continue:")
            lines.append(f"  skillweave approve {summary.run_id} {step}{on}    (or --reject)")
        if backend == "temporal":
            lines.append(f"  (the run goes on by itself once decided; follow it: skillweave resume {summary.run_id}{on})")
        else:
            lines.append(f"  skillweave resume {summary.run_id}")
    elif summary.status is RunStatus.RUNNING:
        lines.append(f"interrupted; continue with: skillweave resume {summary.run_id}{on}")
    return "\n".join(lines)


def echo_summary(summary: RunSummary, backend: str = "local") -> None:
    """Print the summary on stdout: coloured and wrapped to its width on a terminal."""
    import shutil

    import click

    from orchestrator.cli.colour import colour_wanted

    use = colour_wanted(sys.stdout)
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    click.echo(render_summary(summary, backend, colour=use, width=width), color=use)


SPEC_WARNINGS_SAID = 3  # after a run, the plan's first warnings, in full; the report lists them all


def spec_warnings_said(report: RunReport) -> str:
    """After a run: the spec was read with warnings (the run did what the plan says, which may be
    less than the spec says): how many, the first few as `file:line: message` (those that doubt the
    plan's structure first: a skill named that no step runs...), where the rest are."""
    from orchestrator.plan.doubts import DOUBT_CODES

    warnings = sorted(report.spec_warnings, key=lambda d: d.code not in DOUBT_CODES)  # doubts first, else in order
    head = (f"spec: read with {count(len(warnings), 'warning')}; the run did what the plan says, which may be less "
            f"than the spec says (all of them: the report, or `skillweave validate {report.spec_path or 'SPEC'}`):")
    more = len(warnings) - SPEC_WARNINGS_SAID
    return "\n".join([head, *(f"  {d.where}: {d.message}" for d in warnings[:SPEC_WARNINGS_SAID]),
                      *([f"  ... and {more} more"] if more > 0 else [])])


def final_outputs(summary: RunSummary) -> str:
    done = [s for s in summary.steps if s.status in (StepStatus.SUCCEEDED, StepStatus.DEFAULTED)]
    if not done:
        return ""
    last = done[-1].step_id
    text = json.dumps(summary.outputs.get(last), indent=2, ensure_ascii=False, default=str)
    if len(text) > 2000:
        text = text[:2000] + "\n..."
    return f"output of {last}:\n{text}"


class RunFiles:
    """Where a run's files are, and its report (when it could be built)."""

    def __init__(self, run_dir: Path, report: RunReport | None, report_path: Path | None, problem: str = "") -> None:
        self.run_dir = run_dir
        self.report = report
        self.report_path = report_path
        self.problem = problem  # why the report could not be written
        folder = run_dir / "artifacts"
        self.artifacts = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def save_report(run_id: str, settings: Settings) -> RunFiles:
    """Write `<run_dir>/report.md`; a failure to do so is reported, never fatal to the run's exit code."""
    from orchestrator.journal.store import RUNS_DIR
    from orchestrator.report import write_report

    run_dir = Path(settings.state_dir) / RUNS_DIR / run_id
    try:
        report, path = write_report(run_id, settings, say=say)
    except SkillweaveError as exc:
        return RunFiles(run_dir, None, None, render_error(exc))
    except Exception as exc:  # the CLI edge: a report that cannot be written must not hide the run's result
        return RunFiles(run_dir, None, None, f"{type(exc).__name__}: {exc}")
    return RunFiles(path.parent, report, path)


def shown(path: Path) -> str:
    """`path` relative to the working directory when it is below it, else absolute."""
    absolute = path.absolute()
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def _short_diff(diff: str, limit: int = DIFF_LINES) -> list[str]:
    lines = diff.rstrip("\n").splitlines()
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... {len(lines) - limit} more lines"]


def render_regenerations(report: RunReport, run_dir: Path) -> list[str]:
    """Each regeneration: what failed, then the new version's diff (short), or why there is none."""
    lines: list[str] = []
    for step in report.steps:
        failures = {(f.item, f.attempt): f for f in step.failed_attempts}
        for g in step.regenerations:
            where = step.step_id + (f"[{g.item}]" if g.item is not None else "")
            failed = failures.get((g.item, g.attempt))
            cause = "the validator's findings" if g.feedback else (failed.message if failed is not None else "a failure")
            after = f" after attempt {g.attempt}" if g.attempt else ""
            if g.code_path is None:
                why = (g.rejected or "no reason given").strip().splitlines()[0]
                lines.append(f"regeneration of {where}{after} refused: {why}")
                continue
            lines.append(f"regeneration of {where}{after} ({cause}): new version {shown(run_dir / g.code_path)}")
            lines.extend(f"  {line}".rstrip() for line in _short_diff(g.diff))
        reason = step.regeneration_unavailable
        if reason and not step.regenerations:
            said = reason if reason.startswith("regeneration") else f"regeneration is unavailable: {reason}"
            lines.append(f"{step.step_id}: {said}")
    return lines


def render_files(files: RunFiles) -> list[str]:
    """Where the report and the artifacts are."""
    lines: list[str] = []
    if files.report_path is not None:
        lines.append(f"report:    {shown(files.report_path)}")
    else:
        lines.append(f"report:    not written ({files.problem})")
    for path in files.artifacts[:ARTIFACTS_LISTED]:
        lines.append(f"artifacts: {shown(path)}")
    if len(files.artifacts) > ARTIFACTS_LISTED:
        more = len(files.artifacts) - ARTIFACTS_LISTED
        lines.append(f"artifacts: ... {more} more in {shown(files.run_dir / 'artifacts')}")
    return lines
