"""The YAML spec of the third holdout (tests/fixtures/foreign-specs-holdout3/22-orders-export, an
Airflow-flavoured DAG file with its own keys, written by an outsider and first refused blind on
`{{ write_partition | collect }}`) through the real `skillweave` executable: it validates, plans what
its author meant (expect.yaml: skills, dependencies, the `expand` fan-out and its item fields, the
gathered results, every retry and timeout at its line, the run's wall time), and runs in the real
sandbox to the author's final output (the skill's `Outputs:` list goes on after a `;` and a line
break: `week` is a field of clean-orders, so `{{ clean_orders.week }}` is that field).
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
    line_of,
    plan_fixture,
    provenance_lines,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout3" / "22-orders-export"
EXPECT = expectation(FOLDER)
plan = plan_fixture(FOLDER / EXPECT["spec"])


def test_the_airflow_dag_validates_with_its_collect_filter() -> None:
    result = run("validate", str(FOLDER / EXPECT["spec"]), "--json")
    assert result.returncode == 0, json.loads(result.stdout)["errors"]
    assert not [w for w in json.loads(result.stdout)["warnings"] if "retry_exponential_backoff" in str(w)]


def test_the_airflow_dag_plans_the_tasks_skills_dependencies_and_fan_out_its_author_meant(
        plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert_named_steps_as_meant(steps, EXPECT["steps"], field_pointers=False)
    fan = steps[3]["for_each"]["source"]
    assert (fan["step"], fan["pointer"]) == ("split_regions", "/partitions")
    assert all(s.get("for_each") is None for i, s in enumerate(steps) if i != 3)


def test_a_task_output_field_binds_that_field(plan: dict[str, Any]) -> None:
    week = plan["steps"][3]["inputs"]["week"]
    assert (week["step"], week["pointer"]) == ("clean_orders", "/week")


def test_every_retry_timeout_and_the_run_limit_is_read_at_its_line(plan: dict[str, Any]) -> None:
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
                retry, wait = policy["retry"], meaning["wait"]
                assert (retry["max_retries"], seen["policy.retry"]) == (meaning["retries"], p["line"]), m["name"]
                if wait["kind"] == "list":
                    assert retry["delays_s"] == wait["seconds"], m["name"]
                else:  # 20, 40, 80 s: exponential, not capped below the last wait, not jittered
                    assert (retry["delays_s"], retry["initial_s"], retry["multiplier"], retry["jitter"]) == (
                        [], wait["start"], wait["factor"], False), m["name"]
                    assert retry["max_delay_s"] >= wait["start"] * wait["factor"] ** (meaning["retries"] - 1)
            if meaning.get("no_retry"):
                assert policy["retry"]["max_retries"] == 0 and not policy["rules"], m["name"]
    run_limit = EXPECT["workflow_policies"][0]
    assert (plan["limits"]["wall_time_s"], line_of(plan["limits_provenance"]["wall_time_s"]["where"])) == (
        run_limit["meaning"]["timeout_s"], run_limit["line"])


def test_the_airflow_dag_runs_to_its_authors_final_output(tmp_path: Path) -> None:
    result = run_to_the_end(FOLDER / EXPECT["spec"], EXPECT["inputs"], tmp_path)
    assert result["outputs"]["publish_manifest"] == EXPECT["final_output"]
