"""Round 45: a step opening with a value its input lists ("GOLD -> `x`") is that value's branch, an aside
"anything that isn't gold" the other branch (`spec.choice_labels45`); "(b)/(c)" cites both items
(`spec.parallel_said24`); "(grind_level = 3)" alone in brackets a literal (`spec.said_literals`); "same inputs
as (b)" takes (b)'s fixed values (`spec.same_inputs45`); a need list read as inputs is not also "not read"."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.choice_labels45 import gloss_values
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.said_literals import fixed_values
from orchestrator.spec.vocabulary import Vocabulary

_SKILLS = Vocabulary.of((s, None) for s in (
    "fetch-order", "vip-desk", "std-desk", "log-ticket", "grind-beans", "brew-espresso", "brew-filter", "label-cup"))


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "sheet.txt", "markdown", vocabulary=_SKILLS)


@pytest.mark.parametrize(("inside", "values"), [
    ('species - "cat" or "dog"', ["cat", "dog"]),
    ("tier: 'gold', 'silver' or 'bronze'", ["gold", "silver", "bronze"]),
    ("size - S/M/L", ["S", "M", "L"]),
    ('"espresso" | "filter"', ["espresso", "filter"]),
])
def test_a_gloss_after_an_inputs_name_lists_its_values(inside: str, values: list[str]) -> None:
    assert gloss_values(inside) == values


@pytest.mark.parametrize("inside", ["notes - free text or blank", "weight in kg", "floor - 0 for ground", "cat"])
def test_a_gloss_that_lists_no_values_gives_none(inside: str) -> None:
    assert gloss_values(inside) == []


DESK = """HELP DESK CARD

What you need (from the ticket - field names in brackets)
  order number (order_ref), tier (tier: 'gold', 'silver' or 'bronze')

Method
  a) Look it up: fetch-order with the order_ref.
  b) GOLD -> vip-desk with the order from (a).
  c) SILVER (and anything else) -> std-desk with the order from (a).
  d) Whichever of (b)/(c) ran, log-ticket with the reply from (b) or (c).
"""

COFFEE = """Bar card

You'll need:
  customer name (name), drink (drink - "espresso" or "filter")

1. grind-beans for the drink (grind_level = 3).
2. Espresso → brew-espresso with the grounds from 1.
3. Filter (i.e. anything that isn't an espresso) → brew-filter, same inputs as 2.
4. label-cup with the name, whichever of 2 / 3 ran.
"""


def test_a_label_that_is_a_value_its_input_lists_is_that_branch_and_everything_else_the_other() -> None:
    steps = _parse(DESK).steps
    assert steps[1].when == "tier == 'gold'"
    assert steps[2].when is None and steps[2].otherwise_of == "step-2"
    assert steps[3].depends_on == ("step-2", "step-3") and steps[3].join == "any"


def test_a_value_label_with_an_arrow_of_another_kind_and_an_aside_naming_the_value() -> None:
    spec = _parse(COFFEE)
    steps = spec.steps
    assert steps[1].when == "drink == 'espresso'"
    assert steps[2].otherwise_of == "step-2"
    assert [i.description for i in spec.inputs_said if i.name == "drink"] == [
        "said in the text as 'drink'; one of (espresso / filter)"]


def test_a_label_that_is_no_listed_value_is_no_condition() -> None:
    text = DESK.replace("b) GOLD ->", "b) Escalate ->").replace("c) SILVER (and anything else) ->", "c) Reply ->")
    steps = _parse(text).steps
    assert steps[1].when is None and steps[2].when is None and steps[2].otherwise_of is None


def test_an_aside_naming_another_value_than_the_branch_before_is_not_its_other_branch() -> None:
    text = COFFEE.replace("anything that isn't an espresso", "anything that isn't a latte")
    steps = _parse(text).steps
    assert steps[2].otherwise_of is None and steps[2].when == "drink == 'filter'"


def test_both_labels_of_a_slashed_or_ored_pair_are_cited() -> None:
    step = _parse(DESK).steps[3]
    said = " ".join(t.text for t in step.texts)
    assert "Whichever of step 2/step 3 ran" in said and "from step 2 or step 3" in said


@pytest.mark.parametrize(("text", "values"), [
    ("Use the 10 mg/ml strength (strength_mg_ml = 10), we no longer stock 1 mg/ml.", {"strength_mg_ml": 10}),
    ('Grind it fine (`grind_mode` = "fine").', {"grind_mode": "fine"}),
    ("Brew at the lower heat (temp_c = 88.5) for light roasts", {"temp_c": 88.5}),
])
def test_a_name_set_alone_in_brackets_is_the_steps_literal(text: str, values: dict[str, object]) -> None:
    assert fixed_values(text) == values


@pytest.mark.parametrize("text", [
    "If it fails carry on (ok_flag = false).",
    "Run it again (max_retries = 3).",
    "Only when it is cold (temp_c = 4).",
    "Weigh it (weight = 10).",
])
def test_a_bracket_of_going_on_a_policy_or_a_condition_is_no_literal(text: str) -> None:
    assert fixed_values(text) == {}


def test_same_inputs_as_an_earlier_item_takes_its_fixed_values() -> None:
    steps = _parse(COFFEE.replace("with the grounds from 1", "with the grounds from 1 (shot_ml = 30)")).steps
    assert steps[1].input_values == {"shot_ml": 30}
    assert steps[2].input_values == {"shot_ml": 30}


def test_same_inputs_as_an_item_that_fixes_nothing_adds_nothing_and_the_same_as_before_names_none() -> None:
    assert _parse(COFFEE).steps[2].input_values == {}
    text = COFFEE.replace("with the grounds from 1", "with the grounds from 1 (shot_ml = 30)").replace(
        "same inputs as 2", "same inputs as before")
    assert _parse(text).steps[2].input_values == {}


def test_a_need_list_read_as_the_inputs_is_not_also_warned_not_read() -> None:
    spec = parse_spec_text(DESK, "desk.txt", "markdown", vocabulary=_SKILLS)
    assert [i.name for i in spec.inputs_said] == ["order_ref", "tier"]
    assert not [w for w in spec.warnings if w.line == 3 and "not read (not a step)" in w.message]
