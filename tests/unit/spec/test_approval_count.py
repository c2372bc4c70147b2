"""A count said in words as a condition ("two or more trays are wilted", "more than three pupils are absent",
"at least 2 alarms came back amber", "none of the loaves are burnt") read as the count of that kind, placed on
the one count field of the step before (`approval_count`; was: "or more trays" taken as a field, the
condition not read and the approval asked on every run). Tested in a greenhouse round, a school register, a
ship's engine-room log and a bakery's morning bake, as approvals and as a step's condition."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.approval_count import count_of_kind
from orchestrator.spec.condition import read_condition
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

CATALOG = FakeCatalog(
    skill("walk-beds", output_schema=obj(wilted_count="integer", trays="array")),
    skill("take-register", output_schema=obj(absent_count="integer", names="array")),
    skill("read-gauges", output_schema=obj(amber_count="integer", alarms="array")),
    skill("check-loaves", output_schema=obj(burnt_count="integer", loaves="array")),
    skill("act", output_schema=obj(done="boolean")),
)


def _plan(first: str, line: str) -> Any:
    return plan_of_text(f"# Round\n\n## Steps\n\n### Step 1: Look\n- Skill: {first}\n\n"
                        f"### Step 2: Act\n- Skill: act\n{line}\n", CATALOG)


@pytest.mark.parametrize(("first", "line", "when"), [
    ("walk-beds", "- Approval: if two or more trays are wilted, the head grower signs off; 30 min, then reject",
     "steps['step-1'].output.wilted_count >= 2"),
    ("take-register", "- Approval: only when more than three pupils are absent. Wait 20 min, then reject.",
     "steps['step-1'].output.absent_count > 3"),
    ("read-gauges", "- Approval: needed if at least 2 alarms came back amber; 10 min, then reject",
     "steps['step-1'].output.amber_count >= 2"),
])
def test_a_count_in_words_is_the_approvals_condition_on_the_count_field(first: str, line: str, when: str) -> None:
    step = _plan(first, line).steps[1]
    assert step.policy.approval is not None and step.policy.approval.when == when


def test_a_count_is_a_steps_condition_too() -> None:
    step = _plan("check-loaves", "- When: none of the loaves are burnt").steps[1]
    assert step.when == "steps['step-1'].output.burnt_count == 0"


@pytest.mark.parametrize(("text", "op", "n"), [
    ("two or more trays are wilted", ">=", 2),
    ("3+ rivets are loose", ">=", 3),
    ("fewer than 2 crews are available", "<", 2),
    ("at most one bus is late", "<=", 1),
    ("at least one sample tested positive", ">", 0),
])
def test_the_count_words_give_the_operator_and_the_number(text: str, op: str, n: int) -> None:
    found = count_of_kind(text)
    assert found is not None and found[1:3] == (op, n) and found[0][-1] == "count"
    assert "read as a count" in found[3]  # a guess: the plan warns how it was read


@pytest.mark.parametrize("text", [
    "the total is over 3",
    "two of the crew",
    "more than three puddles",  # no kind said: the count reader's (`gate_count`)
    "at least two boxes are empty",  # a value missing, no kind
])
def test_words_that_are_no_count_of_a_kind_are_left_to_the_other_readers(text: str) -> None:
    assert count_of_kind(text) is None


def test_or_more_is_no_field_name_any_more() -> None:
    read = read_condition("two or more sites are positive")
    assert read is not None and read.clauses[0].subject == ("site", "positive", "count")
