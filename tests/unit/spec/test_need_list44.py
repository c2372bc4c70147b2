"""A heading or lead line saying what the run needs, over "words (name)" things (`spec.need_list44`): the
bracketed names are the workflow inputs; a skill input nothing gives takes the one whose words say its name
(`plan.declared_words44`)."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.declared_words44 import words_say
from orchestrator.spec import parse_spec_text
from orchestrator.spec.need_list44 import need_list_head
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = Vocabulary.of((s, None) for s in ("price-load", "book-van", "weigh-bag", "label-bag"))


def _said(text: str) -> list[tuple[str, str]]:
    spec = parse_spec_text(text, "sheet.txt", "markdown", vocabulary=_SKILLS)
    return [(i.name, i.description) for i in spec.inputs_said]


@pytest.mark.parametrize("line", [
    "2. WHAT YOU NEED (from the booking form - its field names in brackets)",
    "You'll need:",
    "b) Required info (ask the caller)",
    "NEEDED",
    "Bring:",
    "# What we need",
])
def test_a_line_that_says_what_the_run_needs_is_a_need_heading(line: str) -> None:
    assert need_list_head(line)


@pytest.mark.parametrize("line", [
    "WHAT YOU NEED TO KNOW", "3. What you need to do first", "You'll need a van for this (book it)",
    "Bring the crates round to the back door:",
])
def test_a_note_or_a_chore_is_no_need_heading(line: str) -> None:
    assert not need_list_head(line)


def test_a_removals_sheet_lists_what_it_needs_with_the_names_in_brackets() -> None:
    text = ("REMOVALS - quote sheet\n\n"
            "1) You'll need (off the enquiry form)\n"
            "   the customer's surname (surname), total volume in cubic metres, roughly (vol_m3),\n"
            "   floor they live on (floor - 0 for ground)\n\n"
            "2) STEPS\n"
            "   a) price-load with the volume and floor.\n"
            "   b) then book-van for the surname.\n")
    assert _said(text) == [("surname", "said in the text as 'the customer's surname'"),
                           ("vol_m3", "said in the text as 'total volume in cubic metres, roughly'"),
                           ("floor", "said in the text as 'floor they live on'")]


def test_a_bag_drop_checklist_under_bring_reads_each_thing_by_its_bracketed_name() -> None:
    text = ("Bag drop\n\n"
            "Bring:\n"
            "  passenger name (pax_name), bag weight in pounds (bag_lb)\n\n"
            "- weigh-bag for the bag.\n- label-bag for the passenger.\n")
    assert [n for n, _ in _said(text)] == ["pax_name", "bag_lb"]


def test_a_need_to_know_heading_over_the_same_list_reads_no_input() -> None:
    text = ("Bag drop\n\n"
            "WHAT YOU NEED TO KNOW\n"
            "  passenger name (pax_name), bag weight in pounds (bag_lb)\n\n"
            "- weigh-bag for the bag.\n- label-bag for the passenger.\n")
    assert _said(text) == []


@pytest.mark.parametrize(("name", "words", "says"), [
    ("weight_kg", "bodyweight in kg on the day", True),
    ("volume_m3", "total volume in m3", True),
    ("surname", "the customer's surname", True),
    ("weight_lb", "bodyweight in kg", False),  # a word not said
    ("kg", "bodyweight in kg", True),
    ("weight", "the freight", False),  # "freight" does not end with "weight"
])
def test_an_input_s_words_say_a_name_when_every_word_of_it_is_said(name: str, words: str, says: bool) -> None:
    assert words_say(name, words) is says


WEIGH = skill("weigh-bag", input_schema=obj(("weight_lb",), weight_lb="number"),
              output_schema=obj(("fee",), fee="number"))
LABEL = skill("label-bag", input_schema=obj(("passenger_name", "fee"), passenger_name="string", fee="number"),
              output_schema=obj(("tag",), tag="string"))


def test_the_planner_gives_each_skill_input_the_declared_input_its_words_say_warned() -> None:
    text = ("Bag drop\n\n"
            "Bring:\n"
            "  passenger name (pax_name), bag weight in pounds (bag_lb)\n\n"
            "- `weigh-bag` for the bag.\n- then `label-bag` for the passenger name, with the fee.\n")
    plan = build_plan(parse_spec_text(text, "w.md", "markdown"), FakeCatalog(WEIGH, LABEL), settings=SETTINGS)
    label = plan.steps[1]
    assert label.inputs["passenger_name"].source == "input" and label.inputs["passenger_name"].name == "pax_name"
    assert any("its words 'passenger name' say" in w.message for w in plan.warnings)
    # near miss: "bag weight in pounds" does not say `lb`, so `weight_lb` is not given `bag_lb`
    assert plan.steps[0].inputs["weight_lb"].name == "weight_lb"
    assert "passenger_name" not in {i.name for i in plan.inputs}
