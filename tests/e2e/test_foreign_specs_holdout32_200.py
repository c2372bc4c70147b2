"""holdout32 200 (a workshop whiteboard typed up: `(n) skill <- inputs`, `-> outputs`, rule lines, [typist's notes]):
its plan as expect.yaml says and both runs through the real CLI (`spec.arrow_items49`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.foreign_kit import (
    assert_ends_as_meant,
    expectation,
    final_output,
    plan_json,
    policy_misses,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "foreign-specs-holdout32" / "200-garage-whiteboard"
SPEC = HERE / "whiteboard.txt"

# what still reads wrong, with why (each a strict xfail)
KNOWN: dict[str, str] = {}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, "--skills-dir", str(HERE / "skills"))


def test_steps_deps_and_sources(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert [s["skill"] for s in steps] == ["tomorrows-jobs", "parts-check", "parts-order", "text-customers", "day-sheet"]
    assert [s["depends_on"] for s in steps] == [[], ["step-1"], ["step-2"], ["step-1"], ["step-3", "step-4"]]
    assert sorted(i["name"] for i in plan["inputs"]) == ["bay", "date"]
    three, four = steps[2]["inputs"], steps[3]["inputs"]
    assert three["supplier"]["source"] == "literal" and three["supplier"]["value"] == "Dunmore Motor Factors"
    assert three["checks"]["step"] == "step-2"
    assert four["drop_off"]["source"] == "literal" and four["drop_off"]["value"] == "8:15"
    assert four["cars"]["step"] == "step-1" and four["cars"]["pointer"] == "/cars"
    assert steps[3]["policy"]["fallback"]["action"] == "fail"  # no {off: 8} from 'drop off = 8:15'
    assert steps[1]["for_each"] is not None
    assert all(s["when"] is None for s in steps)
    assert not [w for w in plan["warnings"] if "looks like a condition" in str(w) or "states a condition" in str(w)]


CASES = [pytest.param(step["number"], p["meaning"], id=(key := f"policy {step['number']} l.{p['line']}"),
                      marks=[pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else [])
         for step in expectation(HERE)["steps"] for p in step["policies"]]


@pytest.mark.parametrize(("number", "meaning"), CASES)
def test_policy_lines(plan: dict[str, Any], number: int, meaning: dict[str, Any]) -> None:
    assert policy_misses(plan["steps"][number - 1]["policy"], meaning) == []


def test_whole_run_limit(plan: dict[str, Any]) -> None:
    assert plan["limits"]["wall_time_s"] == 1800


def test_success_check(plan: dict[str, Any]) -> None:  # l.28, behind its "[written sideways ...:]" note
    assert [c["written"] for c in plan["run_checks"]] == ["printed == true"]
    assert "step-5" in str(plan["steps"][4]["provenance"]["read.success"])


@pytest.mark.parametrize("n", [0, 1])
def test_runs_reach_the_authors_output(n: int, tmp_path: Path) -> None:
    meant = expectation(HERE)
    report = run_to_the_end(SPEC, run_inputs(meant, n), tmp_path, "--skills-dir", str(HERE / "skills"))
    assert final_output(report) == run_wanted(meant, n)
    assert_ends_as_meant(report, run_wanted(meant, n), None)
