"""A loop over a workflow input list whose items' fields the skill reads, the text naming them
(`plan.item_fields45`), and the step after it that gathers its results (`plan.author_inputs24`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.plan.item_fields45 import item_field_input_pairs
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import InputSpec
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

WEIGH = skill("weigh-parcel", input_schema=obj(("length", "width", "mass"), length="number", width="number",
                                               mass="number"), output_schema=obj(("band",), band="string"))
MANIFEST = skill("print-manifest", input_schema=obj(("parcels",), parcels="array"),
                 output_schema=obj(("pages",), pages="integer"))
LABEL = skill("label-crate", input_schema=obj(("owner", "bay"), owner="string", bay="string"),
              output_schema=obj(("label",), label="string"))


def _plan(text: str, *skills: object):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "sheet.txt", "markdown"), FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]


def test_the_counted_noun_s_list_is_looped_when_the_text_names_the_fields() -> None:
    lists = [InputSpec(name="parcels", where="f:1"), InputSpec(name="depot", where="f:2")]
    text = "weigh every parcel: for each one its length, width and mass"
    assert item_field_input_pairs(("parcel",), ["length", "width", "mass"], lists, text) == [("", "parcels", "parcel")]
    crates = [InputSpec(name="crates", type="array", where="f:1")]
    said = "each crate is labelled with its owner and its bay"
    assert item_field_input_pairs(("crate",), ["owner", "bay"], crates, said) == [("", "crates", "crate")]


def test_no_loop_when_a_free_name_is_not_said_or_the_list_is_no_list() -> None:
    lists = [InputSpec(name="parcels", where="f:1")]
    # `mass` is not said: nothing says it is a field of each parcel
    assert item_field_input_pairs(("parcel",), ["length", "width", "mass"], lists, "weigh every parcel by its length "
                                  "and width") == []
    assert item_field_input_pairs(("parcel",), ["owner"], [InputSpec(name="parcels", type="string", where="f:1")],
                                  "every parcel's owner") == []
    assert item_field_input_pairs(("parcel",), ["parcel"], lists, "every parcel") == []  # the item itself: `author_inputs24`


def test_a_dispatch_sheet_loops_over_its_parcels_fields_and_gathers_them() -> None:
    text = ("DEPOT DISPATCH\n\n"
            "It needs the parcels booked today (parcels - each has a length, a width and a mass).\n\n"
            "1. every parcel gets weighed on its own -> `weigh-parcel`\n"
            "   for each parcel: its length, width and mass.\n"
            "2. print the manifest -> `print-manifest`\n"
            "   all the weighed parcels from 1 together.\n")
    plan = _plan(text, WEIGH, MANIFEST)
    loop, gather = plan.steps
    assert loop.for_each is not None and loop.for_each.source.source == "input"
    assert loop.for_each.source.name == "parcels"
    assert {n: b.source for n, b in loop.inputs.items()} == {"length": "item", "width": "item", "mass": "item"}
    assert gather.inputs["parcels"].source == "step" and gather.inputs["parcels"].gather


def test_a_sheet_that_does_not_name_the_fields_keeps_the_step_once() -> None:
    text = ("YARD SHEET\n\n"
            "It needs the crates in the yard (crates).\n\n"
            "1. every crate gets a label -> `label-crate`\n"
            "   for each crate: a label in red.\n"
            "2. print the manifest -> `print-manifest`\n")
    step = _plan(text, LABEL, MANIFEST).steps[0]
    assert step.for_each is None
