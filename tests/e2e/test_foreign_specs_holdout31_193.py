"""holdout31 193, a fax cover sheet typed as plain text, through the real `skillweave`: the dotted fill-in lines are
the inputs, each "N. skill - ..." item a step with every line it wraps onto (a wrapped line opening "1." is the
sentence going on, `spec.wrapped_item47`), "if nothing back use rate-card-quote" a fallback and no step of its
own, 'paper is always "Otterbury Gazette"' a literal that "same paper" gives step 4 too, the family's OK only
when the price from 3 is over 150, "carry on as sent = no" a value to go on with, and "finished when 4 says
published = yes" the run's check on step 4 (`spec.success_says47`). Every expect.yaml run reaches its output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, plan_json, run

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout31" / "193-death-notice-fax"
SPEC = FOLDER / "fax-notices.txt"
SKILLS = ("--skills-dir", str(FOLDER / "skills"))

if not SPEC.is_file():
    pytest.skip("holdout31 193 is not in this checkout", allow_module_level=True)

# what is still not as its author meant, with why; each is checked to be still so (a fixed one must leave)
KNOWN: dict[str, str] = {}

MEANT_INPUTS = {"step-1": {"service_date": ("input", "service_date"), "venue": ("input", "venue")},
                "step-2": {"name": ("input", "deceased"), "venue": ("input", "venue"), "time": ("step-1", "/time")},
                "step-3": {"word_count": ("step-2", "/word_count"), "paper": ("literal", "Otterbury Gazette")},
                "step-4": {"text": ("step-2", "/text"), "paper": ("literal", "Otterbury Gazette")},
                "step-5": {"nok_phone": ("input", "nok_phone"), "ref": ("step-4", "/ref"),
                           "price": ("step-3", "/price")}}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, *SKILLS)


def _source(binding: dict[str, Any]) -> tuple[str, str]:
    if binding["source"] == "input":
        return "input", binding["name"]
    if binding["source"] == "step":
        return binding["step"], binding["pointer"]
    return "literal", binding["value"]


def test_the_fill_in_lines_are_the_inputs_and_each_numbered_item_a_step(plan: dict[str, Any]) -> None:
    assert [i["name"] for i in plan["inputs"]] == ["deceased", "service_date", "venue", "nok_phone"]
    steps = {s["id"]: s for s in plan["steps"]}
    meant = expectation(FOLDER)["steps"]
    assert [s["skill"] for s in plan["steps"]] == [m["skill"] for m in meant]  # no rate-card-quote step
    for m in meant:
        assert sorted(steps[f"step-{m['number']}"]["depends_on"]) == [f"step-{d}" for d in m["depends_on"]], m["number"]
    for sid, inputs in MEANT_INPUTS.items():
        assert {k: _source(v) for k, v in steps[sid]["inputs"].items()} == inputs, sid
    assert not any(s["when"] for s in plan["steps"])


def test_the_policies_read_as_meant(plan: dict[str, Any]) -> None:
    steps = {s["id"]: s["policy"] for s in plan["steps"]}
    assert plan["limits"]["wall_time_s"] == 21600
    assert steps["step-1"]["retry"]["max_retries"] == 1 and steps["step-1"]["retry"]["delays_s"] == [60]
    assert steps["step-3"]["attempt_timeout_s"] == 120
    assert steps["step-3"]["fallback"]["skill"] == "rate-card-quote"
    assert steps["step-4"]["retry"]["max_retries"] == 0
    step4 = next(s for s in plan["steps"] if s["id"] == "step-4")
    cited = step4["provenance"]["policy.retry"]
    assert cited["where"].endswith("fax-notices.txt:30") and "ONCE" in cited["note"]  # cited, not the default
    assert steps["step-4"]["approval"] == {"required": True, "timeout_s": 14400, "on_timeout": "reject",
                                           "when": "steps['step-3'].output.price > 150"}
    assert [s for s, p in steps.items() if p["approval"]] == ["step-4"]
    assert steps["step-5"]["fallback"]["value"] == {"sent": False}
    assert any("published" in json.dumps(c) for c in plan["run_checks"])
    warned = " ".join(str(w) for w in plan["warnings"])
    assert "not a comparison" not in warned and "a note keyed" not in warned
    assert "cannot be read" not in warned


def _run(inputs: dict[str, Any], tmp_path: Path) -> tuple[int, dict[str, Any], str]:
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    state = str(tmp_path / "state")
    ran = run("run", str(SPEC), *SKILLS, "--input-file", str(file), "--json", "--state-dir", state)
    return ran.returncode, json.loads(ran.stdout), state


def test_run_1_a_short_notice_needs_no_approval(tmp_path: Path) -> None:
    meant = expectation(FOLDER)
    code, report, _ = _run(meant["inputs"], tmp_path)
    assert (code, report["status"]) == (0, "succeeded")
    assert report["outputs"]["step-5"] == meant["final_output"]


def test_run_2_a_long_notice_waits_for_the_family_and_goes_on_once_approved(tmp_path: Path) -> None:
    meant = expectation(FOLDER)["more_runs"][0]
    code, report, state = _run(meant["inputs"], tmp_path)
    assert (code, report["status"], report["awaiting"]) == (3, "paused", ["step-4"])
    assert run("approve", report["run_id"], "step-4", "--state-dir", state).returncode == 0
    resumed = run("resume", report["run_id"], "--json", "--state-dir", state)
    done = json.loads(resumed.stdout)
    assert (resumed.returncode, done["status"]) == (0, "succeeded")
    assert done["outputs"]["step-5"] == meant["final_output"]


def test_run_3_silence_holds_the_notice_and_the_run_stops_there(tmp_path: Path, plan: dict[str, Any]) -> None:
    meant = expectation(FOLDER)["more_runs"][1]
    code, report, _ = _run(meant["inputs"], tmp_path)
    assert (code, report["status"], report["awaiting"]) == (3, "paused", ["step-4"])
    assert "step-4" not in report["outputs"] and "step-5" not in report["outputs"]
    gate = next(s for s in plan["steps"] if s["id"] == "step-4")["policy"]["approval"]
    assert (gate["timeout_s"], gate["on_timeout"]) == (14400, "reject")  # four hours' silence: not placed


def test_what_is_still_known_is_still_so(plan: dict[str, Any]) -> None:
    still: dict[str, bool] = {}
    assert plan["steps"] and still == dict.fromkeys(KNOWN, True), "a KNOWN entry is fixed: take it out of KNOWN"
