"""A join input taken from a different field on each branch: the plan model, its placement, its checks."""

from __future__ import annotations

import json

import pytest
from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow
from pydantic import ValidationError

from orchestrator.plan.build import draft_plan
from orchestrator.plan.checks import check_plan
from orchestrator.plan.model import InputBinding, Plan
from orchestrator.plan.render import render_text
from orchestrator.spec.model import SpecText, StepSpec, WorkflowSpec

WEIGH = skill("weigh", output_schema=obj(("amount", "customer"), amount="number", customer="string"))
REFUND = skill("refund-card", input_schema=obj(("customer",), customer="string"),
               output_schema=obj(("refund_id",), refund_id="string", settled="boolean"))
VOUCHER = skill("issue-voucher", input_schema=obj(("customer",), customer="string"),
                output_schema=obj(("voucher_code",), voucher_code="string", expires="string"))
TELL = skill("notify", input_schema=obj(("customer", "reference"), customer="string", reference="string"),
             output_schema=obj(("text",), text="string"))
CATALOG = FakeCatalog(WEIGH, REFUND, VOUCHER, TELL)


def claims(last: StepSpec) -> WorkflowSpec:
    return workflow(step(1, "Weigh", "`weigh`"),
                    step(2, "Refund", "`refund-card`", when="amount > 100"),
                    step(3, "Voucher", "`issue-voucher`", otherwise_where=at(31)),
                    last)


def said(text: str, **kw: object) -> StepSpec:
    return step(4, "Tell", "`notify`", description=text, texts=(SpecText(text=text, line=42, kind="sentence"),),
                **kw)  # type: ignore[arg-type]


def planned(spec: WorkflowSpec) -> tuple[Plan, list[str]]:
    plan, errors = draft_plan(spec, CATALOG, settings=SETTINGS)
    assert not errors, errors
    return plan, [d.render() for d in check_plan(plan, spec)]


# -- the model ------------------------------------------------------------------------


def test_a_binding_without_pointers_keeps_its_json_and_one_with_them_writes_each_step_s() -> None:
    plain = InputBinding(source="step", step="a", pointer="/x", any_of=("a", "b"))
    assert "pointers" not in plain.model_dump_json()
    each = plain.model_copy(update={"pointers": {"a": "/x", "b": "/y"}})
    assert json.loads(each.model_dump_json())["pointers"] == {"a": "/x", "b": "/y"}
    assert (each.pointer_of("a"), each.pointer_of("b"), plain.pointer_of("b")) == ("/x", "/y", "/x")


def test_a_pointer_for_a_step_outside_the_join_is_refused() -> None:
    with pytest.raises(ValidationError, match="`pointers` names c, which is not among the join's steps"):
        InputBinding(source="step", step="a", any_of=("a", "b"), pointers={"c": "/x"})


# -- placing each value on its step ---------------------------------------------------


def test_words_written_for_each_value_bind_each_branch_s_own_field() -> None:
    plan, found = planned(claims(said("Whichever ran, `notify` with the refund id or the voucher code as `reference`.")))
    ref = plan.step("step-4").inputs["reference"]
    assert (ref.any_of, ref.pointers, ref.optional) == (("step-2", "step-3"),
                                                         {"step-2": "/refund_id", "step-3": "/voucher_code"}, False)
    note = plan.step("step-4").provenance["inputs.reference"]
    assert note.where == at(42) and note.note.startswith("join, each step its own field: `reference` = step-2's "
                                                         "`refund_id` (\"refund id\", by its words)")
    assert "step-2 output /refund_id or step-3 output /voucher_code (whichever ran)" in render_text(plan)
    assert found == [] and not [w for w in plan.warnings if w.code == "plan.join-input"]


def test_the_step_runs_after_the_steps_its_join_input_reads() -> None:
    plan, _ = planned(claims(said("`notify` the customer, `reference` = refund_id (if refunded) or voucher_code.",
                                  inputs=(field("customer", line=41),))))
    tell = plan.step("step-4")
    assert tell.depends_on == ("step-1", "step-2", "step-3")
    assert tell.provenance["depends_on"].note.endswith("and step-2, step-3, for reference (whichever ran)")
    assert {(e.producer, e.fields) for e in plan.edges if e.consumer == "step-4"} == {
        ("step-1", ("customer",)), ("step-2", ("reference",)), ("step-3", ("reference",))}


def test_a_value_named_with_its_step_is_looked_for_in_that_step_only() -> None:
    written = field("reference", line=41, description="refund-card's refund_id, or issue-voucher's voucher_code")
    plan, _ = planned(claims(step(4, "Tell", "`notify`", inputs=(field("customer", line=41), written))))
    assert plan.step("step-4").inputs["reference"].pointers == {"step-2": "/refund_id", "step-3": "/voucher_code"}
    assert "by its name" in plan.step("step-4").provenance["inputs.reference"].note


def test_a_value_matched_only_by_some_of_its_words_is_warned_with_what_to_write() -> None:
    plan, _ = planned(claims(said("`notify` with the refund or the voucher as `reference`.")))
    assert plan.step("step-4").inputs["reference"].pointers == {"step-2": "/refund_id", "step-3": "/voucher_code"}
    warned = [w for w in plan.warnings if w.code == "plan.join-input"]
    assert [w.line for w in warned] == [42, 42]
    assert "\"refund\" (one of the values for `reference`) is read as step-2's `refund_id`" in warned[0].message
    assert "write its name (`reference` = refund_id or voucher)" in warned[0].message


def test_a_value_no_step_outputs_is_warned_at_its_line_and_the_one_found_is_bound_alone() -> None:
    plan, _ = planned(claims(said("`notify` with `reference` = refund_id or gift_card.")))
    ref = plan.step("step-4").inputs["reference"]
    assert (ref.step, ref.pointer, ref.any_of, ref.pointers) == ("step-2", "/refund_id", (), {})
    (warned,) = [w for w in plan.warnings if w.code == "plan.join-input"]
    assert warned.line == 42 and "\"gift_card\" is no output of any step before it" in warned.message
    assert "step-3 (issue-voucher) outputs expires, voucher_code" in warned.message


def test_a_sentence_whose_values_no_step_outputs_is_no_join_input() -> None:
    plan, _ = planned(claims(said("`notify` them by mail or chat as `reference`.")))
    assert plan.step("step-4").inputs["reference"].source == "input"  # named in backticks, made by no step
    assert not [w for w in plan.warnings if w.code == "plan.join-input"]


# -- the static checks ----------------------------------------------------------------


def test_a_join_source_the_step_does_not_run_after_is_an_error_naming_the_line() -> None:
    spec = claims(said("`notify` with the refund id or the voucher code as `reference`.",
                       depends_on=("step-1", "step-2"), depends_where=at(43)))
    _, found = planned(spec)
    assert found == ["flow.md:42: step-4 (Tell): `reference` is read from whichever of step-2, step-3 ran, "
                     "but it does not run after step-3 (it depends on step-1, step-2): add step-3 to its `Depends "
                     "on`, or take `reference` from a step it runs after"]


def test_each_join_step_s_field_is_checked_against_that_step_s_output() -> None:
    spec = claims(said("`notify` with the refund id or the voucher code as `reference`."))
    plan, _ = planned(spec)
    tell = plan.step("step-4")
    broken = tell.inputs["reference"].model_copy(update={"pointers": {"step-2": "/refund_id", "step-3": "/code"}})
    plan = plan.model_copy(update={"steps": (*plan.steps[:3], tell.model_copy(update={
        "inputs": {**tell.inputs, "reference": broken}}))})
    found = [d for d in check_plan(plan, spec) if d.code == "schema-mismatch"]
    assert [d.message for d in found] == ["step-3 (Voucher) -> step-4 (Tell): `reference` reads /code but the "
                                          "producer's output has no `code`"]


def test_a_step_named_by_its_number_is_found_whatever_its_id() -> None:
    spec = workflow(step(1, "Weigh", "`weigh`"),
                    step(2, "Refund", "`refund-card`", id="refund", when="amount > 100"),
                    step(3, "Voucher", "`issue-voucher`", id="voucher", otherwise_where=at(31)),
                    said("`notify` with `reference` = refund_id from step 2 or voucher_code from Voucher."))
    plan, found = planned(spec)
    assert plan.step("step-4").inputs["reference"].pointers == {"refund": "/refund_id", "voucher": "/voucher_code"}
    assert found == []


def test_values_none_found_are_no_join_input_unless_they_name_their_steps() -> None:
    plan, _ = planned(claims(said("`notify` with `reference` = fast or slow.")))
    assert plan.step("step-4").inputs["reference"].source == "input"
    assert not [w for w in plan.warnings if w.code == "plan.join-input"]
    plan, _ = planned(claims(said("`notify` with `reference` = gift_id from step 2 or gift_code from step 3.")))
    warned = [w.message for w in plan.warnings if w.code == "plan.join-input"]
    assert len(warned) == 2 and "but \"gift_id\" (step 2) is no output of it" in warned[1]
    assert "step-2 (refund-card) outputs refund_id, settled" in warned[1]
