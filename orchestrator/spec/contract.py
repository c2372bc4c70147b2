"""Data Contracts: `### Step 1 → Step 2` blocks into ContractSpec.

    - Output: { existing_docs: string, docs_found: boolean }     output fields
    - Step 2 Input: module_name, existing_docs                  input fields
    - Validation: module_name is non-empty string; has expected keys
    ```json  {...JSON Schema...}  ```                            wins over the rest

Validation clauses become JSON Schema keywords per field where they state one
(`constraints`, the key "" meaning the whole output object); the others are
kept in `validation` and reported as warnings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from orchestrator.schemaref import external_refs
from orchestrator.spec.blocks import Block, Bullet, Fence, Para
from orchestrator.spec.fields import parse_braces, parse_fields, split_top, step_id, type_of
from orchestrator.spec.model import ContractSpec, FieldSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ARROW = _rx(r"(?:(?<!\s)\s+)?(?:→|->|⟶|=>|\bto\b)\s*", re.I)
_NAME = r"[A-Za-z_][\w.-]*"
_NON_EMPTY = _rx(rf"^({_NAME}) (?:is|must be|should be) (?:a |an )?non-?empty(?: (\w+))?$")
_IS_TYPE = _rx(rf"^({_NAME}) (?:is|must be|should be) (?:a |an )?(?:valid )?(\w+)$")
_ONE_OF = _rx(rf"^({_NAME}) (?:is|must be) one of:? (.+)$")
_COMPARE = _rx(rf"^({_NAME}) (>=|<=|>|<|==?) (-?\d+(?:\.\d+)?)$")
_AT = _rx(rf"^({_NAME}) (?:has|is|must have) at (least|most) (\d+)(?: (items?|elements?|entries|characters?|chars?))?$")
_MATCHES = _rx(rf"^({_NAME}) matches (?:/(.+)/|`?(.+?)`?)$")
_KEYS = _rx(r"^(?:it |output )?(?:has|contains|includes) (?:the )?(?:keys?|fields?|properties) (.+)$")
_EXPECTED_KEYS = _rx(r"^(?:it |output )?(?:has|contains) (?:the |all )?(?:expected|required) (?:keys|fields|properties)$")
_VALID_JSON = _rx(r"^(?:json|output|it) is valid(?: json)?$|^valid json$")
_FORMATS = {"url": "uri", "uri": "uri", "email": "email", "date": "date", "datetime": "date-time",
            "date-time": "date-time", "timestamp": "date-time"}


def read_contract_heading(
    text: str, resolve: Callable[[str], str | None] | None = None
) -> tuple[str, str | None] | None:
    """`Step 1 → Step 2` → (`step-1`, `step-2`); `Step 3` → (`step-3`, None); with `resolve`,
    a step's name or number (`Extract → Load`) too."""
    parts = [p.strip().strip("`") for p in _ARROW.split(text.strip()) if p.strip()]
    if not 1 <= len(parts) <= 2:
        return None
    ids = [(resolve(p) if resolve else None) or step_id(p)
           or (p if re.fullmatch(r"[A-Za-z_][\w-]*", p) else None) for p in parts]
    if any(i is None for i in ids):
        return None
    return str(ids[0]), (str(ids[1]) if len(ids) == 2 else None)


def _subject(name: str, fields: dict[str, FieldSpec], outputs: tuple[FieldSpec, ...]) -> str | None:
    """A clause's subject as a field name: the field itself, or a type word for the only such field."""
    if name in fields:
        return name
    typ = type_of(name)
    if typ is None and name in ("output", "result", "it"):
        return ""
    if typ is None:
        return None
    pool = [f for f in outputs if f.type == typ] or (list(outputs) if len(outputs) == 1 else [])
    return pool[0].name if len(pool) == 1 else None


def _non_empty(typ: str | None) -> dict[str, Any] | None:
    return {
        "string": {"type": "string", "minLength": 1},
        "array": {"type": "array", "minItems": 1},
        "object": {"type": "object", "minProperties": 1},
    }.get(typ or "")


def read_clause(
    clause: str, fields: dict[str, FieldSpec], outputs: tuple[FieldSpec, ...]
) -> tuple[str, dict[str, Any]] | None:
    """One Validation clause → (field, JSON Schema keywords); ("", {}) = understood, nothing to add."""
    c = " ".join(clause.replace("`", "").strip().rstrip(".").lower().split())
    if _VALID_JSON.match(c):
        return "", {}
    if _EXPECTED_KEYS.match(c):
        names = [f.name for f in outputs]
        return ("", {"required": names}) if names else None
    if m := _KEYS.match(c):
        names = [n.strip() for n in split_top(m.group(1).replace(" and ", ","))]
        return "", {"required": names}
    if m := _NON_EMPTY.match(c):
        subject = _subject(m.group(1), fields, outputs)
        if subject is None:
            return None
        typ = type_of(m.group(2)) if m.group(2) else None
        if typ is None:
            typ = fields[subject].type if subject in fields else type_of(m.group(1))
        kw = _non_empty(typ)
        return (subject, kw) if kw else None
    if m := _ONE_OF.match(c):
        subject = _subject(m.group(1), fields, outputs)
        values = [v.strip().strip("'\"") for v in split_top(m.group(2).replace(" or ", ","))]
        return (subject, {"enum": values}) if subject is not None else None
    if m := _COMPARE.match(c):
        subject = _subject(m.group(1), fields, outputs)
        n = float(m.group(3))
        num: int | float = int(n) if n.is_integer() else n
        key = {">=": "minimum", "<=": "maximum", ">": "exclusiveMinimum", "<": "exclusiveMaximum",
               "=": "const", "==": "const"}[m.group(2)]
        return (subject, {key: num}) if subject is not None else None
    if m := _AT.match(c):
        subject = _subject(m.group(1), fields, outputs)
        unit = m.group(4) or ""
        low = m.group(2) == "least"
        if unit.startswith(("item", "element", "entr")):
            key = "minItems" if low else "maxItems"
        elif unit.startswith("char"):
            key = "minLength" if low else "maxLength"
        else:
            key = "minimum" if low else "maximum"
        return (subject, {key: int(m.group(3))}) if subject is not None else None
    if m := _MATCHES.match(c):
        subject = _subject(m.group(1), fields, outputs)
        pattern = clause.split("matches", 1)[1].strip().strip("`/")
        return (subject, {"pattern": pattern}) if subject is not None else None
    if m := _IS_TYPE.match(c):
        subject = _subject(m.group(1), fields, outputs)
        word = m.group(2)
        if subject is None:
            return None
        if word in _FORMATS:
            return subject, {"type": "string", "format": _FORMATS[word]}
        typ = type_of(word)
        return (subject, {"type": typ}) if typ else None
    return None


def _schema(fence: Fence, src: Source) -> dict[str, Any] | None:
    try:
        value = json.loads(fence.content)
    except ValueError as exc:
        lineno = getattr(exc, "lineno", 1)
        src.error(fence.line + lineno, f"the JSON Schema block is not valid JSON: {exc}",
                  "spec.schema")
        return None
    if not isinstance(value, dict):
        src.error(fence.line, "the JSON Schema block must be a JSON object", "spec.schema")
        return None
    outside = external_refs(value)
    if outside:  # never fetched nor read: a contract is the block itself
        src.error(fence.line, f"the JSON Schema block's $ref '{outside[0]}' points outside the block; "
                              "a contract's $ref may only point inside it ('#/$defs/...')", "spec.schema")
        return None
    if _meta_valid(value):
        return value
    # The slow, detailed check (it recurses in Python) only for a schema the fast one refused.
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    try:
        validator_for(value).check_schema(value)
    except SchemaError as exc:
        src.error(fence.line, f"the JSON Schema block is not a valid schema: {exc.message}",
                  "spec.schema")
        return None
    return value


def _meta_valid(schema: dict[str, Any]) -> bool:
    """Meta-validate with the compiled validator (fast, and no Python recursion)."""
    import jsonschema_rs

    try:
        return bool(jsonschema_rs.meta.is_valid(schema))
    except (ValueError, jsonschema_rs.ReferencingError):
        return False  # e.g. an unknown $schema: let the detailed check explain


def read_contract(
    heading: str, line: int, blocks: list[Block], src: Source,
    resolve: Callable[[str], str | None] | None = None,
) -> ContractSpec | None:
    """One `### Step 1 → Step 2` block; None (with a warning) when the heading names no steps.
    `resolve` maps a step's name or number to its id."""
    ends = read_contract_heading(heading, resolve)
    if ends is None:
        src.warn(line, f"contract heading '{heading}' does not name steps (write `Step 1 → Step 2`); "
                       "block not read", "spec.unread")
        return None
    outputs: tuple[FieldSpec, ...] = ()
    inputs: tuple[FieldSpec, ...] = ()
    clauses: list[tuple[str, int]] = []
    schema: dict[str, Any] | None = None
    for block in blocks:
        if isinstance(block, Fence):
            if block.info.split()[:1] in (["json"], ["jsonschema"], ["json-schema"]):
                schema = _schema(block, src) or schema
            else:
                src.warn(block.line, f"a ```{block.info or 'text'} block is not read; only ```json "
                                     "JSON Schema blocks are", "spec.unread")
        elif isinstance(block, Bullet) and block.label and "valid" in block.label:
            clauses += [(c, block.line) for c in split_top(block.value, ";") if c]
            clauses += [(b.text, b.line) for b in block.children if isinstance(b, Bullet)]
        elif isinstance(block, Bullet) and block.label and "input" in block.label:
            inputs += parse_fields(block.value, src, block.line)
        elif isinstance(block, Bullet) and block.label and "output" in block.label:
            braced = parse_braces(block.value, src, block.line)
            outputs += braced if braced is not None else parse_fields(block.value, src, block.line)
        elif isinstance(block, Bullet | Para):
            src.warn(block.line, f"contract text '{block.text.strip()[:60]}' not read (expected "
                                 "Output:, Input:, Validation: or a ```json block)", "spec.unread")
        else:
            src.warn(block.line, "contract content not read", "spec.unread")
    fields = {f.name: f for f in (*inputs, *outputs)}
    constraints: dict[str, dict[str, Any]] = {}
    for clause, at in clauses:
        found = read_clause(clause, fields, outputs)
        if found is None:
            src.warn(at, f"validation '{clause}' states no checkable constraint; kept as text",
                     "spec.validation")
            continue
        name, keywords = found
        if keywords:
            merged = constraints.setdefault(name, {})
            if "required" in keywords and "required" in merged:
                keywords = {"required": [*merged["required"], *keywords["required"]]}
            merged.update(keywords)
    return ContractSpec(
        producer=ends[0],
        consumer=ends[1],
        output_fields=outputs,
        input_fields=inputs,
        validation=tuple(c for c, _ in clauses),
        constraints=constraints,
        json_schema=schema,
        where=src.where(line),
    )


_rx.save()
