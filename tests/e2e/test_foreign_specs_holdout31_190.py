"""holdout31 190, a CAD technician's Windows batch file for stake-out prep (`set JOB=%1` inputs, `REM n.`
step comments with the rules as indented REM lines, `call skill x key=%VAR%`, `if %outliers% GTR 0 ( ) else
( )`), through the real `skillweave`: the plan as its author meant it (expect.yaml) and both of its runs to
the author's final output.

Read blind, the file was refused: read as markdown, line 18's `outlier-scan` call was merged into step 1
("named here but no step runs it"), the branch's condition and otherwise were lost, job-log's status and
summary came from one arm only. Anything still wrong is listed in KNOWN with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, final_output, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout31" / "190-stakeout-prep-bat"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
# what still reads wrong (check name -> why); each is a listed check, not hidden
KNOWN: dict[str, str] = {
    "success_check_line_34": "'REM OK = job-log says logged=true' is not read as the run's success check (no "
                             "warning either): the script reader reads a `jq -e` check, not a comment's",
}

if not (FOLDER / "expect.yaml").is_file():  # the corpus is not shipped with every checkout
    pytest.skip(f"{FOLDER} is not here", allow_module_level=True)


@pytest.fixture(scope="module")
def meant() -> dict[str, Any]:
    return expectation(FOLDER)


@pytest.fixture(scope="module")
def plan(meant: dict[str, Any]) -> dict[str, Any]:
    return plan_json(FOLDER / meant["spec"], *SKILLS)


@pytest.fixture(scope="module")
def steps(plan: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(s["id"].rsplit("-", 1)[1]): s for s in plan["steps"]}


def test_the_inputs_are_the_set_lines_arguments(plan: dict[str, Any]) -> None:
    assert [(i["name"], i["where"].rsplit(":", 1)[1]) for i in plan["inputs"]] == [("JOB", "8"), ("TOL", "9")]


def test_each_step_runs_its_skill_and_waits_for_what_it_reads(meant: dict[str, Any],
                                                              steps: dict[int, dict[str, Any]]) -> None:
    assert len(steps) == len(meant["steps"])
    for want in meant["steps"]:
        got = steps[want["number"]]
        assert got["skill"] == want["skill"]
        assert sorted(got["depends_on"]) == sorted(f"step-{n}" for n in want["depends_on"]), got["id"]
    assert steps[3]["when"] == "steps['step-2'].output.outliers > 0"
    assert steps[4]["when"] == "not (steps['step-2'].output.outliers > 0)"  # the else: exactly when step 3 did not run
    assert steps[5]["join"] == "any" and all(steps[n]["when"] is None for n in (1, 2, 5))


def test_each_input_comes_from_where_the_author_said(steps: dict[int, dict[str, Any]]) -> None:
    def src(n: int, name: str) -> tuple[Any, ...]:
        b = steps[n]["inputs"][name]
        return b["source"], b.get("name"), b.get("step"), b.get("pointer"), b.get("value")

    assert src(1, "job") == ("input", "JOB", None, "", None)
    assert src(2, "points") == ("step", None, "step-1", "/points", None)
    assert src(2, "tolerance_mm") == ("input", "TOL", None, "", None)
    assert src(3, "job") == ("input", "JOB", None, "", None)
    assert src(3, "outliers") == ("step", None, "step-2", "/outliers", None)
    assert src(4, "points") == ("step", None, "step-2", "/clean_points", None)
    assert src(4, "format")[0::4] == ("literal", "GSI16")
    assert src(5, "job") == ("input", "JOB", None, "", None)
    for name in ("status", "summary"):  # from whichever of steps 3 and 4 ran
        assert src(5, name)[3] == f"/{name}" and steps[5]["inputs"][name]["any_of"] == ["step-3", "step-4"]


def test_each_policy_line_is_read_as_meant(plan: dict[str, Any], steps: dict[int, dict[str, Any]]) -> None:
    assert steps[1]["policy"]["attempt_timeout_s"] == 120
    second = steps[2]["policy"]["retry"]
    assert (second["max_retries"], second["delays_s"]) == (3, [5.0, 10.0, 20.0])
    fallback = steps[4]["policy"]["fallback"]
    assert (fallback["action"], fallback["value"]) == ("default", {"status": "EXPORT FAILED", "summary": "export by hand"})
    last = steps[5]["policy"]["retry"]
    assert (last["max_retries"], last["delays_s"]) == (1, [10.0])
    assert steps[3]["policy"]["retry"]["max_retries"] == 0 and steps[3]["policy"]["fallback"]["action"] == "fail"
    assert plan["limits"]["wall_time_s"] == 900
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith("stakeout_prep.bat:33")
    assert not any("'abort'" in w["message"] for w in plan["warnings"])  # "dont abort, carry on with ...": read whole


def test_the_known_gaps_are_still_gaps(plan: dict[str, Any]) -> None:
    assert not plan.get("run_checks"), "success_check_line_34 now reads: take it out of KNOWN"


def _runs(meant: dict[str, Any]) -> list[Any]:
    return [pytest.param(meant["inputs"], meant["final_output"], id="run-1")] + [
        pytest.param(r["inputs"], r["final_output"], id=f"run-{i}")
        for i, r in enumerate(meant.get("more_runs", []), start=2)]


@pytest.mark.parametrize(("inputs", "wanted"), _runs(expectation(FOLDER)) if (FOLDER / "expect.yaml").is_file() else [])
def test_each_run_reaches_the_authors_final_output(tmp_path: Path, inputs: Any, wanted: Any) -> None:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    spec = FOLDER / expectation(FOLDER)["spec"]
    ran = run("run", str(spec), *SKILLS, "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    report = json.loads(ran.stdout)
    assert report["status"] == "succeeded"
    assert final_output(report) == wanted
