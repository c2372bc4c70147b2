"""Whatever the spec and the skills say, planning returns a plan and diagnostics: never a crash."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plan_factory import SETTINGS, FakeCatalog, at, field, skill, step, workflow

from orchestrator.errors import Severity
from orchestrator.plan import check_plan
from orchestrator.plan.build import draft_plan
from orchestrator.policy import Limits
from orchestrator.spec.model import ContractSpec, ConvergenceSpec

NAMES = ["a", "b", "items", "count"]
SCHEMAS: list[Any] = [
    None,
    {},
    {"type": "object", "properties": {"a": True, "b": {"type": ["string", "null"]}}, "required": ["a"]},
    {"type": "object", "properties": {"items": {"type": "array", "items": False}}},
    {"type": "object", "properties": {"count": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}},
    {"type": "object", "properties": ["not", "a", "map"], "required": "a"},
    {"type": 5, "properties": {"a": {"type": "object", "required": ["z"]}}},
]

step_shape = st.fixed_dictionaries({
    "skill": st.integers(0, 3),
    "deps": st.lists(st.integers(1, 5), max_size=2),
    "inputs": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
    "outputs": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
    "for_each": st.one_of(st.none(), st.sampled_from(["x in items", "x in count", "x in nowhere", "x in a.b"])),
    "when": st.one_of(st.none(), st.sampled_from(["inputs.a", "steps['step-1'].output.a", "zzz", "1 >", "False"])),
    "timeout": st.one_of(st.none(), st.floats(0.5, 5000)),
    "retries": st.one_of(st.none(), st.integers(0, 50)),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shapes=st.lists(step_shape, min_size=1, max_size=5),
    schemas=st.lists(st.tuples(st.sampled_from(SCHEMAS), st.sampled_from(SCHEMAS)), min_size=4, max_size=4),
    wall=st.floats(1, 10_000),
)
def test_any_spec_plans_and_checks_without_raising(
    shapes: list[dict[str, Any]], schemas: list[tuple[Any, Any]], wall: float
) -> None:
    skills = [skill(f"s-{i}", input_schema=i_s, output_schema=o_s) for i, (i_s, o_s) in enumerate(schemas)]
    steps = []
    for n, shape in enumerate(shapes, start=1):
        deps = tuple(f"step-{d}" for d in shape["deps"] if d <= len(shapes))
        steps.append(step(
            n, f"Step {n}", f"`s-{shape['skill']}`",
            inputs=tuple(field(x, line=n * 10 + 2) for x in shape["inputs"]),
            outputs=tuple(field(x, "string", line=n * 10 + 3) for x in shape["outputs"]),
            depends_on=deps, depends_where=at(n * 10 + 4) if deps else None,
            for_each=shape["for_each"], when=shape["when"], timeout_s=shape["timeout"], retries=shape["retries"],
        ))
    contract = ContractSpec(producer="step-1", consumer=None, where=at(90), constraints={"a": {"minLength": 1}})
    spec = workflow(*steps, inputs=("a",), contracts=(contract,),
                    convergence=ConvergenceSpec(limits=Limits(wall_time_s=wall)))
    plan, errors = draft_plan(spec, FakeCatalog(*skills), settings=SETTINGS)
    found = check_plan(plan, spec)
    # every error points at a line; a warning about the whole run may name only the file
    assert all(d.line is not None for d in [*errors, *found] if d.severity is Severity.ERROR)
