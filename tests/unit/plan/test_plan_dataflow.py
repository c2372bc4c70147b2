"""Where inputs come from: each binding rule of docs/spec-format.md, with the rule in the plan."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow

from orchestrator.errors import PlanError
from orchestrator.plan import build_plan
from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import InputBinding, Plan
from orchestrator.plan.wanted import read_instructions
from orchestrator.policy import Fallback, FallbackAction
from orchestrator.spec.model import ContractSpec, InputSpec, StepSpec

ITEMS = skill("list-items", output_schema=obj(("things",), things={"type": "array", "items": obj(
    ("name", "size"), name="string", size="integer")}))
NAMED = skill("name-size", input_schema=obj(("name", "size"), name="string", size="integer"),
              output_schema=obj(("label", "size"), label="string", size="integer"))
TAKE_LABELS = skill("take-labels", input_schema=obj(("label",), label={"type": "array"}))
TAKE_LABEL = skill("take-label", input_schema=obj(("label",), label="string"))
N = skill("bump", input_schema=obj(("n",), n="integer"), output_schema=obj(("n",), n="integer"))
FREE = skill("free")
CATALOG = FakeCatalog(ITEMS, NAMED, TAKE_LABELS, TAKE_LABEL, N, FREE)


def plan_of(*steps: StepSpec, catalog: FakeCatalog = CATALOG, **kw: object) -> Plan:
    return build_plan(workflow(*steps, **kw), catalog, settings=SETTINGS)  # type: ignore[arg-type]


def note(plan: Plan, sid: str, name: str) -> str:
    return plan.step(sid).provenance[f"inputs.{name}"].note


def test_a_chain_of_steps_and_a_workflow_input_of_one_name_runs_through_the_steps() -> None:
    steps = [step(i, f"Bump {i}", "`bump`", inputs=(field("n", line=i * 10 + 2),)) for i in range(1, 13)]
    plan = plan_of(*steps, inputs=("n",))
    assert plan.step("step-1").inputs["n"] == InputBinding(source="input", name="n")
    assert [plan.step(f"step-{i}").inputs["n"].step for i in range(2, 13)] == [f"step-{i}" for i in range(1, 12)]
    assert note(plan, "step-12", "n") == "nearest step: step-11 at /n"
    warned = [w for w in plan.warnings if w.code == "ambiguous-input"]
    assert len(warned) == 11 and warned[0].line == 22


def test_a_data_contracts_edge_that_names_the_field_is_explicit() -> None:
    contract = ContractSpec(producer="step-1", consumer="step-3", input_fields=(field("n"),), where=at(90))
    plan = plan_of(step(1, "A", "`bump`"), step(2, "B", "`bump`"), step(3, "C", "`bump`", depends_on=("step-2",)),
                   inputs=("n",), contracts=(contract,))
    assert plan.step("step-3").inputs["n"].step == "step-1"
    assert note(plan, "step-3", "n") == "explicit: the Data Contracts edge step-1 -> step-3 names it"


def test_inside_a_for_each_a_property_of_the_item_binds_to_that_field() -> None:
    plan = plan_of(step(1, "List", "`list-items`"),
                   step(2, "Each", "`name-size`", for_each="thing in things", inputs=(field("name"), field("size"))),
                   inputs=("name",))
    each = plan.step("step-2")
    assert each.inputs["name"] == InputBinding(source="item", pointer="/name")
    assert note(plan, "step-2", "size") == "for each item field: `size` of each item of things"


def test_a_step_reading_a_for_each_step_gets_each_field_gathered_as_a_list_and_the_whole_list_as_items() -> None:
    plan = plan_of(step(1, "List", "`list-items`"),
                   step(2, "Each", "`name-size`", for_each="thing in things", inputs=(field("name"), field("size"))),
                   step(3, "All", "`take-labels`", inputs=(field("label"), field("items", required=False))))
    label, items = plan.step("step-3").inputs["label"], plan.step("step-3").inputs["items"]
    assert (label.step, label.pointer, label.gather) == ("step-2", "/label", True)
    assert (items.step, items.pointer, items.gather) == ("step-2", "", True)
    assert note(plan, "step-3", "label").startswith("nearest step: gathered results of step-2")
    assert '"gather":true' in plan.step("step-3").model_dump_json().replace(" ", "")
    assert "gather" not in plan.step("step-2").model_dump_json()  # unset: plans keep their JSON


def test_a_consumer_taking_one_value_of_a_gathered_field_is_a_schema_mismatch() -> None:
    spec = workflow(step(1, "List", "`list-items`"),
                    step(2, "Each", "`name-size`", for_each="thing in things", inputs=(field("name"), field("size"))),
                    step(3, "One", "`take-label`", inputs=(field("label", line=32),)))
    plan, _ = draft_plan(spec, CATALOG, settings=SETTINGS)
    from orchestrator.plan.checks import check_plan

    found = [d for d in check_plan(plan, spec) if d.code == "schema-mismatch"]
    assert [d.line for d in found] == [32]
    assert "it is array but must be string: step-2 is a For each step" in found[0].message


def test_a_join_takes_a_name_from_whichever_branch_ran() -> None:
    router = step(1, "Route", "`free`", routes={"a": "step-2", "b": "step-3"})
    plan = plan_of(router, step(2, "A", "`name-size`", inputs=(field("name", source="inputs.name"),
                                                                field("size", source="inputs.size"))),
                   step(3, "B", "`name-size`", inputs=(field("name", source="inputs.name"),
                                                       field("size", source="inputs.size"))),
                   step(4, "Join", "`take-label`", depends_on=("step-2", "step-3"), join="any"),
                   inputs=("name", "size"))
    label = plan.step("step-4").inputs["label"]
    assert label.any_of == ("step-2", "step-3") and label.pointer == "/label"
    assert note(plan, "step-4", "label") == "join: `label` of whichever of step-2, step-3 ran"


def test_an_if_and_its_otherwise_are_one_source_for_the_step_after_both() -> None:
    plan = plan_of(step(1, "Score", "`bump`"),
                   step(2, "Big", "`bump`", when="n > 10", inputs=(field("n"),)),
                   step(3, "Small", "`bump`", otherwise_where=at(31), inputs=(field("n", source="steps.step-1.output.n"),),
                        depends_on=("step-1",)),
                   step(4, "After", "`bump`", depends_on=("step-2", "step-3")),
                   inputs=("n",))
    assert plan.step("step-2").when == "steps['step-1'].output.n > 10"
    assert plan.step("step-3").when == "not (steps['step-1'].output.n > 10)"
    assert plan.step("step-3").provenance["when"].note == "otherwise of step-2: runs exactly when its condition was false"
    assert plan.step("step-4").inputs["n"].any_of == ("step-2", "step-3")


def test_an_otherwise_reading_nothing_of_its_partner_waits_for_what_the_partner_waits_for() -> None:
    # after step 1 (what step 2 waits for), not after step 2: skipped, step 2 would skip it too
    plan = plan_of(step(1, "Score", "`bump`", inputs=(field("n"),)),
                   step(2, "Big", "`bump`", when="mode is fast", input_values={"n": 100}),
                   step(3, "Small", "`bump`", otherwise_where=at(31), input_values={"n": 0}),
                   inputs=("n", "mode"))
    assert plan.step("step-2").depends_on == plan.step("step-3").depends_on == ("step-1",)
    assert plan.step("step-3").provenance["depends_on"].note == ("default: step order, as the Otherwise of "
                                                                 "step-2: after what step-2 waits for")
    assert plan.step("step-3").when == "not (inputs.mode == 'fast')"
    # a condition on an earlier step's output: the Otherwise waits for that step, as its partner does
    plan = plan_of(step(1, "Score", "`bump`", inputs=(field("n"),)),
                   step(2, "Big", "`bump`", when="n > 10", input_values={"n": 100}),
                   step(3, "Small", "`bump`", otherwise_where=at(31), input_values={"n": 0}),
                   inputs=("n",))
    assert plan.step("step-3").depends_on == ("step-1",)
    assert plan.step("step-3").when == "not (steps['step-1'].output.n > 10)"


def test_a_step_after_a_conditional_step_by_the_step_order_alone_also_follows_what_that_step_waits_for() -> None:
    # so a false condition does not skip it as well (every step it depends on skipped)
    plan = plan_of(step(1, "Score", "`bump`", inputs=(field("n"),)),
                   step(2, "Notify", "`bump`", when="mode is loud", input_values={"n": 100}),
                   step(3, "Archive", "`bump`", input_values={"n": 0}),
                   step(4, "Big", "`bump`", when="mode is big", input_values={"n": 1}),
                   step(5, "Small", "`bump`", otherwise_where=at(51), input_values={"n": 2}),
                   step(6, "Reply", "`bump`", input_values={"n": 3}),
                   step(7, "Close", "`bump`", input_values={"n": 4}),
                   inputs=("n", "mode"))
    assert plan.step("step-3").depends_on == ("step-2", "step-1")
    assert plan.step("step-3").provenance["depends_on"].note == (
        "default: step order; step-2 may be skipped by its condition, so also after what it waits for (step-1)")
    assert plan.step("step-5").depends_on == ("step-3",)  # the Otherwise: what its partner waits for
    assert plan.step("step-6").depends_on == ("step-5", "step-4", "step-3")  # after the pair, either ran
    assert plan.step("step-7").depends_on == ("step-6",)  # an unconditional step before it: as before


def test_an_otherwise_that_names_its_step_negates_that_steps_condition_not_the_nearest() -> None:
    plan = plan_of(step(1, "Score", "`bump`", inputs=(field("n"),)),
                   step(2, "Big", "`bump`", when="n > 10", inputs=(field("n"),)),
                   step(3, "Huge", "`bump`", when="n > 1000", inputs=(field("n", source="steps.step-1.output.n"),)),
                   step(4, "Small", "`bump`", otherwise_where=at(41), otherwise_of="Step 2",
                        inputs=(field("n", source="steps.step-1.output.n"),)),
                   inputs=("n",))
    assert plan.step("step-4").when == "not (steps['step-1'].output.n > 10)"
    assert plan.step("step-4").provenance["when"].note.startswith("otherwise of step-2:")


@pytest.mark.parametrize(("named", "why"), [("Step 9", "no step before it is `Step 9`"),
                                            ("step-1", "step-1 has no condition to be false")])
def test_an_otherwise_naming_no_earlier_conditional_step_is_an_error_at_its_line(named: str, why: str) -> None:
    spec = workflow(step(1, "Score", "`bump`", inputs=(field("n"),)),
                    step(2, "Small", "`bump`", otherwise_where=at(21), otherwise_of=named, field_where={"when": at(21)},
                         inputs=(field("n", source="steps.step-1.output.n"),)),
                    inputs=("n",))
    _, errors = draft_plan(spec, CATALOG, settings=SETTINGS)  # type: ignore[arg-type]
    assert [(e.line, e.message) for e in errors if e.code == "condition"] == [
        (21, f"step-2 (Small): Otherwise of {named}: {why}")]


def test_the_one_input_left_takes_the_one_value_the_text_names() -> None:
    csv = skill("parse-csv", input_schema=obj((), csv="string"), output_schema=obj(("rows",), rows="array"))
    plan = plan_of(step(1, "Parse", "`parse-csv`", description="Use the CSV parser on `orders_csv`."),
                   catalog=FakeCatalog(csv), inputs=("customers_csv", "orders_csv"))
    assert plan.step("step-1").inputs["csv"] == InputBinding(source="input", name="orders_csv", optional=True)
    assert note(plan, "step-1", "csv").startswith("renamed: the text gives `orders_csv`")  # `csv` is a word of `orders_csv`


class _Said:
    """A catalog entry with instructions, as a loaded Skill has."""

    def __init__(self, bound: object, body: str) -> None:
        self._bound, self.body, self.body_line = bound, body, 5
        self.name = bound.name  # type: ignore[attr-defined]
        self.skill_md = f"/skills/{self.name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def test_a_skill_without_schemas_is_read_from_its_instructions_and_a_step_from_its_text() -> None:
    fetch, check = skill("fetch"), skill("check")
    catalog = FakeCatalog(fetch, check)
    catalog._skills = {  # type: ignore[attr-defined]
        "fetch": _Said(fetch, "Builds the tarball. Output: `tarball` (base64), `source: \"primary\"`."),
        "check": _Said(check, "Input `tarball` (base64), `expected_sha256`.\nOutput `ok` (bool) and `actual_sha256`."),
    }
    plan = plan_of(step(1, "Pull", "`fetch`", description="Pull the tarball with the package and version."),
                   step(2, "Check", "`check`"), catalog=catalog, inputs=("package", "version", "expected_sha256"))
    assert set(plan.step("step-1").inputs) == {"package", "version"}
    assert note(plan, "step-1", "package") == "workflow input: package (named in the step's text)"
    assert plan.step("step-2").inputs["tarball"].step == "step-1"
    prov = plan.step("step-2").provenance["inputs.expected_sha256"]
    assert (prov.source, prov.where) == ("skill", "/skills/check/SKILL.md:5")
    assert set(plan.step("step-1").output_schema["properties"]) == {"tarball", "source"}


def test_without_an_inputs_section_the_first_steps_skills_give_the_workflow_inputs_with_a_warning() -> None:
    plan = plan_of(step(1, "A", "`name-size`"), step(2, "B", "`take-label`"))
    assert [(i.name, i.required) for i in plan.inputs] == [("name", True), ("size", True)]
    warning = next(w for w in plan.warnings if w.code == "derived-inputs")
    assert "name (step-1, skill `name-size`); size (step-1, skill `name-size`)" in warning.message


def test_a_path_input_is_a_string_with_format_path() -> None:
    spec = workflow(step(1, "A", "`free`", inputs=(field("folder"),)))
    spec = spec.model_copy(update={"inputs": (InputSpec(name="folder", type="string", description="path",
                                                        where=at(3)),)})
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.inputs[0].schema_ == {"type": "string", "description": "path", "format": "path"}


def test_a_fallback_value_for_a_one_field_output_is_that_fields_value_and_fills_the_other_required_fields() -> None:
    one = skill("one", output_schema=obj(("type",), type="string"))
    two = skill("two", output_schema=obj(("type", "confidence"), type="string", confidence="number"))
    plan = plan_of(step(1, "One", "`one`", on_error=None), step(2, "Two", "`two`"),
                   catalog=FakeCatalog(one, two))
    from orchestrator.plan.dataflow import completed_fallback

    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value="unknown"),
                              plan.step("step-1").output_schema).value == {"type": "unknown"}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value={"type": "x"}),
                              plan.step("step-2").output_schema).value == {"type": "x", "confidence": 0}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT), plan.step("step-2").output_schema).value is None


def test_a_condition_naming_a_field_that_does_not_exist_is_an_error_at_its_line() -> None:
    with pytest.raises(PlanError) as raised:
        plan_of(step(1, "A", "`bump`", when="the colour_code is red", field_where={"when": at(13)}), inputs=("n",))
    (found,) = [d for d in raised.value.diagnostics if d.code == "condition"]
    assert found.line == 13 and "`colour_code` is not a workflow input" in found.message


def test_a_condition_in_everyday_words_naming_no_value_is_warned_and_the_step_always_runs() -> None:
    plan = plan_of(step(1, "A", "`bump`", when="the colour is red", field_where={"when": at(13)}), inputs=("n",))
    (found,) = [d for d in plan.warnings if d.code == "spec.condition-not-read"]
    assert found.line == 13 and "`colour` names no workflow input" in found.message
    assert "runs on every run" in found.message and plan.step("step-1").when is None


def test_an_approval_condition_naming_no_value_is_warned_and_asked_every_run() -> None:
    from orchestrator.policy import ApprovalPolicy

    gate = ApprovalPolicy(when="there are any complaints", timeout_s=60, on_timeout="reject")
    plan = plan_of(step(1, "A", "`bump`", approval=gate, field_where={"approval": at(7)}), inputs=("n",))
    (found,) = [d for d in plan.warnings if d.code == "spec.condition-not-read"]
    assert found.line == 7 and "asked on every run" in found.message
    approval = plan.step("step-1").policy.approval
    assert approval is not None and approval.when is None


def test_instructions_name_inputs_outputs_and_optional_ones_but_not_defaults() -> None:
    said = read_instructions("Inputs: `rows` (or `joined`), `group_by` (default `country`), `sum` (optional).\n"
                             "Returns a one-sentence `resolution` and the owning `team`.", "/s/SKILL.md", 3)
    assert [(n.name, n.optional) for n in said.inputs] == [("rows", False), ("joined", False), ("group_by", True),
                                                          ("sum", True)]
    assert [n.name for n in said.outputs] == ["resolution", "team"]
    assert said.inputs[0].where == "/s/SKILL.md:3" and said.outputs[0].where == "/s/SKILL.md:4"


def test_an_outputs_list_goes_on_after_a_semicolon_and_a_line_break_but_not_after_a_full_stop() -> None:
    said = read_instructions("Outputs: `orders` (list): rows dropped, amount parsed;\n`week` (normalised);"
                             " `dropped` (count). `note` is for people.", "/s/SKILL.md", 1)
    assert [(n.name, n.where) for n in said.outputs] == [("orders", "/s/SKILL.md:1"), ("week", "/s/SKILL.md:2"),
                                                        ("dropped", "/s/SKILL.md:2")]


def test_a_list_to_go_on_with_is_the_one_list_field_of_an_object_output() -> None:
    from orchestrator.plan.dataflow import completed_fallback

    untyped = {"type": "object", "properties": {"flagged": {}, "flagged_count": {}}}
    typed = {"type": "object", "properties": {"rows": {"type": "array"}, "note": {"type": "string"}}}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value=[]), untyped).value == {"flagged": []}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value=[]), typed).value == {"rows": []}
    two = {"type": "object", "properties": {"a": {}, "b": {}}}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value=[]), two).value == []  # which one: not said
