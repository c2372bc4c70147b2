"""The twenty-eighth holdout's code-shaped specs (171 a go-task Taskfile.yml, 175 a `.env` file, 176 a
Rakefile), through the real `skillweave`: each step's skill, dependencies, inputs' sources, fan-out,
condition and approval as expect.yaml says, each policy line read as meant, the whole-run limit and the
success check, and each run (more_runs too) ending with the author's final output. What is not read or
run as meant yet is in KNOWN (entry -> why); a listed entry that starts passing must leave the list.
"""

from __future__ import annotations

from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    RunReports,
    expectation,
    folder_plan,
    line_of,
    meant_binding,
    policy_line_cases,
    policy_misses,
    reduce_dependencies,
    run_wanted,
)

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout28"
SPECS = {"171-aq-nightly-taskfile": "Taskfile.yml", "175-rent-arrears-env": "rent-chase.env",
         "176-pick-call-rakefile": "Rakefile"}
FOLDERS = list(SPECS)

# (folder, what) -> why it is not read or run as its author meant yet; what: "plan", "whole", "success" or "run N"
KNOWN: dict[tuple[str, str], str] = {
}
# (folder, line, n-th policy of that line) -> why that policy line is not read as meant yet
KNOWN_POLICIES: dict[tuple[str, int, int], str] = {
}


def _xfail(folder: str, what: str) -> list[Any]:
    why = KNOWN.get((folder, what))
    return [pytest.mark.xfail(reason=why, strict=True)] if why else []


def _plan(folder: str) -> dict[str, Any]:
    return folder_plan(HOLDOUT, folder)


def _meant(said: str, ids: dict[int, str]) -> dict[str, Any]:
    """`meant_binding`, "step 2 output f or step 3 output f, whichever ran" a join, and a value said as it is (not a
    workflow input, an item or a step's) a literal."""
    if said.endswith("whichever ran"):
        parts = [meant_binding(p.strip(), ids) for p in said.rsplit(",", 1)[0].split(" or ")]
        return {"source": "step", "any_of": [p["step"] for p in parts], "pointer": parts[0]["pointer"]}
    if said.startswith(("workflow input", "each item", "all results of step", "step ")):
        return meant_binding(said, ids)
    return {"source": "literal", "value": said}


def _steps_as_meant(folder: str) -> list[str]:
    """What of the plan's steps is not as expect.yaml says (skill, dependencies, inputs' sources, fan-out,
    condition, the branch it is the otherwise of, approval)."""
    plan, meant = _plan(folder), expectation(HOLDOUT / folder)
    wrong: list[str] = []
    if len(plan["steps"]) != len(meant["steps"]):
        return [f"{len(plan['steps'])} steps, not {len(meant['steps'])}"]
    ids = {m["number"]: f"step-{m['number']}" for m in meant["steps"]}
    planned = reduce_dependencies({s["id"]: set(s["depends_on"]) for s in plan["steps"]})
    wanted = reduce_dependencies({ids[m["number"]]: {ids[n] for n in m["depends_on"]} for m in meant["steps"]})
    for step, m in zip(plan["steps"], meant["steps"], strict=True):
        sid = ids[m["number"]]
        if step["skill"] != m["skill"]:
            wrong.append(f"{sid} skill {step['skill']}")
        if planned[sid] != wanted[sid]:
            wrong.append(f"{sid} depends on {sorted(planned[sid])}")
        for name, said in m["inputs"].items():
            bound = step["inputs"].get(name)
            if bound is None or _meant(said, ids) != {k: v for k, v in bound.items() if k in _meant(said, ids)}:
                wrong.append(f"{sid} input {name}: {bound}")
        if (step["for_each"] is None) != (m["for_each"] is None) or (
                m["for_each"] and step["for_each"]["source"]["step"] != ids[int(m["for_each"].split()[1])]):
            wrong.append(f"{sid} for_each {step['for_each']}")
        if (step["when"] is None) != (m["condition"] is None):
            wrong.append(f"{sid} condition {step['when']}")
        if (step["policy"]["approval"] is None) != (m["approval"] is None):
            wrong.append(f"{sid} approval {step['policy']['approval']}")
    return wrong


@pytest.mark.parametrize("folder", [pytest.param(f, marks=_xfail(f, "plan"), id=f[:3]) for f in FOLDERS])
def test_the_steps_are_the_authors(folder: str) -> None:
    assert _steps_as_meant(folder) == []


@pytest.mark.parametrize(("folder", "number", "line", "meaning"), policy_line_cases(HOLDOUT, FOLDERS, KNOWN_POLICIES))
def test_each_policy_line_is_read_as_meant(folder: str, number: int, line: int, meaning: dict[str, Any]) -> None:
    step = _plan(folder)["steps"][number - 1]
    assert step["id"] == f"step-{number}"
    assert policy_misses(step["policy"], meaning) == []


@pytest.mark.parametrize("folder", [pytest.param(f, marks=_xfail(f, "whole"), id=f[:3]) for f in FOLDERS])
def test_the_whole_run_limit_is_read_at_its_line(folder: str) -> None:
    plan, meant = _plan(folder), expectation(HOLDOUT / folder)["workflow_policies"][0]
    assert plan["limits"]["wall_time_s"] == meant["meaning"]["timeout_s"]
    assert line_of(plan["limits_provenance"]["wall_time_s"]["where"]) == meant["line"]


@pytest.mark.parametrize("folder", [pytest.param(f, marks=_xfail(f, "success"), id=f[:3]) for f in FOLDERS])
def test_the_success_check_is_on_the_step_meant(folder: str) -> None:
    plan, meant = _plan(folder), expectation(HOLDOUT / folder)["success_criteria"]
    step = "step-" + meant["meaning"].split()[1]
    field, value = meant["meaning"].split(" output ", 1)[1].split(" == ")
    checks = [c for c in plan["run_checks"] if c["step"] == step]
    assert checks and checks[0]["schema"]["properties"][field] == {"const": value == "true"}
    assert line_of(checks[0]["where"]) == meant["line"]


def _runs() -> list[Any]:
    cases = []
    for folder in FOLDERS:
        meant = expectation(HOLDOUT / folder)
        for n in range(1 + len(meant.get("more_runs") or [])):
            said = meant if n == 0 else meant["more_runs"][n - 1]
            if "approval_answer" in said or (n and said.get("final_output") is None):
                continue  # an approval's runs (175's) answer it or stay silent: the holdout book makes them
            cases.append(pytest.param(folder, n, marks=_xfail(folder, f"run {n}"), id=f"{folder[:3]}-run{n}"))
    return cases


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> RunReports:
    return RunReports(tmp_path_factory.mktemp("h28code"), lambda f: HOLDOUT / f / SPECS[f],
                      lambda f: expectation(HOLDOUT / f))


@pytest.mark.parametrize(("folder", "n"), _runs())
def test_each_run_ends_with_the_authors_final_output(folder: str, n: int, reports: RunReports) -> None:
    report = reports(folder, n)
    assert report["status"] == "succeeded", report.get("error")
    last = [s["step_id"] for s in report["steps"] if s["step_id"] in report["outputs"]][-1]
    assert report["outputs"][last] == run_wanted(expectation(HOLDOUT / folder), n)


def test_the_taskfile_is_read_as_its_tasks_not_as_the_yaml_form() -> None:
    assert _plan("171-aq-nightly-taskfile")["spec"]["format"] == "markdown"
