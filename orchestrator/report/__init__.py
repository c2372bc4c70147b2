"""Reports and metrics of runs, built from the journal only.

    report = build_report(run_id, settings)         # RunReport; NotFoundError for an unknown run
    text = render_report(report, "md")              # "md" | "json" | "html"
    report, path = write_report(run_id, settings)   # and saved as <run_dir>/report.md
    history = build_history(settings, limit=20)     # History: the latest runs and their metrics
    text = render_history(history, "text")          # "text" | "json"
    trends = build_trends(settings, by="day", since=ts, plan="name")   # Trends: the metrics per day
    text = render_trends(trends, "text")            # "text" (with sparklines) | "json"

The JSON keys of `RunReport` and `History` are a stable interface, listed in
`orchestrator.report.model`; the metric definitions are in
`orchestrator.report.metrics`. `skillweave runs` and `skillweave runs show`
(`orchestrator.cli.runs_cmd`) and `skillweave test` use this facade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from orchestrator.config import Settings
from orchestrator.hints import HintWording, plain
from orchestrator.report.detail import build_run_report
from orchestrator.report.metrics import history_metrics, listing, trend_buckets
from orchestrator.report.model import (
    REPORT_FORMAT,
    History,
    HistoryMetrics,
    RunListing,
    RunMetrics,
    RunReport,
    StepMetrics,
    StepReport,
    Trends,
)
from orchestrator.report.source import (
    has_journal,
    open_journal,
    read_run,
    read_summaries,
    read_summaries_since,
)

ReportFormat = Literal["md", "json", "html"]
REPORT_FORMATS: tuple[ReportFormat, ...] = ("md", "json", "html")
HistoryFormat = Literal["text", "json"]

__all__ = [
    "REPORT_FORMAT",
    "REPORT_FORMATS",
    "History",
    "HistoryFormat",
    "HistoryMetrics",
    "ReportFormat",
    "RunListing",
    "RunMetrics",
    "RunReport",
    "StepMetrics",
    "StepReport",
    "Trends",
    "build_history",
    "build_report",
    "build_trends",
    "render_history",
    "render_report",
    "render_trends",
    "write_report",
]


def build_report(run_id: str, settings: Settings) -> RunReport:
    """The report of one run of `settings.state_dir`. NotFoundError naming the run when unknown."""
    with open_journal(settings) as journal:
        return build_run_report(read_run(journal, run_id))


def write_report(
    run_id: str, settings: Settings, fmt: ReportFormat = "md", *, say: HintWording = plain
) -> tuple[RunReport, Path]:
    """Build the run's report and save it in its run directory as `report.<fmt>`; (report, path).
    `say` words what to do next (approve, resume) for the front end that asked."""
    with open_journal(settings) as journal:
        source = read_run(journal, run_id)
    report = build_run_report(source)
    path = source.run_dir / f"report.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(report, fmt, say=say), encoding="utf-8")
    return report, path


def build_history(settings: Settings, limit: int = 20) -> History:
    """The latest `limit` runs, newest first, with the metrics across them (none: empty)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    summaries = []
    if has_journal(settings.state_dir):
        with open_journal(settings) as journal:
            summaries = read_summaries(journal, limit)
    return History(
        state_dir=str(settings.state_dir),
        limit=limit,
        runs=tuple(listing(s) for s in summaries),
        metrics=history_metrics(summaries),
    )


def render_report(report: RunReport, fmt: ReportFormat, *, say: HintWording = plain) -> str:
    """The report as text; `say` words what to do next (the CLI: commands; default: plain words)."""
    if fmt == "json":
        return report.model_dump_json(indent=2) + "\n"
    if fmt == "md":
        from orchestrator.report.render_md import render_markdown

        return render_markdown(report, say)
    if fmt == "html":
        from orchestrator.report.render_html import render_html

        return render_html(report, say)
    raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(REPORT_FORMATS)}")


def render_history(history: History, fmt: HistoryFormat) -> str:
    if fmt == "json":
        return history.model_dump_json(indent=2) + "\n"
    if fmt == "text":
        from orchestrator.report.render_md import render_history_text

        return render_history_text(history)
    raise ValueError(f"unknown history format {fmt!r}; choose text or json")


def build_trends(settings: Settings, *, by: str = "day", since: float | None = None, plan: str | None = None) -> Trends:
    """The cross-run metrics per UTC day or per plan version, over the runs created since
    `since` (epoch seconds; None: all) of plan `plan` (None: every plan)."""
    summaries = []
    if has_journal(settings.state_dir):
        with open_journal(settings) as journal:
            summaries = read_summaries_since(journal, since, plan)
    return Trends(
        state_dir=str(settings.state_dir),
        by=by,
        plan=plan,
        since=since,
        buckets=trend_buckets(summaries, by),
        metrics=history_metrics(summaries),
    )


def render_trends(trends: Trends, fmt: HistoryFormat) -> str:
    if fmt == "json":
        return trends.model_dump_json(indent=2) + "\n"
    if fmt == "text":
        from orchestrator.report.render_trends import render_trends_text

        return render_trends_text(trends)
    raise ValueError(f"unknown trends format {fmt!r}; choose text or json")
