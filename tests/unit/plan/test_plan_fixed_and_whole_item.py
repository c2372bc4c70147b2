"""A value a step's text fixes for a name is the step's own literal, no workflow input; a For each
step's input that its skill describes as an object of the item's fields takes the whole item."""

from __future__ import annotations

from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.wanted import Instructions, Named
from orchestrator.plan.whole_item import described_fields, take_whole_items
from orchestrator.spec.model import StepSpec
from orchestrator.spec.said_literals import fixed_values


def test_a_recipe_card_and_a_ship_s_log_fix_values_in_passing() -> None:
    assert fixed_values('Bake it. oven_temp is always 200 and `pan` is set to "round".') == {
        "oven_temp": 200, "pan": "round"}
    assert fixed_values("Log the fix; `home_port` is always “Leith”, wind_unit stays fixed at 'kn'.") == {
        "home_port": "Leith", "wind_unit": "kn"}


def test_a_lesson_plan_and_an_hr_checklist_fix_values_their_way() -> None:
    assert fixed_values("grade_level is fixed at 7 for this term") == {"grade_level": 7}
    assert fixed_values("badge_type is hard-coded to `visitor` until day 5") == {"badge_type": "visitor"}


def test_a_condition_or_a_plain_word_is_no_fixed_value() -> None:
    assert fixed_values("Only if foreign_count is 0, and when retry_count is 3.") == {}
    assert fixed_values('the country is always "CA"') == {}  # a word, not a name: said as it is


def _step() -> StepSpec:
    return StepSpec(id="step-3", number=3, name="Score", description="", where="f.md:7", skill="score")


def test_an_object_of_the_item_s_fields_takes_the_whole_item() -> None:
    assert described_fields("object `{sample, wells, cts}`") == {"sample", "wells", "cts"}
    assert described_fields("a record {dish, garnish}") == {"dish", "garnish"}
    assert described_fields("string, the dish name") == frozenset()
    said = Instructions(inputs=(Named(name="dish", where="S.md:8", about="object {dish, garnish, temp}"),
                                Named(name="temp", where="S.md:8", about="number")))
    bindings = {"dish": InputBinding(source="item", pointer="/dish"), "temp": InputBinding(source="item", pointer="/temp")}
    provenance: dict[str, Provenance] = {}
    take_whole_items(_step(), said, frozenset({"dish", "garnish", "temp"}), "steps.step-1.output.dishes",
                     bindings, provenance)
    assert bindings["dish"] == InputBinding(source="item")
    assert bindings["temp"].pointer == "/temp"
    assert "whole item" in provenance["inputs.dish"].note


def test_an_object_with_fields_the_item_lacks_keeps_the_field() -> None:
    said = Instructions(inputs=(Named(name="crew", where="S.md:8", about="object {crew, rank, boat}"),))
    bindings = {"crew": InputBinding(source="item", pointer="/crew")}
    take_whole_items(_step(), said, frozenset({"crew", "watch"}), "crew_list", bindings, {})
    assert bindings["crew"].pointer == "/crew"
