"""Handoff checks: fast when valid, detailed when not, empty values that satisfy the schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from orchestrator import contracts
from orchestrator.contracts import ContractChecker, empty_value

DOCS = {
    "type": "object",
    "properties": {
        "docs": {"type": "string"},
        "found": {"type": "boolean"},
        "sections": {"type": "array", "items": {"type": "object", "required": ["title"]}},
    },
    "required": ["docs", "found"],
}


def test_a_valid_payload_has_no_violations() -> None:
    assert ContractChecker().check(DOCS, {"docs": "...", "found": True}) == ()


def test_an_empty_schema_accepts_anything() -> None:
    assert ContractChecker().check({}, object()) == ()


def test_each_violation_names_its_pointer_what_was_expected_and_what_was_found() -> None:
    violations = ContractChecker().check(DOCS, {"docs": 3, "sections": [{"title": "a"}, {}]})
    found = {(v.pointer, v.expected, v.actual) for v in violations}
    assert ("/docs", 'type: "string"', "3") in found
    assert ("", 'required: ["docs", "found"]', '{"docs": 3, "sections": [{"title": "a"}, {}]}') in found
    assert any(v.pointer == "/sections/1" and v.expected.startswith("required") for v in violations)
    assert all(v.message for v in violations)


def test_the_actual_value_is_truncated() -> None:
    (violation,) = ContractChecker().check({"type": "integer"}, "x" * 1000)
    assert len(violation.actual) <= contracts.ACTUAL_LIMIT
    assert violation.actual.endswith("…")


def test_equal_schemas_are_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[Any] = []
    real = contracts.jsonschema_rs.validator_for
    monkeypatch.setattr(contracts.jsonschema_rs, "validator_for",
                        lambda s, **kw: compiled.append(s) or real(s, **kw))
    checker = ContractChecker()
    copies = [dict(DOCS) for _ in range(5)]
    for schema in copies * 3:
        assert checker.is_valid(schema, {"docs": "", "found": False})
    assert len(compiled) == 1


def test_the_fast_path_does_not_use_the_python_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("jsonschema used on a valid payload")

    monkeypatch.setattr(jsonschema.validators, "validator_for", forbidden)
    assert ContractChecker().check(DOCS, {"docs": "", "found": False}) == ()


def test_empty_value_follows_defaults_consts_enums_and_required_fields() -> None:
    assert empty_value(DOCS) == {"docs": "", "found": False}
    assert empty_value({"type": "string", "default": "none"}) == "none"
    assert empty_value({"enum": ["a", "b"]}) == "a"
    assert empty_value({"type": "integer", "minimum": 3}) == 3
    assert empty_value({"type": "array", "minItems": 2, "items": {"type": "number"}}) == [0, 0]
    assert empty_value({"anyOf": [{"type": "null"}, {"type": "string"}]}) is None
    assert empty_value({}) is None


SCALARS = st.sampled_from(
    [{"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"},
     {"type": "string", "minLength": 3}, {"type": "integer", "minimum": 5}, {"enum": ["x", 1]}]
)
SCHEMAS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.builds(
            lambda props, req: {"type": "object", "properties": props, "required": sorted(set(req) & set(props))},
            st.dictionaries(st.text("abcdef", min_size=1, max_size=4), inner, max_size=4),
            st.lists(st.text("abcdef", min_size=1, max_size=4), max_size=4),
        ),
        st.builds(lambda items, n: {"type": "array", "items": items, "minItems": n}, inner, st.integers(0, 2)),
    ),
    max_leaves=8,
)


@given(SCHEMAS)
def test_the_empty_value_of_a_schema_satisfies_it(schema: dict[str, Any]) -> None:
    assert ContractChecker().check(schema, empty_value(schema)) == ()
