"""holdout29 178, a parish pew-sheet rota (plain text, `N. what -> skill` items with indented continuation
lines), through the real `skillweave`: the plan as its author meant it (expect.yaml) and both of its runs
to the author's final output.

Read blind, step 2's "for each notice: its group, text and until" was no loop (group/text/until unbound)
and waited on step 1; step 3 took the raw `notices` input, not step 2's results gathered; step 4's
"copies 120" was lost; line 24's "try again after 10 sec then 30 sec then give up" was read as no retry
(silently); line 29's "5 mins" time limit was not read. Anything still wrong is listed in KNOWN with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, final_output, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout29" / "178-parish-pewsheet-rota"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
# what still reads wrong (check name -> why); empty: every check below passes
KNOWN: dict[str, str] = {}

if not (FOLDER / "expect.yaml").is_file():  # the corpus is not shipped with every checkout
    pytest.skip(f"{FOLDER} is not here", allow_module_level=True)


@pytest.fixture(scope="module")
def meant() -> dict[str, Any]:
    return expectation(FOLDER)


@pytest.fixture(scope="module")
def steps(meant: dict[str, Any]) -> dict[int, dict[str, Any]]:
    plan = plan_json(FOLDER / meant["spec"], *SKILLS)
    return {int(s["id"].rsplit("-", 1)[1]): s for s in plan["steps"]}


def test_each_step_runs_its_skill_and_waits_for_what_it_reads(meant: dict[str, Any],
                                                              steps: dict[int, dict[str, Any]]) -> None:
    assert len(steps) == len(meant["steps"])
    for want in meant["steps"]:
        got = steps[want["number"]]
        assert got["skill"] == want["skill"]
        assert sorted(got["depends_on"]) == sorted(f"step-{n}" for n in want["depends_on"]), got["id"]
        assert got["when"] is None


def test_step_2_loops_over_the_notices_and_step_3_gathers_its_results(steps: dict[int, dict[str, Any]]) -> None:
    loop = steps[2]["for_each"]
    assert loop is not None and loop["source"] == {**loop["source"], "source": "input", "name": "notices"}
    assert {n: (b["source"], b["pointer"]) for n, b in steps[2]["inputs"].items() if n != "sunday"} == {
        "group": ("item", "/group"), "text": ("item", "/text"), "until": ("item", "/until")}
    assert (steps[2]["inputs"]["sunday"]["source"], steps[2]["inputs"]["sunday"]["name"]) == ("input", "sunday")
    notices = steps[3]["inputs"]["notices"]
    assert (notices["source"], notices["step"], notices.get("gather")) == ("step", "step-2", True)
    for name in ("title", "readings"):
        assert (steps[3]["inputs"][name]["source"], steps[3]["inputs"][name]["step"]) == ("step", "step-1")


def test_step_4_prints_120_copies_of_step_3_s_sheet(steps: dict[int, dict[str, Any]]) -> None:
    inputs = steps[4]["inputs"]
    assert (inputs["copies"]["source"], inputs["copies"]["value"]) == ("literal", 120)
    assert (inputs["sheet"]["source"], inputs["sheet"]["step"], inputs["sheet"]["pointer"]) == ("step", "step-3", "/sheet")


def test_each_policy_line_is_read_as_meant(steps: dict[int, dict[str, Any]]) -> None:
    first, second, fourth = steps[1]["policy"], steps[2]["policy"], steps[4]["policy"]
    assert (first["fallback"]["action"], first["fallback"]["skill"]) == ("skill", "lectionary-offline")
    assert (second["retry"]["max_retries"], second["retry"]["delays_s"]) == (2, [10.0, 30.0])
    assert second["fallback"]["action"] == "fail"
    assert (fourth["retry"]["max_retries"], fourth["retry"]["delays_s"]) == (2, [120.0])
    assert fourth["attempt_timeout_s"] == 300
    assert steps[3]["policy"]["retry"]["max_retries"] == 0


def _runs(meant: dict[str, Any]) -> list[Any]:
    return [pytest.param(meant["inputs"], meant["final_output"], "succeeded", id="run-1")] + [
        pytest.param(r["inputs"], r["final_output"], "degraded", id=f"run-{i}")
        for i, r in enumerate(meant.get("more_runs", []), start=2)]


@pytest.mark.parametrize(("inputs", "wanted", "status"), _runs(expectation(FOLDER)) if (FOLDER / "expect.yaml").is_file()
                         else [])
def test_each_run_reaches_the_authors_final_output(tmp_path: Path, inputs: Any, wanted: Any, status: str) -> None:
    # run 2's lectionary-lookup has no 2026-12-20 and exits 1: the fallback lectionary-offline gives the
    # readings, and a run that went on by a fallback says so (`degraded`), honestly
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    spec = FOLDER / expectation(FOLDER)["spec"]
    ran = run("run", str(spec), *SKILLS, "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    report = json.loads(ran.stdout)
    assert report["status"] == status
    assert final_output(report) == wanted
