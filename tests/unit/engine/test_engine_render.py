"""Bindings, conditions and templates, rendered in the sandboxed Jinja2 environment."""

from __future__ import annotations

import pytest

from orchestrator.engine.render import Renderer, RenderError, resolve_pointer
from orchestrator.plan.model import ForEach, InputBinding, PlanStep
from orchestrator.testing import fake_plan


def renderer(*steps: PlanStep, **inputs: object) -> Renderer:
    return Renderer(fake_plan(steps or [PlanStep(id="x", name="X", skill="s")]), inputs)


def test_a_json_pointer_walks_objects_and_arrays_with_escapes() -> None:
    doc = {"a/b": {"c~d": [10, {"e": 1}]}}
    assert resolve_pointer(doc, "") is doc
    assert resolve_pointer(doc, "/a~1b/c~0d/1/e") == 1
    with pytest.raises(KeyError):
        resolve_pointer(doc, "/a~1b/c~0d/9")
    with pytest.raises(KeyError):
        resolve_pointer(doc, "/missing")


def test_a_missing_required_value_is_an_error_naming_its_source() -> None:
    step = PlanStep(id="x", name="X", skill="s", inputs={"d": InputBinding(source="step", step="fetch", pointer="/docs")})
    with pytest.raises(RenderError, match="output of step 'fetch' at /docs has no value"):
        renderer(step).step_input(step, {"fetch": {"other": 1}})


def test_a_template_with_an_undefined_name_is_an_error() -> None:
    step = PlanStep(id="x", name="X", skill="s", inputs={"t": InputBinding(source="template", template="{{ nope.x }}")})
    with pytest.raises(RenderError, match="template"):
        renderer(step).step_input(step, {})


def test_conditions_see_inputs_outputs_and_the_item() -> None:
    step = PlanStep(
        id="x", name="X", skill="s", when="inputs.mode == 'full' and steps['fetch'].n > item",
        for_each=ForEach(item="i", source=InputBinding(source="literal", value=[1, 5])),
    )
    r = renderer(step, mode="full")
    assert r.condition(step, {"fetch": {"n": 3}}, 1) is True
    assert r.condition(step, {"fetch": {"n": 3}}, 5) is False


def test_a_condition_may_be_written_in_braces() -> None:
    step = PlanStep(id="x", name="X", skill="s", when="{{ inputs.go }}")
    assert renderer(step, go=True).condition(step, {}) is True


def test_a_condition_that_breaks_is_an_error_not_a_crash() -> None:
    step = PlanStep(id="x", name="X", skill="s", when="1 / 0")
    with pytest.raises(RenderError, match="condition"):
        renderer(step).condition(step, {})


def test_conditions_cannot_mutate_what_they_see() -> None:
    step = PlanStep(id="x", name="X", skill="s", when="inputs.seen.append(1)")
    seen: list[int] = []
    with pytest.raises(RenderError, match="unsafe"):
        renderer(step, seen=seen).condition(step, {})
    assert seen == []


@pytest.mark.parametrize(
    ("when", "found", "runs"),
    [
        ("not steps['check'].output.found", True, False),  # as the planner writes it
        ("not steps['check'].output.found", False, True),
        ("steps.check.output.found", True, True),
        ("not steps.check.found", True, False),  # the output's field read directly
        ("steps['check'].output.output == 'own'", True, True),  # `.output` is the whole output
    ],
)
def test_a_condition_reads_a_steps_output_as_the_plan_writes_it(when: str, found: bool, runs: bool) -> None:
    step = PlanStep(id="x", name="X", skill="s", when=when)
    output = {"found": found, "output": "own"} if "own" in when else {"found": found}
    assert renderer(step).condition(step, {"check": output}) is runs


def test_a_template_reads_a_steps_output_field_and_a_whole_scalar_output() -> None:
    step = PlanStep(
        id="x",
        name="X",
        skill="s",
        inputs={
            "t": InputBinding(source="template", template="{{ steps['a'].output.n }}-{{ steps.b.output }}"),
        },
    )
    assert renderer(step).step_input(step, {"a": {"n": 3}, "b": "plain"}) == {"t": "3-plain"}
