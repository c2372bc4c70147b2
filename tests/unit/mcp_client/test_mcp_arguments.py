"""A tool's arguments against its inputSchema: a compiled check passes valid calls, `jsonschema` explains."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.mcp_client.runner import check_arguments, compiled_check
from orchestrator.mcp_client.schema import ToolInfo

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string", "format": "email"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}


def info(schema: dict[str, Any]) -> ToolInfo:
    return ToolInfo(server="s", name="weather", input_schema=schema)


@pytest.mark.parametrize(
    "arguments",
    [{"city": "Oslo"}, {"city": "Oslo", "days": 3}, {"city": "not an email"}],
    ids=["required only", "all", "format not asserted"],
)
def test_valid_calls_pass_with_and_without_the_compiled_check(arguments: dict[str, Any]) -> None:
    fast = compiled_check(SCHEMA)
    assert fast is not None
    assert check_arguments(info(SCHEMA), arguments, fast) is None
    assert check_arguments(info(SCHEMA), arguments) is None


@pytest.mark.parametrize(
    ("arguments", "pointer"), [({"city": 7}, "/city"), ({"city": "x", "days": 0}, "/days"), ({}, "")]
)
def test_a_refused_call_is_explained_the_same_with_the_compiled_check(arguments: dict[str, Any], pointer: str) -> None:
    fast = compiled_check(SCHEMA)
    explained = check_arguments(info(SCHEMA), arguments, fast)
    assert explained is not None and explained.kind == "mcp_invalid_params"
    assert explained.pointer == pointer
    assert explained == check_arguments(info(SCHEMA), arguments)


def test_a_schema_with_a_ref_or_one_that_does_not_compile_gets_no_compiled_check() -> None:
    assert compiled_check({"$ref": "https://example.invalid/schema.json"}) is None
    assert compiled_check({"type": "no such type"}) is None
    assert compiled_check({}) is None
