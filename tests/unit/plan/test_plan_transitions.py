"""Guards written as a state machine's transitions decide which branch runs, shown and warned."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("weigh-parcel", input_schema=obj(("parcel",), parcel="string"),
          output_schema=obj(("kg",), kg="number")),
    skill("book-freight", input_schema=obj(("kg",), kg="number"), output_schema=obj(("ref",), ref="string")),
    skill("book-courier", input_schema=obj(("kg",), kg="number"), output_schema=obj(("ref",), ref="string")),
)

_README = """\
# Dispatch (README of the shipping service)

## Step 1: Weigh
Run `weigh-parcel` on the `parcel`.

## Step 2: Freight
Run `book-freight` with the kg.

## Step 3: Courier
Run `book-courier` with the kg.

The service's flow, as drawn in the wiki:

```
Weigh   --(done) [kg > 30]--> Freight
Weigh   --(done) [else]-----> Courier
Freight ---------------------> DONE
```
"""


def _plan(text: str):  # type: ignore[no-untyped-def]
    plan, errors = draft_plan(parse_spec_text(text, "d.md", "markdown"), CATALOG, settings=SETTINGS)
    assert plan is not None
    assert not errors, errors
    return plan, [w for w in plan.warnings if w.code == "plan.transition-guard"]


def test_a_guarded_transition_is_its_steps_condition_and_else_is_the_other_branch() -> None:
    plan, warned = _plan(_README)
    steps = {s.id: s for s in plan.steps}
    assert steps["step-2"].when == "steps['step-1'].output.kg > 30"
    assert steps["step-3"].when == "not (steps['step-1'].output.kg > 30)"
    assert [w.line for w in warned] == [15, 16]
    assert steps["step-2"].provenance["read.condition"].where == "d.md:15"


def test_a_condition_the_step_states_itself_outranks_the_diagram() -> None:
    plan, warned = _plan(_README.replace("Run `book-freight` with the kg.",
                                         "Only when kg > 100. Run `book-freight` with the kg."))
    steps = {s.id: s for s in plan.steps}
    assert steps["step-2"].when == "steps['step-1'].output.kg > 100"
    assert steps["step-3"].when == "not (steps['step-1'].output.kg > 100)"  # `[else]`: the other branch
    assert [w.line for w in warned] == [16]


def test_transitions_without_guards_say_nothing_about_conditions() -> None:
    plan, warned = _plan(_README.replace("[kg > 30]", "").replace("[else]", ""))
    assert all(s.when is None for s in plan.steps)
    assert warned == []
