"""A heading that opens with a notes section's word used as a verb ("Note it in the log", "Contact
the owners", "Background check") among step headings is a step when its text names a skill
(`spec.heading_step`); "Notes", "Links", "Note:" stay sections of notes."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.heading_step import action_heading
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("count-catch", input_schema=obj(("haul",), haul="string"), output_schema=obj(("count",), count="integer")),
    skill("write-entry", input_schema=obj(("count",), count="integer"), output_schema=obj(("ok",), ok="boolean")),
)

# a ship's log: the last heading says to note the count in the log
SHIPS_LOG = """# Trawler Maren, haul routine

## Count the haul

Use `count-catch` on the haul.

## Note it in the log

Use `write-entry` with the count. If it fails, keep going with ok = false.
"""
# a lab protocol: "Note down the readings"
LAB = """# Protocol 4: titration

## Titrate

`count-catch` on the haul sample.

## Note down the readings

`write-entry` with the count. If it fails, keep going with ok = false.
"""
# an HR onboarding page: "Contact the manager"
ONBOARDING = """# Onboarding, week one

## Set up accounts

Run `count-catch` on the haul of forms.

## Contact the manager

Run `write-entry` with the count. If it fails, keep going with ok = false.
"""
# a podcast run sheet: "Link the episode"
PODCAST = """# Episode run sheet

## Cut the audio

`count-catch` on the haul of takes.

## Link the episode

`write-entry` with the count. If it fails, keep going with ok = false.
"""


@pytest.mark.parametrize("text", [SHIPS_LOG, LAB, ONBOARDING, PODCAST],
                         ids=["ships-log", "lab-protocol", "hr-onboarding", "podcast-run-sheet"])
def test_an_action_heading_with_a_notes_word_is_a_step_with_its_policy(text: str) -> None:
    spec = parse_spec_text(text, "doc.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert [s.skill for s in plan.steps] == ["count-catch", "write-entry"]
    assert plan.steps[1].policy.fallback.value == {"ok": False}  # its carry-on value is read
    codes = [w.code for w in spec.warnings]
    assert "spec.heading-step" in codes
    assert "spec.unknown-section" not in codes and "spec.skill-not-run" not in codes


def test_a_notes_section_that_names_a_skill_is_still_no_step() -> None:
    text = SHIPS_LOG.replace("## Note it in the log", "## Notes")
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert [s.name for s in spec.steps] == ["Count the haul"]
    assert "spec.heading-step" not in [w.code for w in spec.warnings]


@pytest.mark.parametrize(("title", "action"), [
    ("Note it in the log", True), ("Note down the readings", True), ("Contact the owners", True),
    ("Background check", True), ("Link the episode", True), ("Notes", False), ("Note:", False),
    ("Links", False), ("Background", False), ("Contacts", False), ("Notes on the feed", False),
])
def test_which_headings_say_what_to_do(title: str, action: bool) -> None:
    assert action_heading(title) is action
