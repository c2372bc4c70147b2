"""holdout36 223 (a trawler's deck log: HHMM entries, the inputs said in the 0540 entry, skill names capitalised at
a sentence's start) and 224 (a school kitchen's batch card: "YOU NEED:", METHOD "n. Title - skill with ...", indented
rules): their plans as expect.yaml says and both runs of each through the real CLI (round 54: `plan.said_again54`,
`spec.log54`, `plan.unit_value54`)."""

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

SETS = Path(__file__).resolve().parents[1] / "fixtures" / "foreign-specs-holdout36"
SPECS = {"223": (SETS / "223-kittiwake-landing", "landing_log.txt"),
         "224": (SETS / "224-allergen-batch-card", "recipe-card.txt")}


def _plan(key: str) -> dict[str, Any]:
    here, name = SPECS[key]
    return plan_json(here / name, "--skills-dir", str(here / "skills"))


@pytest.fixture(scope="module")
def plans() -> dict[str, dict[str, Any]]:
    return {key: _plan(key) for key in SPECS}


def test_223_catch_kg_is_the_run_s_input_for_grade_catch_s_kg(plans: dict[str, dict[str, Any]]) -> None:
    plan = plans["223"]
    assert {i["name"] for i in plan["inputs"]} == {"species", "catch_kg", "port"}
    kg = plan["steps"][0]["inputs"]["kg"]
    assert (kg["source"], kg["name"]) == ("input", "catch_kg")


def test_223_whole_run_limit_and_success_check(plans: dict[str, dict[str, Any]]) -> None:
    plan = plans["223"]
    assert plan["limits"]["wall_time_s"] == 3600
    assert plan["limits_provenance"]["wall_time_s"]["source"] == "spec"
    assert [(c["step"], c["written"]) for c in plan["run_checks"]] == [("step-3", "decl_no is not empty")]
    assert not any("Gulls" in w["message"] for w in plan["warnings"])


def test_224_use_by_2_days_is_the_label_s_use_by_days(plans: dict[str, dict[str, Any]]) -> None:
    plan = plans["224"]
    use_by = plan["steps"][2]["inputs"]["use_by_days"]
    assert (use_by["source"], use_by["value"]) == ("literal", 2)
    assert not any("struck through" in w["message"] for w in plan["warnings"])


CASES = [pytest.param(key, step["number"], p["meaning"], id=f"{key} policy {step['number']} l.{p['line']}")
         for key, (here, _) in SPECS.items() for step in expectation(here)["steps"] for p in step["policies"]]


@pytest.mark.parametrize(("key", "number", "meaning"), CASES)
def test_policy_lines(plans: dict[str, dict[str, Any]], key: str, number: int, meaning: dict[str, Any]) -> None:
    assert policy_misses(plans[key]["steps"][number - 1]["policy"], meaning) == []


@pytest.mark.parametrize(("key", "n"), [("223", 0), ("223", 1), ("224", 0), ("224", 1)])
def test_runs_reach_the_authors_output(key: str, n: int, tmp_path: Path) -> None:
    here, name = SPECS[key]
    meant = expectation(here)
    report = run_to_the_end(here / name, run_inputs(meant, n), tmp_path, "--skills-dir", str(here / "skills"))
    assert final_output(report) == run_wanted(meant, n)
    assert_ends_as_meant(report, run_wanted(meant, n), None)
