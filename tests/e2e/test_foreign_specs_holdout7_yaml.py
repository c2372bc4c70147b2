"""The YAML spec of the seventh holdout (tests/fixtures/foreign-specs-holdout7/49-tls-rotate-playbook,
an Ansible-playbook-like list of one play whose tasks name their skills, written by an outsider and
refused blind: "this step names `renew-acme` (skill:), `renew-internal-ca` (rescue:)") through the
real `skillweave` executable. Its `rescue:` block is read as the renewal's fallback skill, its bare
`{{ domain }}` templates as the play's `vars_prompt` inputs, `register:` names as step ids, and its
own keys by meaning (`play_deadline`, `task_timeout`, `retry.first`, `keep_trying_for`,
`pause_between`). It validates, plans what its author meant (expect.yaml), and both runs reach the
author's final output: the internal name through the internal CA, the public one through ACME.
What is read otherwise than the author meant is in `KNOWN`, each with its reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    expectation,
    line_of,
    meant_binding,
    plan_fixture,
    provenance_lines,
    run,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout7" / "49-tls-rotate-playbook"
SPEC = FOLDER / "spec.yaml"
EXPECT = expectation(FOLDER)
plan = plan_fixture(SPEC)

KNOWN: dict[str, str] = {
    "order": "tasks that do not say what they wait for run in the play's order (as Ansible runs them): "
             "`renew certificate` waits for `inspect current cert`, which the author lists as independent; "
             "the run's outputs are the same",
}


def _validate() -> dict[str, Any]:
    result = run("validate", str(SPEC), "--json")
    report: dict[str, Any] = json.loads(result.stdout)
    assert result.returncode == 0, report["errors"]
    return report


def test_the_playbook_validates_and_says_only_where_it_read_the_tasks() -> None:
    report = _validate()
    assert [(w["line"], w["code"]) for w in report["warnings"]] == [(12, "spec.anchored")]


def test_the_playbook_plans_the_tasks_skills_and_inputs_its_author_meant(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert [s["skill"] for s in steps] == [m["skill"] for m in EXPECT["steps"]]
    assert [s["id"] for s in steps] == ["current", "newcert", "deployed", "smoke-test"]  # the `register:` names
    ids = {m["number"]: s["id"] for m, s in zip(EXPECT["steps"], steps, strict=True)}
    for step, m in zip(steps, EXPECT["steps"], strict=True):
        for name, said in m["inputs"].items():
            wanted = meant_binding(said.partition(" (")[0], ids)
            assert {k: step["inputs"][name][k] for k in wanted} == wanted, (step["id"], name)
        meant = {ids[n] for n in m["depends_on"]}
        assert meant <= set(step["depends_on"]), step["id"]
    assert [i["name"] for i in plan["inputs"]] == ["domain", "cert_text", "as_of"]  # `vars_prompt:`


def test_the_rescue_block_is_the_renewal_s_fallback_skill_cited_at_the_block(plan: dict[str, Any]) -> None:
    renew = plan["steps"][1]
    meant = next(p for p in EXPECT["steps"][1]["policies"] if "on_failure" in p["meaning"])
    fallback = renew["policy"]["fallback"]
    assert (fallback["action"], fallback["skill"]) == ("skill", meant["meaning"]["on_failure"]["skill"])
    assert provenance_lines(renew)["policy.fallback"] in (meant["line"], meant["line"] + 1)  # `rescue:` / `skill:`


def test_every_timeout_retry_budget_and_the_play_deadline_is_read_at_its_line(plan: dict[str, Any]) -> None:
    for step, m in zip(plan["steps"], EXPECT["steps"], strict=True):
        policy, seen = step["policy"], provenance_lines(step)
        for p in m["policies"]:
            meaning = p["meaning"]
            if "timeout_s" in meaning:
                assert (policy["attempt_timeout_s"], seen["policy.attempt_timeout_s"]) == (
                    meaning["timeout_s"], p["line"]), step["id"]
            if "retries" in meaning:
                retry, wait = policy["retry"], meaning["wait"]
                assert (retry["max_retries"], retry["initial_s"], retry["multiplier"], retry["max_delay_s"]) == (
                    meaning["retries"], wait["start"], wait["factor"], wait["max"]), step["id"]
                assert seen["policy.retry"] == p["line"], step["id"]
            if meaning.get("no_retry"):
                assert policy["retry"]["max_retries"] == 0, step["id"]
            if "for_up_to_s" in meaning:
                assert (policy["retry"]["budget_s"], seen["policy.retry"]) == (meaning["for_up_to_s"], p["line"])
            if meaning.get("wait", {}).get("kind") == "fixed":
                assert policy["retry"]["delays_s"] == [meaning["wait"]["seconds"]], step["id"]
    deadline = EXPECT["workflow_policies"][0]
    assert (plan["limits"]["wall_time_s"], line_of(plan["limits_provenance"]["wall_time_s"]["where"])) == (
        deadline["meaning"]["timeout_s"], deadline["line"])


def _run(inputs: Any, tmp_path: Path) -> dict[str, Any]:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(SPEC), "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    result: dict[str, Any] = json.loads(ran.stdout)
    return result


def test_an_internal_name_is_renewed_by_the_rescue_skill_and_reaches_the_authors_final_output(
        tmp_path: Path) -> None:
    result = _run(EXPECT["inputs"], tmp_path)
    assert result["status"] == "degraded", result["error"]  # the fallback ran: said, not hidden
    assert [s["fallback"] for s in result["steps"] if s["step_id"] == "newcert"] == ["skill"]
    assert result["outputs"]["newcert"]["issuer"] == "corp-internal-ca"
    assert result["outputs"]["smoke-test"] == EXPECT["final_output"]


def test_a_public_name_is_renewed_by_acme_and_reaches_the_authors_final_output(tmp_path: Path) -> None:
    more = EXPECT["more_runs"][0]
    result = _run(more["inputs"], tmp_path)
    assert result["status"] == "succeeded", result["error"]
    assert result["outputs"]["newcert"]["issuer"] == "acme-le"
    assert result["outputs"]["smoke-test"] == more["final_output"]


def test_each_known_row_is_still_read_as_listed(plan: dict[str, Any]) -> None:
    """When one of these fails, the reading has changed: take its row out of KNOWN."""
    assert plan["steps"][1]["depends_on"] == ["current"], KNOWN["order"]
