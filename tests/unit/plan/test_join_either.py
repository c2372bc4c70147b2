"""A step said to run after whichever of two branches ran ("from step 3 or step 4 (whichever ran)",
"after 4a or 4b, whichever ran", "after whichever of the two ran", "once the branch is done") runs
once after whichever of them ran and takes its inputs from that one (`plan.join_either`), warned at
its line; a step that says what it depends on, or names no earlier steps, is left as it was."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.join_either import read_either_joins
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("weigh-catch", output_schema=obj(("kg",), kg="number")),
    skill("ice-hold", input_schema=obj(("kg",), kg="number"), output_schema=obj(("status",), status="string")),
    skill("sell-dock", input_schema=obj(("kg",), kg="number"), output_schema=obj(("status",), status="string")),
    skill("log-entry", input_schema=obj(("status",), status="string"), output_schema=obj(("line",), line="string")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


SHIPS_LOG = ("# Catch log\n\n1. Weigh the catch with `weigh-catch`.\n2. Ice it in the hold: `ice-hold`.\n"
             "3. Or sell it at the dock: `sell-dock`.\n"
             "4. Write the status from step 2 or step 3 (whichever ran) into the log with `log-entry`.\n")
CUE_SHEET = ("# Cue sheet\n\n## 1 Weigh\n`weigh-catch`.\n\n## 2a Ice\n`ice-hold`.\n\n## 2b Dock\n`sell-dock`.\n\n"
             "## 3 Log\n`log-entry` after 2a or 2b, whichever ran.\n")
LAB = ("# Protocol 3\n\n## Step 1\n`weigh-catch` the sample.\n\n## Step 2\nStore it cold with `ice-hold`.\n\n"
       "## Step 3\nOr hand it over with `sell-dock`.\n\n## Step 4\nAfter whichever of the two ran, record the "
       "status with `log-entry`.\n")
WEDDING = ("# Wedding day\n\n- `weigh-catch` the cake order.\n- `ice-hold` the cake.\n- `sell-dock` the cake.\n"
           "- Once the branch is done and whichever one ran, `log-entry` the status.\n")


@pytest.mark.parametrize("text", [SHIPS_LOG, CUE_SHEET, LAB, WEDDING],
                         ids=["ships-log", "theatre-cue-sheet", "lab-protocol", "wedding-checklist"])
def test_a_step_after_whichever_branch_ran_waits_for_either_and_takes_its_input_from_it(text: str) -> None:
    plan = _plan(text)
    last = plan.steps[-1]
    assert sorted(last.depends_on) == ["step-2", "step-3"]
    assert last.join == "any"
    status = last.inputs["status"]
    assert sorted(status.any_of or ()) == ["step-2", "step-3"]


def test_the_reading_is_warned_at_the_steps_line_with_what_to_write() -> None:
    spec = parse_spec_text(SHIPS_LOG, "doc.md", "markdown")
    _, found = read_either_joins(spec)
    assert [d.line for d in found] == [6]
    assert "Depends on: step-2 or step-3" in found[0].message


def test_a_step_that_says_what_it_depends_on_is_left_as_it_was() -> None:
    text = SHIPS_LOG.replace("4. Write", "4. Depends on: step 2. Write")
    spec = parse_spec_text(text, "doc.md", "markdown")
    _, found = read_either_joins(spec)
    assert found == []


def test_whichever_said_of_no_branch_is_no_join() -> None:
    text = ("# Log\n\n1. `weigh-catch`.\n2. `ice-hold`.\n3. `sell-dock`.\n"
            "4. `log-entry` in whichever notebook is handy.\n")
    spec = parse_spec_text(text, "doc.md", "markdown")
    _, found = read_either_joins(spec)
    assert found == []
