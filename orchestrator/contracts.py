"""Handoff checks: a step's input and output against their JSON Schema contracts.

The hot path is `jsonschema_rs`: each schema is compiled once and kept by the
`ContractChecker` that the run owns (keyed by the schema object, then by a hash
of its content, so equal schemas share one compiled validator). Only when a
payload fails does the pure-Python `jsonschema` package walk it again, to report
each violation as data: the JSON pointer, what was expected, what was found
(truncated), and a message for people.

`empty_value(schema)` builds the value a DEFAULT fallback uses when the plan gives
none: the emptiest value that satisfies the common keywords of the schema.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Mapping
from typing import Any

import jsonschema_rs
from pydantic import BaseModel, ConfigDict

from orchestrator.schemaref import no_retrieval, offline_registry

ACTUAL_LIMIT = 120  # characters of the actual value kept in a violation
MAX_VIOLATIONS = 20  # violations reported per check; the count says how many more

# A JSON Schema document. It travels inside plans and skills as data; only this module
# interprets it. The checks take any read-only mapping (`SchemaLike`).
JsonSchema = dict[str, Any]
SchemaLike = Mapping[str, Any]


class Violation(BaseModel):
    """One way a payload breaks its contract."""

    model_config = ConfigDict(frozen=True)

    pointer: str  # JSON pointer into the payload ("" = the whole payload)
    expected: str  # the schema keyword and its value: `type: "string"`
    actual: str  # the value found, JSON, truncated
    message: str

    def render(self) -> str:
        where = self.pointer or "/"
        return f"{where}: {self.message} (expected {self.expected}, got {self.actual})"


def truncate(text: str, limit: int = ACTUAL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: Any, limit: int = ACTUAL_LIMIT) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return truncate(text, limit)


def schema_hash(schema: SchemaLike) -> str:
    """A content key for a schema: equal schemas (with keys in the same order) share it.

    `marshal` is several times faster than canonical JSON, and schemas parsed from
    one plan keep their key order; a schema it cannot encode falls back to JSON.
    """
    try:
        data = marshal.dumps(schema)  # type: ignore[arg-type]  # a JSON document
    except ValueError:
        data = json.dumps(schema, sort_keys=True, separators=(",", ":"), default=str).encode()
    return hashlib.sha256(data).hexdigest()


def _pointer(path: Any) -> str:
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "".join("/" + p for p in parts)


class _Unusable:
    """The validator of a schema that cannot be compiled: every payload goes to `explain`."""

    def is_valid(self, value: Any) -> bool:
        return False


_UNUSABLE = _Unusable()


class ContractChecker:
    """Checks payloads against schemas; owns the compiled-validator cache.

    One checker lives as long as a run (or a benchmark); it is not shared between
    threads.
    """

    def __init__(self) -> None:
        # id(schema) -> (schema kept alive so the id stays unique, validator or None)
        self._by_id: dict[int, tuple[SchemaLike, Any]] = {}
        self._by_hash: dict[str, Any] = {}

    def _validator(self, schema: SchemaLike) -> Any:
        entry = self._by_id.get(id(schema))
        if entry is not None and entry[0] is schema:
            return entry[1]
        validator: Any = None
        if schema:
            digest = schema_hash(schema)
            validator = self._by_hash.get(digest)
            if validator is None:
                try:
                    validator = jsonschema_rs.validator_for(dict(schema), retriever=no_retrieval)
                except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
                    validator = _UNUSABLE  # e.g. a $ref outside the schema: `explain` says why
                self._by_hash[digest] = validator
        self._by_id[id(schema)] = (schema, validator)
        return validator

    def is_valid(self, schema: SchemaLike, value: Any) -> bool:
        validator = self._validator(schema)
        return validator is None or bool(validator.is_valid(value))

    def check(self, schema: SchemaLike, value: Any) -> tuple[Violation, ...]:
        """No violations when `value` satisfies `schema` (an empty schema accepts anything)."""
        validator = self._validator(schema)
        if validator is None or validator.is_valid(value):
            return ()
        return explain(schema, value)


def explain(schema: SchemaLike, value: Any) -> tuple[Violation, ...]:
    """The detailed report for a payload known to fail: one violation per error."""
    import jsonschema
    from referencing.exceptions import Unresolvable

    cls = jsonschema.validators.validator_for(dict(schema))
    try:
        errors = sorted(
            cls(dict(schema), registry=offline_registry()).iter_errors(value),
            key=lambda e: (list(map(str, e.absolute_path)), e.validator),
        )
    except Unresolvable as exc:  # a $ref outside the schema: nothing is fetched
        return (Violation(pointer="", expected="schema", actual=_show(value),
                          message=truncate(f"the contract's $ref cannot be followed: {exc}", 300)),)
    found: list[Violation] = []
    for error in errors[:MAX_VIOLATIONS]:
        found.append(
            Violation(
                pointer=_pointer(error.absolute_path),
                expected=truncate(f"{error.validator}: {_show(error.validator_value, 80)}", 100),
                actual=_show(error.instance),
                message=truncate(error.message, 300),
            )
        )
    if len(errors) > MAX_VIOLATIONS:
        found.append(
            Violation(
                pointer="",
                expected="",
                actual="",
                message=f"... and {len(errors) - MAX_VIOLATIONS} more violations",
            )
        )
    if not found:  # the two implementations disagree (a format, say): still report something
        found.append(
            Violation(pointer="", expected="schema", actual=_show(value), message="payload does not match its contract")
        )
    return tuple(found)


def render_violations(violations: tuple[Violation, ...], limit: int = 5) -> str:
    lines = [v.render() for v in violations[:limit]]
    if len(violations) > limit:
        lines.append(f"... {len(violations) - limit} more")
    return "\n".join(lines)


_EMPTY_BY_TYPE: dict[str, Any] = {
    "string": "",
    "integer": 0,
    "number": 0,
    "boolean": False,
    "null": None,
    "array": [],
    "object": {},
}


def empty_value(schema: SchemaLike) -> Any:
    """The emptiest value satisfying `schema`'s common keywords.

    `default`, `const` and `enum` win; objects get their required properties
    (and any with a default); arrays get `minItems` empty items; numbers their
    minimum; strings `minLength` spaces. Unions take their first branch.
    """
    if not isinstance(schema, Mapping) or not schema:
        return None
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return empty_value(schema[key][0])
    if schema.get("allOf"):
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            merged.update(part)
        return empty_value(merged)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind is None:
        if "properties" in schema or "required" in schema:
            kind = "object"
        elif "items" in schema:
            kind = "array"
        else:
            return None
    if kind == "object":
        props: Mapping[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return {
            name: empty_value(sub) for name, sub in props.items() if name in required or "default" in sub
        } | {name: None for name in required if name not in props}
    if kind == "array":
        count = int(schema.get("minItems", 0))
        items = schema.get("items", {})
        return [empty_value(items) for _ in range(count)]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        if low is None:
            return 0
        value = low + 1 if "minimum" not in schema else low
        return int(value) if kind == "integer" else value
    if kind == "string":
        return " " * int(schema.get("minLength", 0))
    return _EMPTY_BY_TYPE.get(str(kind))
