"""A join ("whichever one ran") that also reads an output of a step that is none of its branches and comes
before none of them waits for that step too and takes the value from it (`plan.mapping`, `_beside_join`);
a value its branches' own ancestors give adds no wait. In a ship's log, a cue sheet and a lab protocol."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("weigh-catch", output_schema=obj(("kg",), kg="number")),
    skill("tag-crate", input_schema=obj(("kg",), kg="number"), output_schema=obj(("crate_id",), crate_id="string")),
    skill("ice-hold", input_schema=obj(("kg",), kg="number"), output_schema=obj(("status",), status="string")),
    skill("sell-dock", input_schema=obj(("kg",), kg="number"), output_schema=obj(("status",), status="string")),
    skill("log-entry", input_schema=obj(("status", "crate_id"), status="string", crate_id="string"),
          output_schema=obj(("line",), line="string")),
    skill("log-weight", input_schema=obj(("status", "kg"), status="string", kg="number"),
          output_schema=obj(("line",), line="string")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


SHIPS_LOG = ("# Catch log\n\n1. Weigh the catch with `weigh-catch`.\n2. Tag the crate: `tag-crate`.\n"
             "3. If kg is more than 50: ice it in the hold with `ice-hold`.\n4. Otherwise sell it at the dock: `sell-dock`.\n"
             "5. Once the branch is done and whichever one ran, `log-entry` the status and the crate id.\n")
CUE_SHEET = ("# Cue sheet\n\n## 1 Weigh\n`weigh-catch`.\n\n## 2 Tag\n`tag-crate`.\n\n## 3 If kg is over 50 — ice\n"
             "`ice-hold`.\n\n## 4 Otherwise — dock\n`sell-dock`.\n\n## 5 Log\n`log-entry` after whichever one ran.\n")
LAB = ("# Protocol 7\n\n## Step 1\n`weigh-catch` the sample.\n\n## Step 2\nLabel it with `tag-crate`.\n\n"
       "## Step 3\nOnly if kg is more than 50: store it cold with `ice-hold`.\n\n## Step 4\nOtherwise: hand it over "
       "with `sell-dock`.\n\n## Step 5\nOnce whichever one ran, record it with `log-entry`.\n")


@pytest.mark.parametrize("text", [SHIPS_LOG, CUE_SHEET, LAB], ids=["ships-log", "cue-sheet", "lab-protocol"])
def test_a_join_waits_for_the_side_step_whose_output_it_reads(text: str) -> None:
    last = _plan(text).steps[-1]
    assert last.join == "any"
    assert sorted(last.depends_on) == ["step-2", "step-3", "step-4"]
    assert last.inputs["crate_id"].step == "step-2"
    assert sorted(last.inputs["status"].any_of or ()) == ["step-3", "step-4"]


def test_a_value_the_branches_ancestors_give_adds_no_wait() -> None:
    text = SHIPS_LOG.replace("`log-entry`", "`log-weight`").replace("and the crate id", "and the kg")
    last = _plan(text).steps[-1]
    assert sorted(last.depends_on) == ["step-3", "step-4"]
    assert last.inputs["kg"].step == "step-1"
