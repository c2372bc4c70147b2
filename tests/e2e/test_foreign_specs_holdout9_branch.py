"""The ninth holdout's branches, joins and parallel starts through the real `skillweave`: 60's LaTeX
`\\If{$S.\\mathit{regressed}$}` / `\\Else` / `\\EndIf` (a condition, its otherwise, and `post-digest` after
whichever ran), 58's title asides "(only if bucket says breaking_count > 0)" / "(else — no breaking
changes)", 59's YAML comment "# no deps, goes in parallel with usage" and 57's note "Steps 1 and 2 don't
depend on each other, kick them off together".

KNOWN (not asserted here, other families): 57 and 58 are refused before a plan exists (57: the
continue-with value `[]` for an object output; 58: the `> Input:` line's `version` is not read as a
workflow input), so their readings are checked through `validate --json`'s warnings; 60's run does not
reach its author's output (the `\\ForAll` fan-out and the gather are not read); 59's run already did.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from foreign_kit import FIXTURES, plan_json, run

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout9"


def _steps(folder: str, name: str = "spec.md") -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in plan_json(HOLDOUT / folder / name)["steps"]}


def _warnings(folder: str) -> dict[int, list[str]]:
    done = run("validate", "--json", str(HOLDOUT / folder / "spec.md"))
    out: dict[int, list[str]] = {}
    for w in json.loads(done.stdout)["warnings"]:
        out.setdefault(w["line"], []).append(w["message"])
    return out


def test_the_algorithms_if_else_guards_its_two_branches_and_the_digest_joins_them() -> None:
    steps = _steps("60-bench-triage-algorithm")
    assert steps["step-3"]["when"] == "steps['step-2'].output.regressed is true"
    assert steps["step-4"]["when"] == "not (steps['step-2'].output.regressed is true)"
    post = steps["step-5"]
    assert sorted(post["depends_on"]) == ["step-3", "step-4"] and post["join"] == "any"
    assert sorted(post["inputs"]["message"]["any_of"]) == ["step-3", "step-4"]


def test_the_pipelines_title_asides_are_its_branch_conditions() -> None:
    said = _warnings("58-release-notes")
    assert any("it runs only when breaking_count > 0" in m for m in said[23])
    assert any("the other branch of step-3" in m for m in said[30])
    assert not any("does not run after a choice of branches" in m for m in said.get(40, []))


def test_the_yaml_steps_comment_starts_the_price_lookup_beside_the_usage_summary() -> None:
    steps = _steps("59-nodepool-rightsizing", "spec.yaml")
    assert steps["price"]["depends_on"] == []
    assert sorted(steps["recommend"]["depends_on"]) == ["price", "usage"]


def test_the_reports_note_that_steps_one_and_two_start_together_is_read_not_warned() -> None:
    said = _warnings("57-weekly-mrr-report")
    assert not any("not read" in m for m in said.get(13, []))
