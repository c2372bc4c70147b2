"""Each step's input and output schema, and the schema of each handoff (edge).

Output schema of a step: a fenced JSON Schema block of a Data Contracts section
naming the step as producer wins outright. Otherwise the bound skill's output
schema is the base; the step's `Output:` fields and the contract notation add
properties and types; `Validation:` constraints add keywords (to the produced
field, or to the whole output under the key ""). A single `Output:` name that
the other sources do not declare as a property names the whole output (the
seed's `analysis (JSON): functions, classes, ...`): it becomes an alias, not a
property.

Input schema of a step: the skill's input schema, with the `Input:` fields (and
a contract's `Step N Input:` fields) merged in; fields the skill refuses
(`additionalProperties: false`) are left out with a warning. Constraints on a
field the producer does not output refine the consumer's input.

Type disagreements between sources are errors naming the field and the line.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.plan.location import error_at, warning_at
from orchestrator.plan.model import InputBinding
from orchestrator.plan.schema import (
    both_schema,
    field_schema,
    merge_schema,
    object_schema,
    properties_of,
    required_of,
)
from orchestrator.spec.model import ContractSpec, FieldSpec, StepSpec


class OutputContract(BaseModel):
    model_config = ConfigDict(frozen=True)

    schema_: JsonSchema
    aliases: frozenset[str] = frozenset()  # names that stand for the whole output
    note: str = ""
    where: str | None = None


def _conflict(field: FieldSpec, what: str, path: str, first: tuple[str, ...], second: tuple[str, ...]) -> Diagnostic:
    return error_at(field.where, path, f"{what}: `{field.name}` is {' or '.join(second)} here but "
                                       f"{' or '.join(first)} in the skill's schema or an earlier line",
                    "schema-conflict")


def _merge_fields(
    schema: JsonSchema, fields: Sequence[FieldSpec], what: str, path: str, errors: list[Diagnostic]
) -> JsonSchema:
    """Merge every field into `schema` as one object fragment: one copy of the schema,
    however many fields (field by field, a 100 000-name Input line copied it 100 000 times).
    The lines of a name given twice are merged with each other first, in order."""
    by_name: dict[str, tuple[FieldSpec, JsonSchema, bool]] = {}
    lines: dict[str, list[FieldSpec]] = {}
    for f in fields:
        own = field_schema(f)
        lines.setdefault(f.name, []).append(f)
        if f.name not in by_name:
            by_name[f.name] = (f, own, f.required)
            continue
        first, merged, needed = by_name[f.name]
        merged, conflicts = merge_schema(merged, own)
        errors += [_conflict(f, what, path, c.first, c.second) for c in conflicts]
        by_name[f.name] = (first, merged, needed or f.required)
    if not by_name:
        return schema
    fragment: JsonSchema = {"type": "object", "properties": {name: s for name, (_, s, _) in by_name.items()}}
    required = [name for name, (_, _, req) in by_name.items() if req]
    if required:
        fragment["required"] = required
    merged, conflicts = merge_schema(schema, fragment)
    for c in conflicts:
        name = c.path.split("/")[2] if c.path.startswith("/properties/") else None
        mine = lines.get(name or "") or [fields[0]]
        errors.append(_conflict(_culprit(schema, mine, name), what, path, c.first, c.second))
    return merged


def _culprit(schema: JsonSchema, mine: Sequence[FieldSpec], name: str | None) -> FieldSpec:
    """The first of a name's lines that disagrees with `schema` by itself (else its first line)."""
    known = properties_of(schema).get(name or "")
    return next((f for f in mine if merge_schema(known, field_schema(f))[1]), mine[0])


def _constrain(
    schema: JsonSchema, field: str, keywords: Mapping[str, Any], what: str, where: str, path: str,
    errors: list[Diagnostic],
) -> JsonSchema:
    fragment: JsonSchema = dict(keywords) if field == "" else {"properties": {field: dict(keywords)}}
    merged, conflicts = merge_schema(schema, fragment)
    for c in conflicts:
        errors.append(error_at(where, path, f"{what}: a validation rule makes `{field or 'the output'}` "
                                            f"{' or '.join(c.second)} but it is {' or '.join(c.first)}",
                               "schema-conflict"))
    return merged


def _whole_output_names(step: StepSpec, declared: Sequence[str]) -> frozenset[str]:
    names = {f.name for f in step.outputs if f.whole_output and f.name not in declared}
    if not names and len(step.outputs) == 1 and declared and step.outputs[0].name not in declared:
        names = {step.outputs[0].name}
    return frozenset(names)


def _sources(*named: tuple[str, bool]) -> str:
    return " + ".join(name for name, present in named if present) or "none declared"


def output_contract(
    step: StepSpec, skill: BoundSkill | None, contracts: Sequence[ContractSpec], path: str
) -> tuple[OutputContract, list[Diagnostic]]:
    """The step's output schema (module docstring) and any diagnostics."""
    errors: list[Diagnostic] = []
    what = f"{step.id} ({step.name})"
    skill_name = skill.name if skill else "?"
    mine = [c for c in contracts if c.producer == step.id]
    fenced = next((c for c in reversed(mine) if c.json_schema), None)
    where: str | None
    base = copy.deepcopy(skill.output_schema or {}) if skill else {}
    notation = [f for c in mine for f in c.output_fields]
    if fenced is not None and fenced.json_schema is not None:
        output = copy.deepcopy(fenced.json_schema)
        aliases = _whole_output_names(step, list(properties_of(output)))
        note, where = "fenced JSON Schema", fenced.where
    else:
        aliases = _whole_output_names(step, [*properties_of(base), *(f.name for f in notation)])
        declared = [*(f for f in step.outputs if f.name not in aliases), *notation]
        for f in declared:
            if properties_of(base) and f.name not in properties_of(base):
                errors.append(warning_at(f.where, path, f"{what}: the spec says it outputs `{f.name}`, "
                                                        f"which skill `{skill_name}` does not declare",
                                         "undeclared-output"))
        output = _merge_fields(base, declared, what, path, errors)
        for f in step.outputs:
            if f.name in aliases and not properties_of(output):
                extra: JsonSchema = {"type": "object"}
                if f.keys:
                    extra["properties"] = {k: {} for k in f.keys}
                output, _ = merge_schema(output, extra)
        note = _sources(
            (f"skill {skill_name} output schema", bool(skill and skill.output_schema)),
            ("Output line", bool(step.outputs)),
            ("Data Contracts notation", bool(notation)),
        )
        where = step.outputs[0].where if step.outputs else None
    for c in mine:
        for name, keywords in c.constraints.items():
            if name == "" or name in properties_of(output):
                output = _constrain(output, name, keywords, what, c.where, path, errors)
            elif name in aliases:
                output = _constrain(output, "", keywords, what, c.where, path, errors)
    if properties_of(output) and "type" not in output:
        output["type"] = "object"
    return OutputContract(schema_=output, aliases=aliases, note=note, where=where), errors


def input_contract(
    step: StepSpec,
    skill: BoundSkill | None,
    contracts: Sequence[ContractSpec],
    produced_by: Mapping[str, frozenset[str]],
    path: str,
) -> tuple[JsonSchema, str, list[Diagnostic]]:
    """The step's input schema (module docstring), where it came from, and diagnostics.

    `produced_by` maps each producer step id to the field names it outputs, so a
    constraint on a field its producer does not output refines this input instead.
    """
    errors: list[Diagnostic] = []
    what = f"{step.id} ({step.name})"
    schema = _input_schema(step, skill, contracts, produced_by, what, path, errors)
    note = _sources(
        (f"skill {skill.name if skill else '?'} input schema", bool(skill and skill.input_schema)),
        ("Input line", bool(step.inputs)),
    )
    return schema, note, errors


def _input_schema(
    step: StepSpec,
    skill: BoundSkill | None,
    contracts: Sequence[ContractSpec],
    produced_by: Mapping[str, frozenset[str]],
    what: str,
    path: str,
    errors: list[Diagnostic],
) -> JsonSchema:
    base = copy.deepcopy(skill.input_schema or {}) if skill else {}
    fields: dict[str, FieldSpec] = {}
    for f in step.inputs:
        fields.setdefault(f.name, f)
    for c in contracts:
        if c.consumer == step.id:
            for f in c.input_fields:
                fields.setdefault(f.name, f)
    closed = base.get("additionalProperties") is False
    accepted: list[FieldSpec] = []
    for f in fields.values():
        if properties_of(base) and f.name not in properties_of(base) and closed:
            errors.append(warning_at(f.where, path, f"{what}: skill `{skill.name if skill else '?'}` "
                                                    f"does not accept `{f.name}`; it is not passed",
                                     "refused-input"))
            continue
        if properties_of(base) and f.name not in properties_of(base):
            f = f.model_copy(update={"required": False})
        accepted.append(f)
    schema = _merge_fields(base, accepted, what, path, errors)
    for c in contracts:
        if c.consumer != step.id:
            continue
        made = produced_by.get(c.producer, frozenset())
        for name, keywords in c.constraints.items():
            if name and name not in made and name in properties_of(schema):
                schema = _constrain(schema, name, keywords, what, c.where, path, errors)
    if not schema:
        schema = object_schema(())
    return schema


def at_pointer(schema: JsonSchema, pointer: str) -> JsonSchema:
    """The sub-schema at a JSON pointer through `properties` ({} when not declared)."""
    current: Any = schema
    for part in [p for p in pointer.split("/") if p]:
        props = properties_of(current) if isinstance(current, dict) else {}
        if part not in props:
            return {}
        current = props[part]
    return current if isinstance(current, dict) else {}


def edge_schema(
    fields: Sequence[tuple[str, InputBinding]],
    producer_output: JsonSchema,
    consumer_input: JsonSchema,
) -> JsonSchema:
    """What the values handed from producer to consumer must satisfy: per fed field,
    the producer's schema at the pointer and the consumer's schema of the field."""
    wanted = properties_of(consumer_input)
    props: dict[str, Any] = {}
    for name, binding in fields:
        props[name] = both_schema(at_pointer(producer_output, binding.pointer), wanted.get(name))
    schema: JsonSchema = {"type": "object", "properties": props}
    required = [n for n, _ in fields if n in required_of(consumer_input)]
    if required:
        schema["required"] = required
    defs: dict[str, Any] = {}
    for source in (consumer_input, producer_output):
        found = source.get("$defs")
        if isinstance(found, dict):
            defs.update(copy.deepcopy(found))
    if defs:
        schema["$defs"] = defs
    return schema
