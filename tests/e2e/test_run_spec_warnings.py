"""A run of a spec read with warnings says so: on the terminal, in `--json`, in the report.

The plan's warnings are where skillweave was not sure it read the spec as its author meant
(a policy sentence not understood, a skill named that no step runs). `validate` lists them,
but a person who only types `skillweave run` must learn them too: the run did what the plan
says, which may be less than the spec says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "specs" / "examples"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
UNREAD = "- Split them again later if the mood takes us, a few times maybe."


def _run(spec: Path, state: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKILLWEAVE, "run", str(spec), "--skills-dir", str(EXAMPLES / "skills"), "--input", "orders=A1:250,B2:900",
         "--state-dir", str(state), *extra],
        capture_output=True, text=True, timeout=120, check=False,
    )


def _spec_with_an_unread_line(tmp_path: Path) -> tuple[Path, int]:
    text = (EXAMPLES / "order-totals.md").read_text(encoding="utf-8")
    text = text.replace("- Output: lines (list of objects)\n", f"- Output: lines (list of objects)\n{UNREAD}\n", 1)
    spec = tmp_path / "order-totals.md"
    spec.write_text(text, encoding="utf-8")
    return spec, text.splitlines().index(UNREAD) + 1


def test_a_run_of_a_spec_read_with_a_warning_says_it_after_the_summary_and_in_json_and_report(tmp_path: Path) -> None:
    spec, line = _spec_with_an_unread_line(tmp_path)

    done = _run(spec, tmp_path / "state")

    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    at = next(i for i, text in enumerate(said) if text.startswith("spec: read with 1 warning;"))
    assert said[at + 1].startswith(f"  {spec}:{line}: step-1: "), done.stdout
    report = Path(next(text.split()[-1] for text in said if text.startswith("report:")))
    markdown = report.read_text(encoding="utf-8")
    assert "## How the spec was read" in markdown and f"- line {line}: step-1: " in markdown

    as_json = json.loads(_run(spec, tmp_path / "state", "--json").stdout)
    assert as_json["status"] == "succeeded"
    assert [(w["line"], w["severity"]) for w in as_json["spec_warnings"]] == [(line, "warning")]


def test_a_run_of_a_spec_read_without_warnings_says_nothing_of_it(tmp_path: Path) -> None:
    done = _run(EXAMPLES / "order-totals.md", tmp_path / "state", "--json")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["spec_warnings"] == []
    plain = _run(EXAMPLES / "order-totals.md", tmp_path / "state")
    assert "spec: read with" not in plain.stdout
    report = Path(next(t.split()[-1] for t in plain.stdout.splitlines() if t.startswith("report:")))
    assert "How the spec was read" not in report.read_text(encoding="utf-8")


def _with_line(spec: Path, after: str, said: str) -> int:
    text = spec.read_text(encoding="utf-8").replace(after, f"{after}\n{said}\n", 1)
    spec.write_text(text, encoding="utf-8")
    return text.splitlines().index(said) + 1


def test_a_skill_named_as_a_spare_that_no_step_runs_is_said_first_after_the_run(tmp_path: Path) -> None:
    spec, unread_at = _spec_with_an_unread_line(tmp_path)
    named_at = _with_line(spec, "- Input: note (string), count (from Step 3)\n",
                          "Should the card side ever be needed, `refund-card` is the spare.")

    said = _run(spec, tmp_path / "state").stdout.splitlines()

    at = next(i for i, line in enumerate(said) if line.startswith("spec: read with 2 warnings;"))
    assert said[at + 1].startswith(f"  {spec}:{named_at}: skill `refund-card` is named here but no step runs it")
    assert said[at + 2].startswith(f"  {spec}:{unread_at}: step-1: ")


def test_a_skill_named_as_doing_work_that_no_step_runs_refuses_the_run_before_it_starts(tmp_path: Path) -> None:
    spec, _ = _spec_with_an_unread_line(tmp_path)
    named_at = _with_line(spec, "- Input: note (string), count (from Step 3)\n",
                          "Once the note is out, `refund-card` pays back the rest.")

    refused = _run(spec, tmp_path / "state", "--json")

    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert f"{spec}:{named_at}: skill `refund-card` is named here but no step runs it" in refused.stderr
    assert "is not made" in refused.stderr
    assert not (tmp_path / "state" / "runs").exists() or not any((tmp_path / "state" / "runs").iterdir())


def test_run_strict_refuses_to_start_a_plan_with_warnings_and_starts_one_without(tmp_path: Path) -> None:
    spec, line = _spec_with_an_unread_line(tmp_path)

    refused = _run(spec, tmp_path / "state", "--strict")

    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith(f"{spec}:{line}: step-1: ")
    assert not (tmp_path / "state" / "runs").exists() or not any((tmp_path / "state" / "runs").iterdir())
    started = _run(EXAMPLES / "order-totals.md", tmp_path / "state", "--strict", "--json")
    assert started.returncode == 0 and json.loads(started.stdout)["status"] == "succeeded"
