"""A number a step's own text says beside a word of a skill input's name ("limit 1.0 mm", "85 % is the
regeneration threshold") is that input's literal, warned; not a workflow input the plan makes up.
Documents: a kiln firing log, a brewery mash sheet, a pool-chemistry checklist."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.literal_said import literal_said, takes_a_number
from orchestrator.spec import parse_spec_text


@pytest.mark.parametrize(("name", "text", "said"), [
    ("limit_mm", "Check the shelves with kiln-check, limit 1.0 mm.", 1.0),  # a kiln firing log
    ("threshold", "Grade with mash-grade. Note: 72 % is our threshold for a good mash.", 72),  # a mash sheet
    ("target_ppm", "Dose with chlorine-dose; target 3 ppm for the main pool.", 3),  # a pool checklist
    ("max_temp_c", "Fire it, but keep the max temp at 1240 C", 1240),
    # an aside in brackets right after the number: another time's value, not this step's
    ("copies", "Run it off on the office copier, copies 80 (200 for the AGM, the chair sets that).", 80),
    ("dose_ml", "Give the calf its drench, dose 20 ml (30 ml for the big ones next month)", 20),
])
def test_a_number_beside_a_word_of_the_name_is_its_value(name: str, text: str, said: object) -> None:
    got = literal_said(name, text)
    assert got is not None and got[0] == said and type(got[0]) is type(said)


@pytest.mark.parametrize(("name", "text"), [
    ("limit_mm", "Check the shelves with kiln-check; if no result in 2 MIN, abandon."),  # a duration, no word
    ("threshold", "Grade with mash-grade against the house standard."),  # no number
    ("threshold", "Grade the threshold lots from step 2 with mash-grade."),  # a step number
    ("limit", "Check with kiln-check, limit 2 min."),  # a duration for a name of none
    ("target_ppm", "Dose with chlorine-dose: target 3 ppm. Later, target 5 ppm for the spa."),  # two numbers said
    ("copies", "Run it off on the copier, copies 80 or 200 at the AGM."),  # two numbers, no aside in brackets
    ("id", "Look up id 42."),  # a word too short to say anything
    ("threshold", "Grade with mash-grade. Retry 3 times; the threshold is set by the brewer."),  # a count of tries
    ("threshold", "Score the accounts with churn-score and the risk `threshold` (60 for now)."),  # a value for now
    ("max_rooms", "Book with room-hold; max rooms is 12 by default, the organiser may change it."),  # a default
    ("margin", "Price with quote-build, margin currently 18 percent."),  # a value as it is today
    ("listing", "The listing is split by list-shards(1), which yields shards."),  # a man page's section number
])
def test_no_number_is_read_when_none_is_said_for_it(name: str, text: str) -> None:
    assert literal_said(name, text) is None


_CATALOG = FakeCatalog(
    skill("kiln-load", input_schema=obj(("shelves",), shelves="array"), output_schema=obj(("loaded",), loaded="array")),
    skill("kiln-check", input_schema=obj(("loaded", "limit_mm"), loaded="array", limit_mm="number"),
          output_schema=obj(("warped",), warped="array")),
)


def test_a_kiln_log_gives_the_number_as_the_steps_literal_and_makes_no_input_of_it() -> None:
    text = ("# Firing\n\n1. Load the shelves with `kiln-load`.\n"
            "2. Check the loaded shelves with `kiln-check`, limit 0.5 mm of warp.\n")
    plan = build_plan(parse_spec_text(text, "f.md", "markdown"), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]
    assert "limit_mm" not in {i.name for i in plan.inputs}
    bound = plan.steps[1].inputs["limit_mm"]
    assert (bound.source, bound.value) == ("literal", 0.5)
    assert any(w.code == "plan.input-said-value" and "limit_mm" in w.message for w in plan.warnings)


def test_only_an_input_whose_schema_takes_a_number_gets_one() -> None:
    assert takes_a_number({"properties": {"limit_mm": {"type": "number"}}}, "limit_mm")
    assert takes_a_number({"properties": {"n": {"type": ["integer", "null"]}}}, "n")
    assert takes_a_number({}, "limit_mm")  # no type said
    assert not takes_a_number({"properties": {"listing": {"type": "string"}}}, "listing")


@pytest.mark.parametrize(("name", "text"), [
    ("core_temp_c", "probe the core temp; flaky - 2 more tries, 10 s apart"),  # a count of tries in a policy
    ("load_kg", "weigh the load kg - scale jams, 1 extra go"),
    ("labelled", "file it: chef, labelled = printed (3)"),  # a row's number in brackets: a reference
    ("batch_count", "count the batch (4b) and post it"),
])
def test_a_policy_s_count_of_tries_or_a_row_number_in_brackets_is_never_an_input_s_value(name: str, text: str) -> None:
    assert literal_said(name, text) is None


def test_a_number_beside_the_name_is_still_read_beside_a_policy_said_apart() -> None:
    got = literal_said("load_kg", "weigh a load kg of 40; if the scale jams, 1 extra go")
    assert got is not None and got[0] == 40


@pytest.mark.parametrize(("name", "text", "others", "said"), [
    ("min_crash_free", "gate-check · min crash-free 99.5 · max 2 risky CLs", ["max_risky"], 99.5),
    ("max_wind_speed", "crane-check: max wind-speed 38, min 2 riggers", ["min_riggers"], 38),
    ("min_riggers", "crane-check: max wind-speed 38, min 2 riggers", ["max_wind_speed"], 2),
])
def test_a_hyphened_word_of_the_names_own_words_is_its_word(name: str, text: str, others: list[str],
                                                             said: object) -> None:
    """"crash-free" is `min_crash_free`'s words written with a hyphen: the number after it is its value,
    not the next name's ("max 2 risky")."""
    got = literal_said(name, text, others)
    assert got is not None and got[0] == said


def test_a_hyphened_word_of_another_name_is_not_the_names_word() -> None:
    """Near miss: "rain-total 12" is another name's number, not `min_free`'s."""
    assert literal_said("min_free", "keep the min rain-total 12") is None
