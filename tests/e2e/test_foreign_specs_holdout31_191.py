"""holdout31 191, a hotel night audit written as a Java .properties file (`step.N.skill` / `in` / `out` /
`with` / `foreach` / `after` keys, `${...}` references, each step's rules as `#` comments under its keys),
through the real `skillweave`: the plan as its author meant it (expect.yaml) and both of its runs to the
author's final output.

Read blind, the shape was not recognised: business_date was not read (runs refused), `audit.maxMinutes=45`
became step 1's `date = 45` and `step.2.with=1` step 2's `date = 1`, step 2 waited for step 1, the for-each
over no_shows (the card charge) was lost and step 1's retries dropped. Anything still wrong is listed in KNOWN
with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, final_output, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout31" / "191-night-audit-properties"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
# what still reads wrong (check name -> why); each is a listed check, not hidden
KNOWN: dict[str, str] = {
    "limit_cited_at_line_11": "the whole-run limit 2700 s is right but cited at `audit.maxMinutes=45` (line 11), the "
                              "key repeating line 10's comment, not at line 10 itself",
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


def test_each_step_runs_its_skill_and_waits_for_what_the_author_said(meant: dict[str, Any],
                                                                     steps: dict[int, dict[str, Any]]) -> None:
    assert len(steps) == len(meant["steps"])
    for want in meant["steps"]:
        got = steps[want["number"]]
        assert got["skill"] == want["skill"]
        assert sorted(got["depends_on"]) == sorted(f"step-{n}" for n in want["depends_on"]), got["id"]
        assert got["when"] is None


def test_each_input_comes_from_where_the_author_said(plan: dict[str, Any], steps: dict[int, dict[str, Any]]) -> None:
    def src(n: int, name: str) -> tuple[Any, ...]:
        b = steps[n]["inputs"][name]
        return b["source"], b.get("name"), b.get("step"), b.get("pointer"), b.get("value"), bool(b.get("gather"))

    assert [i["name"] for i in plan["inputs"]] == ["business_date"]
    assert src(1, "date")[:2] == ("input", "business_date") and src(2, "date")[:2] == ("input", "business_date")
    assert src(1, "hotel")[0::4] == ("literal", "HRB")
    loop = steps[3]["for_each"]
    assert (loop["source"]["source"], loop["source"]["step"], loop["source"]["pointer"]) == ("step", "step-1", "/no_shows")
    assert (steps[3]["inputs"]["reservation"]["source"], steps[3]["inputs"]["reservation"]["pointer"]) == ("item", "/res_id")
    assert (steps[3]["inputs"]["nights"]["source"], steps[3]["inputs"]["nights"]["pointer"]) == ("item", "/nights")
    assert src(3, "fee")[0::4] == ("literal", 35)
    assert src(4, "rooms")[2:4] == ("step-1", "/rooms_sold") and src(4, "revenue")[2:4] == ("step-1", "/room_revenue")
    assert src(4, "parity_ok")[2:4] == ("step-2", "/parity_ok")
    assert src(4, "fees")[2] == "step-3" and src(4, "fees")[5]  # all step 3's results, gathered
    assert src(5, "body")[2:4] == ("step-4", "/text")


def test_each_policy_line_is_read_as_meant(plan: dict[str, Any], steps: dict[int, dict[str, Any]]) -> None:
    first = steps[1]["policy"]["retry"]
    assert (first["max_retries"], first["delays_s"]) == (2, [30.0, 120.0])
    assert steps[1]["policy"]["fallback"]["action"] == "fail"
    second = steps[2]["policy"]
    assert second["attempt_timeout_s"] == 60
    assert (second["fallback"]["action"], second["fallback"]["value"]) == ("default", {"parity_ok": True, "gap_pct": 0})
    assert steps[3]["policy"]["retry"]["max_retries"] == 0
    [rule] = steps[5]["policy"]["rules"]
    assert rule["fallback"]["skill"] == "sms-gm"
    assert plan["limits"]["wall_time_s"] == 2700
    assert steps[5]["output_schema"]["properties"]["sent"] == {"const": True}  # line 41, the done check


def test_nothing_is_warned_but_the_old_step_left_in_a_comment(plan: dict[str, Any]) -> None:
    said = [(w.get("line"), w["message"]) for w in plan["warnings"]]
    assert len(said) == 1 and "print-report" in said[0][1], said


def test_the_known_gaps_are_still_gaps(plan: dict[str, Any]) -> None:
    where = plan["limits_provenance"]["wall_time_s"]["where"]
    assert where.endswith(":11"), "limit_cited_at_line_11 now reads: take it out of KNOWN"


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
