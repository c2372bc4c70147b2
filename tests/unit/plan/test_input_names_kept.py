"""A workflow input named in the author's words (an intro's "(`harvest_date`)") keeps that name when a
step's text names it and its skill reads a shorter or abbreviated name (`date`, `nominal_psi` for
`nom_psi`): the plan makes no input of the skill's name, and the step takes the author's input.
Documents: an allotment society's harvest note, a dive shop's fill log, a choir's tour sheet."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.input_names_kept import keep_names, stands_for
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import InputSpec


@pytest.mark.parametrize(("own", "field", "fits"), [
    ("pickup_date", "date", True), ("harvest_date", "date", True), ("date_of_harvest", "date", True),
    ("nom_psi", "nominal_psi", True), ("tank_num", "tank_number", True),
    ("date", "date", False),  # the same name: nothing to keep
    ("update", "date", False),  # a part of a word is no word
    ("qty", "quantity", False),  # not the same words shortened
    ("site_id", "id", False),  # a two-letter part says too little
    ("plot_a", "plot_b", False),
    ("tank_vol_l", "volume_l", True), ("beam_temp_c", "temperature_c", True),  # its last words, cut short
    ("roof_wid", "width_m", False),  # a word of the field missing: no cut of it
    ("room_wi_m", "width_m", False),  # a cut of two letters says too little
])
def test_an_authors_name_stands_for_a_field_said_longer_or_shortened(own: str, field: str, fits: bool) -> None:
    assert stands_for(own, field) is fits


def _said(*names: str) -> list[InputSpec]:
    return [InputSpec(name=n, where="d.md:3") for n in names]


def test_two_fields_that_both_fit_leave_the_input_as_it_was() -> None:
    said, kept = keep_names(_said("start_date_time"), [("s1", "book it for start_date_time", {"date_time", "start"})],
                            lambda _s, _f: False)
    assert kept == {} and said[0].description == ""


def test_a_field_an_earlier_step_gives_is_not_taken_from_the_input() -> None:
    _, kept = keep_names(_said("harvest_date"), [("s2", "log harvest_date", {"date"})], lambda _s, f: f == "date")
    assert kept == {}


def test_a_step_that_does_not_name_the_input_does_not_take_it() -> None:
    _, kept = keep_names(_said("harvest_date"), [("s1", "weigh the crop", {"date"})], lambda _s, _f: False)
    assert kept == {}


_CATALOG = FakeCatalog(
    skill("crop-weigh", input_schema=obj(("plot",), plot="string"), output_schema=obj(("kg",), kg="number")),
    skill("show-book", input_schema=obj(("date", "kg"), date="string", kg="number"), output_schema=obj(("ok",), ok="boolean")),
    skill("fill-log", input_schema=obj(("tank", "nominal_psi"), tank="string", nominal_psi="number"),
          output_schema=obj(("logged",), logged="boolean")),
    skill("tank-tag", input_schema=obj(("tank",), tank="string"), output_schema=obj(("tag",), tag="string")),
    skill("tour-book", input_schema=obj(("city", "date"), city="string", date="string"),
          output_schema=obj(("booked",), booked="boolean")),
)


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "f.md", "markdown"), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]


def test_an_allotment_note_keeps_the_harvest_date_its_intro_names() -> None:
    plan = _plan("# Show entry\n\nI run this with the plot (`plot`) and the show day (`harvest_date`).\n\n"
                 "1. Weigh the plot with `crop-weigh`.\n2. Book the entry for harvest_date with `show-book`.\n")
    assert {i.name for i in plan.inputs} == {"plot", "harvest_date"}
    book = plan.steps[1].inputs["date"]
    assert (book.source, book.name) == ("input", "harvest_date")


def test_a_dive_shops_fill_log_keeps_its_abbreviated_pressure_name() -> None:
    plan = _plan("# Fills\n\nYou'll be asked for the tank (`tank`) and the rated pressure (`nom_psi`).\n\n"
                 "1. Tag the tank with `tank-tag`.\n2. Log the fill of the tank at nom psi with `fill-log`.\n")
    assert {i.name for i in plan.inputs} == {"tank", "nom_psi"}
    assert plan.steps[1].inputs["nominal_psi"].name == "nom_psi"


def test_a_tour_sheet_that_names_the_skills_own_field_keeps_it() -> None:  # nothing renamed: `date` is said
    plan = _plan("# Tour\n\nWe start from the city (`city`) and the gig date (`date`).\n\n"
                 "1. Book the hall in city on date with `tour-book`.\n2. Tag the city with `tank-tag`.\n")
    assert {i.name for i in plan.inputs} == {"city", "date"}
    assert plan.steps[0].inputs["date"].name == "date"


# "A + B + C from step N": the values said in words before a step's number come from that step
# (`plan.said_step`). Documents: a vet's intake card, a print shop's job ticket, a lab's sample sheet.
@pytest.mark.parametrize(("text", "name", "step"), [
    ("Owner's phone + chip no. + breed from step 1, slot from step 3.", "chip_id", "step-1"),  # an intake card
    ("Owner's phone + chip no. + breed from step 1, slot from step 3.", "owner_phone", "step-1"),
    ("Owner's phone + chip no. + breed from step 1, slot from step 3.", "slot", "step-3"),
    ("Use the paper stock and page count from step 2.", "page_count", "step-2"),  # a print shop's ticket
    ("Tube ref from stage 1, the spin speed from the tech.", "tube_ref", "step-1"),  # a lab's sample sheet
])
def test_values_said_in_words_before_from_step_n_come_from_that_step(text: str, name: str, step: str) -> None:
    from orchestrator.plan.said_step import said_step
    assert said_step(text, name) == step


@pytest.mark.parametrize(("text", "name"), [
    ("Use the page count from the printer, then the stock from step 2.", "page_count"),  # another clause's step
    ("Tube ref from stage 1.", "spin_speed"),  # not said
    ("The weights from step 1.", "weight_g"),  # words not all said
])
def test_a_name_not_said_before_the_step_number_is_not_tied_to_it(text: str, name: str) -> None:
    from orchestrator.plan.said_step import said_step
    assert said_step(text, name) is None
