"""A value the text states for a skill input in words ("Home port for us is LEITH", "buffer pH is
7.4") binds that step's input as a literal, warned at the step, when nothing else gives it: no
workflow input is invented for it (`plan.said_value`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.said_value import said_value
from orchestrator.spec import parse_spec_text


def test_a_lab_protocol_a_recipe_card_and_an_hr_checklist_say_values_in_words() -> None:
    assert said_value("buffer_ph", "Mix it. The buffer pH is 7.4, always.") == (7.4, "buffer pH is 7.4")
    assert said_value("oven_temp", "Oven temp for us = 200") == (200, "Oven temp for us = 200")
    assert said_value("office_code", 'Our office code here is "NYC-2"') == ("NYC-2", 'office code here is "NYC-2"')


def test_words_that_give_no_value_or_a_one_word_name_are_not_read() -> None:
    assert said_value("home_port", "the home port is the one on the crew sheet") is None
    assert said_value("country", "country is CA") is None  # one word reads like a condition
    assert said_value("home_port", "home port checks happen daily") is None


def test_a_name_s_words_followed_at_once_by_a_number_give_it() -> None:  # round 46
    assert said_value("batch_size", "Load the rows, batch size 500 at a time.") == (500, "batch size 500")
    assert said_value("dose_mg", "give a dose mg of 2.5 to each") == (2.5, "dose mg of 2.5")
    assert said_value("tax_rate", "the tax rate for 2027 is set by the board") is None  # a word between
    assert said_value("batch_size", "batch sizes 500") is None  # not the name's words


_CATALOG = FakeCatalog(
    skill("read-log", input_schema=obj(("vessel",), vessel="string"), output_schema=obj(("legs",), legs="array")),
    skill("file-log", input_schema=obj(("legs", "home_port"), legs="array", home_port="string"),
          output_schema=obj(("filed",), filed="boolean")))

_LOG = """\
# Ship's log filing

You give it the vessel name. Home port for us is LEITH.

1. Read the log with `read-log`.
2. File it with `file-log`.
"""


def test_a_ship_s_log_intro_gives_the_home_port_as_the_step_s_literal_not_an_input() -> None:
    plan = build_plan(parse_spec_text(_LOG, "w.md", "markdown"), _CATALOG, settings=SETTINGS)
    assert [i.name for i in plan.inputs] == ["vessel"]
    binding = plan.step("step-2").inputs["home_port"]
    assert (binding.source, binding.value) == ("literal", "LEITH")
    [warned] = [w for w in plan.warnings if w.code == "plan.input-said-value"]
    assert warned.line == 6 and '`home_port: "LEITH"`' in warned.message


def test_a_recipe_card_s_first_step_gets_the_value_and_no_required_input_is_derived_for_it() -> None:
    catalog = FakeCatalog(skill("bake-loaf", input_schema=obj(("dough_g", "oven_temp"), dough_g="number",
                                                              oven_temp="number"),
                                output_schema=obj(("loaf",), loaf="object")))
    text = "# Loaf\n\nOven temp here is 220.\n\n## Steps\n\n### Step 1: Bake\n- Skill: `bake-loaf`\n"
    plan = build_plan(parse_spec_text(text, "w.md", "markdown"), catalog, settings=SETTINGS)
    assert [i.name for i in plan.inputs] == ["dough_g"]
    assert plan.step("step-1").inputs["oven_temp"].value == 220
