"""holdout29 179, a vet clinic's peri-operative analgesia protocol (VP-14: numbered sections, lettered method
steps a)-d), "CAT ->" / "DOG (i.e. anything that isn't a cat) ->" branches), through the real `skillweave`:
the plan as its expect.yaml says (each step's skill, dependencies, inputs' sources incl. the literal
strength_mg_ml 10, conditions and the other branch, the join after whichever dose ran, the three policy
lines) and both runs, the cat's and the dog's, to their author's chart entry. Blind (1d426731) the two
branches had no condition, chart-entry read the feline dose only, strength_mg_ml was a workflow input and
both runs were refused at start (round 45)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    expectation,
    final_output,
    line_of,
    plan_json,
    policy_misses,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

pytestmark = pytest.mark.e2e

FOLDER = FIXTURES / "foreign-specs-holdout29" / "179-vet-periop-analgesia"
if not FOLDER.is_dir():  # the corpus is checked in; a trimmed checkout skips rather than fails
    pytest.skip("holdout29 179 is not in this checkout", allow_module_level=True)

MEANT = expectation(FOLDER)
SPEC = FOLDER / MEANT["spec"]

# what is still read otherwise than meant, with why (none since round 45)
KNOWN: dict[str, str] = {}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(SPEC, "--skills-dir", str(FOLDER / "skills"))


def _ids(plan: dict[str, Any]) -> dict[int, str]:
    return {m["number"]: s["id"] for m, s in zip(MEANT["steps"], plan["steps"], strict=True)}


def _source(said: Any, ids: dict[int, str]) -> list[dict[str, Any]]:
    """The bindings an expect.yaml source allows: a literal, a workflow input, a step's field, or the same
    field of whichever of two steps ran."""
    if not isinstance(said, str):
        return [{"source": "literal", "value": said}]
    if said.startswith("workflow input "):
        return [{"source": "input", "name": said.split()[-1]}]
    parts = [p.strip() for p in said.replace(", whichever ran", "").split(" or ")]
    steps = [ids[int(p.split()[1])] for p in parts]
    field = "/" + parts[0].split()[-1]
    if len(steps) == 1:
        return [{"source": "step", "step": steps[0], "pointer": field}]
    return [{"source": "step", "step": s, "pointer": field, "any_of": steps} for s in steps]


def test_the_protocol_reads_four_steps_with_the_skills_meant(plan: dict[str, Any]) -> None:
    assert [s["skill"] for s in plan["steps"]] == [m["skill"] for m in MEANT["steps"]]


@pytest.mark.parametrize("number", [m["number"] for m in MEANT["steps"]])
def test_each_step_waits_for_and_takes_what_its_author_meant(plan: dict[str, Any], number: int) -> None:
    ids = _ids(plan)
    meant = MEANT["steps"][number - 1]
    step = plan["steps"][number - 1]
    assert sorted(step["depends_on"]) == sorted(ids[n] for n in meant["depends_on"])
    assert set(step["inputs"]) == set(meant["inputs"])
    for name, said in meant["inputs"].items():
        bound = step["inputs"][name]
        assert any({k: bound.get(k) for k in want} == want for want in _source(said, ids)), (name, bound)


def test_the_cat_branch_its_other_branch_and_the_join_after_whichever_ran(plan: dict[str, Any]) -> None:
    steps = plan["steps"]
    assert steps[0]["when"] is None and steps[3]["when"] is None
    assert steps[1]["when"] == "inputs.species == 'cat'"
    assert steps[2]["when"] == "not (inputs.species == 'cat')"
    assert steps[3]["join"] == "any"


def test_the_inputs_are_the_bracketed_admit_screen_fields(plan: dict[str, Any]) -> None:
    assert sorted(i["name"] for i in plan["inputs"]) == sorted(MEANT["inputs"])


@pytest.mark.parametrize(("number", "policy"), [
    (m["number"], p) for m in MEANT["steps"] for p in m["policies"]])
def test_each_policy_line_is_read_as_meant_at_its_line(plan: dict[str, Any], number: int,
                                                       policy: dict[str, Any]) -> None:
    step = plan["steps"][number - 1]
    assert not policy_misses(step["policy"], policy["meaning"]), policy_misses(step["policy"], policy["meaning"])
    lines = {line_of(v["where"]) for k, v in step["provenance"].items() if k.startswith("policy.")}
    assert policy["line"] in lines, lines


def test_no_warning_says_the_need_list_was_not_read(plan: dict[str, Any]) -> None:
    assert not [w for w in plan["warnings"] if w["line"] == 10 and "not read (not a step)" in w["message"]]


@pytest.mark.parametrize("n", range(1 + len(MEANT.get("more_runs") or ())))
def test_each_run_reaches_its_authors_chart_entry(tmp_path: Path, n: int) -> None:
    result = run_to_the_end(SPEC, run_inputs(MEANT, n), tmp_path, "--skills-dir", str(FOLDER / "skills"))
    assert final_output(result) == run_wanted(MEANT, n)
    ran = {s["step_id"] for s in result["steps"] if s.get("status") == "succeeded"}
    assert ("step-2" in ran) == (run_inputs(MEANT, n)["species"] == "cat")
    assert ("step-3" in ran) == (run_inputs(MEANT, n)["species"] != "cat")
