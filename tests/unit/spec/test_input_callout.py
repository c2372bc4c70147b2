"""Where a document says what the run asks for in its author's words: a bold or callout line ("**What
the crew needs to fill in before starting:** ... (`tide_time`)", "You'll be asked for: ..."), and an
own key outside YAML (`ask_for = crane_id, shift`, `prompt_for: date, room`). Each name is a workflow
input under the author's own name (`spec.inputs_lead`, `spec.prose_inputs`, `spec.input_ask_key`)."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.input_ask_key import asked_inputs
from orchestrator.spec.prose_inputs import read_prose_inputs
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary


def _inputs(text: str) -> list[str]:
    return [i.name for i in parse_spec_text(text, "w.md", "markdown").inputs]


_LESSON_PLAN = """\
# Year 8 fractions, lesson 3

**What the teacher needs to fill in before starting:** the class list (`roster`) and the lesson date (`lesson_date`).

1. Print the worksheets with `print-sheets` for the `roster`.
2. Mark the register with `mark-register` on the `lesson_date`.
"""

_SHIPS_LOG = """\
# Harbour departure log

> **You'll be asked for:** `tide_time`, `crew_list`

- 0500 `check-tide` against the `tide_time`.
- 0530 Muster with `muster-crew` over the `crew_list`.
"""

_HR_CHECKLIST = """\
# New starter, day one

Have these ready: the start date (`start_date`), the badge photo (`photo`).

1. `issue-badge` with the `photo`.
2. `book-induction` on the `start_date`.
"""

_RECIPE_CARD = """\
# Focaccia, card 9

**It asks you for:** `servings` and `oven`.

1. Scale the dough with `scale-dough` for the `servings`.
2. Bake with `bake-tray` in the `oven`.
"""


@pytest.mark.parametrize(("text", "names"), [
    (_LESSON_PLAN, ["roster", "lesson_date"]), (_SHIPS_LOG, ["tide_time", "crew_list"]),
    (_HR_CHECKLIST, ["start_date", "photo"]), (_RECIPE_CARD, ["servings", "oven"]),
], ids=["lesson-plan", "ships-log", "hr-checklist", "recipe-card"])
def test_a_callout_saying_what_the_run_asks_for_declares_its_backticked_names(text: str, names: list[str]) -> None:
    assert _inputs(text) == names


def _said(text: str) -> list[str]:
    return [part for part, _ in read_prose_inputs(text.splitlines(), str)]


def test_the_same_words_before_names_in_words_list_the_parts_an_abbreviation_not_ending_them() -> None:
    assert _said("You'll be asked for: the berth no. (e.g. B-4), the pilot's name and the tug count.") == [
        "the berth no", "the pilot's name", "the tug count"]  # a harbour log
    assert _said("What the cook needs to give it: the guest count and the menu.") == [
        "the guest count", "the menu"]  # a recipe card
    assert _said("Plate no. 4 goes in the fridge. Then we wait.") == []  # a lab bench note: no lead


def _asked(line: str) -> list[str] | None:
    found = asked_inputs(line, Source("w.ini", line), 1)
    return None if found is None else [i.name for i in found]


def test_an_own_key_that_says_the_run_asks_lists_its_names_as_inputs() -> None:
    assert _asked("ask_for      = boiler_id, readings   ; the fitter types these in") == [
        "boiler_id", "readings"]  # a boiler service INI
    assert _asked("prompt_for: episode, guest") == ["episode", "guest"]  # a podcast run sheet's notes
    assert _asked("Ask for = plate_id") == ["plate_id"]  # a lab protocol
    assert _asked("user_inputs = servings, oven") == ["servings", "oven"]  # a recipe card kept as text


def test_keys_that_say_order_or_values_that_are_not_names_are_no_inputs() -> None:
    assert _asked("needs = build, test") is None  # a step's order
    assert _asked("ask_for = the boiler id and the readings") is None  # words: the prose reader's
    assert _asked("retries = 3") is None


_BOILER_INI = """\
; boiler service, weekly
[general]
ask_for = boiler_id, pressure_log   ; the fitter types these in

[pressure]
skill = read-pressure
in.log = @pressure_log
"""


def test_an_ini_section_s_ask_key_declares_the_inputs_even_beside_a_step() -> None:
    spec = parse_spec_text(_BOILER_INI, "boiler.ini", "markdown", Vocabulary(skills=frozenset({"read-pressure"})))
    assert [i.name for i in spec.inputs] == ["boiler_id", "pressure_log"]


@pytest.mark.parametrize(("lead", "names"), [
    ("We run this every Friday. You give it two things: the class list (`roster`) and the quiz (`quiz_id`).",
     ["roster", "quiz_id"]),  # a lesson plan
    ("Recorded Tuesdays. What I hand it each time: `episode`, `guest`.", ["episode", "guest"]),  # a podcast sheet
    ("Bench 3 only. You feed it the plate (`plate_id`) and the dilution (`dilution`).",
     ["plate_id", "dilution"]),  # a lab protocol
    ("Weekend brunch card. You'll need to give it the `servings` and the `oven`.", ["servings", "oven"]),  # recipe
], ids=["lesson-plan", "podcast-sheet", "lab-protocol", "recipe-card"])
def test_a_sentence_saying_what_the_run_is_given_declares_its_backticked_names(lead: str, names: list[str]) -> None:
    text = f"# Weekly job\n\n{lead}\n\n1. Start with `do-thing`.\n2. Finish with `end-thing`.\n"
    assert _inputs(text) == names


def test_names_a_parenthesis_describes_an_input_with_are_its_fields_not_inputs() -> None:
    lead = ("Mondays. You give it the `depot` code and the list of `crates` we counted (each crate has a `tag`, "
            "its `weight` and the `bay`).")  # a stock-take sheet
    assert _inputs(f"# Weekly job\n\n{lead}\n\n1. Start with `do-thing`.\n2. Finish with `end-thing`.\n") == [
        "depot", "crates"]
