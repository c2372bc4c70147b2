"""Values fixed by a glossary line or a quoted definition, the shape a literal takes for a list input, a
gather of records, and an earlier output handed on with "shall be entered as" (`plan.literal_shape28`)."""

from __future__ import annotations

from orchestrator.plan.literal_shape28 import (
    entered_as,
    outside_lists,
    shape_gathers,
    shape_literals,
    term_value,
    terms,
)
from orchestrator.plan.model import InputBinding
from orchestrator.plan.output_aliases import Earlier
from orchestrator.spec.approval_hold import it_count
from orchestrator.spec.model import StepSpec

_SOP = """LAB SOP 12 - plate reader run
Reagents
buffer ........ PBS, kept at 4 C
wells ......... ["A1", "A2", "B7"] on the calibration plate
incubation .... 37 minutes at room temperature
"""

_CONTRACT = """SERVICE SCHEDULE 2
2.1 In this Schedule "the Customer" means Northwind Traders; "the Service Fee" means EUR 2,400 per
    quarter; "the Sites" means the premises listed in Annex B.
"""

_README = """Nightly export
glossary
region ...... "eu-west" (ask ops before changing)
limit ....... 500 rows per file
"""


def test_a_lab_sop_glossary_gives_a_list_and_a_number() -> None:
    found = terms(_SOP)
    assert [t.words for t in found] == [("buffer",), ("well",), ("incubation",)]
    assert term_value("control_wells", "list of well ids", found)[0] == ["A1", "A2", "B7"]  # type: ignore[index]
    assert term_value("incubation_minutes", "(integer)", found)[0] == 37  # type: ignore[index]


def test_a_contract_schedule_defines_a_name_and_an_amount() -> None:
    found = terms(_CONTRACT)
    assert term_value("customer", "text", found)[0] == "Northwind Traders"  # type: ignore[index]
    assert term_value("service_fee_eur", "(int)", found)[0] == 2400  # type: ignore[index]


def test_a_readme_glossary_gives_a_quoted_text_and_a_count() -> None:
    found = terms(_README)
    assert term_value("region", "", found)[0] == "eu-west"  # type: ignore[index]
    assert term_value("row_limit", "(integer)", found)[0] == 500  # type: ignore[index]


def test_the_term_with_the_value_unit_covers_more_of_the_name() -> None:
    found = terms("year ...... 2026 (change it)\nidle ...... 6 years without a loan\n")
    assert term_value("idle_years", "(int)", found)[0] == 6  # type: ignore[index]
    assert term_value("this_year", "(int)", found)[0] == 2026  # type: ignore[index]


def test_prose_values_and_other_names_are_no_literal() -> None:
    contract = terms(_CONTRACT)
    assert term_value("sites", "list of addresses", contract) is None  # "the premises listed in Annex B"
    assert term_value("site", "text", contract) is None  # prose, not a proper name
    assert term_value("buffer", "text", terms(_SOP)) is None  # "PBS, kept at 4 C": prose
    assert term_value("owner_email", "", terms(_README)) is None
    assert term_value("stir_time", "(integer)", terms("Wait... then stir for a while\n")) is None


def test_two_terms_with_different_values_are_a_guess_not_bound() -> None:
    found = terms("batch ..... 12\nsize ...... 40\n")
    assert term_value("batch_size", "(integer)", found) is None


_STEP = StepSpec(id="step-2", name="check holds", where="notes.txt:5")


def test_a_single_literal_for_a_list_input_becomes_a_one_item_list() -> None:
    bindings = {"on_hold": InputBinding(source="literal", value="31055"),
                "branch": InputBinding(source="literal", value="Millbrook")}
    found = shape_literals(_STEP, {"on_hold": "list of barcodes", "branch": "text"}, bindings, "notes.txt")
    assert bindings["on_hold"].value == ["31055"] and bindings["branch"].value == "Millbrook"
    assert len(found) == 1 and "one-item list" in found[0].message


def test_a_list_literal_or_an_input_said_nothing_of_is_left_as_it_is() -> None:
    bindings = {"tags": InputBinding(source="literal", value=["a", "b"]),
                "labels": InputBinding(source="literal", value="x"),
                "notes": InputBinding(source="literal", value="all the step 1 answers")}
    assert shape_literals(_STEP, {"tags": "list of tags", "notes": "list of texts"}, bindings, "notes.txt") == []
    assert bindings["labels"].value == "x"


def test_a_gather_of_records_takes_each_items_whole_output() -> None:
    bindings = {"crates": InputBinding(source="step", step="step-1", pointer="/crate", gather=True)}
    fields = {"step-1": frozenset({"accession", "crate", "crate_cost_usd"})}
    found = shape_gathers(_STEP, {"crates": "list of `{accession, crate, crate_cost_usd}`"}, bindings,
                          fields.__getitem__, "notes.txt")
    assert bindings["crates"].pointer == "" and len(found) == 1


def test_a_gather_of_one_field_or_of_records_the_step_does_not_give_is_kept() -> None:
    bindings = {"scores": InputBinding(source="step", step="step-1", pointer="/score", gather=True)}
    fields = {"step-1": frozenset({"score", "name"})}
    assert shape_gathers(_STEP, {"scores": "list of numbers"}, bindings, fields.__getitem__, "x") == []
    assert shape_gathers(_STEP, {"scores": "list of {score, rank}"}, bindings, fields.__getitem__, "x") == []
    assert bindings["scores"].pointer == "/score"


def test_outside_lists_are_the_lists_an_earlier_skill_reads_that_no_step_makes() -> None:
    got = outside_lists([("orders", "list of {id, qty}"), ("mode", "text"), ("rows", "list")], {"rows"})
    assert [i.name for i in got] == ["orders"]


_EARLIER = [Earlier(id="step-1", number=1, label="C.2 Insurance insure-value", fields=frozenset({"premium_usd"})),
            Earlier(id="step-2", number=2, label="Section 3 Deposit calc", fields=frozenset({"total", "rate"}))]


def test_a_loan_schedule_a_tenancy_form_and_a_grant_report_hand_a_value_on() -> None:
    assert entered_as("insurance_fee", "the premium arrived at under C.2 shall be entered as the insurance fee",
                      _EARLIER, set()).field == "premium_usd"  # type: ignore[union-attr]
    assert entered_as("deposit", "The total found in section 3 is used as the deposit.", _EARLIER,
                      set()).step == "step-2"  # type: ignore[union-attr]
    assert entered_as("grant_rate", "the rate from step 2 will be recorded as the grant rate", _EARLIER,
                      set()).field == "rate"  # type: ignore[union-attr]


def test_entered_as_other_inputs_or_unnamed_steps_is_not_read() -> None:
    assert entered_as("deposit", "the premium under C.2 shall be entered as the insurance fee", _EARLIER, set()) is None
    assert entered_as("insurance_fee", "the premium under C.9 shall be entered as the insurance fee", _EARLIER,
                      set()) is None
    assert entered_as("insurance_fee", "the insurance fee shall be entered in the ledger", _EARLIER, set()) is None


def test_an_approval_on_its_own_batch_counts_the_list_the_step_is_given() -> None:
    assert it_count("it's more than 5 books", ["barcodes"]) == "barcodes | length > 5"  # a library README
    assert it_count("if it is over 20 hosts", ["hosts_to_patch"]) == "hosts_to_patch | length > 20"  # a runbook
    assert it_count("when there are at least 3 refunds", ["refunds"]) == "refunds | length >= 3"  # a ticket


def test_an_approval_saying_more_or_given_several_lists_is_not_counted_so() -> None:
    assert it_count("it's more than 5 books and the branch is shut", ["barcodes"]) is None
    assert it_count("it's more than 5 books", ["barcodes", "kept"]) is None
    assert it_count("the total is more than 500", ["lines"]) is None
