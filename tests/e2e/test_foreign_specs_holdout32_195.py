"""holdout32 195 (an nginx-style `pipeline { step x { } }` .conf, `spec.nginx49`) through the real CLI: the plan's
inputs, each step's skill, dependencies, loop, input sources and policy lines, the run's limit and success check
as expect.yaml says, and each of its runs to the author's final output. Nothing is listed in KNOWN: all read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    checked_schema,
    expectation,
    final_output,
    plan_json,
    policy_misses,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout32" / "195-climbing-wall-reset"
MEANT = expectation(FOLDER)
SPEC = FOLDER / MEANT["spec"]
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
KNOWN: dict[tuple[int, str], str] = {}  # (author's step, what) -> why it is not read as meant yet


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, *SKILLS)


def _source(said: Any, ids: dict[int, str]) -> dict[str, Any]:
    """expect.yaml's source in words as the plan's binding keys."""
    text = str(said)
    if m := re.fullmatch(r"workflow input (\w+)", text):
        return {"source": "input", "name": m[1]}
    if m := re.fullmatch(r"step (\d+) output (\w+)", text):
        return {"source": "step", "step": ids[int(m[1])], "pointer": f"/{m[2]}"}
    if m := re.fullmatch(r"each item's field (\w+)", text):
        return {"source": "item", "pointer": f"/{m[1]}"}
    if m := re.fullmatch(r"all results of step (\d+), gathered", text):
        return {"source": "step", "step": ids[int(m[1])], "gather": True}
    return {"source": "literal", "value": said}


def test_inputs_limit_and_success_check(plan: dict[str, Any]) -> None:
    assert [i["name"] for i in plan["inputs"]] == list(MEANT["inputs"])
    [limit] = MEANT["workflow_policies"]
    assert plan["limits"]["wall_time_s"] == limit["meaning"]["timeout_s"]
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith(f":{limit['line']}")
    last = plan["steps"][-1]
    assert checked_schema(plan, last)["properties"]["posted"].get("const") is True  # done_when $post.posted = true


@pytest.mark.parametrize("number", [s["number"] for s in MEANT["steps"]])
def test_each_step_as_meant(plan: dict[str, Any], number: int) -> None:
    ids = {n: s["id"] for n, s in enumerate(plan["steps"], 1)}
    meant, step = MEANT["steps"][number - 1], plan["steps"][number - 1]
    wrong = []
    if step["skill"] != meant["skill"]:
        wrong.append("skill")
    if set(step["depends_on"]) != {ids[n] for n in meant["depends_on"]}:
        wrong.append("depends_on")
    if bool(step["for_each"]) != bool(meant["for_each"]):
        wrong.append("for_each")
    for name, said in meant["inputs"].items():
        got = step["inputs"].get(name) or {}
        if any(got.get(k) != v for k, v in _source(said, ids).items()):
            wrong.append(f"input {name}")
    for p in meant["policies"]:
        if policy_misses(step["policy"], p["meaning"]):
            wrong.append(f"policy l.{p['line']}")
    assert wrong == [k for (n, k) in KNOWN if n == number], wrong


def test_no_warning_left(plan: dict[str, Any]) -> None:
    assert [w["message"] for w in plan["warnings"]] == []


@pytest.mark.parametrize("n", range(1 + len(MEANT.get("more_runs") or [])))
def test_each_run_reaches_the_authors_final_output(n: int, tmp_path: Path) -> None:
    result = run_to_the_end(SPEC, run_inputs(MEANT, n), tmp_path, *SKILLS)
    assert final_output(result) == run_wanted(MEANT, n)
