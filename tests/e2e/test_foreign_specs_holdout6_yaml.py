"""The YAML spec of the sixth holdout (tests/fixtures/foreign-specs-holdout6/43-revenue-recon-cronjob,
a Kubernetes-CronJob-like custom resource with `spec.template.stages[]`, `skillRef`, `with`,
`restart`, `onError`, written by an outsider and refused blind: "the spec has no steps") through the
real `skillweave` executable. No dialect table knows its shape; the anchored reading
(`spec.yaml_anchored`) finds the stages by the catalog skills they name, says so at line 30, and
reads their keys by meaning. It validates, plans what its author meant (expect.yaml), and its three
runs reach the author's outputs: the main one, the CHF one through the `fx-convert-static`
fallback, and the negative-net one after the controller's approval. What is read otherwise than
the author meant is in `KNOWN`, each with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    assert_named_steps_as_meant,
    checked_schema,
    expectation,
    final_output,
    line_of,
    plan_fixture,
    provenance_lines,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout6" / "43-revenue-recon-cronjob"
SPEC = FOLDER / "spec.yaml"
EXPECT = expectation(FOLDER)
plan = plan_fixture(SPEC)

KNOWN: dict[str, str] = {
    "jitter": "`jitter: \"10%\"` is read as jitter on: a retry's jitter is full or none",
}


def _validate() -> dict[str, Any]:
    result = run("validate", str(SPEC), "--json")
    report: dict[str, Any] = json.loads(result.stdout)
    assert result.returncode == 0, report["errors"]
    return report


def test_the_cronjob_resource_validates_and_says_where_it_read_the_steps() -> None:
    report = _validate()
    anchored = [w for w in report["warnings"] if w["code"] == "spec.anchored"]
    assert [(w["line"], "`spec.template.stages`" in w["message"]) for w in anchored] == [(30, True)]
    unread = [w["line"] for w in report["warnings"] if "not understood" in w["message"]]
    assert unread == []  # the scheduling keys are readings, not warnings


def test_the_cronjob_resource_plans_the_stages_skills_dependencies_and_inputs_its_author_meant(
        plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert_named_steps_as_meant(steps, EXPECT["steps"])
    assert [s["depends_on"] for s in steps[:2]] == [[], []]  # orders and refunds start together


def test_every_restart_timeout_and_the_run_deadline_is_read_at_its_line(plan: dict[str, Any]) -> None:
    by_id = {s["id"]: s for s in plan["steps"]}
    for m in EXPECT["steps"]:
        policy, seen = by_id[m["name"]]["policy"], provenance_lines(by_id[m["name"]])
        for p in m["policies"]:
            meaning = p["meaning"]
            if "timeout_s" in meaning:
                assert (policy["attempt_timeout_s"], seen["policy.attempt_timeout_s"]) == (
                    meaning["timeout_s"], p["line"]), m["name"]
            if "retries" in meaning:  # the `restart:` block starts a line above its first key
                retry = policy["retry"]
                assert retry["max_retries"] == meaning["retries"], m["name"]
                assert seen["policy.retry"] in (p["line"] - 1, p["line"]), m["name"]
                wait = meaning["wait"]
                if wait["kind"] == "fixed":
                    assert retry["delays_s"] == [wait["seconds"]], m["name"]
                else:
                    assert (retry["delays_s"], retry["initial_s"], retry["multiplier"], retry["max_delay_s"]) == (
                        [], wait["start"], wait["factor"], wait["max"]), m["name"]
            if meaning.get("no_retry"):
                assert policy["retry"]["max_retries"] == 0 and not policy["rules"], m["name"]
    deadline = EXPECT["workflow_policies"][0]
    assert (plan["limits"]["wall_time_s"], line_of(plan["limits_provenance"]["wall_time_s"]["where"])) == (
        deadline["meaning"]["timeout_s"], deadline["line"])


def test_the_on_error_blocks_are_fallbacks_and_the_approval_only_for_a_negative_net(plan: dict[str, Any]) -> None:
    by_id = {s["id"]: s for s in plan["steps"]}
    refunds, fx = by_id["refunds"]["policy"]["fallback"], by_id["fx"]["policy"]["fallback"]
    assert (refunds["action"], refunds["value"]) == ("default", {"refunds": [], "total": 0})
    assert (fx["action"], fx["skill"]) == ("skill", "fx-convert-static")
    # each cited at the key carrying it: `continueWith:`, `fallbackSkillRef:`
    assert [provenance_lines(by_id[s])["policy.fallback"] for s in ("refunds", "fx")] == [
        p["line"] for m in EXPECT["steps"] for p in m["policies"] if "on_failure" in p["meaning"]]
    approval = by_id["post"]["policy"]["approval"]
    meant = EXPECT["steps"][4]["approval"]
    assert (approval["when"], approval["timeout_s"], approval["on_timeout"]) == (
        "steps['net'].output.net < 0", meant["timeout_s"], meant["on_timeout"])


def test_the_run_s_success_condition_is_the_check_on_the_step_it_names(plan: dict[str, Any]) -> None:
    meant = EXPECT["success_criteria"]
    post = plan["steps"][4]
    checked = checked_schema(plan, post)  # the run's check: after the run (`plan.run_checks`)
    assert (post["id"], checked["properties"]["balanced"]) == ("post", {"const": True}), meant["meaning"]
    assert "balanced" in checked["required"]


def test_the_cronjob_resource_runs_to_its_authors_final_output(tmp_path: Path) -> None:
    result = run_to_the_end(SPEC, EXPECT["inputs"], tmp_path)
    assert final_output(result) == EXPECT["final_output"]


def _run(inputs: Any, tmp_path: Path) -> dict[str, Any]:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(SPEC), "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"))
    result: dict[str, Any] = json.loads(ran.stdout)
    return result


def test_a_currency_the_feed_lacks_runs_through_the_static_rate_fallback(tmp_path: Path) -> None:
    more = EXPECT["more_runs"][0]
    result = _run(more["inputs"], tmp_path)
    assert result["status"] == "degraded", result["error"]
    assert [s["fallback"] for s in result["steps"] if s["step_id"] == "fx"] == ["skill"]
    assert result["outputs"]["post"] == more["final_output"]


def test_a_negative_net_waits_for_the_controller_and_posts_once_approved(tmp_path: Path) -> None:
    more = EXPECT["more_runs"][1]
    result = _run(more["inputs"], tmp_path)
    assert (result["status"], "post" in result["outputs"]) == ("paused", False)
    state = ("--state-dir", str(tmp_path / "state"))
    assert run("approve", result["run_id"], "post", *state).returncode == 0
    resumed = run("resume", result["run_id"], "--json", *state)
    done = json.loads(resumed.stdout)
    assert done["status"] == "succeeded", done["error"]
    assert done["outputs"]["post"] == more["final_output_after_approval"]


def test_each_known_row_is_still_read_as_listed(plan: dict[str, Any]) -> None:
    """When one of these fails, the reading has changed: take its row out of KNOWN."""
    by_id = {s["id"]: s for s in plan["steps"]}
    assert by_id["net"]["policy"]["retry"]["jitter"] is True, KNOWN["jitter"]
