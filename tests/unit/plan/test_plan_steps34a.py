"""A gather said on a step's Input line in words that are no field names ("all the wells together",
"every disk report from the sweep") is still read as a gather of the `For each` step before it
(`plan.steps34a`, `spec.steps34a`). Texts: an ops runbook, a lab protocol, a kitchen prep sheet;
negatives: Input words that say no gather, and a gather with no loop before it."""

from __future__ import annotations

import pytest
from plan_factory import SaidCatalog, plan_of_text, step_by_skill

_CATALOG = SaidCatalog({
    "list-hosts": "Inputs: `fleet`.\n\nOutputs: `hosts` (list).",
    "check-disk": "Inputs: `host`.\n\nOutputs: `used_pct`, `mount`.",
    "summarise-disks": "Inputs: `reports` (list).\n\nOutputs: `worst`.",
    "read-well": "Inputs: `well`.\n\nOutputs: `ct`.",
    "call-plate": "Inputs: `readings` (list).\n\nOutputs: `verdict`.",
    "portion-dish": "Inputs: `dish`.\n\nOutputs: `portion`.",
    "plate-service": "Inputs: `portions` (list), `covers`.\n\nOutputs: `tickets`.",
    "print-menu": "Inputs: `dishes` (list).\n\nOutputs: `menu`.",
})

_RUNBOOK = """\
# Disk sweep (on-call runbook)

## Step 1: List the hosts
- Skill: list-hosts
- Input: fleet

## Step 2: Check each disk
- Skill: check-disk
- For each: host in hosts

## Step 3: Summarise
- Skill: summarise-disks
- Input: all the disk reports from the sweep, in one list
"""

_PROTOCOL = """\
# qPCR plate read (bench protocol v2)

Inputs: `wells` (list)

### Step 1: Read the wells
- Skill: read-well
- For each: well in wells

### Step 2: Call the plate
- Skill: call-plate
- Input: all the wells read above, together
"""

_PREP_SHEET = """\
# Friday prep sheet

Inputs: `dishes` (list), `covers`

### Step 1: Portion
- Skill: portion-dish
- For each: dish in dishes

### Step 2: Plate up
- Skill: plate-service
- Input: covers, then every portion from the line, all together
"""


@pytest.mark.parametrize(("text", "gatherer", "name", "loop"), [
    (_RUNBOOK, "summarise-disks", "reports", "step-2"),
    (_PROTOCOL, "call-plate", "readings", "step-1"),
    (_PREP_SHEET, "plate-service", "portions", "step-1"),
], ids=["runbook", "lab-protocol", "prep-sheet"])
def test_a_gather_said_on_the_input_line_gathers_the_loop(text: str, gatherer: str, name: str, loop: str) -> None:
    plan = plan_of_text(text, _CATALOG)
    binding = step_by_skill(plan, gatherer).inputs[name]
    assert (binding.source, binding.step, binding.gather) == ("step", loop, True)


def test_the_prep_sheet_still_takes_its_named_input_as_written() -> None:
    plan = plan_of_text(_PREP_SHEET, _CATALOG)
    covers = step_by_skill(plan, "plate-service").inputs["covers"]
    assert (covers.source, covers.name) == ("input", "covers")


_NO_GATHER_WORDS = """\
# Disk sweep (on-call runbook)

## Step 1: List the hosts
- Skill: list-hosts
- Input: fleet

## Step 2: Check each disk
- Skill: check-disk
- For each: host in hosts

## Step 3: Summarise
- Skill: summarise-disks
- Input: the report the pager bot sends, as written
"""

_NO_LOOP = """\
# Menu card

Inputs: `season`

### Step 1: Print
- Skill: print-menu
- Input: every dish on tonight's card, all together
"""


@pytest.mark.parametrize(("text", "skill", "name"), [
    (_NO_GATHER_WORDS, "summarise-disks", "reports"),  # Input words that say no gather
    (_NO_LOOP, "print-menu", "dishes"),  # a gather said, but no step before runs per item
], ids=["no-gather-words", "no-loop-before"])
def test_input_words_without_a_gather_or_a_loop_bind_nothing(text: str, skill: str, name: str) -> None:
    plan = plan_of_text(text, _CATALOG)
    assert name not in step_by_skill(plan, skill).inputs
    assert any(w.code == "plan.input-not-given" and name in w.message for w in plan.warnings)
