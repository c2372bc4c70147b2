"""`skillweave test SPEC` through the real CLI: Testing Plan scenarios as sandboxed runs with faults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from counter_workflow import skillweave, write_workflow

pytestmark = pytest.mark.e2e

SCENARIOS = [
    "Happy path: a plain number goes through. Inputs: value=1; Expect: succeeded; step-2 attempts=1",
    "Error recovery: Step 1 times out once and is retried. Inputs: value=1; Fault: step-1 timeout once; "
    "Expect: succeeded; step-1 retries=1; step-1 attempts=2",
    "Escalation: a negative number fails in Step 1 with a traceback. Inputs: value=-5; Expect: failed; step-1 failed",
    "Edge case: a very large number (no structured form: skipped)",
    "Wrong hope: expects the wrong thing. Inputs: value=1; Fault: step-2 code-error; Expect: succeeded",
    "Typo: names a step that does not exist. Inputs: value=1; Expect: step-9 failed",
]


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_workflow(tmp_path_factory.mktemp("testcmd"), SCENARIOS)


def test_passing_scenarios_exit_0_and_prose_ones_are_skipped(spec: Path) -> None:
    names = ("-s", "happy path", "-s", "Error recovery", "-s", "Escalation", "-s", "Edge case")
    done = skillweave("test", spec, *names, "--keep", spec.parent / "kept", cwd=spec.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{spec}: 4 scenarios (counter)"
    assert [line.split()[0] for line in lines[1:] if line.startswith("  ") and not line.startswith("      ")] == [
        "PASS", "PASS", "PASS", "SKIP",
    ]
    assert "Edge case       no Inputs/Expect given" in done.stdout
    assert lines[-1] == "3 passed, 0 failed, 1 skipped, 0 invalid"
    # the kept state of a scenario is an ordinary state dir
    listed = skillweave("runs", "--json", "--state-dir", spec.parent / "kept" / "error-recovery", cwd=spec.parent)
    (run,) = json.loads(listed.stdout)["runs"]
    assert (run["status"], run["attempts"], run["retries"]) == ("succeeded", 3, 1)


def test_a_failing_scenario_exits_1_and_says_which_expectation_failed(spec: Path) -> None:
    done = skillweave("test", spec, "--scenario", "wrong hope", cwd=spec.parent)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL    Wrong hope  run failed" in done.stdout
    assert "FAIL succeeded (got run failed)" in done.stdout
    assert "ok   fault step-2 code-error fired" in done.stdout


def test_all_scenarios_as_json_exit_2_when_a_form_cannot_be_read(spec: Path) -> None:
    done = skillweave("test", spec, "--json", cwd=spec.parent)
    assert done.returncode == 2, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [(s["name"], s["outcome"]) for s in report["scenarios"]] == [
        ("Happy path", "passed"),
        ("Error recovery", "passed"),
        ("Escalation", "passed"),
        ("Edge case", "skipped"),
        ("Wrong hope", "failed"),
        ("Typo", "invalid"),
    ]
    typo = report["scenarios"][-1]
    line = spec.read_text().splitlines().index(f"6. {SCENARIOS[5]}") + 1
    assert typo["where"] == f"{spec}:{line}" and "no step 'step-9'" in typo["reason"]
    assert (report["passed"], report["failed"], report["skipped"], report["invalid"]) == (3, 1, 1, 1)


def test_an_unknown_scenario_name_is_a_usage_error(spec: Path) -> None:
    done = skillweave("test", spec, "-s", "nothing like it", cwd=spec.parent)
    assert done.returncode == 2
    assert "no scenario 'nothing like it' in the Testing Plan" in done.stderr and "Traceback" not in done.stderr



@pytest.mark.slow
def test_the_bundled_specs_testing_plan_runs_and_passes_through_the_real_skills(tmp_path: Path) -> None:
    bundled = Path(__file__).resolve().parents[2] / "specs" / "fetch-analyze-document.md"

    done = skillweave("test", bundled, "--json", cwd=tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [(s["name"], s["outcome"], s["run_status"]) for s in report["scenarios"]] == [
        ("Happy path", "passed", "succeeded"),
        ("Graceful degradation", "passed", "succeeded"),
        ("Error recovery", "passed", "succeeded"),
        ("Escalation", "passed", "escalated"),
        ("Edge case", "passed", "failed"),
    ]


@pytest.mark.slow
def test_a_when_over_an_earlier_output_skips_the_steps_it_guards(tmp_path: Path) -> None:
    # the example writes `When: not steps['step-1'].output.docs_found`, as the planner does
    example = Path(__file__).resolve().parents[2] / "specs" / "examples" / "conditional.md"

    done = skillweave("test", example, "--json", cwd=tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [(s["name"], s["outcome"]) for s in report["scenarios"]] == [
        ("Happy path", "passed"),
        ("Graceful degradation", "passed"),
    ]
