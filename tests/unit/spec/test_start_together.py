"""A step said to start together with another named by its number ("same time as #1", "alongside
cue 2", "in parallel with the first one", "kick off with 1") waits for what that step waits for, not
for the step before it (`spec.start_together`, `plan.mapping`); read anywhere in its title or text,
even inside a longer outline line that also says a retry."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.start_together import starts_with
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("book-hall", output_schema=obj(("hall",), hall="string")),
    skill("order-flowers", input_schema=obj((), colour="string"), output_schema=obj(("bouquets",), bouquets="array")),
    skill("hire-band", output_schema=obj(("band",), band="string")),
    skill("print-menu", input_schema=obj(("hall", "bouquets"), hall="string", bouquets="array"),
          output_schema=obj(("menu",), menu="string")),
)


def _deps(text: str) -> list[list[str]]:
    plan: Plan = build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)
    return [sorted(s.depends_on) for s in plan.steps]


WEDDING = ("# Wedding checklist\n\n1. Book the hall: `book-hall`.\n"
           "2. Flowers (same time as #1): `order-flowers`, retry 2x if the florist's site is down.\n"
           "3. Menu: `print-menu`.\n")
CUE_SHEET = ("# Cue sheet, scene 4\n\n## Cue 1 - Lights\n`book-hall` for the rig.\n\n"
             "## Cue 2 - Haze, alongside cue 1\n`order-flowers` for the haze.\n\n## Cue 3 - Curtain\n`print-menu`.\n")
LAB = ("# Protocol 9\n\n## Step 1\nThaw the plates with `book-hall`.\n\n"
       "## Step 2\nRun `order-flowers` in parallel with the first one.\n\n## Step 3\n`print-menu` on both.\n")
SHIPS_LOG = ("# Log, 3 June\n\n- 0800 Bosun checks the hall with `book-hall`.\n"
             "- 0805 Galley: kick off with 1, `order-flowers` for the deck.\n- 0900 `print-menu`.\n")


@pytest.mark.parametrize("text", [WEDDING, CUE_SHEET, LAB, SHIPS_LOG],
                         ids=["wedding-checklist", "theatre-cue-sheet", "lab-protocol", "ships-log"])
def test_a_step_said_to_start_with_step_one_does_not_wait_for_it(text: str) -> None:
    assert _deps(text) == [[], [], ["step-1", "step-2"]]


def test_a_step_starting_with_a_later_step_takes_that_steps_dependencies() -> None:
    text = ("# Run sheet\n\n1. `hire-band` first.\n2. `book-hall` after that.\n"
            "3. `order-flowers`, same time as step 2.\n4. `print-menu`.\n")
    deps = _deps(text)
    assert deps[1] == ["step-1"]
    assert deps[2] == ["step-1"]  # what step 2 waits for, not step 2 itself


@pytest.mark.parametrize(("text", "meant"), [
    ("2 · Lift status (same time as #1)", "step-1"),
    ("Cue 5 - fog, alongside cue 4", "step-4"),
    ("Weigh the crates in parallel with the second one", "step-2"),
    ("Kick this off with 1, it needs nothing from it", "step-1"),
    ("Retry it twice in parallel", None),
    ("Start with 1 cup of flour", None),
    ("Pour 1.5 litres alongside the kit", None),
])
def test_the_step_a_text_starts_together_with(text: str, meant: str | None) -> None:
    assert starts_with(text) == meant
