"""The readers of conditions written outside markdown bullets, word by word: a field list's condition
line (`spec.field_list`), a yes/no question (`spec.condition_question`), a step said not to have run
(`spec.condition_unhappened`), a join after "whichever you did" (`spec.branch_join`). Phrases as a
lab protocol, a ship's log, an HR checklist, a podcast run sheet and a lesson plan write them."""

from __future__ import annotations

import pytest

from orchestrator.spec.branch_join import join_said
from orchestrator.spec.condition_question import question_condition
from orchestrator.spec.condition_unhappened import unhappened
from orchestrator.spec.field_list import field_lines
from orchestrator.spec.step import label_key


def test_a_field_list_gives_its_condition_and_otherwise_lines_their_own_line() -> None:
    text = ":skill: ``bleach-plate``\n:only if: contaminated is true\n:takes: the plate\n:otherwise: keep it"
    assert field_lines(text, label_key) == [(0, ":skill: ``bleach-plate``"), (1, "Only if: contaminated is true"),
                                            (2, ":takes: the plate"), (3, "Otherwise: keep it")]


@pytest.mark.parametrize("text", [
    ":skill: ``x``\n:takes: a, b",  # no condition field: read as before
    "Run `x` when ready.\n:when: a > 1",  # no field list: it must open the paragraph
    ":when:\n  a > 1",  # an empty field
    ":tool: ``seat-guest``\n:when: for every guest on the list",  # a loop said in the condition's field
    ":skill: ``plate-photo``\n:when: one at a time, in well order",  # a lab protocol's loop
    ":tool: ``ring-parent``\n:only if: per pupil absent today",  # a school office's loop
])
def test_a_paragraph_without_a_condition_field_is_not_a_field_list(text: str) -> None:
    assert field_lines(text, label_key) is None


@pytest.mark.parametrize(("text", "read"), [
    ("In spec? Release it", ("in_spec", False, "In spec?")),  # a recipe card
    ("Not passed? Then `book-resit`", ("passed", True, "Not passed?")),  # a lesson plan
    ("Is it stormy? `reef-sails`", ("stormy", False, "Is it stormy?")),  # a ship's log
    ("Any allergies? → `flag-allergy`", ("allergies", False, "Any allergies?")),  # an HR form
    ("No laptop yet? `order-laptop`", ("laptop_yet", True, "No laptop yet?")),
])
def test_a_short_yes_no_question_opening_a_step_names_its_value(text: str, read: tuple[str, bool, str]) -> None:
    assert question_condition(text) == read


@pytest.mark.parametrize("text", [
    "How long? `start-interview` anyway",  # a run sheet: asks no yes/no
    "What next? `x`",
    "Why did it fail twice in a row? `x`",
    "Ready? `x`",
    "Guest list sorted and the room booked and lights on? `x`",  # more than four words
    "Run `x` in spec?",
])
def test_questions_that_ask_no_yes_no_are_no_condition(text: str) -> None:
    assert question_condition(text) is None


@pytest.mark.parametrize(("text", "ref", "strong"), [
    ("D didn't happen (zero discrepancies)", "D", True),  # a lettered step
    ("step 2 did not run", "step 2", True),  # a lab protocol
    ("the laptop step was skipped", "the laptop step", True),  # an HR checklist
    ("the reef never happened", "the reef", True),  # a ship's log
    ("it wasn't needed", None, True),
    ("nothing was found", None, False),
    ("there were no call-ins", None, False),  # hyphen: a word of its own
    ("there were no delays at all", None, False),  # a podcast run sheet
    ("no discrepancies", None, False),
    ("zero matches found", None, False),
])
def test_a_condition_saying_a_step_did_not_run_or_found_nothing(text: str, ref: str | None, strong: bool) -> None:
    got = unhappened(text)
    assert got is not None and got[0] == ref and got[2] is strong


@pytest.mark.parametrize("text", ["score is over 70", "the guest is late", "no later than 5 pm, `x` ran fine",
                                  "the tide didn't turn yet and we wait", "it ran"])
def test_other_conditions_are_not_read_as_a_step_not_run(text: str) -> None:
    assert unhappened(text) is None


@pytest.mark.parametrize("text", ["status + ref from 4 or 5, whichever you did.",  # a recipe card
                                  "log the note from whichever we chose",  # a ship's log
                                  "the cue from whichever they went with"])  # a run sheet
def test_a_join_said_with_a_doer_before_its_verb(text: str) -> None:
    assert join_said(text)
