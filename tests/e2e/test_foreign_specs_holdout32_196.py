"""holdout32 196, an auction house's Sieve mail filter (`set "item" "${1}"` inputs, `execute :output "lot"
"classify-lot" ["item=${item}"]` / `pipe "send-reply" [...]` calls, `if string :is "${lot.department}" "jewellery"
{ } else { }`, rules in the `#` comments under each call), through the real `skillweave`: the plan as its author
meant it (expect.yaml) and its three runs: the vase straight through, the ring approved and resumed, the ring
met by four hours' silence holding at the approval that then sends it anyway.

Read blind, the file was refused: read as markdown, each `:output "name"` was a continue-with-value breaking the
step's output contract, l.24's two retries were one, l.31's fallback an invented step, the approval asked on every
run with no time limit and silence a rejection. Anything still wrong is listed in KNOWN with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    expectation,
    final_output,
    plan_json,
    policy_misses,
    run,
    run_inputs,
    run_wanted,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout32" / "196-auction-valuation-mail"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))
# what still reads wrong (warning line -> why); each is a listed check, not hidden
KNOWN: dict[int, str] = {
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


def test_the_inputs_are_the_mails_values(plan: dict[str, Any]) -> None:
    assert sorted((i["name"], i["where"].rsplit(":", 1)[1]) for i in plan["inputs"]) == [
        ("item", "13"), ("photos", "28"), ("seller", "14")]


def test_each_step_runs_its_skill_when_and_after_what_the_author_said(meant: dict[str, Any],
                                                                      steps: dict[int, dict[str, Any]]) -> None:
    assert len(steps) == len(meant["steps"])
    for want in meant["steps"]:
        got = steps[want["number"]]
        assert got["skill"] == want["skill"], got["id"]
        assert sorted(got["depends_on"]) == sorted(f"step-{n}" for n in want["depends_on"]), got["id"]
        assert got["for_each"] is None
    assert steps[3]["when"] == "steps['step-1'].output.department == 'jewellery'"
    assert steps[4]["when"] == "not (steps['step-1'].output.department == 'jewellery')"
    assert all(steps[n]["when"] is None for n in (1, 2, 5, 6))


def test_each_input_comes_from_where_the_author_said(steps: dict[int, dict[str, Any]]) -> None:
    def src(n: int, name: str) -> tuple[Any, ...]:
        b = steps[n]["inputs"][name]
        return b["source"], b.get("name") or b.get("step"), b.get("pointer")

    assert src(1, "item") == ("input", "item", "")
    assert src(2, "email") == ("input", "seller", "")
    assert src(3, "photos") == ("input", "photos", "")
    assert src(4, "department") == ("step", "step-1", "/department")
    for name in ("low", "high", "valuer"):  # whichever estimate ran
        either = steps[5]["inputs"][name]
        assert (sorted(either["any_of"]), either["pointer"]) == (["step-3", "step-4"], f"/{name}"), either
    assert src(5, "past_lots") == ("step", "step-2", "/past_lots")
    assert src(6, "to") == ("input", "seller", "")
    assert src(6, "subject") == ("step", "step-5", "/subject")


def test_each_policy_line_and_the_approval_are_read_as_meant(meant: dict[str, Any], plan: dict[str, Any],
                                                             steps: dict[int, dict[str, Any]]) -> None:
    for want in meant["steps"]:
        for said in want["policies"]:
            assert policy_misses(steps[want["number"]]["policy"], said["meaning"]) == [], (want["number"], said)
    approval = steps[6]["policy"]["approval"]
    assert (approval["when"], approval["timeout_s"], approval["on_timeout"]) == (
        "steps['step-5'].output.top > 5000", 14400, "approve")
    assert steps[6]["policy"]["attempt_timeout_s"] is None  # the 4 hours are Margaret's, not the send's
    assert all(steps[n]["policy"]["approval"] is None for n in range(1, 6))
    assert plan["limits"]["wall_time_s"] == 21600
    assert any(w["line"] == 45 and "is read as the run's success check" in w["message"] for w in plan["warnings"])
    # the 6 hours are read; "Margaret's wait included" is not (a run's limit counts no approval wait), and said so
    assert any(w["line"] == 46 and "does not count time spent waiting at an approval" in w["message"]
               for w in plan["warnings"])


def test_no_warning_but_the_known_ones_says_a_line_was_not_read(plan: dict[str, Any]) -> None:
    unread = {w["line"] for w in plan["warnings"] if "not understood" in w["message"] or "no call of a skill" in w["message"]
              or "whichever" in w["message"]}
    assert unread == set(KNOWN), "a KNOWN line now reads: take it out" if unread < set(KNOWN) else unread


def _run(tmp_path: Path, inputs: dict[str, Any]) -> tuple[dict[str, Any], str]:
    file, state = tmp_path / "inputs.json", str(tmp_path / "state")
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(FOLDER / expectation(FOLDER)["spec"]), *SKILLS, "--input-file", str(file), "--json",
              "--state-dir", state)
    return json.loads(ran.stdout), state


def test_the_vase_runs_straight_through_without_asking(tmp_path: Path, meant: dict[str, Any]) -> None:
    report, _ = _run(tmp_path, run_inputs(meant, 0))
    assert report["status"] == "succeeded", report.get("error")
    assert "step-3" not in report["outputs"]  # ceramics: the general estimate
    assert final_output(report) == run_wanted(meant, 0)


def test_the_ring_waits_for_margaret_and_is_sent_once_she_approves(tmp_path: Path, meant: dict[str, Any]) -> None:
    report, state = _run(tmp_path, run_inputs(meant, 1))
    assert (report["status"], report["awaiting"]) == ("paused", ["step-6"]), report.get("error")
    run("approve", report["run_id"], "step-6", "--state-dir", state)
    report = json.loads(run("resume", report["run_id"], "--json", "--state-dir", state).stdout)
    assert report["status"] == "succeeded", report.get("error")
    assert "step-4" not in report["outputs"]  # jewellery: the jewellery estimate
    assert final_output(report) == run_wanted(meant, 1)


def test_four_hours_of_silence_hold_at_the_approval_that_then_sends_it(tmp_path: Path, meant: dict[str, Any],
                                                                       steps: dict[int, dict[str, Any]]) -> None:
    report, _ = _run(tmp_path, run_inputs(meant, 2))
    assert (report["status"], report["awaiting"]) == ("paused", ["step-6"]), report.get("error")
    approval = steps[6]["policy"]["approval"]
    assert (approval["timeout_s"], approval["on_timeout"]) == (meant["steps"][5]["approval"]["wait_s"], "approve")
