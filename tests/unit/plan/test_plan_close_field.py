"""An input taken from a step that gives no field of its name (`ready_lifts (from step 2)` where step 2
gives `ready` and `holds`) is that step's one output of a close name, warned; with none close it is the
step's whole output as before, but warned too, never silently (`plan.mapping._Binder._close_field`).
Each in a kind of document of its own."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("sort-lifts", input_schema=obj(("lifts",), lifts=A), output_schema=obj(("ready", "holds"), ready=A, holds=A)),
    skill("open-runs", input_schema=obj(("ready_lifts",), ready_lifts=A), output_schema=obj(("open",), open=A)),
)


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), CATALOG, settings=SETTINGS)


_SKI_BRIEF = """\
# Opening sequence

Inputs: `lifts`.

## Step 1: Lift status
- Skill: `sort-lifts`

## Step 2: Open terrain
- Skill: `open-runs`
- Input: ready_lifts (from step 1)
"""

_FERRY_LOG = """\
# Ferry car deck log

Inputs: `lifts` (ramps).

1. `sort-lifts` on the ramp list.
2. `open-runs`
   - Input: ready_lifts (from step 1)
"""

_THEATRE_CUE_SHEET = """\
# Fly-tower cue check

Inputs: `lifts`

### 1. Sort the fly bars
Skill: `sort-lifts`

### 2. Open the runs
Skill: `open-runs`
Input: ready_lifts (from step 1)
"""

_WAREHOUSE = """\
# Forklift morning check

Inputs: `lifts` (forklifts).

- Step 1: `sort-lifts`
- Step 2: `open-runs`
  - Input: ready_lifts (from step 1)
"""


@pytest.mark.parametrize("text", [_SKI_BRIEF, _FERRY_LOG, _THEATRE_CUE_SHEET, _WAREHOUSE])
def test_an_input_from_a_step_without_that_field_takes_its_one_close_output_warned(text: str) -> None:
    plan = _plan(text)
    binding = plan.steps[1].inputs["ready_lifts"]
    assert (binding.source, binding.step, binding.pointer) == ("step", "step-1", "/ready")
    assert any(w.code == "plan.input-close-field" and "read as its `ready`" in w.message for w in plan.warnings)


def test_with_no_close_output_the_whole_output_is_given_and_warned() -> None:
    catalog = FakeCatalog(
        skill("sort-lifts", input_schema=obj(("lifts",), lifts=A), output_schema=obj(("up", "holds"), up=A, holds=A)),
        skill("open-runs", input_schema=obj(("ready_lifts",), ready_lifts=A), output_schema=obj(("open",), open=A)),
    )
    plan = build_plan(parse_spec_text(_SKI_BRIEF, "w.md", "markdown"), catalog, settings=SETTINGS)
    binding = plan.steps[1].inputs["ready_lifts"]
    assert (binding.step, binding.pointer) == ("step-1", "")
    assert any(w.code == "plan.input-whole-output" and "gives `holds`, `up`" in w.message for w in plan.warnings)
