"""Dependencies (explicit, data references, order) and where each input comes from."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow

from orchestrator.plan import build_plan
from orchestrator.plan.model import InputBinding
from orchestrator.spec.model import ContractSpec

PRODUCE_AB = skill("produce-ab", output_schema=obj(("a", "b"), a="string", b="integer"))
PRODUCE_C = skill("produce-c", output_schema=obj(("c",), c="string"))
CONSUME = skill("consume-a", input_schema=obj(("a",), a="string", extra="string"))
ANY = skill("any-thing")
CATALOG = FakeCatalog(PRODUCE_AB, PRODUCE_C, CONSUME, ANY)


def test_explicit_depends_on_wins_with_its_line() -> None:
    spec = workflow(
        step(1, "One", "`produce-ab`"),
        step(2, "Two", "`produce-c`"),
        step(3, "Three", "`consume-a`", depends_on=("step-1",), depends_where=at(33)),
    )
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    three = plan.step("step-3")
    assert three.depends_on == ("step-1",)
    assert three.provenance["depends_on"].where == at(33)
    assert three.inputs["a"] == InputBinding(source="step", step="step-1", pointer="/a")


def test_data_references_make_dependencies_and_skip_unrelated_steps() -> None:
    spec = workflow(
        step(1, "One", "`produce-ab`"),
        step(2, "Two", "`produce-c`"),
        step(3, "Three", "`consume-a`", inputs=(field("a", line=32),)),
    )
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-3").depends_on == ("step-1",)
    assert plan.step("step-3").provenance["depends_on"].note == "data reference to step-1.a"
    assert plan.step("step-3").provenance["inputs.a"].where == at(32)


def test_without_references_a_step_follows_the_previous_one() -> None:
    spec = workflow(step(1, "One", "`any-thing`"), step(2, "Two", "`any-thing`"))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-1").depends_on == ()
    assert plan.step("step-2").depends_on == ("step-1",)
    assert plan.step("step-2").provenance["depends_on"].source == "default"
    assert plan.step("step-2").provenance["depends_on"].note == "default: step order"


def test_a_name_an_earlier_step_and_a_workflow_input_both_supply_binds_to_the_step_with_a_warning() -> None:
    spec = workflow(step(1, "One", "`produce-ab`"), step(2, "Two", "`consume-a`"), inputs=("a",))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-2").inputs["a"] == InputBinding(source="step", step="step-1", pointer="/a")
    assert plan.step("step-2").provenance["inputs.a"].note.startswith("nearest step: step-1 at /a")
    warning = next(w for w in plan.warnings if w.code == "ambiguous-input")
    assert "both an output of step-1 and a workflow input" in warning.message
    assert "`a (workflow input)`" in warning.message and "`a (from Step N)`" in warning.message


def test_an_explicit_workflow_input_reference_wins_over_an_earlier_output() -> None:
    spec = workflow(step(1, "One", "`produce-ab`"),
                    step(2, "Two", "`consume-a`", inputs=(field("a", line=22, source="inputs.a"),)), inputs=("a",))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-2").inputs["a"] == InputBinding(source="input", name="a")
    assert plan.step("step-2").provenance["inputs.a"].note == "explicit: inputs.a"
    assert not [w for w in plan.warnings if w.code == "ambiguous-input"]


def test_the_latest_ancestor_producing_a_name_feeds_it() -> None:
    again = skill("produce-a-again", output_schema=obj(("a",), a="string"))
    spec = workflow(step(1, "One", "`produce-ab`"), step(2, "Two", "`produce-a-again`"), step(3, "Three", "`consume-a`"))
    plan = build_plan(spec, FakeCatalog(PRODUCE_AB, again, CONSUME), settings=SETTINGS)
    assert plan.step("step-3").inputs["a"].step == "step-2"


def test_a_single_output_name_the_skill_does_not_declare_is_the_whole_output() -> None:
    analyze = skill("analyze", output_schema=obj(("functions",), functions="array", classes="array"))
    write = skill("write", input_schema=obj(("analysis",), analysis="object"))
    spec = workflow(
        step(1, "Analyze", "`analyze`", outputs=(field("analysis", "object", line=12),)),
        step(2, "Write", "`write`", inputs=(field("analysis", "object", line=22),)),
    )
    plan = build_plan(spec, FakeCatalog(analyze, write), settings=SETTINGS)
    assert plan.step("step-2").inputs["analysis"] == InputBinding(source="step", step="step-1", pointer="")
    assert "analysis" not in plan.step("step-1").output_schema["properties"]
    assert plan.step("step-2").depends_on == ("step-1",)
    edge = plan.edges[0]
    assert (edge.producer, edge.consumer, edge.fields) == ("step-1", "step-2", ("analysis",))


def test_yaml_literals_and_templates_fill_inputs() -> None:
    spec = workflow(
        step(1, "extract", "produce-ab", id="extract"),
        step(2, "load", "consume-a", id="load", depends_on=("extract",),
             input_values={"a": "{{ steps['extract'].output.a }}", "extra": "warehouse"}),
        format="yaml",
    )
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    load = plan.step("load")
    assert load.inputs["a"].source == "template"
    assert load.inputs["extra"] == InputBinding(source="literal", value="warehouse", optional=True)


def test_optional_fields_without_a_source_are_left_out() -> None:
    spec = workflow(step(1, "One", "`produce-c`"), step(2, "Two", "`consume-a`"), inputs=("a",))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert set(plan.step("step-2").inputs) == {"a"}


def test_for_each_binds_its_source_and_the_item() -> None:
    lister = skill("lister", output_schema=obj(("files",), files={"type": "array", "items": {"type": "string"}}))
    per = skill("per-file", input_schema=obj(("file",), file="string"))
    spec = workflow(step(1, "List", "`lister`"), step(2, "Each", "`per-file`", for_each="file in files"))
    plan = build_plan(spec, FakeCatalog(lister, per), settings=SETTINGS)
    each = plan.step("step-2")
    assert each.for_each is not None
    assert each.for_each.item == "file"
    assert each.for_each.source == InputBinding(source="step", step="step-1", pointer="/files")
    assert each.inputs["file"].source == "item"
    assert each.depends_on == ("step-1",)


def test_a_route_target_depends_on_its_router() -> None:
    spec = workflow(
        step(1, "Route", "`any-thing`", routes={"small": "step-2", "big": "step-3"}),
        step(2, "Small", "`any-thing`"),
        step(3, "Big", "`any-thing`"),
    )
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-3").depends_on == ("step-1",)


def test_contract_constraints_refine_the_producer_output_and_the_consumer_input() -> None:
    contract = ContractSpec(
        producer="step-1", consumer="step-2", where=at(50),
        constraints={"a": {"minLength": 1}, "extra": {"maxLength": 5}, "": {"required": ["a", "b"]}},
    )
    spec = workflow(step(1, "One", "`produce-ab`"), step(2, "Two", "`consume-a`"), contracts=(contract,))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("step-1").output_schema["properties"]["a"]["minLength"] == 1
    assert plan.step("step-2").input_schema["properties"]["extra"]["maxLength"] == 5
    assert plan.edges[0].provenance.where == at(50)
    assert plan.edges[0].schema_["properties"]["a"] == {"type": "string", "minLength": 1}


def test_an_mcp_skill_without_schemas_takes_its_tools_and_says_so() -> None:
    from orchestrator.errors import McpError

    fetch = skill("fetch", "mcp").model_copy(update={"server": "docs", "tool": "get_docs"})
    use = skill("use", input_schema=obj(("text",), text="string"))
    spec = workflow(step(1, "Fetch", "`fetch`"), step(2, "Use", "`use`"))
    asked: list[tuple[str, str]] = []

    def tools(server: str, tool: str) -> tuple[dict[str, object], dict[str, object]]:
        asked.append((server, tool))
        return obj(("q",), q="string"), obj(("text",), text="string")

    plan = build_plan(spec, FakeCatalog(fetch, use), settings=SETTINGS, tool_schemas=tools)
    assert asked == [("docs", "get_docs")]
    assert plan.step("step-2").inputs["text"] == InputBinding(source="step", step="step-1", pointer="/text")
    assert plan.step("step-1").provenance["output_schema"].source == "mcp"
    assert plan.step("step-1").provenance["output_schema"].where == "docs/get_docs"
    assert plan.skills["fetch"].output_schema == obj(("text",), text="string")

    def broken(server: str, tool: str) -> tuple[None, None]:
        raise McpError("server would not start")

    plan = build_plan(workflow(step(1, "Fetch", "`fetch`")), FakeCatalog(fetch), settings=SETTINGS, tool_schemas=broken)
    assert [w.code for w in plan.warnings] == ["mcp-schema"]
    assert "server would not start" in plan.warnings[0].message


def test_the_step_after_two_that_start_together_waits_for_both() -> None:
    from plan_factory import SETTINGS, FakeCatalog, skill, step, workflow

    from orchestrator.plan import build_plan

    catalog = FakeCatalog(*(skill(n) for n in ("weigh", "book", "pack", "ship")))
    plan = build_plan(workflow(step(1, "Weigh", "`weigh`"), step(2, "Book", "`book`", starts_with="step-1"),
                               step(3, "Pack", "`pack`"), step(4, "Ship", "`ship`")), catalog, settings=SETTINGS)  # type: ignore[arg-type]
    assert plan.step("step-2").depends_on == ()
    assert set(plan.step("step-3").depends_on) == {"step-1", "step-2"}  # not the later row alone
    assert plan.step("step-4").depends_on == ("step-3",)  # an ordinary step before: the step before only
    chained = build_plan(workflow(step(1, "Weigh", "`weigh`"), step(2, "Book", "`book`", depends_on=("step-1",)),
                                  step(3, "Pack", "`pack`", starts_with="step-2"), step(4, "Ship", "`ship`")),
                         catalog, settings=SETTINGS)  # type: ignore[arg-type]
    assert set(chained.step("step-4").depends_on) == {"step-3", "step-2"}
