"""One workflow written the way five tools' users write theirs (tests/fixtures/yaml-dialects):
GitHub Actions, GitLab CI, Argo Workflows, Tekton, Airflow (dag-factory) and AWS Step Functions, through the real
`skillweave` executable: each validates with no warning, plans the skills, dependencies,
fan-out, item fields, gathered results, conditions, approvals, retries and timeouts its
author meant (expect.yaml there, asserted on `plan --format json`), and runs in the real
sandbox to the same final output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import (
    FIXTURES,
    expectation,
    last_step_with_output,
    plan_json,
    reduce_dependencies,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

DIALECTS = FIXTURES / "yaml-dialects"
SKILLS = FIXTURES / "foreign-specs-holdout2" / "19-docs-site" / "skills"
WITH_SKILLS = ("--skills-dir", str(SKILLS))
EXPECT = expectation(DIALECTS)
SPECS = sorted(EXPECT["specs"])


def binding(said: str) -> tuple[str, str | None, str]:
    """`input x` / `item f` / `step s f` / `gathered s` → (source, name or step, pointer)."""
    words = said.split()
    if words[0] == "input":
        return "input", words[1], ""
    if words[0] == "item":
        return "item", None, f"/{words[1]}"
    if words[0] == "gathered":
        return "step", words[1], ""
    return "step", words[1], f"/{words[2]}"


def test_every_dialect_spec_is_in_the_expectations() -> None:
    assert sorted(p.name for p in DIALECTS.iterdir() if p.name != "expect.yaml") == SPECS


@pytest.mark.parametrize("spec", SPECS)
def test_a_spec_in_a_tool_s_own_dialect_validates_with_nothing_left_unread(spec: str) -> None:
    result = run("validate", str(DIALECTS / spec), "--json", *WITH_SKILLS)
    report = json.loads(result.stdout)
    assert result.returncode == 0, report["errors"]
    assert [w for w in report["warnings"] if spec in (w.get("file") or "")] == []


@pytest.mark.parametrize("spec", SPECS)
def test_a_spec_in_a_tool_s_own_dialect_plans_what_its_author_meant(spec: str) -> None:
    steps = plan_json(DIALECTS / spec, *WITH_SKILLS)["steps"]
    meant = EXPECT["specs"][spec]["steps"]
    assert [s["id"] for s in steps] == [m["id"] for m in meant]
    got = reduce_dependencies({s["id"]: set(s["depends_on"]) for s in steps})
    for step, m in zip(steps, meant, strict=True):
        sid, policy = m["id"], step["policy"]
        assert step["skill"] == m["skill"], sid
        assert got[sid] == set(m["depends_on"]), (sid, step["depends_on"])
        loop = step.get("for_each")
        assert ((loop["source"]["step"], loop["source"]["pointer"]) if loop else None) == (
            tuple(m["for_each"]) if "for_each" in m else None), sid
        assert step.get("when") == m.get("when"), sid
        assert {n: (b["source"], b.get("name") if b["source"] == "input" else b.get("step"), b["pointer"])
                for n, b in step["inputs"].items()} == {n: binding(v) for n, v in m["inputs"].items()}, sid
        assert policy["attempt_timeout_s"] == m.get("timeout_s"), sid
        assert (policy["approval"] is not None) == m.get("approval", False), sid
        assert policy["on_error"] == m.get("on_error", "fail"), sid
        retry = m.get("retry", {})
        assert policy["retry"]["max_retries"] == retry.get("retries", 0), sid
        if "waits" in retry:
            assert policy["retry"]["delays_s"] == retry["waits"], sid
        if "factor" in retry:
            assert (policy["retry"]["initial_s"], policy["retry"]["multiplier"]) == (retry["start"], retry["factor"])
        rules = {r["on"]: r["retry"]["max_retries"] for r in policy["rules"] if r.get("retry")}
        assert rules == m.get("rules", {}), sid


@pytest.mark.parametrize("spec", SPECS)
def test_a_spec_in_a_tool_s_own_dialect_runs_to_its_authors_final_output(spec: str, tmp_path: Path) -> None:
    result = run_to_the_end(DIALECTS / spec, EXPECT["specs"][spec]["run_inputs"], tmp_path, *WITH_SKILLS)
    last = last_step_with_output(result)
    assert last == EXPECT["specs"][spec]["steps"][-1]["id"]
    assert result["outputs"][last] == EXPECT["final_output"]
