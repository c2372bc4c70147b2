"""The seventh holdout's data and control flow, read from each step's own words, through the real
`skillweave`: conditions in a step's title (47 "② Score ≥ 70 → a human", "③ Everything below 70" as
its otherwise-branch), a join after whichever ran ("Whichever of ② / ③ ran"), a skill's one input
with its fields ("`account` (object: `id`, ...)"), the doer between a step's arrows (50 "Rank + publish
→ `rank-leaderboard` with ... → `top`, `count`") and a plain-word workflow input (45 "=parse-ledger= on
ledger_csv"). The headline is the runs that reach their author's final output; what is not read or run
as meant yet is listed with its reason, and a listed item that starts passing must leave the list.
"""

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
    reduce_dependencies,
    run,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout7"
FLOW = ["45-invoice-recon-org", "47-churn-triage-slides", "50-leaderboard-trello-card"]
APPROVED = "48-refund-bot-faq"  # its second run waits for a team lead (a refund over 200 EUR), then goes on

# (folder, run index: 0 the main run, 1.. its more_runs) -> why it does not reach the author's final output yet
KNOWN_RUNS: dict[tuple[str, int], str] = {
    ("49-tls-rotate-playbook", 0): "reaches the author's final output through the `rescue:` fallback skill, so the "
                                   "run is `degraded`, not `succeeded` (asserted as such in "
                                   "test_foreign_specs_holdout7_yaml.py)",
}


def _plan(folder: str) -> dict[str, Any]:
    return plan_json(HOLDOUT / folder / "spec.md")


def _runs() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for folder in sorted(p.name for p in HOLDOUT.iterdir() if (p / "expect.yaml").is_file()):
        expected = expectation(HOLDOUT / folder)
        out += [(folder, 0)] + [(folder, i + 1) for i, more in enumerate(expected.get("more_runs") or [])
                                if "final_output" in more]
    return out


def _source(binding: dict[str, Any]) -> str:
    """A plan input binding in expect.yaml's words."""
    if binding["source"] == "input":
        return f"workflow input {binding['name']}"
    if binding.get("any_of"):
        field = binding["pointer"].lstrip("/")
        return " or ".join(f"step {s.removeprefix('step-')} output {field}" for s in binding["any_of"])
    return f"step {binding['step'].removeprefix('step-')} output {binding['pointer'].lstrip('/')}"


def _meant(folder: str) -> list[tuple[str, dict[str, Any]]]:
    return [(folder, m) for m in expectation(HOLDOUT / folder)["steps"]]


@pytest.mark.parametrize(("folder", "meant"), [p for f in FLOW for p in _meant(f)],
                         ids=[f"{f[:2]}-step{m['number']}" for f in FLOW for _, m in _meant(f)])
def test_each_step_reads_its_inputs_dependencies_and_condition_as_its_author_meant(folder: str,
                                                                                     meant: dict[str, Any]) -> None:
    plan = _plan(folder)
    step = {s["id"]: s for s in plan["steps"]}[f"step-{meant['number']}"]
    assert step["skill"] == meant["skill"]
    planned = reduce_dependencies({s["id"]: set(s["depends_on"]) for s in plan["steps"]})
    wanted = reduce_dependencies({f"step-{m['number']}": {f"step-{n}" for n in m["depends_on"]}
                                  for m in expectation(HOLDOUT / folder)["steps"]})
    assert planned[step["id"]] == wanted[step["id"]]
    assert set(step["inputs"]) == set(meant["inputs"])
    for name, said in meant["inputs"].items():
        assert _source(step["inputs"][name]) == said.split(" (")[0], name
    assert (step["when"] is not None) == (meant["condition"] is not None)


def test_the_slides_threshold_title_and_everything_below_it_are_a_condition_and_its_otherwise() -> None:
    plan = _plan("47-churn-triage-slides")
    human, nurture, log = plan["steps"][1:]
    assert human["when"] == "steps['step-1'].output.score >= 70"
    assert nurture["when"] == f"not ({human['when']})"
    assert (log["join"], log["inputs"]["action"]["any_of"]) == ("any", ["step-2", "step-3"])
    warned = {w["line"] for w in plan["warnings"] if w["code"] == "spec.lead-condition"}
    assert warned == {35, 43}
    assert [i["name"] for i in plan["inputs"]] == ["account"]  # one input with its fields, not six


def test_the_cards_arrow_names_the_doer_and_only_what_follows_its_own_arrow_is_output() -> None:
    step = _plan("50-leaderboard-trello-card")["steps"][3]
    assert step["output_schema"]["required"] == ["top", "count"]
    assert "rank-leaderboard" not in step["output_schema"]["properties"]
    assert set(step["input_schema"]["properties"]) == {"rows", "countries"}


def test_the_outlines_plain_word_is_a_workflow_input_and_no_warning_repeats_the_text() -> None:
    plan = _plan("45-invoice-recon-org")
    assert [i["name"] for i in plan["inputs"]] == ["invoice_csv", "ledger_csv"]
    assert not [w for w in plan["warnings"] if w["code"] == "plan.input-renamed"]


@pytest.mark.parametrize(("folder", "index"), _runs(), ids=[f"{f[:2]}-run{i}" for f, i in _runs()])
def test_a_run_with_the_authors_inputs_reaches_the_authors_final_output(folder: str, index: int,
                                                                      tmp_path: Path) -> None:
    expected = expectation(HOLDOUT / folder)
    said = expected if index == 0 else expected["more_runs"][index - 1]
    spec = HOLDOUT / folder / expected["spec"]
    if (folder, index) in KNOWN_RUNS:
        inputs = tmp_path / "inputs.json"
        inputs.write_text(json.dumps(said["inputs"]), encoding="utf-8")
        ran = run("run", str(spec), "--input-file", str(inputs), "--json", "--state-dir", str(tmp_path / "state"))
        report = json.loads(ran.stdout) if ran.stdout.strip().startswith("{") else {}
        reached = report.get("status") == "succeeded" and final_output(report) == said["final_output"]
        assert not reached, "fixed: remove it from KNOWN_RUNS"
        assert report.get("status") != "succeeded"  # never `succeeded` with another output
        return
    result = run_to_the_end(spec, said["inputs"], tmp_path)
    assert final_output(result) == said["final_output"]


def test_the_faqs_big_refund_waits_for_a_person_and_once_approved_ends_with_the_authors_output(
        tmp_path: Path) -> None:
    expected = expectation(HOLDOUT / APPROVED)
    said = expected["more_runs"][0]
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(said["inputs"]), encoding="utf-8")
    state = str(tmp_path / "state")

    paused = run("run", str(HOLDOUT / APPROVED / "spec.md"), "--input-file", str(inputs), "--json", "--state-dir", state)

    report = json.loads(paused.stdout)
    assert (paused.returncode, report["status"], report["awaiting"]) == (3, "paused", ["step-3"])
    assert run("approve", report["run_id"], "step-3", "--state-dir", state).returncode == 0
    resumed = run("resume", report["run_id"], "--json", "--state-dir", state)
    done = json.loads(resumed.stdout)
    assert done["status"] == "succeeded"
    assert final_output(done) == said["final_output_after_approval"]
