"""The holdout specs (tests/fixtures/foreign-specs-holdout), written by people who never saw
this repository and first evaluated blind (BLIND-RESULTS.md), through the real `skillweave`
executable: each validates, plans the steps, skills, dependencies, fan-outs, gathered inputs,
conditions and routes its author meant (expect.yaml), and runs in the real sandbox to the
author's final output. A spec not there yet is in KNOWN with the reason; nothing is skipped
silently, and a known failure that starts passing must leave the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import (
    FIXTURES,
    SKILL_NAMED_HOW,
    assert_validates,
    expectation,
    final_output,
    folders_of,
    plan_json,
    reduce_dependencies,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout"
FOLDERS = folders_of(HOLDOUT)

# folder -> why it does not validate yet (the owner of the fix in brackets)
KNOWN: dict[str, str] = {
}


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_holdout_spec_validates(folder: str) -> None:
    assert_validates(HOLDOUT / folder / expectation(HOLDOUT / folder)["spec"], known=folder in KNOWN)


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f not in KNOWN])
def test_a_holdout_spec_plans_what_its_author_meant(folder: str) -> None:
    expected = expectation(HOLDOUT / folder)
    plan = plan_json(HOLDOUT / folder / expected["spec"])
    steps, items = plan["steps"], expected["steps"]
    assert len(steps) == len(items), [s["name"] for s in steps]
    ids = {item["number"]: steps[i]["id"] for i, item in enumerate(items)}
    got = reduce_dependencies({s["id"]: set(s["depends_on"]) for s in steps})
    meant = reduce_dependencies({ids[i["number"]]: {ids[n] for n in i["depends_on"] or []} for i in items})
    for item, step in zip(items, steps, strict=True):
        number = item["number"]
        assert step["skill"] == item["skill"], number
        assert step["provenance"]["skill"]["note"].startswith(SKILL_NAMED_HOW[item["skill_named_how"]]), number
        assert got[step["id"]] == meant[step["id"]], (number, step["depends_on"])
        assert (step.get("for_each") is not None) == (item.get("for_each") is not None), number
        assert (step.get("when") is not None) == (item.get("condition") is not None), number
        for name, said in (item.get("inputs") or {}).items():
            binding = step["inputs"].get(name)
            assert binding is not None, (number, name)
            if "each item's field" in said:
                assert (binding["source"], binding["pointer"]) == ("item", f"/{name}"), (number, name)
            elif said.startswith("workflow input"):
                assert (binding["source"], binding["name"]) == ("input", name), (number, name)
            elif said.startswith("all results of step"):  # a For each step's results, gathered
                producer = ids[int(said.split()[4].rstrip(","))]
                assert (binding["source"], binding["step"], binding["pointer"]) == ("step", producer, ""), name
            elif said.startswith("step "):
                producer = ids[int(said.split()[1])]
                assert (binding["source"], binding["step"]) == ("step", producer), (number, name)
    assert [s["id"] for s in steps if s["routes"]] == [ids[r["from_step"]] for r in expected.get("routes") or []]


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f not in KNOWN])
def test_a_holdout_spec_runs_to_its_authors_final_output(folder: str, tmp_path: Path) -> None:
    expected = expectation(HOLDOUT / folder)
    result = run_to_the_end(HOLDOUT / folder / expected["spec"], expected["inputs"], tmp_path)
    assert final_output(result) == expected["final_output"]
