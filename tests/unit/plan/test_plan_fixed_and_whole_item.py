"""A value a step's text fixes for a name is the step's own literal, no workflow input; a For each
step's input that its skill describes as an object of the item's fields takes the whole item."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.wanted import Instructions, Named
from orchestrator.plan.whole_item import described_fields, take_whole_items
from orchestrator.spec import parse_spec_text
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


def test_a_name_a_code_and_always_fix_that_code_as_text() -> None:
    assert fixed_values("print on paper A4 always, never letter") == {"paper": "A4"}
    assert fixed_values("mortar_mix M12/3 always for the garden walls") == {"mortar_mix": "M12/3"}
    # near misses: a number with a unit, a plain number, a code with no "always"
    assert fixed_values("poll every 30s always") == {}
    assert fixed_values("bay 4 always") == {}
    assert fixed_values("grade C25/30 on house slabs") == {}


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


# -- the whole item, said by the skill's input schema -----------------------------------------


def _loop_plan(item_props: dict[str, object], wanted: dict[str, object], list_name: str, item: str, text: str):  # type: ignore[no-untyped-def]
    listing = skill("list-them", input_schema=obj(), output_schema=obj(
        (list_name,), **{list_name: {"type": "array", "items": {"type": "object", "properties": item_props}}}))
    each = skill("do-each", input_schema=obj((item,), **{item: wanted}), output_schema=obj(("ok",), ok="boolean"))
    return build_plan(parse_spec_text(text, "w.md", "markdown"), FakeCatalog(listing, each), settings=SETTINGS)


def test_a_podcast_segment_loop_gives_the_whole_segment_when_the_schema_takes_an_object() -> None:
    text = ("# Run sheet\n\n## Steps\n\n### Step 1: List\n- Skill: `list-them`\n\n### Step 2: Cue\n- Skill: `do-each`\n"
            "- For each: segment in step-1.segments\n")
    plan = _loop_plan({"segment": {"type": "string"}, "start": {"type": "string"}},
                      {"type": "object", "properties": {"segment": {}, "start": {}}}, "segments", "segment", text)
    binding = plan.step("step-2").inputs["segment"]
    assert (binding.source, binding.pointer) == ("item", "")
    [warned] = [w for w in plan.warnings if w.code == "plan.whole-item"]
    assert warned.line == 10 and "that field is a string" in warned.message


def test_a_ship_s_port_loop_keeps_the_item_s_field_when_that_field_is_an_object_itself() -> None:
    text = ("# Passage\n\n## Steps\n\n### Step 1: Ports\n- Skill: `list-them`\n\n### Step 2: Clear\n- Skill: `do-each`\n"
            "- For each: port in step-1.ports\n")
    plan = _loop_plan({"port": {"type": "object"}, "eta": {"type": "string"}}, {"type": "object"}, "ports", "port",
                      text)
    binding = plan.step("step-2").inputs["port"]
    assert (binding.source, binding.pointer) == ("item", "/port")
    assert not [w for w in plan.warnings if w.code == "plan.whole-item"]
