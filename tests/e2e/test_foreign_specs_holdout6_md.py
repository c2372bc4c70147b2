"""The sixth holdout's markdown specs the rules' shapes could not read (39 a handover note whose steps
are bold-titled bullets in two lists, 40 a wiki definition list with skills as links, 42 a CAB form
whose steps are (a)-(e) under a setext heading, 44 a plain-text I./A./1. memo with skills in 'single
quotes'), through the real `skillweave`: each is read anchored on the catalog skills it names, so it
validates with a `spec.anchored` warning at every step taken; the steps are the author's (skill,
dependencies, inputs, fan-out, branch) where listed so, and a run reaches the author's final output
where listed so. What is not read as meant yet is listed with its reason; a listed item that starts
passing must leave the list.
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
    plan_json,
    reduce_dependencies,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout6"
FOLDERS = ["39-oncall-handover", "40-license-audit-wiki", "42-firewall-cab-form", "44-price-memo-outline"]

# (folder, step number or "run") -> why it is not read or run as its author meant yet
KNOWN: dict[tuple[str, str], str] = {
    ("39-oncall-handover", "1"): "its skill input `report` is meant to take the workflow input `disk_report`, which "
                                 "is named only in the TL;DR section (no reader takes it for the inputs)",
    ("39-oncall-handover", "run"): "the inputs are named only in the TL;DR section, which no reader takes for the "
                                   "inputs: step 1's skill input `report` is a workflow input of its own name, so "
                                   "the author's `disk_report` is refused as an unknown input",
}


def _plan(folder: str) -> dict[str, Any]:
    return plan_json(HOLDOUT / folder / "spec.md")


def _source(binding: dict[str, Any]) -> str:
    """A plan input binding in expect.yaml's words."""
    if binding["source"] == "input":
        return f"workflow input {binding['name']}"
    if binding["source"] == "item":
        return "each item"
    if binding.get("gather") and not binding["pointer"]:
        return f"all results of step {binding['step'].removeprefix('step-')}, gathered"
    return f"step {binding['step'].removeprefix('step-')} output {binding['pointer'].lstrip('/')}"


def _as_meant(step: dict[str, Any], meant: dict[str, Any], plan: dict[str, Any], folder: str) -> bool:
    """The plan step is the author's: its skill, its dependencies (after `reduce_dependencies` on
    both sides), each input from the source meant, a fan-out over the step meant, a condition and
    a person's approval where they are meant."""
    if step["skill"] != meant["skill"] or step["id"] != f"step-{meant['number']}":
        return False
    planned = reduce_dependencies({s["id"]: set(s["depends_on"]) for s in plan["steps"]})
    wanted = reduce_dependencies({f"step-{m['number']}": {f"step-{n}" for n in m["depends_on"]}
                                  for m in expectation(HOLDOUT / folder)["steps"]})
    if planned[step["id"]] != wanted[step["id"]]:
        return False
    if (step["policy"]["approval"] is not None) != (meant["approval"] is not None):
        return False
    for name, said in meant["inputs"].items():
        bound = step["inputs"].get(name)
        if bound is None or not _source(bound).startswith(said.split(" (")[0].split(" or ")[0]):
            return False
    if (step["for_each"] is not None) != (meant["for_each"] is not None):
        return False
    if meant["for_each"] is not None and step["for_each"]["source"]["step"] != "step-" + meant["for_each"]["over"].split()[1]:
        return False
    return (step["when"] is not None) == (meant["condition"] is not None)


def _steps(folder: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(folder, str(m["number"]), m) for m in expectation(HOLDOUT / folder)["steps"]]


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_spec_validates_read_anchored_on_its_skills_with_a_warning_at_each_step(folder: str) -> None:
    assert_validates(HOLDOUT / folder / "spec.md")
    plan = _plan(folder)
    meant = expectation(HOLDOUT / folder)["steps"]
    assert [s["skill"] for s in plan["steps"]] == [m["skill"] for m in meant]
    anchored = [w for w in plan["warnings"] if w["code"] == "spec.anchored"]
    assert [w["line"] for w in anchored] == [int(s["where"].rpartition(":")[2]) for s in plan["steps"]]
    assert all(f"because it names `{s['skill']}`" in s["provenance"]["read.step"]["note"] for s in plan["steps"])


@pytest.mark.parametrize(("folder", "number", "meant"), [p for f in FOLDERS for p in _steps(f)],
                         ids=[f"{f[:2]}-step{n}" for f in FOLDERS for _, n, _ in _steps(f)])
def test_each_step_is_the_authors(folder: str, number: str, meant: dict[str, Any]) -> None:
    plan = _plan(folder)
    steps = {s["id"]: s for s in plan["steps"]}
    as_meant = _as_meant(steps[f"step-{number}"], meant, plan, folder)
    if (folder, number) in KNOWN:
        assert not as_meant, "fixed: remove it from KNOWN"
        return
    assert as_meant, (meant, steps[f"step-{number}"])


def test_the_handover_notes_two_first_steps_start_together_as_its_lead_line_says() -> None:
    steps = _plan("39-oncall-handover")["steps"]
    assert (steps[0]["depends_on"], steps[1]["depends_on"]) == ([], [])
    assert steps[1]["provenance"]["read.depends_on"]["where"].endswith(":15")
    assert steps[2]["policy"]["fallback"]["skill"] == "rank-hosts-simple"  # named only as the fallback: no step


def test_the_wikis_glossary_term_that_names_no_skill_is_no_step_and_is_warned() -> None:
    plan = _plan("40-license-audit-wiki")
    assert [s["name"] for s in plan["steps"]] == ["Manifest split", "License check", "Roll-up", "NOTICE render"]
    assert any(w["line"] == 37 and "not read" in w["message"] for w in plan["warnings"])


def test_the_cab_forms_fields_are_no_steps_and_its_if_else_is_a_condition_and_its_other_side() -> None:
    plan = _plan("42-firewall-cab-form")
    steps = plan["steps"]
    assert [s["where"].rpartition(":")[2] for s in steps] == ["20", "22", "24", "28", "30"]
    assert "risk" in steps[2]["when"] and steps[3]["when"] == f"not ({steps[2]['when']})"
    assert plan["limits"]["wall_time_s"] == 5400  # line 34, outside any step: the whole run's limit


def test_the_memos_cfo_sign_off_is_step_3s_approval_with_its_48_hour_no() -> None:
    """44 l.30 'The brief goes to the CFO for sign-off ... 48 hours ... declined' (round 39; 39's and 42's since
    round 11): asked only on the branch that runs step 3, a silence of 48 h a no."""
    approval = _plan("44-price-memo-outline")["steps"][2]["policy"]["approval"]
    assert approval == {"required": True, "timeout_s": 172800.0, "on_timeout": "reject"}


def test_the_memos_done_line_said_twice_is_read_by_its_plain_words_on_log_decisions_log_id() -> None:
    """44 l.44 'We are done when the decision log holds an entry, i.e. log-decision hands back a log ID'
    (round 40): the words after "i.e." are the check, `log_id` not empty on step 5's output."""
    plan = _plan("44-price-memo-outline")
    [check] = plan["run_checks"]
    assert (check["step"], check["where"].rpartition(":")[2], check["written"]) == ("step-5", "44", "log_id is not empty")


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_run_with_the_authors_inputs_reaches_the_authors_final_output(folder: str, tmp_path: Path) -> None:
    expected = expectation(HOLDOUT / folder)
    if (folder, "run") in KNOWN:
        import json

        inputs = tmp_path / "inputs.json"
        inputs.write_text(json.dumps(expected["inputs"]), encoding="utf-8")
        ran = run("run", str(HOLDOUT / folder / "spec.md"), "--input-file", str(inputs), "--json",
                  "--state-dir", str(tmp_path / "state"))
        said = json.loads(ran.stdout)
        reached = said.get("status") == "succeeded" and final_output(said) == expected["final_output"]
        assert not reached, "fixed: remove it from KNOWN"
        assert said.get("status") != "succeeded"  # never `succeeded` with another output
        return
    result = run_to_the_end(HOLDOUT / folder / "spec.md", expected["inputs"], tmp_path)
    assert final_output(result) == expected["final_output"]

