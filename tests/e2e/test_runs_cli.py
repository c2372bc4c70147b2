"""`skillweave runs` and `skillweave runs show` on a state dir made by real `skillweave run plan.json`.

Two real runs of a saved plan of sandboxed script steps: one succeeds, one fails
in step 1 with a Python traceback. The history and the reports are read back
through the real CLI, exit codes included.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from counter_workflow import skillweave, write_workflow

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Runs:
    folder: Path
    state: Path
    ok: str
    failed: str


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    folder = tmp_path_factory.mktemp("runs")
    spec = write_workflow(folder, ["Happy path: Inputs: value=1; Expect: succeeded"])
    planned = skillweave("plan", spec, "--format", "json", "-o", folder / "plan.json", cwd=folder)
    assert planned.returncode == 0, planned.stderr
    state = folder / "state"
    ok = skillweave("run", "plan.json", "--input", "value=1", "--json", "--state-dir", state, cwd=folder)
    assert ok.returncode == 0, ok.stderr
    failed = skillweave("run", "plan.json", "--input", "value=-5", "--json", "--state-dir", state, cwd=folder)
    assert failed.returncode == 1, failed.stderr
    return Runs(folder, state, json.loads(ok.stdout)["run_id"], json.loads(failed.stdout)["run_id"])


def test_runs_lists_the_runs_newest_first_with_metrics_across_them(runs: Runs) -> None:
    listed = skillweave("runs", "--json", "--state-dir", runs.state, cwd=runs.folder)
    assert listed.returncode == 0, listed.stderr
    history = json.loads(listed.stdout)
    assert [(r["run_id"], r["status"]) for r in history["runs"]] == [(runs.failed, "failed"), (runs.ok, "succeeded")]
    m = history["metrics"]
    assert (m["runs"], m["finished"], m["succeeded"], m["success_rate"]) == (2, 2, 1, 0.5)
    assert (m["attempts"], m["retries"], m["retry_burden"]) == (3, 0, 0.0)  # 2 steps, then 1 failing step
    assert m["queue_delay_samples"] == 3 and m["queue_delay_p95_s"] is not None
    assert history["runs"][0]["error"].startswith("step-1/1: ")

    text = skillweave("runs", "--state-dir", runs.state, cwd=runs.folder)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[1].startswith(f"{runs.failed}  failed     counter")
    assert "success rate 50.0% (1/2)" in text.stdout


def test_runs_show_explains_a_failed_run_with_its_traceback(runs: Runs) -> None:
    shown = skillweave("runs", "show", runs.failed, "--state-dir", runs.state, cwd=runs.folder)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert text.startswith(f"# Run {runs.failed}: FAILED\n")
    assert "> **Error** at `step-1/1`:" in text and "ValueError: negative value: -5" in text
    assert "| `step-1` First increment | failed | 1 | 0 | 0 |" in text
    detail = text.split("### `step-1` First increment: failed")[1]
    assert 'raise ValueError(f"negative value: {value}")' in detail  # the stderr tail
    assert "```mermaid\nflowchart TD\n" in text and "class s_step_1 failed" in text


def test_runs_show_writes_json_and_a_self_contained_html_file(runs: Runs) -> None:
    as_json = skillweave("runs", "show", runs.ok, "--format", "json", "--state-dir", runs.state, cwd=runs.folder)
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert (report["status"], report["metrics"]["attempts"], report["metrics"]["handoff_failed"]) == ("succeeded", 2, 0)
    assert [s["status"] for s in report["steps"]] == ["succeeded", "succeeded"]
    assert report["outputs"]["step-2"] == {"value": 3}  # step 2 adds one to step 1's value, not to the input

    page = runs.folder / "report.html"
    written = skillweave("runs", "--state-dir", runs.state, "show", runs.failed, "-f", "html", "-o", page, cwd=runs.folder)
    assert written.returncode == 0, written.stderr
    tags: list[str] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            tags.append(tag)

    html = page.read_text()
    Collect().feed(html)
    assert "script" not in tags and "link" not in tags
    assert '<pre class="mermaid">flowchart TD' in html and "negative value: -5" in html


def test_an_unknown_run_or_an_empty_state_dir_exits_2_naming_it(runs: Runs) -> None:
    unknown = skillweave("runs", "show", "20990101-000000-abcdef", "--state-dir", runs.state, cwd=runs.folder)
    assert unknown.returncode == 2
    assert "no run '20990101-000000-abcdef'" in unknown.stderr and "Traceback" not in unknown.stderr
    empty = runs.folder / "empty"
    missing = skillweave("runs", "show", runs.ok, "--state-dir", empty, cwd=runs.folder)
    assert missing.returncode == 2 and f"no runs in {empty}" in missing.stderr
    listed = skillweave("runs", "--state-dir", empty, cwd=runs.folder)
    assert (listed.returncode, listed.stdout) == (0, f"no runs in {empty}\n")
    assert not empty.exists()


def test_runs_stats_gives_the_four_metrics_per_day_and_per_plan_version(runs: Runs) -> None:
    as_json = skillweave("runs", "--stats", "--since", "7d", "--json", "--state-dir", runs.state, cwd=runs.folder)
    assert as_json.returncode == 0, as_json.stderr
    trends = json.loads(as_json.stdout)
    assert list(trends) == ["format", "state_dir", "by", "plan", "since", "buckets", "metrics"]
    (day,) = trends["buckets"]
    assert list(day) == ["key", "plan_name", "plan_sha256", "first_at", "last_at", "metrics"]
    m = day["metrics"]
    assert (m["runs"], m["success_rate"], m["retry_burden"], m["handoff_accuracy"]) == (2, 0.5, 0.0, 1.0)
    assert m["queue_delay_mean_s"] is not None and trends["metrics"] == m

    by_plan = skillweave("runs", "--stats", "--by", "plan-version", "--plan", "counter", "--state-dir", runs.state,
                         cwd=runs.folder)
    assert by_plan.returncode == 0, by_plan.stderr
    lines = by_plan.stdout.splitlines()
    assert lines[0] == "runs of plan counter, by plan version"
    assert lines[2].split() == ["plan", "version", "runs", "finished", "success", "retry", "burden", "queue", "mean",
                                "queue", "p95", "handoffs"]
    assert lines[3].split()[1:4] == ["2", "2", "50.0%"]
    assert any(line.startswith("success rate") and "▅" in line for line in lines)

    other = skillweave("runs", "--stats", "--plan", "no-such-plan", "--state-dir", runs.state, cwd=runs.folder)
    assert (other.returncode, other.stdout) == (0, f"no runs of plan no-such-plan in {runs.state}\n")
    stray = skillweave("runs", "--since", "7d", "--state-dir", runs.state, cwd=runs.folder)
    assert stray.returncode == 2 and "--since goes with --stats" in stray.stderr
