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
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "tests" / "fixtures" / "foreign-specs-holdout2" / "19-docs-site"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
EXPECT: dict[str, Any] = yaml.safe_load((FOLDER / "expect.yaml").read_text(encoding="utf-8"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, *args], capture_output=True, text=True, timeout=300, cwd=REPO, check=False)


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    result = run("plan", str(FOLDER / EXPECT["spec"]), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def line_of(where: str | None) -> int:
    tail = (where or "").rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def test_the_actions_spec_validates() -> None:
    result = run("validate", str(FOLDER / EXPECT["spec"]), "--json")
    assert result.returncode == 0, json.loads(result.stdout)["errors"]


def test_the_actions_spec_plans_the_steps_skills_dependencies_and_inputs_its_author_meant(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    meant = EXPECT["steps"]
    assert [s["id"] for s in steps] == [m["name"] for m in meant]
    ids = {m["number"]: m["name"] for m in meant}
    for step, m in zip(steps, meant, strict=True):
        assert step["skill"] == m["skill"], m["name"]
        assert set(step["depends_on"]) <= {ids[n] for n in m["depends_on"]}, (m["name"], step["depends_on"])
        for name, said in m["inputs"].items():
            b = step["inputs"][name]
            if said.startswith("workflow input"):
                assert (b["source"], b["name"]) == ("input", said.split()[-1]), name
            elif said.startswith("each item's field"):
                assert (b["source"], b["pointer"]) == ("item", f"/{said.split()[-1]}"), name
            elif said.startswith("all results of step"):
                assert (b["source"], b["step"], b["pointer"]) == ("step", ids[int(said.split()[4].rstrip(","))], "")
            else:
                assert (b["source"], b["step"], b["pointer"]) == ("step", ids[int(said.split()[1])],
                                                                  f"/{said.split()[-1]}"), name
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
        policy, seen = step["policy"], {k: line_of(v["where"]) for k, v in step["provenance"].items()}
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
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(EXPECT["inputs"]), encoding="utf-8")
    ran = run("run", str(FOLDER / EXPECT["spec"]), "--input-file", str(inputs), "--json",
              "--state-dir", str(tmp_path / "state"))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    result = json.loads(ran.stdout)
    assert result["status"] == "succeeded"
    status = {s["step_id"]: s["status"] for s in result["steps"]}
    assert status["deploy-prod"] == "skipped" and status["deploy-staging"] == "succeeded"
    assert result["outputs"]["deploy-staging"] == EXPECT["final_output"]
