"""A condition's value that names a workflow input said in prose (`plan.runs34`): `>= `min_accuracy`` is
that input, not the text 'min_accuracy'; a text compared for equality, or one no input has, stays text.
A loop's skill input described by braces alone ("`well` ({well, od})") is the whole item (`plan.whole_item`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.plan.model import InputBinding
from orchestrator.plan.runs34 import input_comparands
from orchestrator.plan.wanted import Instructions, Named
from orchestrator.plan.whole_item import described_fields, take_whole_items
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import StepSpec
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

ASSAY = skill("assay-read", input_schema=obj(("plate",), plate="array"),
              output_schema=obj(("signal", "wells"), signal="number", wells="integer"))
REPORT = skill("assay-report", input_schema=obj(("signal",), signal="number"),
               output_schema=obj(("filed",), filed="boolean"))
PROBE = skill("latency-probe", input_schema=obj(("host",), host="string"),
              output_schema=obj(("p99_ms", "status"), p99_ms="number", status="string"))
PAGE = skill("page-oncall", input_schema=obj(("p99_ms",), p99_ms="number"),
             output_schema=obj(("paged",), paged="boolean"))
WEIGH = skill("weigh-dough", input_schema=obj(("batch",), batch="string"),
              output_schema=obj(("kg",), kg="number"))
SHAPE = skill("shape-loaves", input_schema=obj(("kg",), kg="number"),
              output_schema=obj(("loaves",), loaves="integer"))


def _plan(text: str, *skills: object):  # type: ignore[no-untyped-def]
    names = Vocabulary(skills=frozenset(s.name for s in skills))  # type: ignore[attr-defined]
    return build_plan(parse_spec_text(text, "doc.md", "markdown", names), FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_lab_protocol_holds_the_signal_against_its_cutoff_input_said_in_prose() -> None:
    text = ("# ELISA plate read\n\n"
            "Run inputs: `plate` (the wells), `cutoff` (the lowest signal worth filing).\n\n"
            "## Read\n**Op:** `assay-read`\n**Reads:** the `plate` run input\n\n"
            "## File\n**Op:** `assay-report`\n**Only if:** Read signal >= `cutoff`\n**Reads:** signal (Read)\n")
    plan = _plan(text, ASSAY, REPORT)
    filed = plan.steps[1]
    assert filed.when is not None and filed.when.endswith(">= inputs.cutoff"), filed.when
    assert "cutoff" in {i.name for i in plan.inputs}
    assert not any("`cutoff` names no workflow input" in w.message for w in plan.warnings)


def test_a_runbook_pages_when_p99_is_over_its_budget_input() -> None:
    text = ("# Latency watch\n\n"
            "Run inputs: `host`, `budget_ms` (the p99 we promise).\n\n"
            "## Probe\n**Op:** `latency-probe`\n**Reads:** the `host` run input\n\n"
            "## Page\n**Op:** `page-oncall`\n**Only if:** Probe p99_ms > `budget_ms`\n**Reads:** p99_ms (Probe)\n")
    page = _plan(text, PROBE, PAGE).steps[1]
    assert page.when is not None and page.when.endswith("> inputs.budget_ms"), page.when


def test_a_recipe_shapes_only_under_its_most_kg_input() -> None:
    text = ("# Night bake\n\n"
            "Run inputs: `batch`, `max_kg` (what one bench takes).\n\n"
            "## Weigh\n**Op:** `weigh-dough`\n**Reads:** the `batch` run input\n\n"
            "## Shape\n**Op:** `shape-loaves`\n**Only if:** Weigh kg <= `max_kg`\n**Reads:** kg (Weigh)\n")
    shape = _plan(text, WEIGH, SHAPE).steps[1]
    assert shape.when is not None and shape.when.endswith("<= inputs.max_kg"), shape.when


def test_a_text_compared_for_equality_or_naming_no_input_stays_text() -> None:
    text = ("# Latency watch\n\n"
            "Run inputs: `host`.\n\n"
            "## Probe\n**Op:** `latency-probe`\n**Reads:** the `host` run input\n\n"
            "## Page\n**Op:** `page-oncall`\n**Only if:** Probe status == `degraded`\n**Reads:** p99_ms (Probe)\n")
    plan = _plan(text, PROBE, PAGE)
    page = plan.steps[1]
    assert page.when is not None and "inputs." not in page.when, page.when
    step = page.model_copy(update={"when": "steps['a'].output.grade >= 'B'"})
    same = plan.model_copy(update={"steps": (plan.steps[0], step)})
    assert input_comparands(same).steps[1].when == "steps['a'].output.grade >= 'B'"  # no input `B`: a text
    host = page.model_copy(update={"when": "steps['a'].output.name == 'host'"})
    kept = plan.model_copy(update={"steps": (plan.steps[0], host)})
    assert input_comparands(kept).steps[1].when == "steps['a'].output.name == 'host'"  # equality: the text itself


# -- a skill input described by its braces alone, "`well` ({well, od})": the whole item (`plan.whole_item`) --

def _loop_step() -> StepSpec:
    return StepSpec(id="step-3", number=3, name="Each", description="", where="f.md:7", skill="each")


def _rebound(about: str, name: str, item: frozenset[str]) -> InputBinding:
    said = Instructions(inputs=(Named(name=name, where="S.md:8", about=about),))
    bindings = {name: InputBinding(source="item", pointer=f"/{name}")}
    take_whole_items(_loop_step(), said, item, "steps.step-1.output.rows", bindings, {})
    return bindings[name]


def test_a_lab_plate_s_well_record_said_by_its_braces_is_the_whole_well() -> None:
    assert described_fields("{well, od}") == {"well", "od"}
    assert _rebound("{well, od}", "well", frozenset({"well", "od"})) == InputBinding(source="item")


def test_a_kitchen_ticket_and_a_ship_s_manifest_take_their_whole_line_said_in_braces() -> None:
    assert _rebound("`{dish, table, seat}`", "dish", frozenset({"dish", "table", "seat"})).pointer == ""
    assert _rebound("{container, weight_t} per box", "container",
                    frozenset({"container", "weight_t", "hazmat"})).pointer == ""


def test_braces_of_choices_or_of_fields_the_item_lacks_keep_the_item_s_field() -> None:
    assert _rebound("{fast, slow}", "mode", frozenset({"mode", "host"})).pointer == "/mode"  # choices, not fields
    assert _rebound("{crew, rank, boat}", "crew", frozenset({"crew", "watch"})).pointer == "/crew"
    assert described_fields("dilution factor, default 1 {x}") == frozenset()  # braces later in the words
