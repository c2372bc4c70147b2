"""Rendering a report: Markdown for people, JSON with pinned keys, self-contained HTML, Mermaid."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from orchestrator.plan.model import ApprovalPolicy, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, Fallback, FallbackAction
from orchestrator.report import build_report, render_report
from orchestrator.report.mermaid import node_id, render_mermaid
from orchestrator.report.render_md import when
from orchestrator.runner import StepFailure, StepOutcome
from orchestrator.testing import Fail, FakeRegenerator, FakeRunner, Hang, fake_plan

COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}

RUN_KEYS = [
    "format", "run_id", "plan_name", "plan_sha256", "spec_path", "status", "created_at", "started_at",
    "finished_at", "error", "limit", "awaiting", "inputs", "outputs", "sessions", "metrics", "steps", "feedback",
    "compensations", "mermaid", "notes", "degraded", "artifacts", "last_event_at", "spec_warnings",
]
STEP_KEYS = [
    "step_id", "name", "skill", "kind", "depends_on", "status", "message", "error_class", "metrics",
    "failed_attempts", "retries", "regenerations", "regeneration_unavailable", "violations", "fallbacks",
    "approval", "skipped_items", "interrupted_attempts", "ready_at", "started_at", "finished_at", "feedback_to",
    "attempts",
]
RUN_METRIC_KEYS = [
    "steps", "succeeded", "failed", "skipped", "attempts", "retries", "regenerations", "retry_burden",
    "duration_s", "active_s", "queue_delay_total_s", "queue_delay_mean_s", "queue_delay_max_s",
    "handoff_passed", "handoff_failed", "handoff_accuracy", "tokens", "interrupted", "cancelled", "not_run",
]
STEP_METRIC_KEYS = [
    "attempts", "retries", "regenerations", "items", "items_done", "duration_s", "run_time_s", "queue_delay_s",
    "handoff_passed", "handoff_failed", "tokens", "interrupted",
]


def failing_steps() -> list[PlanStep]:
    """fetch defaults after a failure, make is regenerated once, then write fails for good."""
    return [
        PlanStep(
            id="fetch-docs", name="Fetch", skill="s",
            policy=StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"docs": ""})),
        ),
        PlanStep(id="make", name="Make", skill="s", output_schema=COUNT, policy=StepPolicy(regenerations=1)),
        PlanStep(id="write", name="Write | page", skill="s", depends_on=("fetch-docs", "make")),
        PlanStep(id="after", name="After", skill="s", depends_on=("write",)),
    ]


@pytest.fixture
async def failed_run(execute) -> str:
    crash = StepFailure(error_class=ErrorClass.CODE_ERROR, message="ValueError: bad page", kind="exception")
    runner = FakeRunner(
        {
            "fetch-docs": [Fail(ErrorClass.INVALID_INPUT, "no such module")],
            "make": [{"n": "x"}, {"n": 1}],
            "write": [StepOutcome(failure=crash, stderr_tail="Traceback (most recent call last):\nValueError: bad page\n")],
        }
    )
    return await execute(fake_plan(failing_steps()), runner, regenerator=FakeRegenerator(["n = 1\n"]))


async def test_the_markdown_report_leads_with_status_error_and_the_step_table(failed_run, settings) -> None:
    text = render_report(build_report(failed_run, settings), "md")
    lines = text.splitlines()
    assert lines[0] == f"# Run {failed_run}: FAILED"
    assert "> **Error** at `write/1`: step write failed: ValueError: bad page" in lines
    table = text.index("## Steps")
    assert text.index("> **Error**") < table < text.index("## Graph") < text.index("## Step details")
    assert "| `write` Write \\| page | failed | 1 | 0 | 0 |" in text
    assert "| `after` After | not_run | 0 | 0 | 0 | - | - |" in text  # never reached
    assert "| `fetch-docs` Fetch | defaulted |" in text and "fallback default: no such module" in text


async def test_the_markdown_report_shows_stderr_tails_and_regeneration_diffs(failed_run, settings) -> None:
    text = render_report(build_report(failed_run, settings), "md")
    assert "ValueError: bad page" in text.split("### `write`")[1]
    assert "stderr (tail, `logs/write-1.stderr`)" in text
    make = text.split("### `make` Make: succeeded")[1].split("\n### ")[0]
    assert "```diff\n" in make and "+n = 1" in make
    assert "**default**" in text.split("### `fetch-docs`")[1]
    assert "retry burden (retries per attempt) | 0.000" in text
    assert "handoff accuracy | 50.0%" in text


async def test_the_json_report_keeps_its_documented_keys(failed_run, settings) -> None:
    data = json.loads(render_report(build_report(failed_run, settings), "json"))
    assert list(data) == RUN_KEYS
    assert data["format"] == 1
    assert list(data["steps"][0]) == STEP_KEYS
    assert list(data["metrics"]) == RUN_METRIC_KEYS
    assert list(data["steps"][0]["metrics"]) == STEP_METRIC_KEYS
    assert list(data["metrics"]["tokens"]) == ["input", "output", "cache_read", "cache_write", "total"]
    assert data["steps"][2]["failed_attempts"][0]["stderr_tail"].endswith("ValueError: bad page\n")
    assert data["error"]["where"] == "write/1"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.mermaid = ""
        self._in_mermaid = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_mermaid = tag == "pre" and dict(attrs).get("class") == "mermaid"

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in_mermaid = False

    def handle_data(self, data: str) -> None:
        if self._in_mermaid:
            self.mermaid += data


async def test_the_html_report_is_self_contained_with_the_graph_as_text(failed_run, settings) -> None:
    report = build_report(failed_run, settings)
    page = render_report(report, "html")
    parser = _Tags()
    parser.feed(page)
    names = [t for t, _ in parser.tags]
    assert "script" not in names and "link" not in names and "img" not in names
    assert not any(v and v.startswith(("http:", "https:", "//")) for _, attrs in parser.tags for v in attrs.values())
    assert parser.mermaid == report.mermaid.rstrip()
    assert "classDef failed" in parser.mermaid
    assert "ValueError: bad page" in page and "Write | page" in page
    assert '<span class="add">+n = 1</span>' in page


def test_the_graph_colours_each_step_by_its_status() -> None:
    plan = fake_plan(failing_steps())
    text = render_mermaid(plan, {"fetch-docs": "defaulted", "make": "succeeded", "write": "failed"})
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    assert node_id("fetch-docs") == "s_fetch_docs"
    assert "    s_fetch_docs --> s_write" in lines and "    s_write --> s_after" in lines
    assert "    class s_after pending" in lines
    assert "    class s_write failed" in lines and "    class s_fetch_docs defaulted" in lines
    assert any(line.startswith("    classDef failed fill:#f8d7da") for line in lines)
    assert '    s_write["write: Write | page<br/>failed"]' in lines


async def test_an_unknown_format_is_refused(failed_run, settings) -> None:
    with pytest.raises(ValueError, match="md, json, html"):
        render_report(build_report(failed_run, settings), "pdf")  # type: ignore[arg-type]


async def test_write_report_saves_the_markdown_report_in_the_run_directory(failed_run, settings) -> None:
    from orchestrator.report import write_report

    report, path = write_report(failed_run, settings)
    assert path == settings.state_dir / "runs" / failed_run / "report.md"
    assert path.read_text(encoding="utf-8") == render_report(report, "md")
    assert report == build_report(failed_run, settings)


def test_step_ids_that_come_out_alike_get_distinct_nodes() -> None:
    plan = fake_plan(
        [
            PlanStep(id="fetch-docs", name="A", skill="s"),
            PlanStep(id="fetch_docs", name="B", skill="s", depends_on=("fetch-docs",)),
            PlanStep(id="fetch_dócs", name="C", skill="s", depends_on=("fetch_docs",)),
        ]
    )
    lines = render_mermaid(plan, {}).splitlines()
    assert '    s_fetch_docs["fetch-docs: A<br/>pending"]' in lines
    assert '    s_fetch_docs_2["fetch_docs: B<br/>pending"]' in lines
    assert '    s_fetch_d_cs["fetch_dócs: C<br/>pending"]' in lines
    assert "    s_fetch_docs --> s_fetch_docs_2" in lines and "    s_fetch_docs_2 --> s_fetch_d_cs" in lines
    assert all(line.isascii() for line in lines if "[" not in line)


async def test_a_run_that_ends_counts_its_cancelled_and_never_reached_steps_apart_from_failed(
    execute, settings
) -> None:
    plan = fake_plan([PlanStep(id="a", name="A", skill="s"), PlanStep(id="b", name="B", skill="s"),
                      PlanStep(id="c", name="C", skill="s", depends_on=("a",))])
    run_id = await execute(plan, FakeRunner({"a": [Fail(message="no")], "b": [Hang()]}))
    report = build_report(run_id, settings)
    assert [s.status for s in report.steps] == ["failed", "cancelled", "not_run"]
    m = report.metrics
    assert (m.steps, m.succeeded, m.failed, m.skipped, m.cancelled, m.not_run) == (3, 0, 1, 0, 1, 1)
    assert "1 failed, 0 skipped, 1 cancelled, 1 not run;" in render_report(report, "md")
    assert "1 failed, 0 skipped, 1 cancelled, 1 not run;" in render_report(report, "html")


async def test_a_run_not_finished_says_how_long_since_it_started_instead_of_a_duration(
    execute, settings, clock
) -> None:
    gated = fake_plan([PlanStep(id="a", name="A", skill="s"),
                       PlanStep(id="b", name="B", skill="s", depends_on=("a",),
                                policy=StepPolicy(approval=ApprovalPolicy()))])
    run_id = await execute(gated, FakeRunner())
    report = build_report(run_id, settings)
    assert report.status == "paused" and report.last_event_at is not None
    later = report.last_event_at + 90
    from orchestrator.report.render_md import timing

    said = timing(report, now=later)
    assert said.startswith(f"started {when(report.started_at)}; not finished (paused): ")
    assert "since it started" in said and "(1m 30s before this report)" in said
    text = render_report(report, "md")
    assert "duration 0.00s" not in text and "up to the last event, not finished" in text
