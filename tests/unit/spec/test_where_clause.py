"""A step's condition said "Where ..." / "In the event that ..." with the comparison in brackets
(`spec.where_clause`): read as the step's condition and warned, in a hotel's events checklist, a vet
clinic's dosing sheet, a school's marking procedure, a beekeeping club's spring routine; not read when
the clause is about something failing, holds no comparison (warned), or runs another skill."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.where_clause import where_condition, where_unread


def test_hotel_bracket_comparison_is_taken_before_the_words() -> None:
    said = "Where two or more rooms are booked (room count of 2 or more), run order-lunch for the group."
    assert where_condition(said, "order-lunch") == ("room count of 2 or more", False)
    assert where_condition(said, None) == ("room count of 2 or more", False)  # the name after "run"


def test_vet_in_the_event_that_without_brackets() -> None:
    said = "In the event that the weight is over 40 kg, call `dose-large` with the patient id."
    assert where_condition(said, "dose-large") == ("the weight is over 40 kg", False)


def test_school_wherever_and_a_sign_in_brackets() -> None:
    said = "Wherever a pupil scores badly (score < 40), send the script to **flag-pupil**."
    assert where_condition(said, "flag-pupil") == ("score < 40", False)


def test_beekeeping_in_case_more_than() -> None:
    said = "In case the hive count is more than 10, run book-inspector for the apiary."
    assert where_condition(said, "book-inspector") == ("the hive count is more than 10", False)


def test_not_a_condition_on_data() -> None:
    # a failure: the retry reader's
    assert where_condition("In the event that the portal is down, run upload-form again.", "upload-form") is None
    # another skill than the step's own
    assert where_condition("Where the total is over 500 (total > 500), run ask-finance.", "log-order") is None
    # no comparison anywhere: not read, and said so
    said = "Where the van is late (the courier says so), run chase-van."
    assert where_condition(said, "chase-van") is None
    assert where_unread(said, "chase-van") == "Where the van is late (the courier says so)"
    # no where-clause at all
    assert where_unread("Run chase-van every morning.", "chase-van") is None


def test_in_a_markdown_step_it_is_the_condition_warned_at_its_line() -> None:
    text = """\
# Spring inspection

## Steps

### Step 1: Count hives
- Run count-hives on the apiary.

### Step 2: Book the inspector
- In the event that there are many hives (hive_count greater than 10), run book-inspector with the apiary.
"""
    spec = parse_spec_text(text, "bees.md", "markdown")
    assert spec.steps[1].when == "hive_count greater than 10"
    assert any(w.line == 9 and "read as the step's condition" in w.message for w in spec.warnings)


def test_an_unread_where_clause_is_warned() -> None:
    text = """\
# Deliveries

## Steps

### Step 1: Check the van
- Run track-van on today's route.

### Step 2: Chase
- Where the van is late (the courier says so), run chase-van with the route.
"""
    spec = parse_spec_text(text, "vans.md", "markdown")
    assert spec.steps[1].when is None
    assert any(w.line == 9 and "not read" in w.message for w in spec.warnings)


def test_a_long_sentence_is_left_alone() -> None:
    assert where_condition("Where " + "a " * 400 + "(x > 1), run a-b.", "a-b") is None
