"""A `For each` over a step whose output is an object: its one array field, or an error naming them."""

from __future__ import annotations

from typing import Any

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.errors import Severity
from orchestrator.plan.build import draft_plan
from orchestrator.plan.checks import check_plan
from orchestrator.plan.model import InputBinding
from orchestrator.plan.render import render_text
from orchestrator.plan.wanted import read_instructions
from orchestrator.spec import parse_spec_text

HOSTS = {"type": "array", "items": obj(("host",), host="string", expires="string")}
RENEW = skill("renew", input_schema=obj(("host",), host="string"), output_schema=obj(renewed="boolean"))


def _spec(loop: str) -> str:
    return f"""# Rotate

## Inputs
- certs (string)

## Steps

### Step 1: Inventory
- Skill: inventory
- Input: certs

### Step 2: Renew
- Skill: renew
- For each: {loop}
"""


def _plan(loop: str, inventory_out: dict[str, Any]) -> tuple[Any, list[str], list[Any]]:
    catalog = FakeCatalog(skill("inventory", input_schema=obj(("certs",), certs="string"),
                                output_schema=inventory_out), RENEW)
    spec = parse_spec_text(_spec(loop), "flow.md", "markdown")
    plan, built = draft_plan(spec, catalog, settings=SETTINGS)
    found = [*built, *check_plan(plan, spec)]
    errors = [d.render() for d in found if d.severity is Severity.ERROR]
    return plan, errors, [*plan.warnings, *(d for d in found if d.severity is Severity.WARNING)]


@pytest.mark.parametrize("loop", ["host in steps.step-1.output", "host in step-1"])
def test_a_loop_over_an_object_output_with_one_array_field_loops_over_that_field(loop: str) -> None:
    plan, errors, warnings = _plan(loop, obj(expiring=HOSTS, count="integer"))
    assert errors == []
    renew = plan.step("step-2")
    assert renew.for_each is not None
    assert renew.for_each.source == InputBinding(source="step", step="step-1", pointer="/expiring")
    said = [w for w in warnings if w.code == "for-each-field"]
    assert [(w.line, "`expiring`" in w.message) for w in said] == [(14, True)]
    assert "the one array field `expiring`" in renew.provenance["for_each"].note


def test_the_loop_variable_is_the_item_field_of_the_same_name() -> None:
    plan, errors, _ = _plan("host in steps.step-1.output", obj(expiring=HOSTS))
    assert errors == []
    assert plan.step("step-2").inputs["host"].source == "item"
    assert plan.step("step-2").inputs["host"].pointer == "/host"


def test_the_plan_text_shows_which_rule_chose_the_field() -> None:
    plan, _, _ = _plan("host in steps.step-1.output", obj(expiring=HOSTS))
    text = render_text(plan)
    loop_line = next(line for line in text.splitlines() if line.strip().startswith("for each"))
    assert "step-1" in loop_line and "/expiring" in loop_line and "one array field" in loop_line


def test_two_array_fields_are_an_error_at_the_for_each_line_naming_both() -> None:
    _, errors, _ = _plan("host in steps.step-1.output", obj(expiring=HOSTS, expired=HOSTS))
    said = [e for e in errors if "array fields" in e]
    assert len(said) == 1, errors
    assert said[0].startswith("flow.md:14")
    assert "`expiring`" in said[0] and "`expired`" in said[0] and "For each: host in step-1.expiring" in said[0]


def test_a_loop_that_names_the_field_is_left_as_written_and_unwarned() -> None:
    plan, errors, warnings = _plan("host in step-1.expiring", obj(expiring=HOSTS, expired=HOSTS))
    assert errors == []
    assert plan.step("step-2").for_each.source.pointer == "/expiring"  # type: ignore[union-attr]
    assert not [w for w in warnings if w.code == "for-each-field"]


def test_an_object_output_with_no_array_field_is_still_not_a_list() -> None:
    _, errors, _ = _plan("host in steps.step-1.output", obj(count="integer"))
    assert any("not an array" in e for e in errors), errors


def test_instructions_that_say_an_output_is_a_list_of_objects_give_it_an_array_schema() -> None:
    said = read_instructions("Outputs: `expiring` (list of {host, expires, days_left}, soonest first), "
                             "`hosts` (a list), `count`.", "/s/SKILL.md", 1)
    schemas = {n.name: n.schema_ for n in said.outputs}
    assert schemas["expiring"] == {"type": "array", "items": {"type": "object", "properties": {
        "host": {}, "expires": {}, "days_left": {}}}}
    assert schemas["hosts"] == {"type": "array"}
    assert schemas["count"] is None


def test_an_input_word_inside_an_output_s_parentheses_does_not_turn_the_rest_into_inputs() -> None:
    said = read_instructions("Outputs: `values` (list of numbers, input order), `uncalibrated` (sorted).",
                             "/s/SKILL.md", 1)
    assert [n.name for n in said.outputs] == ["values", "uncalibrated"] and said.inputs == ()


def test_a_list_of_objects_whose_braces_are_in_backticks_names_their_properties_too() -> None:
    said = read_instructions("Outputs: `rows` (list of `{sku, qty}` as the export has them), `total`.",
                             "/s/SKILL.md", 1)
    schemas = {n.name: n.schema_ for n in said.outputs}
    assert schemas["rows"] == {"type": "array", "items": {"type": "object", "properties": {"sku": {}, "qty": {}}}}
    assert [n.name for n in said.outputs] == ["rows", "total"]
