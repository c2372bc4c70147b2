"""The fifth holdout's recipe card (36) and spreadsheet tab (37) through the real `skillweave`:
each validates, its steps are the author's (a bold-lead paragraph a step, a table row a step, the
TOTAL row none), the policy lines sit on the steps they were written for, the whole-run limit and
the approval are read, and each run reaches the author's final output. What is still not read is
listed with its reason; a listed item that starts passing must leave the list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    assert_validates,
    expectation,
    final_output,
    meant_binding,
    plan_json,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout5"
FOLDERS = ["36-tenant-recipe-card", "37-retention-sheet"]

# (folder, what) -> why it is not read as the author meant yet
KNOWN: dict[tuple[str, str], str] = {
    ("36-tenant-recipe-card", "success"): "'It's ready when… `recipients` equals the number of admins in the plan' "
                                          "compares two steps' outputs; a check across steps has no place in the "
                                          "plan (the section is warned as not read)",
    ("37-retention-sheet", "success"): "'Check (row 9): `count` in #4 must equal the number of keys in `purgeable` "
                                       "from #3' compares two steps' outputs, as above; it stays in the intent",
    ("36-tenant-recipe-card", "29"): "'A slow one gets a single retry after 2s' is read as a retry on timeouts "
                                     "only (a rule), not for every failure of the step",
    ("37-retention-sheet", "9"): "'if the hold API is still down use purgeable = []': the retries and the value "
                                 "are a rule for transient failures (the API being down), not for every failure",
}


def _plan(folder: str) -> dict[str, Any]:
    return plan_json(HOLDOUT / folder / "spec.md")


def _meant(said: str, ids: dict[int, str]) -> dict[str, Any]:
    if said.startswith("each item"):
        return {"source": "item"}
    if said.startswith("all results of step"):
        return {"source": "step", "step": ids[int(said.split()[4].rstrip(","))], "gather": True}
    return meant_binding(said, ids)


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_spec_validates(folder: str) -> None:
    assert_validates(HOLDOUT / folder / "spec.md")


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_steps_are_the_authors_with_their_skills_inputs_and_dependencies(folder: str) -> None:
    meant = expectation(HOLDOUT / folder)["steps"]
    steps = _plan(folder)["steps"]
    ids = {m["number"]: f"step-{m['number']}" for m in meant}
    assert [(s["id"], s["name"], s["skill"]) for s in steps] == [
        (ids[m["number"]], m["name"], m["skill"]) for m in meant]
    for step, m in zip(steps, meant, strict=True):
        assert set(step["depends_on"]) == {ids[n] for n in m["depends_on"]}, m["name"]
        for name, said in m["inputs"].items():
            wanted = _meant(said, ids)
            assert {k: step["inputs"][name].get(k) for k in wanted} == wanted, (m["name"], name)
        assert (step["for_each"] is not None) == (m["for_each"] is not None), m["name"]


def _policy_as_meant(policy: dict[str, Any], meaning: dict[str, Any]) -> bool:
    retry = policy["retry"]
    for key, value in meaning.items():
        if key == "retries" and (retry is None or retry["max_retries"] != value):
            return False
        if key == "no_retry" and retry not in (None,) and retry["max_retries"] != 0:
            return False
        if key == "timeout_s" and policy["attempt_timeout_s"] != value:
            return False
        if key == "wait" and value["kind"] == "fixed" and (retry is None or retry["delays_s"] != [value["seconds"]]):
            return False
        if key == "wait" and value["kind"] == "exponential" and (
                retry is None or (retry["initial_s"], retry["multiplier"]) != (value["start"], value["factor"])):
            return False
        if key == "continue_with_value":
            fallback = policy["fallback"]
            if fallback["action"] not in ("continue", "default") or any(fallback["value"].get(k) != v for k, v in value.items()):
                return False
    return True


def _policy_lines(folder: str) -> list[tuple[str, int, dict[str, Any]]]:
    meant = expectation(HOLDOUT / folder)["steps"]
    return [(f"step-{m['number']}", p["line"], p["meaning"]) for m in meant for p in m["policies"]]


@pytest.mark.parametrize(("folder", "sid", "line", "meaning"),
                         [(f, *p) for f in FOLDERS for p in _policy_lines(f)],
                         ids=[f"{f[:2]}-l{p[1]}-{i}" for f in FOLDERS for i, p in enumerate(_policy_lines(f))])
def test_each_policy_line_is_on_its_step_as_meant(folder: str, sid: str, line: int, meaning: dict[str, Any]) -> None:
    step = next(s for s in _plan(folder)["steps"] if s["id"] == sid)
    as_meant = _policy_as_meant(step["policy"], meaning)
    if (folder, str(line)) in KNOWN:
        assert not as_meant, "fixed: remove it from KNOWN"
        assert any(r["where"].endswith(f":{line}") for r in step["policy"]["rules"])  # read, as a rule
        return
    assert as_meant, (line, meaning, step["policy"])


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_whole_run_limit_is_read_from_its_line(folder: str) -> None:
    (limit,) = expectation(HOLDOUT / folder)["workflow_policies"]
    plan = _plan(folder)
    assert plan["limits"]["wall_time_s"] == limit["meaning"]["timeout_s"]
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith(f":{limit['line']}")


def test_the_cards_tasting_paragraph_is_an_approval_that_approves_when_nobody_answers() -> None:
    steps = {s["name"]: s for s in _plan("36-tenant-recipe-card")["steps"]}
    assert steps["Serve"]["policy"]["approval"] == {"required": True, "timeout_s": 7200.0, "on_timeout": "approve"}
    assert [n for n, s in steps.items() if s["policy"]["approval"]] == ["Serve"]


def test_the_sheets_total_row_is_no_step_and_no_column_header_is_read_as_a_policy() -> None:
    plan = _plan("37-retention-sheet")
    assert len(plan["steps"]) == 5
    assert not [w for w in plan["warnings"] if "'retry': it says to retry" in w["message"]]


def test_the_recipe_card_runs_to_the_authors_output_once_tasted(tmp_path: Path) -> None:
    import json

    expected = expectation(HOLDOUT / "36-tenant-recipe-card")
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(expected["inputs"]), encoding="utf-8")
    state = str(tmp_path / "state")
    ran = run("run", str(HOLDOUT / "36-tenant-recipe-card" / "spec.md"), "--input-file", str(inputs), "--json",
              "--state-dir", state)
    paused = json.loads(ran.stdout)
    assert ran.returncode == 3 and paused["status"] == "paused" and paused["awaiting"] == ["step-4"], paused
    assert run("approve", paused["run_id"], "step-4", "--state-dir", state).returncode == 0
    resumed = run("resume", paused["run_id"], "--json", "--state-dir", state)
    after = json.loads(resumed.stdout)
    assert resumed.returncode == 0 and after["status"] == "succeeded", after
    assert final_output(after) == expected["final_output_after_approval"]


def test_the_sheet_runs_to_the_authors_output(tmp_path: Path) -> None:
    expected = expectation(HOLDOUT / "37-retention-sheet")
    result = run_to_the_end(HOLDOUT / "37-retention-sheet" / "spec.md", expected["inputs"], tmp_path)
    assert final_output(result) == expected["final_output"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_success_check_not_held_is_warned_at_its_line(folder: str) -> None:
    assert (folder, "success") in KNOWN
    line = expectation(HOLDOUT / folder)["success_criteria"]["line"]
    warned = [w for w in _plan(folder)["warnings"] if "success check" in w["message"]]
    assert [w["line"] for w in warned] in ([line], [line - 2])  # the line, or the heading two lines above it
