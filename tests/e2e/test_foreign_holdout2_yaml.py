"""The YAML spec of the second holdout (tests/fixtures/foreign-specs-holdout2/19-docs-site, a GitHub
Actions workflow with Argo retry keys, written by an outsider and first evaluated blind: 16
errors) through the real `skillweave` executable: it validates, plans what its author meant
(expect.yaml: skills, dependencies, the matrix fan-out and its item fields, the gathered
results, the if/else pair, the conditional approval, every retry, timeout and failure
policy at its line), and runs in the real sandbox to the author's final output.
The markdown specs of that holdout (16, 17, 18, 20) are read by another test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    assert_named_steps_as_meant,
    expectation,
    plan_fixture,
    provenance_lines,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout2" / "19-docs-site"
EXPECT = expectation(FOLDER)
plan = plan_fixture(FOLDER / EXPECT["spec"])


def test_the_actions_spec_validates() -> None:
    result = run("validate", str(FOLDER / EXPECT["spec"]), "--json")
    assert result.returncode == 0, json.loads(result.stdout)["errors"]


def test_the_actions_spec_plans_the_steps_skills_dependencies_and_inputs_its_author_meant(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert_named_steps_as_meant(steps, EXPECT["steps"])
    assert steps[1]["for_each"]["source"]["step"] == "lint" and steps[1]["for_each"]["source"]["pointer"] == "/pages"
    assert all(s.get("for_each") is None for i, s in enumerate(steps) if i != 1)


def test_the_if_and_its_else_job_are_a_condition_and_its_negation(plan: dict[str, Any]) -> None:
    prod, staging = plan["steps"][3], plan["steps"][4]
    assert prod["when"] == "inputs.target == 'prod'"
    assert staging["when"] == f"not ({prod['when']})"
    assert [s["id"] for s in plan["steps"] if s.get("when")] == ["deploy-prod", "deploy-staging"]


def test_every_retry_timeout_and_failure_policy_is_read_at_its_line(plan: dict[str, Any]) -> None:
    by_id = {s["id"]: s for s in plan["steps"]}
    for m in EXPECT["steps"]:
        step = by_id[m["name"]]
        policy, seen = step["policy"], provenance_lines(step)
        for p in m["policies"]:
            meaning = p["meaning"]
            if "timeout_s" in meaning:
                assert (policy["attempt_timeout_s"], seen["policy.attempt_timeout_s"]) == (meaning["timeout_s"],
                                                                                          p["line"]), m["name"]
            if "retries" in meaning:
                retry = policy["retry"]
                assert (retry["max_retries"], seen["policy.retry"]) == (meaning["retries"], p["line"]), m["name"]
                wait = meaning["wait"]
                if wait["kind"] == "fixed":
                    assert retry["delays_s"] == [wait["seconds"]], m["name"]
                else:
                    assert (retry["delays_s"], retry["initial_s"], retry["multiplier"]) == (
                        [], wait["start"], wait["factor"]), m["name"]
            if meaning.get("no_retry"):
                assert policy["retry"]["max_retries"] == 0 and not policy["rules"], m["name"]
            failure = meaning.get("on_failure")
            if failure and failure["kind"] == "fallback":
                assert (policy["fallback"]["action"], policy["fallback"]["skill"]) == ("skill", failure["skill"])
            elif failure:
                assert policy["on_error"] == failure["kind"], m["name"]
    assert by_id["deploy-prod"]["policy"]["approval"] is None  # `environment: production`, no reviewers
    gate = by_id["deploy-staging"]["policy"]["approval"]
    assert (gate["when"], gate["timeout_s"], gate["on_timeout"]) == ("steps['lint'].output.broken > 0", 7200.0,
                                                                     "reject")


def test_the_actions_spec_runs_to_its_authors_final_output(tmp_path: Path) -> None:
    result = run_to_the_end(FOLDER / EXPECT["spec"], EXPECT["inputs"], tmp_path)
    status = {s["step_id"]: s["status"] for s in result["steps"]}
    assert status["deploy-prod"] == "skipped" and status["deploy-staging"] == "succeeded"
    assert result["outputs"]["deploy-staging"] == EXPECT["final_output"]
