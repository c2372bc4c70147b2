"""Workflow inputs under the author's own names given to the skill inputs they stand for, and a loop over a
workflow input that is a list with the step that gathers it (`plan.author_inputs24`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.plan.author_inputs24 import _one_for, input_list_pairs
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import InputSpec
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

PLAN_BAKE = skill("plan-bake", input_schema=obj(("date",), date="string"), output_schema=obj(("trays",), trays="array"))
ORDER_FLOUR = skill("order-flour", input_schema=obj(("date", "trays"), date="string", trays="array"),
                    output_schema=obj(("ordered",), ordered="boolean"))
ROUTE_VAN = skill("route-van", input_schema=obj(("from", "to"), **{"from": "string", "to": "string"}),
                  output_schema=obj(("minutes",), minutes="number"))
ASSAY = skill("assay-tube", input_schema=obj(("sample",), sample="string"), output_schema=obj(("od",), od="number"))
SUMMARY = skill("summarise-plate", input_schema=obj(("samples",), samples="array"),
                output_schema=obj(("report",), report="string"))


def _plan(text: str, *skills: object, path: str = "sheet.txt"):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, path, "markdown"), FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_bakery_job_card_s_own_input_name_is_kept_and_given_to_the_skill_s_date() -> None:
    text = ("CORNER BAKERY - WEEKEND JOB CARD\n"
            "Bake date ....... BAKE_DATE  (e.g. 2026-05-02)\n"
            "Shop ............ shop_code\n\n"
            "1. `plan-bake` for the bake day.\n2. `order-flour` for the trays.\n")
    plan = _plan(text, PLAN_BAKE, ORDER_FLOUR)
    assert [i.name for i in plan.inputs] == ["BAKE_DATE", "shop_code"]
    for step in plan.steps:
        assert step.inputs["date"].source == "input" and step.inputs["date"].name == "BAKE_DATE"
    assert any("`date`" in w.message and "BAKE_DATE" in w.message for w in plan.warnings)


def test_a_courier_sheet_s_a_to_b_gives_a_skill_s_two_ends() -> None:
    text = ("COURIER RUN SHEET\n"
            "PICKUP:    pickup\n"
            "DROPOFF:   dropoff\n\n"
            "1. `route-van` from pickup to dropoff, fastest road.\n2. `order-flour` for the van's lunch.\n")
    step = _plan(text, ROUTE_VAN, ORDER_FLOUR).steps[0]
    assert (step.inputs["from"].name, step.inputs["to"].name) == ("pickup", "dropoff")


def test_a_lab_form_loops_over_its_sample_list_and_the_next_step_gathers_the_results() -> None:
    text = ("PLATE READ REQUEST\n"
            "SAMPLES:   samples   (list - one tube id per line)\n"
            "ANALYST:   analyst\n\n"
            "1. `assay-tube`, once per sample on the list.\n"
            "2. `summarise-plate` once all the sample readings are back together.\n")
    plan = _plan(text, ASSAY, SUMMARY)
    loop, gather = plan.steps
    assert loop.for_each is not None and loop.for_each.source.source == "input"
    assert loop.for_each.source.name == "samples"
    assert gather.inputs["samples"].source == "step" and gather.inputs["samples"].gather
    assert gather.inputs["samples"].step == loop.id


def test_two_inputs_that_both_fit_are_a_guess_and_neither_is_given() -> None:
    text = ("ROTA FORM\n"
            "START_DATE ?= 2026-01-01\n"
            "END_DATE ?= 2026-01-31\n\n"
            "1. `plan-bake` for the rota.\n2. `order-flour` for the trays.\n")
    step = _plan(text, PLAN_BAKE, ORDER_FLOUR).steps[0]
    assert "date" not in step.inputs or step.inputs["date"].name not in ("START_DATE", "END_DATE")


def test_words_a_to_b_that_are_no_inputs_give_no_ends() -> None:
    text = ("COURIER RUN SHEET\n"
            "PICKUP:    pickup\n"
            "DROPOFF:   dropoff\n\n"
            "1. `route-van` door to door, fastest road.\n2. `order-flour` for the van's lunch.\n")
    step = _plan(text, ROUTE_VAN, ORDER_FLOUR).steps[0]
    assert "from" not in step.inputs and "to" not in step.inputs


def test_a_list_input_is_looped_over_only_when_it_is_one_and_a_list() -> None:
    spec_lists = [InputSpec(name="fields", type="array", where="f:1"), InputSpec(name="crops", where="f:2")]
    assert input_list_pairs(("field",), ["field", "water_l_ha"], spec_lists) == [("", "fields", "field")]
    assert input_list_pairs(("field",), ["field"], [InputSpec(name="fields", type="string", where="f:1")]) == []
    two = [InputSpec(name="fields", where="f:1"), InputSpec(name="paddocks", where="f:2")]
    assert input_list_pairs(("paddock",), ["paddock", "field"], two) == []


def test_an_input_that_is_only_part_of_the_skill_input_s_name_is_not_given_to_it() -> None:
    # holdout16 102: `lifts` (every lift) is not `ready_lifts` (the ones step 2 found ready); given it, the run
    # said `succeeded` with runs opened on lifts on wind hold
    assert _one_for("ready_lifts", ["study_plot", "lifts", "terrain"], "terrain list + ready lifts (#2)") is None
    assert _one_for("date", ["FEED_DATE", "REGION"], "") == "FEED_DATE"


def test_an_input_without_the_unit_the_skill_s_name_ends_with_is_given_to_it() -> None:
    assert _one_for("core_temp_c", ["core_temp", "chef"], "probe the core temp") == "core_temp"
    assert _one_for("weight_kg", ["weight", "site"], "weigh it") == "weight"
    assert _one_for("ready_lifts", ["lifts"], "count the lifts") is None  # a word that is no unit: a part, not it
