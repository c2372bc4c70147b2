"""holdout30 186, a bookkeeper's todo.txt (the +monthend tasks numbered "1/".."5/" are the steps, the rules
trail after " -- "), through the real `skillweave`: the plan as its author meant it (expect.yaml) and both
of its runs to the author's final output.

Read blind, step 3 took step 1's raw `lines` ("all the categorised lines in one go" meant step 2's results,
gathered; runs failed at step 3), step 4's `vat_rate` "at 0.2" was lost, line 3's inputs ("fill CLIENT
and MONTH (YYYY-MM) in when I kick it off") came from the skills' names, and line 9's done check
("monthend = done when 5/ gives me a subject line that isn't empty") and whole-run limit ("max 1hr for
the lot") were not read. Anything still wrong is listed in KNOWN with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, final_output, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout30" / "186-bookkeeper-todo-txt"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
# what still reads wrong (check name -> why); each is a listed check, not hidden
KNOWN: dict[str, str] = {
    "todo_txt_shape": "the todo.txt shape is not recognised: each step is found by the skill it names (the "
                      "anchored reading, warned 'the document's shape was not recognised' on every step)",
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


def test_each_step_runs_its_skill_and_waits_for_what_it_reads(meant: dict[str, Any],
                                                              steps: dict[int, dict[str, Any]]) -> None:
    assert len(steps) == len(meant["steps"])
    for want in meant["steps"]:
        got = steps[want["number"]]
        assert got["skill"] == want["skill"]
        assert sorted(got["depends_on"]) == sorted(f"step-{n}" for n in want["depends_on"]), got["id"]
        assert got["when"] is None


def test_each_input_comes_from_where_the_author_said(steps: dict[int, dict[str, Any]]) -> None:
    def src(n: int, name: str) -> tuple[Any, ...]:
        b = steps[n]["inputs"][name]
        return b["source"], b.get("name"), b.get("step"), b.get("pointer"), b.get("value"), bool(b.get("gather"))

    assert src(1, "client") == ("input", "client", None, "", None, False)
    assert src(1, "month") == ("input", "month", None, "", None, False)
    loop = steps[2]["for_each"]
    assert (loop["source"]["source"], loop["source"]["step"], loop["source"]["pointer"]) == ("step", "step-1", "/lines")
    assert {n: (b["source"], b["pointer"]) for n, b in steps[2]["inputs"].items()} == {
        "desc": ("item", "/desc"), "amount_p": ("item", "/amount_p")}
    assert src(3, "lines") == ("step", None, "step-2", "", None, True)  # all step 2's results, gathered
    assert src(4, "net_p")[:4] == ("step", None, "step-3", "/net_p")
    assert src(4, "vat_rate")[0::4] == ("literal", 0.2)
    assert src(5, "client")[:2] == ("input", "client") and src(5, "month")[:2] == ("input", "month")
    assert src(5, "net_p")[2:4] == ("step-3", "/net_p") and src(5, "vat_due_p")[2:4] == ("step-4", "/vat_due_p")


def test_each_policy_line_is_read_as_meant(plan: dict[str, Any], steps: dict[int, dict[str, Any]]) -> None:
    first = steps[1]["policy"]["retry"]
    assert (first["max_retries"], first["delays_s"]) == (4, [60.0])
    assert steps[2]["policy"]["attempt_timeout_s"] == 20
    fallback = steps[4]["policy"]["fallback"]
    assert (fallback["action"], fallback["value"]) == ("default", {"vat_due_p": 0})
    for n in (3, 5):
        assert steps[n]["policy"]["retry"]["max_retries"] == 0 and steps[n]["policy"]["fallback"]["action"] == "fail"
    assert plan["limits"]["wall_time_s"] == 3600
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith("todo.txt:9")  # read, not the default


def test_line_9_is_the_runs_success_check_on_step_5(plan: dict[str, Any]) -> None:
    [check] = plan["run_checks"]
    assert check["step"] == "step-5" and check["where"].endswith("todo.txt:9")
    assert check["schema"]["required"] == ["subject"] and check["schema"]["properties"]["subject"]["minLength"] == 1


def test_line_3_declares_the_inputs_client_and_month(plan: dict[str, Any]) -> None:
    """'fill CLIENT and MONTH (YYYY-MM) in when I kick it off': the inputs, read from line 3 and warned there,
    not derived from the skills (`spec.start_names46`)."""
    assert [i["name"] for i in plan["inputs"]] == ["client", "month"]
    codes = [w.get("code") for w in plan["warnings"]]
    assert "derived-inputs" not in codes
    [said] = [w for w in plan["warnings"] if w.get("code") == "plan.inputs-in-prose"]
    assert said["line"] == 3 and "'CLIENT' as `client`, 'MONTH' as `month`" in said["message"]


def test_the_known_gaps_are_still_gaps(plan: dict[str, Any]) -> None:
    codes = [w.get("code") for w in plan["warnings"]]
    assert codes.count("spec.anchored") == 5, "todo_txt_shape now reads: take it out of KNOWN"


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
