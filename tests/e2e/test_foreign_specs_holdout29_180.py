"""holdout29 180 through the real `skillweave`: a school exams officer's PowerShell script, one
`Invoke-Skill '<name>' @{...}` call per step under `# --- N.` banner comments, the rules as comments, the
run's inputs its `param(...)` block and the whole-run limit and done check in its `.NOTES` help. Blind
(BLIND-RESULTS.md) the spec was refused: the multi-line hashtable call of step 3 was not read, nor the
param block, nor three policy lines, nor the continue value of l.30-31. Here: the plan (each step's skill,
dependencies, each input's source and literal, each policy line, the run's limit and check, no untrue
warning) and each run of expect.yaml to its author's final output with an honest status.

Anything still not so is listed in KNOWN with why (a strict xfail), never hidden."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    assert_ends_as_meant,
    assert_validates,
    expectation,
    line_of,
    meant_binding,
    plan_json,
    policy_misses,
    run,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout29" / "180-exams-mock-results"
if not (FOLDER / "expect.yaml").is_file():
    pytest.skip("holdout29 180 is not in this checkout", allow_module_level=True)
MEANT = expectation(FOLDER)
SPEC = FOLDER / MEANT["spec"]
SKILLS = ("--skills-dir", str(FOLDER / "skills"))

# (aspect, step number or line) -> why it is not read as meant yet: a strict xfail, to leave once it passes
KNOWN: dict[tuple[str, int], str] = {}


def _known(aspect: str, n: int) -> list[Any]:
    why = KNOWN.get((aspect, n))
    return [pytest.mark.xfail(reason=why, strict=True)] if why else []


@pytest.fixture(scope="module", name="plan")
def _plan() -> dict[str, Any]:
    return plan_json(SPEC, *SKILLS)


def _ids(plan: dict[str, Any]) -> dict[int, str]:
    by_skill = {s["skill"]: s["id"] for s in plan["steps"]}
    return {m["number"]: by_skill[m["skill"]] for m in MEANT["steps"]}


def test_the_spec_validates() -> None:
    assert_validates(SPEC)


def test_the_param_block_is_the_runs_inputs_with_the_default(plan: dict[str, Any]) -> None:
    got = {i["name"]: (i["required"], i["default"], line_of(i["where"])) for i in plan["inputs"]}
    assert got == {"Subject": (True, None, 20), "Cohort": (False, "Y11", 20)}
    assert "SIMS" in plan["inputs"][0]["schema"]["description"]  # `.PARAMETER Subject`, l.9-10


@pytest.mark.parametrize("meant", [pytest.param(m, marks=_known("step", m["number"]), id=f"step{m['number']}")
                                   for m in MEANT["steps"]])
def test_each_step_is_read_as_meant(plan: dict[str, Any], meant: dict[str, Any]) -> None:
    ids = _ids(plan)
    steps = {s["id"]: s for s in plan["steps"]}
    assert [s["skill"] for s in plan["steps"]] == [m["skill"] for m in MEANT["steps"]]
    step = steps[ids[meant["number"]]]
    assert set(step["depends_on"]) == {ids[n] for n in meant["depends_on"]}
    assert step["for_each"] is None and step["when"] is None
    assert (step["policy"].get("approval") is None) == (meant["approval"] is None)
    assert set(step["inputs"]) == set(meant["inputs"])
    for name, said in meant["inputs"].items():
        bound = step["inputs"][name]
        if isinstance(said, str) and (said.startswith("workflow input") or " output " in said):
            wanted = meant_binding(said, ids)
            assert {k: bound[k] for k in wanted} == wanted, name
        else:  # a literal: 'Dec mocks 2026', 4
            assert (bound["source"], bound["value"]) == ("literal", said), name


@pytest.mark.parametrize("number,policy", [
    pytest.param(m["number"], p, marks=_known("policy", p["line"]), id=f"step{m['number']}-l{p['line']}")
    for m in MEANT["steps"] for p in m["policies"]])
def test_each_policy_line_is_read_as_meant(plan: dict[str, Any], number: int, policy: dict[str, Any]) -> None:
    step = next(s for s in plan["steps"] if s["id"] == _ids(plan)[number])
    assert policy_misses(step["policy"], policy["meaning"]) == []
    if policy["meaning"].get("retries"):  # "if it errors have another 3 goes": on every error, not on timeouts only
        assert step["policy"]["retry"]["max_retries"] == policy["meaning"]["retries"]


def test_the_whole_runs_limit_and_done_check(plan: dict[str, Any]) -> None:
    assert plan["limits"]["wall_time_s"] == MEANT["workflow_policies"][0]["meaning"]["timeout_s"]
    assert line_of(plan["limits_provenance"]["wall_time_s"]["where"]) == MEANT["workflow_policies"][0]["line"]
    checks = plan["run_checks"]
    assert len(checks) == 1 and "sent" in str(checks[0]) and _ids(plan)[5] in str(checks[0])


def test_no_untrue_warning(plan: dict[str, Any]) -> None:
    """Blind: "who is under a 4" (l.41) a condition, the param block "calls no skill", l.30's value "not read"."""
    untrue = [w["message"] for w in plan["warnings"] if any(
        said in w["message"] for said in ("condition", "not read", "no workflow inputs", "calls no skill", "nothing gives it"))]
    assert untrue == []


@pytest.mark.parametrize("n", [pytest.param(n, marks=_known("run", n), id=f"run{n}")
                               for n in range(1 + len(MEANT.get("more_runs") or []))])
def test_each_run_reaches_its_authors_final_output(plan: dict[str, Any], tmp_path: Path, n: int) -> None:
    if n == 0:
        report = run_to_the_end(SPEC, run_inputs(MEANT, n), tmp_path, *SKILLS)
        assert_ends_as_meant(report, run_wanted(MEANT, n), None)
        return
    (tmp_path / "inputs.json").write_text(json.dumps(run_inputs(MEANT, n)), encoding="utf-8")
    done = run("run", str(SPEC), "--input-file", str(tmp_path / "inputs.json"), "--json", "--state-dir",
               str(tmp_path / "state"), *SKILLS)
    report = json.loads(done.stdout)
    # grade-boundaries exits 1 for CHEM and the run goes on with line 31's boundaries: said (degraded), not hidden
    assert report["status"] == "degraded", report.get("error")
    assert_ends_as_meant(report, run_wanted(MEANT, n), "went on with step 2's fallback value")
    assert [d["step_id"] for d in report["degraded"]] == [_ids(plan)[2]]
