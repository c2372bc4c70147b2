"""JSON Schema for the plan's contracts, built from what the spec and the skills say.

Sources, from weakest to strongest: the spec's `Input:`/`Output:` lines and the
Data Contracts notation add properties and types; `Validation:` constraints add
keywords; a skill's own schema is the base they refine; a fenced JSON Schema
block replaces everything. Merging never guesses: when two sources state
incompatible types the merge keeps the first and reports a `SchemaConflict`.

This module only builds and compares schemas as data; validating instances is
`orchestrator.contracts`' job.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.contracts import JsonSchema
from orchestrator.spec.model import FieldSpec

JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")

# Type words people write in specs, mapped to JSON Schema type names.
_TYPE_ALIASES = {
    "str": "string",
    "text": "string",
    "markdown": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "list": "array",
    "dict": "object",
    "json": "object",
    "map": "object",
}

_LIST_OF = re.compile(r"\b(?:list|array)s?\s+of\s+(\w+)", re.IGNORECASE)


class SchemaConflict(BaseModel):
    """Two sources disagree about the type at `path` (a JSON pointer into the schema)."""

    model_config = ConfigDict(frozen=True)

    path: str
    first: tuple[str, ...]
    second: tuple[str, ...]


def json_type(name: str | None) -> str | None:
    """A JSON Schema type name for a spec's type word, or None when it is not one."""
    if not name:
        return None
    word = name.strip().lower()
    if word in JSON_TYPES:
        return word
    if word.endswith("s") and word[:-1] in JSON_TYPES:
        return word[:-1]
    return _TYPE_ALIASES.get(word)


def field_schema(field: FieldSpec) -> JsonSchema:
    """The schema of one named value: its type, a list's item type, its description."""
    schema: JsonSchema = {}
    kind = json_type(field.type)
    if kind:
        schema["type"] = kind
    if field.items and schema.get("type") == "array":
        item = json_type(field.items)
        schema["items"] = {"type": item} if item else {"description": field.items}
    elif (match := _LIST_OF.search(field.description or "")) is not None:
        schema["type"] = "array"
        item = json_type(match.group(1))
        if item:
            schema["items"] = {"type": item}
    if field.description:
        schema["description"] = field.description
    return schema


def object_schema(fields: Iterable[FieldSpec]) -> JsonSchema:
    """An object schema with one property per field; required ones listed as required."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for f in fields:
        properties[f.name] = field_schema(f)
        if f.required and f.name not in required:
            required.append(f.name)
    schema: JsonSchema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def types_of(schema: JsonSchema | None) -> tuple[str, ...]:
    """The schema's `type` as a tuple (empty when unconstrained)."""
    if not isinstance(schema, dict):
        return ()
    value = schema.get("type")
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def properties_of(schema: JsonSchema | None) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def required_of(schema: JsonSchema | None) -> tuple[str, ...]:
    req = schema.get("required") if isinstance(schema, dict) else None
    return tuple(r for r in req if isinstance(r, str)) if isinstance(req, list) else ()


def declares_properties(schema: JsonSchema | None) -> bool:
    """True when the schema lists the properties of its object (so absence means 'not there')."""
    return bool(properties_of(schema))


def _accepts(wanted: Sequence[str], given: str) -> bool:
    return given in wanted or (given == "integer" and "number" in wanted)


def _meet(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    """The types both allow (integer is a number); empty when they share none."""
    out = [t for t in first if _accepts(second, t)]
    out += [t for t in second if t == "integer" and "number" in first and t not in out]
    return tuple(out)


def merge_schema(base: JsonSchema | None, extra: JsonSchema | None, path: str = "") -> tuple[JsonSchema, list[SchemaConflict]]:
    """Combine two schemas of the same value: `extra` refines `base`.

    Properties merge recursively, `required` lists are united, keywords that
    `base` lacks are taken from `extra`, and types narrow to what both allow.
    Incompatible types keep `base`'s and are reported.
    """
    if not isinstance(base, dict) or not base:
        return (copy.deepcopy(extra) if isinstance(extra, dict) else {}), []
    if not isinstance(extra, dict) or not extra:
        return copy.deepcopy(base), []
    out = copy.deepcopy(base)
    conflicts: list[SchemaConflict] = []
    first, second = types_of(base), types_of(extra)
    if first and second:
        both = _meet(first, second)
        if not both:
            conflicts.append(SchemaConflict(path=path or "/", first=first, second=second))
        else:
            out["type"] = both[0] if len(both) == 1 else list(both)
    elif second:
        out["type"] = extra["type"]
    for key, value in extra.items():
        if key in ("type", "properties", "required", "items"):
            continue
        out.setdefault(key, copy.deepcopy(value))
    extra_props = properties_of(extra)
    if extra_props:
        props = properties_of(out)
        out["properties"] = props
        for name, sub in extra_props.items():
            merged, found = merge_schema(props.get(name), sub, f"{path}/properties/{name}")
            props[name] = merged
            conflicts += found
    required = list(required_of(base))
    known = set(required)  # a list's `in` made merging n required names n * n
    for name in required_of(extra):
        if name not in known:
            known.add(name)
            required.append(name)
    if required:
        out["required"] = required
    if isinstance(extra.get("items"), dict):
        items = out.get("items") if isinstance(out.get("items"), dict) else None
        merged_items, found = merge_schema(items, extra["items"], f"{path}/items")
        out["items"] = merged_items
        conflicts += found
    return out, conflicts


def both_schema(first: JsonSchema | None, second: JsonSchema | None) -> JsonSchema:
    """A schema a value must satisfy to meet both: the stronger one when the other adds
    nothing to it, else allOf."""
    if not isinstance(first, dict) or not isinstance(second, dict):
        return {"allOf": [copy.deepcopy(x) for x in (first, second) if x is not None]}
    if not first:
        return copy.deepcopy(second or {})
    if not second or first == second:
        return copy.deepcopy(first)
    for stronger, weaker in ((first, second), (second, first)):
        if covers(stronger, weaker):
            return copy.deepcopy(stronger)
    return {"allOf": [copy.deepcopy(first), copy.deepcopy(second)]}


_ANNOTATIONS = frozenset(("description", "title", "$comment", "examples", "default", "$schema", "$id"))


def covers(strong: JsonSchema, weak: JsonSchema) -> bool:
    """True when every value valid under `strong` is plainly valid under `weak` too
    (each keyword of `weak` is stated as strictly or more strictly in `strong`)."""
    for key, value in weak.items():
        if key in _ANNOTATIONS:
            continue
        if key == "type":
            given = types_of(strong)
            if not given or not all(_accepts(types_of(weak), t) for t in given):
                return False
        elif key == "required":
            if not set(required_of(weak)) <= set(required_of(strong)):
                return False
        elif key == "properties":
            mine = properties_of(strong)
            for name, sub in properties_of(weak).items():
                if isinstance(sub, dict) and sub and not covers(mine.get(name) or {}, sub):
                    return False
        elif key == "items":
            inner = strong.get("items")
            if isinstance(value, dict) and value and not covers(inner if isinstance(inner, dict) else {}, value):
                return False
        elif strong.get(key) != value:
            return False
    return True


def supply_problems(produced: JsonSchema | None, wanted: JsonSchema | None, path: str = "") -> list[str]:
    """Why a value valid under `produced` could never be valid under `wanted`.

    Unknown (empty) schemas are trusted. Reports type mismatches and required
    properties that the producer does not declare, recursively.
    """
    if not isinstance(produced, dict) or not isinstance(wanted, dict) or not produced or not wanted:
        return []
    here = path or "the value"
    problems: list[str] = []
    given, needed = types_of(produced), types_of(wanted)
    if given and needed and not any(_accepts(needed, t) for t in given):
        return [f"{here} is {' or '.join(given)} but must be {' or '.join(needed)}"]
    produced_props = properties_of(produced)
    if produced_props:
        wanted_props = properties_of(wanted)
        for name in required_of(wanted):
            if name not in produced_props:
                problems.append(f"{path}/{name} is required but never produced")
        for name, sub in wanted_props.items():
            if name in produced_props and isinstance(sub, dict):
                problems += supply_problems(produced_props[name], sub, f"{path}/{name}")
    items, wanted_items = produced.get("items"), wanted.get("items")
    if isinstance(items, dict) and isinstance(wanted_items, dict):
        problems += supply_problems(items, wanted_items, f"{path}/items")
    return problems
