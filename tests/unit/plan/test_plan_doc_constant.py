"""A code the document states once for the whole run ("for store 0412", "Office code: LDN2", a
title's "(DS4)") is taken by a step whose skill reads that identifier and nothing gives it, warned
with where it was read; two codes are a guess and none is taken; a title's code needs the step to
say "our ..." of it."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.doc_constant import document_constant
from orchestrator.spec import parse_spec_text


def test_a_stock_count_s_title_holds_the_store_s_code_for_our_store_code() -> None:
    values, how = document_constant("store_code", "Nightly stock count — Dockside Store (DS4)", "",
                                    "Send the counts for our store code with send-counts.")
    assert values == ["DS4"]
    assert "title" in how


def test_a_title_s_code_is_not_taken_when_the_step_does_not_say_it_is_ours() -> None:
    assert document_constant("store_code", "Stock count (DS4)", "", "Send the store code.")[0] == []


def test_a_ship_s_log_says_the_vessel_once_in_its_intro() -> None:
    intro = "# Deck log\n\nAll entries for vessel MV-2231 unless the master says otherwise.\n"
    assert document_constant("vessel_id", "Deck log", intro, "log the watch")[0] == ["MV-2231"]


def test_an_hr_checklist_states_the_office_code_with_a_colon() -> None:
    intro = "New starter checklist\nOffice code: LDN2\n"
    assert document_constant("office_code", "New starter checklist", intro, "")[0] == ["LDN2"]


def test_a_lab_protocol_naming_two_benches_is_a_guess_between_them() -> None:
    intro = "Runs on bench B12 on weekdays, bench C04 at weekends.\n"
    assert document_constant("bench_id", "", intro, "")[0] == ["B12", "C04"]


def test_words_in_capitals_or_a_name_that_is_no_identifier_are_no_code() -> None:
    assert document_constant("tank_id", "BRITE TANK RELEASE", "BRITE TANK RELEASE\n", "our tank id")[0] == []
    assert document_constant("store_name", "Stock (DS4)", "store DS4", "our store name")[0] == []


SEND = skill("send-counts", input_schema=obj(("store_code", "counts"), store_code="string", counts="array"),
             output_schema=obj(("sent",), sent="boolean"))
COUNT = skill("count-shelves", input_schema=obj(("aisles",), aisles="array"),
              output_schema=obj(("counts", "code"), counts="array", code="string"))
CATALOG = FakeCatalog(COUNT, SEND)

_COUNT = """\
# Nightly stock count — Dockside Store (DS4)

1. Count the shelves with `count-shelves`.
2. Send the counts for our store code with `send-counts`.
"""


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), CATALOG, settings=SETTINGS)


def test_the_step_takes_the_document_s_code_not_the_code_an_earlier_step_outputs() -> None:
    plan = _plan(_COUNT)
    bound = plan.step("step-2").inputs["store_code"]
    assert (bound.source, bound.value) == ("literal", "DS4")
    assert "store_code" not in {i.name for i in plan.inputs}
    [warned] = [w for w in plan.warnings if "`store_code`" in w.message]
    assert warned.line == 4
    assert 'store_code: "DS4"' in warned.message


def test_two_codes_in_the_title_are_both_said_and_neither_taken() -> None:
    plan = _plan(_COUNT.replace("(DS4)", "(DS4) and Quay Store (QS1)"))
    assert "store_code" not in plan.step("step-2").inputs  # not an earlier step's `code` either
    assert any("DS4, QS1" in w.message and "none is taken" in w.message for w in plan.warnings)
