"""The `For each` item as a step input: `{{ item }}`, `{{ n }}` and `item.field` keep its JSON type."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.errors import Severity
from orchestrator.plan import build_plan
from orchestrator.plan.checks import check_plan
from orchestrator.plan.model import InputBinding
from orchestrator.spec import parse_spec_text

SQUARE = skill("square", input_schema=obj(("value",), value="integer"))
CATALOG = FakeCatalog(SQUARE)


def _yaml(loop: str, value: str) -> str:
    return f"""name: fan
description: square each number
inputs:
  nums: {{type: array}}
steps:
  - id: sq
    skill: square
    for_each: "{loop}"
    input:
      value: "{value}"
"""


@pytest.mark.parametrize(
    ("loop", "value", "pointer"),
    [
        ("item in nums", "{{ item }}", ""),
        ("n in nums", "{{ n }}", ""),
        ("n in nums", "{{ item }}", ""),
        ("n in nums", "${n}", ""),
        ("row in nums", "{{ row.value }}", "/value"),
        ("item in nums", "{{ item.value }}", "/value"),
    ],
)
def test_a_whole_value_item_reference_binds_the_item_itself(loop: str, value: str, pointer: str) -> None:
    spec = parse_spec_text(_yaml(loop, value), "fan.yaml", "yaml")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    errors = [d for d in check_plan(plan, spec) if d.severity is Severity.ERROR]
    assert errors == []
    sq = plan.step("sq")
    assert sq.inputs["value"] == InputBinding(source="item", pointer=pointer)
    assert sq.for_each is not None
    assert sq.for_each.source == InputBinding(source="input", name="nums")


def test_an_item_inside_a_longer_template_stays_a_template() -> None:
    spec = parse_spec_text(_yaml("n in nums", "number {{ n }}"), "fan.yaml", "yaml")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.step("sq").inputs["value"] == InputBinding(source="template", template="number {{ n }}")


def test_outside_a_for_each_item_is_not_the_loop_item() -> None:
    text = _yaml("n in nums", "{{ item }}").replace('    for_each: "n in nums"\n', "")
    spec = parse_spec_text(text, "fan.yaml", "yaml")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert "value" not in plan.step("sq").inputs
    errors = [d.render() for d in check_plan(plan, spec) if d.severity is Severity.ERROR]
    assert any("missing input `value`" in e for e in errors)
