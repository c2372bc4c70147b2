"""holdout31 194 (tests/fixtures/foreign-specs-holdout31/194-scope-night-dot): a Graphviz DOT graph (an oval input
node, a note node holding a literal, box nodes labelled with skills, edge labels = handoffs, `//` rules), through
the real CLI. Blind (BLIND-RESULTS.md, 194) 4/5 steps were right, but the note node's `site = "LP-2"` was made a
required workflow input and both runs were refused. Now the note node is the literal of the step its edge reaches,
the oval node NIGHT the workflow input along its edges (`spec.dot_notes47`), and both runs end with the author's final output. What is still wrong is in KNOWN, with why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    expectation,
    final_output,
    plan_json,
    policy_misses,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout31" / "194-scope-night-dot"
SPEC = FOLDER / "nightly.dot"

# what is still read wrong, and why
KNOWN: dict[str, str] = {
    "step 2 policy l.14": "'queue server gets 90 s then it's a fail' is a // comment line of its own under queue-fetch's "
                          "node line; it is warned 'not understood: 90 s' and dropped (the step has no attempt limit)",
    "success check l.29": "'ok when observer-notify comes back posted = true' is not read as the run's check (warned)",
}

if not SPEC.exists():  # pragma: no cover - the fixture ships with the repo
    pytest.skip("holdout31 194 fixture missing", allow_module_level=True)


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, "--skills-dir", str(FOLDER / "skills"))


def _by_skill(plan: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["skill"]: s for s in plan["steps"]}


def test_the_steps_their_order_and_their_deps(plan: dict[str, Any]) -> None:
    steps = _by_skill(plan)
    ids = {s["id"]: s["skill"] for s in plan["steps"]}
    assert [s["skill"] for s in plan["steps"]] == [
        "weather-poll", "queue-fetch", "visibility-calc", "schedule-build", "observer-notify"]
    assert steps["weather-poll"]["depends_on"] == [] and steps["queue-fetch"]["depends_on"] == []
    assert [ids[d] for d in steps["visibility-calc"]["depends_on"]] == ["queue-fetch"]
    assert {ids[d] for d in steps["schedule-build"]["depends_on"]} == {"weather-poll", "visibility-calc"}
    assert [ids[d] for d in steps["observer-notify"]["depends_on"]] == ["schedule-build"]


def test_the_note_node_is_weather_polls_literal_not_an_input(plan: dict[str, Any]) -> None:
    site = _by_skill(plan)["weather-poll"]["inputs"]["site"]
    assert (site["source"], site["value"]) == ("literal", "LP-2")
    assert "site" not in {i["name"] for i in plan["inputs"]}
    said = [w["message"] for w in plan["warnings"] if w.get("line") == 10]
    assert said and "note node `site` is read as fixed values" in said[0]


def test_each_input_from_where_the_author_meant(plan: dict[str, Any]) -> None:
    steps = _by_skill(plan)
    ids = {s["id"]: s["skill"] for s in plan["steps"]}
    vis = steps["visibility-calc"]
    assert vis["for_each"]["source"]["pointer"] == "/targets"
    assert ids[vis["for_each"]["source"]["step"]] == "queue-fetch"
    assert {k: (v["source"], v["pointer"]) for k, v in vis["inputs"].items()} == {
        "name": ("item", "/name"), "ra_h": ("item", "/ra_h"), "night": ("input", "")}
    build = steps["schedule-build"]["inputs"]
    assert ids[build["targets"]["step"]] == "visibility-calc" and build["targets"].get("gather") is True
    assert ids[build["cloud_pct"]["step"]] == "weather-poll" and build["cloud_pct"]["pointer"] == "/cloud_pct"
    post = steps["observer-notify"]["inputs"]
    assert ids[post["plan"]["step"]] == "schedule-build" and ids[post["count"]["step"]] == "schedule-build"
    assert post["night"]["source"] == "input"


@pytest.mark.parametrize("number", [1, 4, 5])
def test_each_steps_policy_lines(plan: dict[str, Any], number: int) -> None:
    meant = expectation(FOLDER)["steps"][number - 1]
    policy = _by_skill(plan)[meant["skill"]]["policy"]
    for line in meant["policies"]:
        assert policy_misses(policy, line["meaning"]) == [], line["text"]


@pytest.mark.xfail(strict=True, reason=KNOWN["step 2 policy l.14"])
def test_the_queue_servers_90_s_then_fail(plan: dict[str, Any]) -> None:
    meant = expectation(FOLDER)["steps"][1]
    policy = _by_skill(plan)["queue-fetch"]["policy"]
    assert policy_misses(policy, meant["policies"][0]["meaning"]) == []


def test_the_whole_run_limit(plan: dict[str, Any]) -> None:
    assert plan["limits"]["wall_time_s"] == 1200.0


def test_the_oval_node_is_the_one_workflow_input_night_along_its_edges(plan: dict[str, Any]) -> None:
    assert [i["name"] for i in plan["inputs"]] == ["NIGHT"]
    steps = _by_skill(plan)
    for skill in ("queue-fetch", "visibility-calc", "observer-notify"):
        night = steps[skill]["inputs"]["night"]
        assert (night["source"], night["name"]) == ("input", "NIGHT"), skill


@pytest.mark.parametrize("n", [0, 1])
def test_each_run_ends_as_the_author_computed(n: int, tmp_path: Path) -> None:
    meant = expectation(FOLDER)
    result = run_to_the_end(SPEC, run_inputs(meant, n), tmp_path, "--skills-dir", str(FOLDER / "skills"))
    assert final_output(result) == run_wanted(meant, n)
