"""`skillweave validate` and `skillweave plan` as a user runs them.

Each static check has a spec under tests/fixtures/specs/ that breaks it; validate
must exit 2 and print `FILE:LINE: message` for it. Most cases go through click's
runner (same command object, no process start); the Must-show cases also run the
real `skillweave` executable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from orchestrator.cli import cli
from orchestrator.plan import load_plan

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "fixtures" / "specs"
PARACLE = REPO / "tests" / "fixtures" / "paracle-skills"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, *args], capture_output=True, text=True, timeout=60, cwd=REPO, check=False)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("name", "line", "fragment"),
    [
        ("cycle.md", 10, "dependency cycle: step-1 (Start) -> step-3 (End) -> step-2 (Middle) -> step-1 (Start)"),
        ("cycle.yaml", 7, "dependency cycle: first (first) -> second (second) -> first (first)"),
        ("unknown-skill.md", 6, "unknown skill `fetch-doc` (did you mean `fetch-docs`"),
        ("ambiguous-skill.md", 6, "ambiguous skill: `rows-sorter-fast`, `rows-sorter-stable` match equally"),
        ("missing-input.md", 14, "missing input `token`"),
        ("schema-mismatch.md", 15, "step-1 (Count) -> step-2 (Print): `count` cannot be supplied: it is integer but must be string"),
        ("unreachable.md", 10, "step-2 (Only when flagged): When: `flag` is not a workflow input"),
        ("limits-attempts.md", 7, "plans up to 6 attempts (1 + 5 retries + 0 regenerations) but max_attempts_per_step is 3"),
        ("limits-wall-time.md", 16, "add up to 30s, more than the wall time 20s"),
        ("for-each.md", 8, "For each over `count`, which is integer, not an array"),
        ("missing-compensation.md", 7, "compensation skill `undo-everything` is not in the catalog"),
        ("not-executable.md", 6, "skill `notes-only` has instructions only"),
        ("broken-table.md", 13, "names step '9'"),
    ],
)
def test_each_broken_spec_exits_2_with_file_line_message(name: str, line: int, fragment: str) -> None:
    path = SPECS / name
    code, out, err = invoke("validate", str(path))
    assert code == 2
    assert out == ""
    errors = [e for e in err.splitlines() if not e.startswith("failed:")]
    assert len(errors) == 1
    assert errors[0].startswith(f"{path}:{line}: ")
    assert fragment in errors[0]
    assert err.splitlines()[-1] == "failed: 1 error, 0 warnings"


def test_validate_json_reports_errors_with_stable_keys() -> None:
    code, out, _ = invoke("validate", str(SPECS / "cycle.md"), "--json")
    assert code == 2
    report = json.loads(out)
    assert list(report) == ["ok", "errors", "warnings", "strict"]  # keys are added, never renamed
    assert report["ok"] is False and report["strict"] is False
    assert [(e["line"], e["code"], e["severity"]) for e in report["errors"]] == [(10, "cycle", "error")]
    assert list(report["errors"][0]) == ["file", "line", "severity", "code", "message"]


def test_validate_of_a_missing_file_exits_2_without_a_traceback() -> None:
    code, _, err = invoke("validate", str(SPECS / "absent.md"))
    assert code == 2
    assert "absent.md" in err and "Traceback" not in err


def test_the_seed_validates_through_the_real_command(seed_spec: Path) -> None:
    done = run("validate", str(seed_spec))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok: 4 steps, ")
    count = int(lines[0].split(", ")[1].split()[0])
    assert len(lines) == 1 + count
    assert all(line.startswith(f"{seed_spec}:") and ": warning: " in line for line in lines[1:])


@pytest.mark.parametrize(("name", "line"), [("cycle.md", 10), ("unknown-skill.md", 6), ("broken-table.md", 13)])
def test_broken_specs_exit_2_through_the_real_command(name: str, line: int) -> None:
    done = run("validate", str(SPECS / name))
    assert done.returncode == 2
    assert done.stderr.startswith(f"{SPECS / name}:{line}: ")
    assert "Traceback" not in done.stderr


def test_plan_json_of_the_seed_is_the_reviewed_plan_and_loads_back(seed_spec: Path, tmp_path: Path) -> None:
    done = run("plan", str(seed_spec), "--format", "json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert [s["skill"] for s in plan["steps"]] == ["fetch-docs", "analyze-module", "generate-docs", "validate-markdown"]
    assert plan["steps"][1]["depends_on"] == ["step-1"]
    fetch = plan["steps"][0]["policy"]
    assert fetch["retry"]["max_retries"] == 3 and fetch["retry"]["delays_s"] == [1.0, 2.0, 4.0]
    assert fetch["fallback"] == {"action": "default", "value": None, "skill": None, "step": None, "message": None}
    analyze = [r for r in plan["steps"][1]["policy"]["rules"] if r["on"] == "code_error"]
    assert [(r["regenerate"], r["fallback"]["action"]) for r in analyze] == [(1, "escalate")]
    assert plan["steps"][3]["policy"]["feedback"] == {"target_step": "step-3", "max_attempts": 2}
    saved = tmp_path / "seed.plan.json"
    saved.write_text(done.stdout)
    assert load_plan(saved).sha256 == plan["sha256"]


def test_plan_writes_a_file_and_renders_a_saved_plan(seed_spec: Path, tmp_path: Path) -> None:
    saved = tmp_path / "seed.json"
    code, _, err = invoke("plan", str(seed_spec), "-o", str(saved))
    assert code == 0
    assert f"wrote {saved} (json, 4 steps" in err
    code, out, _ = invoke("plan", str(saved), "--format", "mermaid")
    assert code == 0
    assert out.startswith("flowchart TD\n")
    assert "s_step_4 -.->|feedback, 2 attempts max| s_step_3" in out


def test_plan_text_of_the_yaml_workflow_reviews_every_step(yaml_spec: Path) -> None:
    code, out, _ = invoke("plan", str(yaml_spec), "--skills-dir", str(PARACLE))
    assert code == 0
    for step, skill in [("extract", "data-extractor"), ("notify", "notifier")]:
        assert f"  {step}: {step}  [{yaml_spec}:" in out
        assert f"skill        {skill} " in out
    assert "fallback     continue; on error continue" in out
    assert "Warnings (0)" in out


def test_plan_without_the_paracle_skills_names_each_unknown_skill(yaml_spec: Path) -> None:
    code, _, err = invoke("plan", str(yaml_spec), "--format", "json")
    assert code == 2
    assert [line.split(": ", 1)[0] for line in err.splitlines()] == [
        f"{yaml_spec}:{n}" for n in (6, 11, 17, 23, 27)
    ]


def test_a_when_reading_a_field_its_producer_lacks_is_a_warning_at_its_line(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "specs" / "examples" / "conditional.md"
    lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
    whens = [i for i, line in enumerate(lines) if line.startswith("- When:")]
    when = whens[0]
    for i in whens:  # the same typo in every condition: the steps still share one condition
        lines[i] = lines[i].replace("docs_found", "docs_fonud")
    spec = tmp_path / "typo.md"
    spec.write_text("".join(lines), encoding="utf-8")

    done = subprocess.run(
        [SKILLWEAVE, "validate", str(spec)], capture_output=True, text=True, timeout=60, check=False
    )

    assert done.returncode == 0, done.stderr  # a warning: the schema may be looser than the data
    assert f"{spec}:{when + 1}: warning: step-2 (Analyze Module): When reads `docs_fonud` of the output of step-1" in (
        done.stdout + done.stderr
    )
    assert "it has docs_found, existing_docs" in done.stdout + done.stderr


def test_validate_json_words_the_model_reading_hint_as_the_plain_output_does(tmp_path: Path) -> None:
    example = REPO / "specs" / "examples" / "for-each.md"
    text = example.read_text(encoding="utf-8").replace(
        "- Timeout: 30s\n", "- Timeout: 30s\n- Retry it a handful of times if the mood strikes.\n")
    spec = tmp_path / "unread.md"
    spec.write_text(text, encoding="utf-8")
    line = text.splitlines().index("- Retry it a handful of times if the mood strikes.") + 1

    done = run("validate", str(spec), "--json")

    assert done.returncode == 0, done.stderr
    hinted = [w for w in json.loads(done.stdout)["warnings"] if w["line"] == line and "hint" in w]
    assert hinted, done.stdout
    assert hinted[0]["hint"] == {"action": "interpret"}
    assert "skillweave plan --interpret" in hinted[0]["hint_text"]
    plain = run("validate", str(spec))
    assert f"{spec}:{line}: " in plain.stdout and hinted[0]["hint_text"] in plain.stdout
