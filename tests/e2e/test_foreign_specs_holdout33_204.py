"""holdout33 204 (a Fortran namelist: a `&run` group the inputs, one `&stepN ... /` group per skill with
`field = 'run%x'` / `'stepN%x'` wiring, `after` / `only_if` keys, `!` comment rules): its plan as expect.yaml
says and both runs through the real CLI (`spec.namelist50`)."""

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

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "foreign-specs-holdout33" / "204-flood-warning-overnight"
SPEC = HERE / "fwarn_overnight.nml"

# what still reads wrong, with why (each a strict xfail or a listed check)
KNOWN: dict[str, str] = {
}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, "--skills-dir", str(HERE / "skills"))


def test_steps_deps_and_sources(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert [s["skill"] for s in steps] == ["gauge-readings", "rainfall-forecast", "flood-risk-score",
                                           "draft-flood-warning", "draft-river-watch", "issue-bulletin"]
    assert [s["depends_on"] for s in steps] == [[], [], ["step1", "step2"], ["step3"], ["step3"], ["step4", "step5"]]
    assert {i["name"]: i.get("default") for i in plan["inputs"]} == {"catchment": None, "lead_hours": 24}
    one, two, three, four, five, six = (s["inputs"] for s in steps)
    assert one["catchment"]["name"] == two["catchment"]["name"] == "catchment"
    assert two["hours"]["source"] == "input" and two["hours"]["name"] == "lead_hours"
    assert three["level_m"]["step"] == "step1" and three["rain_mm"]["step"] == "step2"
    assert three["trigger"]["source"] == "literal" and three["trigger"]["value"] == 60
    assert four["catchment"]["name"] == "catchment" and four["score"]["step"] == "step3"
    assert five["catchment"]["name"] == "catchment"
    assert six["bulletin"]["any_of"] == ["step4", "step5"] and six["bulletin"]["pointer"] == "/bulletin"
    assert six["channel"]["value"] == "FWD-PUBLIC" and six["catchment"]["name"] == "catchment"
    assert steps[3]["when"] == "steps['step3'].output.band == 'high'"
    assert steps[4]["when"] == "not (steps['step3'].output.band == 'high')"


CASES = [pytest.param(step["number"], p["meaning"], id=(key := f"policy {step['number']} l.{p['line']}"),
                      marks=[pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else [])
         for step in expectation(HERE)["steps"] for p in step["policies"]]


@pytest.mark.parametrize(("number", "meaning"), CASES)
def test_policy_lines(plan: dict[str, Any], number: int, meaning: dict[str, Any]) -> None:
    assert policy_misses(plan["steps"][number - 1]["policy"], meaning) == []


def test_whole_run_limit_and_check(plan: dict[str, Any]) -> None:
    assert plan["limits"]["wall_time_s"] == 900
    assert [(c["step"], c["written"]) for c in plan["run_checks"]] == [("step6", "issued == true")]


def test_fallback_l24_on_every_failure(plan: dict[str, Any]) -> None:
    """'if it's dead or slow swap to rainfall-climatology': the step's fallback, not a rule on the timeout (round 52)."""
    policy = plan["steps"][1]["policy"]
    assert policy["rules"] == [] and policy["fallback"]["skill"] == "rainfall-climatology"


def test_warnings(plan: dict[str, Any]) -> None:
    assert [w["line"] for w in plan["warnings"]] == [7]  # the check's reading, said as a reading


@pytest.mark.parametrize("n", [0, 1])
def test_runs_reach_the_authors_output(n: int, tmp_path: Path) -> None:
    meant = expectation(HERE)
    report = run_to_the_end(SPEC, run_inputs(meant, n), tmp_path, "--skills-dir", str(HERE / "skills"))
    assert final_output(report) == run_wanted(meant, n)
    assert_ends_as_meant(report, run_wanted(meant, n), None)
