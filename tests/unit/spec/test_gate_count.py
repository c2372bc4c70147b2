"""A count said with a number word ("at least one damaged item", "more than three puddles", "two or more
red flags") is read as the count, placed on the count field of the step named (`spec.gate_count`);
before, such a condition was not read.
Tested in a warehouse returns page, a club's match-day plan, a clinic triage protocol and a library
digitisation workflow (kinds no fixture uses), as bullets, a `When:` line and numbered prose."""

from __future__ import annotations

import pytest

from orchestrator.spec.gate_count import spelled_count
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill


def _catalog(first: str, counted: str, second: str) -> FakeCatalog:
    return FakeCatalog(skill(first, output_schema=obj(**{counted: "array", f"{counted}_count": "integer"})),
                       skill(second, output_schema=obj(done="boolean")))


CASES = [
    ("Returns desk", "scan-returns", "damaged", "raise-claim", "- When: step 1 finds at least two damaged items",
     "steps['step-1'].output.damaged_count >= 2"),
    ("Match day", "check-pitch", "puddle", "call-off", "- Only if step 1 found more than three puddles",
     "steps['step-1'].output.puddle_count > 3"),
    ("Walk-in triage", "triage-intake", "flag", "call-doctor", "- Only when step 1 counted two or more red flags",
     "steps['step-1'].output.flag_count >= 2"),
    ("Digitisation", "find-brittle", "brittle", "conserve", "- Condition: step 1 found at least a dozen brittle volumes",
     "steps['step-1'].output.brittle_count >= 12"),
]


@pytest.mark.parametrize(("title", "first", "counted", "second", "line", "when"), CASES, ids=[c[0] for c in CASES])
def test_a_count_said_with_a_number_word_is_the_steps_count(title: str, first: str, counted: str, second: str,
                                                            line: str, when: str) -> None:
    text = (f"# {title}\n\n## Steps\n\n### Step 1: First\n- Skill: {first}\n\n"
            f"### Step 2: Then\n- Skill: {second}\n{line}\n")
    plan = plan_of_text(text, _catalog(first, counted, second))
    assert plan.steps[1].when == when


def test_numbered_prose_reads_the_count_too() -> None:  # a warehouse returns list, no headings
    text = "# Returns\n\n1. `scan-returns` on the dock list.\n2. `raise-claim`, only if step 1 found two or more damaged items.\n"
    plan = plan_of_text(text, _catalog("scan-returns", "damaged", "raise-claim"))
    assert plan.steps[1].when == "steps['step-1'].output.damaged_count >= 2"


@pytest.mark.parametrize(("text", "spelled"), [
    ("found at least three damaged items", "found at least 3 damaged items"),
    ("found at least one damaged item", None),  # "X is filled", as before
    ("two or more red flags", "2 or more red flags"),
    ("more than a couple of late vans", "more than 2 late vans"),
    ("fewer than three players", "fewer than 3 players"),
])
def test_the_number_word_becomes_digits(text: str, spelled: str | None) -> None:
    assert spelled_count(text) == spelled


@pytest.mark.parametrize("text", [
    "one of the players is injured",  # no count said
    "the score is over 3",  # digits already
    "someone checked it at least once",  # no number word of a count
])
def test_no_count_with_a_number_word_is_left_alone(text: str) -> None:
    assert spelled_count(text) is None


@pytest.mark.parametrize(("title", "line", "when"), [
    ("Walk-in triage", "Only when step 1 counted two or more red flags.", "steps['step-1'].output.flag_count >= 2"),
    ("Match day", "Only if step 1 found more than three puddles.", "steps['step-1'].output.puddle_count > 3"),
    ("Returns desk", "Only when nothing damaged was found.", "not steps['step-1'].output.damaged"),
    ("Digitisation", "Only if step 1 found at least 2 brittle volumes.", "steps['step-1'].output.brittle_count >= 2"),
])
def test_a_condition_run_on_after_the_skill_line_is_read(title: str, line: str, when: str) -> None:
    """A line written right under `- Skill: x` (a markdown lazy continuation of that bullet) is the step's
    text: its condition was dropped without a word, the skill line holding it."""
    counted = {"Walk-in triage": "flag", "Match day": "puddle", "Returns desk": "damaged", "Digitisation": "brittle"}
    text = (f"# {title}\n\n## Steps\n\n### Step 1: First\n- Skill: look\n\n"
            f"### Step 2: Then\n- Skill: act\n{line}\n")
    plan = plan_of_text(text, _catalog("look", counted[title], "act"))
    assert plan.steps[1].skill == "act" and plan.steps[1].when == when
