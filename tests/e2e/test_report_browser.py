"""The HTML report of a real run, opened in a real browser (headless Chromium) with no network.

One real run of a YAML spec of sandboxed script steps: a `for each` over three items,
a step that times out once and succeeds after a retry wait, an approval gate (the run
pauses, is approved from another process, and resumed), a step that fails but lets the
run go on (`on_error: continue`), a step that fails the run, and a step never reached.
`skillweave runs show --format html -o` writes the report; Chromium (Debian's package,
driven by Playwright) loads it from the file, offline, with every request recorded, and
the test reads the rendered page: the graph's nodes and their fill colours, the
timeline's bars, no console error. The screenshots are kept in tests/output/report-browser/
(report.png, the whole page; report-top.png, down to the timeline: the README's
docs/report.png is one of these).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from orchestrator.report.graph_svg import palette

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parents[1] / "output" / "report-browser"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

SKILL = """\
---
name: qa-show
description: Test skill. Echoes value + 1; sleeps past its timeout on attempt 1 in mode slow_first; fails in mode fail.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "20"
---

Reads `{"value": n, "mode": ...}` and writes `{"value": n + 1}`.
"""

SCRIPT = """\
import json, os, sys, time
d = json.load(sys.stdin)
mode = d.get("mode", "ok")
if mode == "fail":
    print("qa-show: the publisher refused <the page> & gave up", file=sys.stderr)
    sys.exit(1)
if mode == "slow_first" and os.environ.get("SKILLWEAVE_ATTEMPT") == "1":
    time.sleep(30)
json.dump({"value": int(d.get("value") or 0) + 1}, sys.stdout)
"""

SPEC = """\
name: report-demo
description: a run with something to see in every part of the report
inputs:
  items: {type: array}
steps:
  - id: fetch
    name: Fetch every page
    skill: qa-show
    for_each: "n in inputs.items"
    input: {value: "{{ n }}"}
  - id: flaky
    name: Call a slow service
    skill: qa-show
    depends_on: [fetch]
    input: {mode: slow_first, value: 1}
    timeout: 1s
    retry: {max_attempts: 3, backoff: [0.4s]}
  - id: review
    name: Review the draft
    skill: qa-show
    depends_on: [flaky]
    input: {value: 2}
    approval: true
  - id: lint
    name: Lint the draft
    skill: qa-show
    depends_on: [flaky]
    input: {mode: fail}
    on_error: continue
  - id: publish
    name: Publish
    skill: qa-show
    depends_on: [review, lint]
    input: {mode: fail}
  - id: announce
    name: Announce
    skill: qa-show
    depends_on: [publish]
    input: {value: 3}
"""

EXPECTED = {
    "fetch": "succeeded", "flaky": "succeeded", "review": "succeeded", "lint": "continued",
    "publish": "failed", "announce": "not_run",
}


def _sw(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd, env={**base, **(env or {})},
                          check=False)


@dataclass(frozen=True)
class Demo:
    folder: Path
    run_id: str
    page: Path


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    folder = tmp_path_factory.mktemp("report-browser")
    skill = folder / "skills" / "qa-show"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    (folder / "demo.yaml").write_text(SPEC)
    paused = _sw("run", "demo.yaml", "--input", "items=[1, 2, 3]", "--json", "--state-dir", "state", cwd=folder)
    assert paused.returncode == 3, paused.stderr
    run_id = json.loads(paused.stdout)["run_id"]
    approved = _sw("approve", run_id, "review", "--comment", "looks <fine>", "--state-dir", "state", cwd=folder)
    assert approved.returncode == 0, approved.stderr
    resumed = _sw("resume", run_id, "--json", "--state-dir", "state", cwd=folder)
    assert resumed.returncode == 1, resumed.stderr
    steps = {s["step_id"]: s["status"] for s in json.loads(resumed.stdout)["steps"]}
    assert steps == EXPECTED
    page = folder / "report.html"
    written = _sw("runs", "show", run_id, "--format", "html", "-o", page, "--state-dir", "state", cwd=folder)
    assert written.returncode == 0, written.stderr
    return Demo(folder, run_id, page)


@dataclass
class Loaded:
    page: Any  # playwright's Page
    requests: list[str]
    problems: list[str]


@pytest.fixture(scope="module")
def browser_page(demo: Demo, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Loaded]:
    if not CHROMIUM.exists() or shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("CI has no /usr/bin/chromium: make install-test installs it (scripts/install-system-packages.sh)")
        pytest.skip("no /usr/bin/chromium (make install-test installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, offline=True,
            viewport={"width": 1280, "height": 900}, timeout=90_000,
        )
        try:
            loaded = Loaded(context.new_page(), [], [])

            own = demo.page.as_uri()

            def only_the_file(route: Any) -> None:
                """The report's own file loads; whatever else it would fetch is refused (and recorded)."""
                if route.request.url == own:
                    route.continue_()
                else:
                    route.abort()

            context.route("**/*", only_the_file)
            loaded.page.on("request", lambda request: loaded.requests.append(request.url))
            loaded.page.on("console", lambda m: loaded.problems.append(f"console {m.type}: {m.text}")
                           if m.type in ("error", "warning") else None)
            loaded.page.on("pageerror", lambda exc: loaded.problems.append(f"page error: {exc}"))
            loaded.page.goto(demo.page.as_uri(), wait_until="load", timeout=60_000)
            OUTPUT.mkdir(parents=True, exist_ok=True)
            loaded.page.screenshot(path=str(OUTPUT / "report.png"), full_page=True)
            timeline_end = loaded.page.locator("svg.timeline").bounding_box()
            bottom = 1300 if timeline_end is None else timeline_end["y"] + timeline_end["height"] + 40
            loaded.page.screenshot(path=str(OUTPUT / "report-top.png"), full_page=True,
                                   clip={"x": 0, "y": 0, "width": 1280, "height": bottom})
            yield loaded
        finally:
            context.close()


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return f"rgb({int(h[0:2], 16)}, {int(h[2:4], 16)}, {int(h[4:6], 16)})"


def test_the_page_loads_offline_without_fetching_anything_or_logging_an_error(
    demo: Demo, browser_page: Loaded
) -> None:
    assert browser_page.requests == [demo.page.as_uri()], "the report fetched something besides itself"
    assert browser_page.problems == []
    assert browser_page.page.title() == f"skillweave: run {demo.run_id}: failed"
    assert (OUTPUT / "report.png").stat().st_size > 10_000


def test_the_graph_draws_every_step_filled_with_the_colour_of_its_status(browser_page: Loaded) -> None:
    page = browser_page.page
    nodes = page.locator("svg.graph g.node")
    assert nodes.count() == len(EXPECTED)
    seen = {}
    for i in range(nodes.count()):
        node = nodes.nth(i)
        assert node.is_visible()
        step, status = node.get_attribute("data-step"), node.get_attribute("data-status")
        fill = node.locator("rect").evaluate("e => getComputedStyle(e).fill")
        assert fill == _rgb(palette(str(status))["fill"]), f"{step} ({status}) filled {fill}"
        box = node.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 40
        seen[step] = status
    assert seen == EXPECTED
    # five dependencies, each an edge; distinct statuses get distinct colours
    assert page.locator("svg.graph path.edge").count() == 6
    assert len({palette(s)["fill"] for s in EXPECTED.values()}) == 4
    # the node's tooltip has its figures; clicking it goes to the step's story
    flaky = page.locator('svg.graph g.node[data-step="flaky"]')
    assert "attempts 2, retries 1" in str(flaky.locator("title").text_content())
    page.locator('svg.graph a.node-link:has(g[data-step="publish"])').click()
    assert page.evaluate("location.hash") == "#step-publish"
    assert page.locator("#step-publish").is_visible()


def test_the_timeline_has_the_attempts_the_retry_wait_and_the_approval_pause(browser_page: Loaded) -> None:
    page = browser_page.page
    timeline = page.locator("svg.timeline")
    assert timeline.is_visible()
    rows = [timeline.locator("g.row").nth(i).get_attribute("data-step") for i in range(timeline.locator("g.row").count())]
    assert rows == ["fetch", "flaky", "review", "lint", "publish"]  # announce never started
    attempts = timeline.locator("rect.bar.attempt")
    # 3 items + 2 flaky attempts + review + lint + publish
    assert attempts.count() == 8
    assert timeline.locator("rect.bar.attempt.failed").count() == 3  # flaky's first (timeout), lint, publish
    for kind in ("wait", "approval"):
        bar = timeline.locator(f"rect.bar.{kind}")
        assert bar.count() == 1
        box = bar.bounding_box()
        assert box is not None and box["width"] >= 2
    assert "approval approved" in str(timeline.locator("rect.bar.approval title").text_content())
    # the three items ran side by side or one after another; either way each is a visible bar
    for i in range(attempts.count()):
        assert attempts.nth(i).is_visible()


def test_the_failing_attempts_show_their_stderr_escaped(browser_page: Loaded) -> None:
    story = browser_page.page.locator("#details").locator("xpath=following-sibling::*").all_inner_texts()
    text = "\n".join(story)
    assert "qa-show: the publisher refused <the page> & gave up" in text
    assert "looks <fine>" in text  # the approval comment, as written


def test_open_writes_the_html_report_and_hands_it_to_the_browser(demo: Demo, tmp_path: Path) -> None:
    seen = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {seen}\n')
    browser.chmod(0o755)
    opened = _sw("runs", "show", demo.run_id, "--open", "--state-dir", "state", cwd=demo.folder,
                 env={"BROWSER": f"{browser} %s"})
    assert opened.returncode == 0, opened.stderr
    report = demo.folder / "state" / "runs" / demo.run_id / "report.html"
    assert seen.read_text().strip() == report.resolve().as_uri()
    assert report.read_text().startswith("<!DOCTYPE html>")

    nowhere = _sw("runs", "show", demo.run_id, "--open", "-o", tmp_path / "r.html", "--state-dir", "state",
                  cwd=demo.folder, env={"BROWSER": str(tmp_path / "no-such-browser")})
    assert nowhere.returncode == 0, nowhere.stderr
    assert "no web browser could be opened here" in nowhere.stderr and "Traceback" not in nowhere.stderr
    assert (tmp_path / "r.html").is_file()

    wrong = _sw("runs", "show", demo.run_id, "--open", "--format", "md", "--state-dir", "state", cwd=demo.folder)
    assert wrong.returncode == 2 and "--open shows the HTML report" in wrong.stderr
