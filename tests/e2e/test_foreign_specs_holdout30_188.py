"""holdout30 188, an MS Project task sheet saved as fixed-width text, through the real `skillweave`: the custom-field
legend (Text1-3 / Number1-3) is the inputs, each row whose Resource Names cell is a skill a step (its Predecessors
the step's dependencies, none: it starts at once; its Notes and a `>>` wrapped line its text), the summary task's
note the whole run's limit (`spec.task_sheet46`); "grade C25/30 always" the literal "C25/30"; `slab_len_m` given to
`length_m`; the approval over £5,000 only when the price is over 5000. Every expect.yaml run reaches its output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout30" / "188-slab-pour-msproject"
SPEC = FOLDER / "slab-pour-template.txt"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))

if not SPEC.is_file():
    pytest.skip("holdout30 188 is not in this checkout", allow_module_level=True)

# what is still not as its author meant, with why; each is checked to be still so (a fixed one must leave)
KNOWN: dict[str, str] = {
    "l12-wait-as-retry": "'text him, wait 1 hr' (the approval's wait) is also read as a retry's wait and warned as "
                         "disagreeing with l.11's 'Never resend': an untrue warning (l.11 wins, the policy is right)",
    "l18-chatter-in-step-5": "the pump-hire remark after the sheet is kept as step 5's description, not warned as "
                             "not read (it names no policy and changes no value); a section of its own would lose "
                             "l.17's success check, which is read in step 5's text",
}

MEANT_INPUTS = {"step-1": {"pour_date": ("input", "pour_date"), "postcode": ("input", "postcode")},
                "step-2": {"length_m": ("input", "slab_len_m"), "width_m": ("input", "slab_wid_m"),
                           "depth_mm": ("input", "slab_depth_mm"), "grade": ("literal", "C25/30")},
                "step-3": {"volume_m3": ("step-2", "/volume_m3"), "grade": ("step-2", "/grade"),
                           "frost": ("step-1", "/frost")},
                "step-4": {"supplier": ("step-3", "/supplier"), "price_gbp": ("step-3", "/price_gbp"),
                           "pour_date": ("input", "pour_date")},
                "step-5": {"plot": ("input", "plot"), "pour_date": ("input", "pour_date"),
                           "order_ref": ("step-4", "/order_ref")}}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, *SKILLS)


def _source(binding: dict[str, Any]) -> tuple[str, str]:
    if binding["source"] == "input":
        return "input", binding["name"]
    if binding["source"] == "step":
        return binding["step"], binding["pointer"]
    return "literal", binding["value"]


def test_the_legend_is_the_inputs_and_each_skill_row_a_step(plan: dict[str, Any]) -> None:
    assert {i["name"] for i in plan["inputs"]} == {"plot", "pour_date", "postcode", "slab_len_m", "slab_wid_m",
                                                    "slab_depth_mm"}
    steps = {s["id"]: s for s in plan["steps"]}
    meant = expectation(FOLDER)["steps"]
    assert [s["skill"] for s in plan["steps"]] == [m["skill"] for m in meant]
    for m in meant:
        assert steps[f"step-{m['number']}"]["depends_on"] == [f"step-{d}" for d in m["depends_on"]], m["number"]
    for sid, inputs in MEANT_INPUTS.items():
        assert {k: _source(v) for k, v in steps[sid]["inputs"].items()} == inputs, sid


def test_the_policies_read_as_meant(plan: dict[str, Any]) -> None:
    steps = {s["id"]: s["policy"] for s in plan["steps"]}
    assert plan["limits"]["wall_time_s"] == 7200
    assert steps["step-1"]["attempt_timeout_s"] == 30
    assert steps["step-1"]["fallback"]["value"] == {"rain_mm": 0, "frost": False}
    assert steps["step-3"]["retry"]["max_retries"] == 3 and steps["step-3"]["retry"]["delays_s"] == [30, 60, 120]
    assert steps["step-4"]["retry"]["max_retries"] == 0
    assert steps["step-4"]["approval"] == {"required": True, "timeout_s": 3600, "on_timeout": "reject",
                                           "when": "steps['step-3'].output.price_gbp > 5000"}
    assert [s for s, p in steps.items() if p["approval"]] == ["step-4"]
    assert any("booked" in json.dumps(c) for c in plan["run_checks"])


def _run(inputs: dict[str, Any], tmp_path: Path) -> tuple[int, dict[str, Any], str]:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    state = str(tmp_path / "state")
    ran = run("run", str(SPEC), *SKILLS, "--input-file", str(file), "--json", "--state-dir", state)
    return ran.returncode, json.loads(ran.stdout), state


def test_run_1_a_small_slab_needs_no_approval(tmp_path: Path) -> None:
    meant = expectation(FOLDER)
    code, report, _ = _run(meant["inputs"], tmp_path)
    assert (code, report["status"]) == (0, "succeeded")
    assert report["outputs"]["step-5"] == meant["final_output"]


def test_run_2_a_big_slab_waits_for_gary_and_goes_on_once_approved(tmp_path: Path) -> None:
    meant = expectation(FOLDER)["more_runs"][0]
    code, report, state = _run(meant["inputs"], tmp_path)
    assert (code, report["status"], report["awaiting"]) == (3, "paused", ["step-4"])
    assert run("approve", report["run_id"], "step-4", "--state-dir", state).returncode == 0
    resumed = run("resume", report["run_id"], "--json", "--state-dir", state)
    done = json.loads(resumed.stdout)
    assert (resumed.returncode, done["status"]) == (0, "succeeded")
    assert done["outputs"]["step-5"] == meant["final_output"]


def test_run_3_silence_holds_the_order_and_the_run_stops_there(tmp_path: Path, plan: dict[str, Any]) -> None:
    meant = expectation(FOLDER)["more_runs"][1]
    code, report, _ = _run(meant["inputs"], tmp_path)
    assert (code, report["status"], report["awaiting"]) == (3, "paused", ["step-4"])
    assert "step-4" not in report["outputs"] and "step-5" not in report["outputs"]
    gate = next(s for s in plan["steps"] if s["id"] == "step-4")["policy"]["approval"]
    assert (gate["timeout_s"], gate["on_timeout"]) == (3600, "reject")  # an hour's silence: rejected, no order


def test_what_is_still_known_is_still_so(plan: dict[str, Any]) -> None:
    warned = " ".join(str(w) for w in plan["warnings"])
    still = {"l12-wait-as-retry": "disagrees with 'Never resend" in warned,
             "l18-chatter-in-step-5": "pump hire" not in warned}
    assert still == dict.fromkeys(KNOWN, True), "a KNOWN entry is fixed: take it out of KNOWN"
