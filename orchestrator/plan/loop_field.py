"""A `For each` over a step's whole output, when that output is an object: which list it means.

"For every host in the list produced by **Inventory**" names the producing step but no field.
When that step runs once and its output schema is an object with exactly one array field, the
loop is over that field (`x in steps.S.output` or `x in S`): the step's `For each` is read as `host in steps.step-1.output.expiring`,
with a warning at the For each line naming the field (and how to name it yourself), and the
rule in the plan's `for_each` provenance. With two or more array fields the text does not say
which, and the static checks report it at that line (`loop_choices` lists them). A producer
that is itself a `For each` step already gives a list (its results, gathered) and is left as
written, as is an output whose fields are not declared or not typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic
from orchestrator.plan.contract import OutputContract
from orchestrator.plan.location import warning_at
from orchestrator.plan.schema import properties_of, types_of
from orchestrator.spec.model import StepSpec, WorkflowSpec

_WHOLE_OUTPUT = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+(?:steps\.([\w-]+)\.output|([\w-]+))\s*$")


def _whole_output(step: StepSpec, spec: WorkflowSpec) -> tuple[str, str] | None:
    """(item, producer id) of `x in steps.S.output` or `x in S` (a step id); None otherwise."""
    m = _WHOLE_OUTPUT.match(step.for_each or "")
    if m is None:
        return None
    producer = m.group(2) or m.group(3)
    if m.group(3) and not any(s.id == producer for s in spec.steps):
        return None  # `x in names`: a workflow input or an output field, not a step
    return m.group(1), producer


def array_fields(schema: JsonSchema) -> list[str]:
    """The properties of an object schema that are declared as arrays, in schema order."""
    if "array" in types_of(schema):
        return []
    return [name for name, prop in properties_of(schema).items()
            if isinstance(prop, dict) and "array" in types_of(prop)]


def loop_choices(step: StepSpec, spec: WorkflowSpec, output_schemas: Mapping[str, JsonSchema]) -> list[str]:
    """The array fields a `For each` over a once-run step's whole output could mean (empty when
    the loop names a field, or its producer is itself a For each step)."""
    whole = _whole_output(step, spec)
    if whole is None:
        return []
    producer = next((s for s in spec.steps if s.id == whole[1]), None)
    if producer is None or producer.for_each is not None or producer.id not in output_schemas:
        return []
    return array_fields(output_schemas[producer.id])


def loop_over_fields(spec: WorkflowSpec, outputs: Mapping[str, OutputContract]
                     ) -> tuple[WorkflowSpec, dict[str, str], list[Diagnostic]]:
    """The spec with each such loop read over its producer's one array field, the rule that read
    each (step id -> provenance note) and a warning per loop read so."""
    schemas = {sid: out.schema_ for sid, out in outputs.items()}
    notes: dict[str, str] = {}
    found: list[Diagnostic] = []
    steps: list[StepSpec] = []
    for step in spec.steps:
        choices = loop_choices(step, spec, schemas)
        whole = _whole_output(step, spec)
        if len(choices) != 1 or whole is None:
            steps.append(step)
            continue
        (item, producer), field = whole, choices[0]
        notes[step.id] = (f"the one array field `{field}` of {producer}'s output (the text names the step, "
                          "not the field)")
        found.append(warning_at(step.field_where.get("for_each", step.where), spec.path,
                                f"{step.id} ({step.name}): For each over {producer}'s output, an object: it "
                                f"loops over `{field}`, its one array field. To say so write `For each: "
                                f"{item} in {producer}.{field}`", "for-each-field"))
        steps.append(step.model_copy(update={"for_each": f"{item} in steps.{producer}.output.{field}"}))
    if not notes:
        return spec, notes, found
    return spec.model_copy(update={"steps": steps}), notes, found
