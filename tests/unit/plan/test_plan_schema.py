"""Building and comparing JSON Schema fragments for contracts."""

from __future__ import annotations

from plan_factory import field

from orchestrator.plan.schema import (
    both_schema,
    field_schema,
    json_type,
    merge_schema,
    object_schema,
    supply_problems,
)


def test_spec_type_words_become_json_schema_types() -> None:
    assert json_type("JSON") == "object"
    assert json_type("strings") == "string"
    assert json_type("list") == "array"
    assert json_type("markdown") == "string"
    assert json_type("frobnicator") is None


def test_a_list_field_carries_its_item_type() -> None:
    assert field_schema(field("issues", "array", items="string")) == {"type": "array", "items": {"type": "string"}}
    assert field_schema(field("issues", description="list of strings"))["items"] == {"type": "string"}


def test_object_schema_lists_required_fields_only() -> None:
    schema = object_schema([field("a", "string"), field("b", required=False)])
    assert schema == {"type": "object", "properties": {"a": {"type": "string"}, "b": {}}, "required": ["a"]}


def test_merge_narrows_types_and_unites_required() -> None:
    base = {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}
    extra = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}, "m": {}}, "required": ["m"]}
    merged, conflicts = merge_schema(base, extra)
    assert conflicts == []
    assert merged["properties"]["n"] == {"type": "integer", "minimum": 1}
    assert merged["required"] == ["n", "m"]


def test_merge_reports_incompatible_types_with_their_path() -> None:
    base = {"type": "object", "properties": {"docs": {"type": "string"}}}
    extra = {"type": "object", "properties": {"docs": {"type": "boolean"}}}
    merged, conflicts = merge_schema(base, extra)
    assert merged["properties"]["docs"]["type"] == "string"
    assert [(c.path, c.first, c.second) for c in conflicts] == [("/properties/docs", ("string",), ("boolean",))]


def test_supply_problems_name_missing_required_properties_and_wrong_types() -> None:
    produced = {"type": "object", "properties": {"functions": {"type": "array"}, "count": {"type": "integer"}}}
    wanted = {"type": "object", "required": ["functions", "classes"], "properties": {"count": {"type": "string"}}}
    assert supply_problems(produced, wanted) == [
        "/classes is required but never produced",
        "/count is integer but must be string",
    ]
    assert supply_problems({"type": "integer"}, {"type": "number"}) == []
    assert supply_problems({}, {"type": "string"}) == []


def test_both_schema_keeps_the_stronger_one_or_combines() -> None:
    strong = {"type": "string", "minLength": 1}
    assert both_schema(strong, {"type": "string"}) == strong
    assert both_schema({"type": "string"}, strong) == strong
    assert both_schema({"pattern": "a"}, {"pattern": "b"}) == {"allOf": [{"pattern": "a"}, {"pattern": "b"}]}
