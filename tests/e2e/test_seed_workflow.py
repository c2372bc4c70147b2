"""The seed's Fetch-Analyze-Document workflow, its Testing Plan scenarios run for real.

Each test is one `skillweave run specs/fetch-analyze-document.md` process with
its own state directory: step 1 through the bundled docs MCP server (stdio),
steps 2-4 in the sandbox. No key, no network: without an LLM, regeneration is
unavailable and the spec's fallbacks apply. Assertions read the `--json`
summary and the run's report (built from the journal).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.report import RunReport, build_report

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
FIXTURE_SKILLS = ROOT / "tests" / "fixtures" / "seed" / "skills"


@dataclass(frozen=True)
class SeedRun:
    process: subprocess.CompletedProcess[str]
    summary: dict[str, Any]
    report: RunReport

    @property
    def statuses(self) -> dict[str, str]:
        return {s["step_id"]: s["status"] for s in self.summary["steps"]}


def run_seed(tmp_path: Path, module: str, *extra: str | Path, spec: Path = SEED, **env: str) -> SeedRun:
    """`skillweave run SPEC --input module_name=MODULE --json`, with no key and no SKILLWEAVE_* from outside."""
    state = tmp_path / "state"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [
        str(Path(sys.executable).with_name("skillweave")), "run", str(spec), "--input", f"module_name={module}",
        "--state-dir", str(state), "--json", *map(str, extra),
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=90, cwd=tmp_path, env={**clean, **env}, check=False
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    try:
        summary = json.loads(done.stdout)  # one JSON document on stdout, whatever the ending
    except ValueError:
        pytest.fail(f"stdout is not one JSON document (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
    return SeedRun(done, summary, build_report(summary["run_id"], Settings(state_dir=state)))


def test_happy_path_documents_a_module_with_docstrings_in_four_steps(tmp_path: Path) -> None:
    run = run_seed(tmp_path, "json")

    assert run.process.returncode == 0, run.process.stderr
    assert run.summary["status"] == "succeeded"
    assert run.statuses == dict.fromkeys(("step-1", "step-2", "step-3", "step-4"), "succeeded")
    outputs = run.summary["outputs"]
    assert outputs["step-1"]["docs_found"] is True
    assert outputs["step-4"] == {
        "validation_result": True, "issues": [], "title": "json", "sections": ["Overview", "Functions", "Classes"],
    }  # fmt: skip
    # the page survives the sandbox's work directory, kept with the run
    run_dir = Path(run.summary["run_dir"])
    page = run_dir / "artifacts" / "step-3" / "docs" / "json.md"
    assert run.summary["artifacts"] == [str(page)]
    text = page.read_text(encoding="utf-8")
    assert text == outputs["step-3"]["generated_docs"]
    functions = [f["name"] for f in outputs["step-2"]["functions"]]
    assert {"dump", "dumps", "load", "loads"} <= set(functions)
    assert all(f"`{name}(" in text for name in functions), text
    report = Path(run.summary["report"])
    assert report == run_dir / "report.md"
    assert report.read_text(encoding="utf-8").startswith(f"# Run {run.summary['run_id']}: SUCCEEDED")
    assert (run.report.metrics.succeeded, run.report.metrics.failed) == (4, 0)


def test_a_module_without_existing_docs_gets_empty_docs_and_the_run_goes_on(tmp_path: Path) -> None:
    run = run_seed(tmp_path, "shlex", SKILLWEAVE_DOCS_SOURCES="folder")  # no docs/shlex.md: nothing found

    assert run.process.returncode == 0, run.process.stderr
    assert run.summary["status"] == "succeeded"
    assert run.summary["outputs"]["step-1"] == {"existing_docs": "", "docs_found": False}
    assert run.statuses["step-1"] == "succeeded"  # an empty answer is an answer, not a failure
    assert run.summary["outputs"]["step-2"]["has_existing_docs"] is False
    assert run.summary["outputs"]["step-4"]["validation_result"] is True
    assert run.report.step("step-1").failed_attempts == ()


@pytest.mark.slow  # step 1's attempt timeout is 5 s, the retry waits 1 s
def test_a_docs_server_that_times_out_once_is_retried_and_the_run_succeeds(tmp_path: Path) -> None:
    run = run_seed(tmp_path, "json", SKILLWEAVE_DOCS_FAULT="hang-first:10")  # 10 s > step 1's 5 s

    assert run.process.returncode == 0, run.process.stderr
    assert run.summary["status"] == "succeeded"
    step = run.report.step("step-1")
    assert (step.metrics.attempts, step.metrics.retries) == (2, 1)
    assert [r.delay_s for r in step.retries] == [1.0]  # the spec's first wait
    (failed,) = step.failed_attempts
    assert (failed.error_class, failed.kind) == ("timeout", "timeout")
    # the MCP runner's own timeout (counted from the call, the server probed), not the engine's cut-off
    assert failed.message.startswith("docs/get_docs: no answer from 'docs' within 5s"), failed.message
    assert run.summary["outputs"]["step-1"]["docs_found"] is True
    assert all(s == "succeeded" for s in run.statuses.values())


def test_a_module_that_does_not_exist_fails_step_2_cleanly(tmp_path: Path) -> None:
    run = run_seed(tmp_path, "no_such_module_xyz")

    assert run.process.returncode == 1
    assert run.summary["status"] in ("failed", "escalated")
    assert run.statuses == {
        "step-1": "succeeded", "step-2": run.summary["status"], "step-3": "not_run", "step-4": "not_run",
    }  # fmt: skip
    error = run.summary["error"]
    assert error["where"].split("/")[0] == "step-2"
    assert "module not found: no_such_module_xyz" in error["message"]
    step2 = run.report.step("step-2")
    assert (step2.metrics.attempts, step2.metrics.retries, step2.metrics.regenerations) == (1, 0, 0)
    assert step2.failed_attempts[0].error_class == "invalid_input"  # no retry, no regeneration
    assert run.report.step("step-3").metrics.attempts == 0
    assert Path(run.summary["report"]).is_file()


def test_generated_docs_missing_a_section_are_caught_by_step_4(tmp_path: Path) -> None:
    # the seed spec as it is, but step 3 bound to a test skill whose page has no ## Classes
    seed = SEED.read_text(encoding="utf-8")
    bound = "- Skill: `generate-docs` (script-execution)"
    assert seed.count(bound) == 1
    spec = tmp_path / "fetch-analyze-document.md"
    spec.write_text(seed.replace(bound, "- Skill: `generate-docs-partial` (script-execution)"), encoding="utf-8")

    run = run_seed(tmp_path, "textwrap", "--skills-dir", FIXTURE_SKILLS, spec=spec)

    assert run.process.returncode == 1
    assert run.summary["status"] == "failed"
    assert run.statuses == {"step-1": "succeeded", "step-2": "succeeded", "step-3": "succeeded", "step-4": "failed"}
    issue = "missing required section: ## Classes"
    # the validator's findings were meant for step 3; without an LLM they cannot regenerate it
    step3 = run.report.step("step-3")
    assert step3.regeneration_unavailable is not None
    assert "no API key" in step3.regeneration_unavailable
    assert run.report.step("step-3").metrics.attempts == 1  # not run again for nothing
    step4 = run.report.step("step-4")
    assert issue in step4.failed_attempts[0].message
    assert issue in step4.failed_attempts[0].stderr_tail
    assert [f.action for f in step4.fallbacks] == ["fail"]
    assert issue in run.summary["error"]["message"]
    assert "could not go back to step step-3" in run.summary["error"]["message"]
    report = Path(run.summary["report"]).read_text(encoding="utf-8")
    assert f"- {issue}" in report  # the issues are listed in the report
