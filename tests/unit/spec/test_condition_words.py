"""A step's condition said without "only" ("Runs if ...", "Do this if ...") or under a label of the
author's own ("Guard:", "Precondition:"), in a podcast run sheet, a ship's log, a lab protocol and an HR
checklist, is the step's condition; a bare "if" that speaks of failing, of a person or of no value is
left to the other readers."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition_words import bare_condition

HEAD = "# Doc\n\n## Steps\n\n### Step 1: Prepare\n- Skill: `prepare`\n\n### Step 2: Go\n`go` the thing.\n"


@pytest.mark.parametrize(("sentence", "condition"), [
    ("Runs if the episode length is over 60.", "the episode length is over 60"),  # a podcast run sheet
    ("Do this if salary > 100000, otherwise skip.", "salary > 100000"),  # an HR checklist
    ("Only run this if ${wind_knots < 25}.", "${wind_knots < 25}"),  # a ship's log
    ("This step runs when the temperature is below 4.", "the temperature is below 4"),  # a lab protocol
    ("Runs if the score is 0.7 or more.", "the score is 0.7 or more"),
])
def test_a_bare_runs_if_with_a_comparison_is_the_steps_condition(sentence: str, condition: str) -> None:
    assert bare_condition(sentence) == condition


@pytest.mark.parametrize("sentence", [
    "Run it again if it fails.",  # a retry
    "Runs if needed.",  # no value compared
    "Run it if you have time.",  # a person, not a value
    "Do this if the upload times out twice.",  # a failure
    "Runs every night.",
])
def test_a_bare_if_about_failing_a_person_or_no_value_is_no_condition(sentence: str) -> None:
    assert bare_condition(sentence) is None


@pytest.mark.parametrize(("line", "when"), [
    ("Guard: wind_knots < 25", "wind_knots < 25"),  # a ship's log
    ("Precondition: the sample temperature is below 4", "the sample temperature is below 4"),  # a lab protocol
    ("Runs if the episode length is over 60.", "the episode length is over 60"),  # a podcast run sheet
    ("Run it if salary > 100000.", "salary > 100000"),  # an HR checklist
])
def test_the_condition_is_on_the_step_in_each_kind_of_document(line: str, when: str) -> None:
    spec = parse_spec_text(HEAD + line + "\n", "doc.md", "markdown")
    assert spec.steps[1].when == when
