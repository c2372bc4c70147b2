"""A Data Contracts JSON Schema block is the contract itself: a `$ref` out of it is refused."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text

SPEC = """# Refs

## Workflow Steps

### Step 1: Make
- Skill: `make`
- Output: value

### Step 2: Use
- Skill: `use`
- Input: value

## Data Contracts

### Step 1 → Step 2
```json
{{"type": "object", "$defs": {{"v": {{"type": "string"}}}}, "properties": {{"value": {{"$ref": "{ref}"}}}}}}
```
"""


@pytest.mark.parametrize("ref", ["http://127.0.0.1:1/evil.json", "file:///etc/passwd", "other.json#/v"])
def test_a_ref_out_of_the_block_is_an_error_at_the_block(ref: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec_text(SPEC.format(ref=ref), "refs.md", "markdown")
    assert [d.render() for d in caught.value.diagnostics] == [
        f"refs.md:16: the JSON Schema block's $ref '{ref}' points outside the block; a contract's $ref "
        "may only point inside it ('#/$defs/...')"
    ]


def test_a_ref_inside_the_block_is_kept() -> None:
    spec = parse_spec_text(SPEC.format(ref="#/$defs/v"), "refs.md", "markdown")
    (contract,) = spec.contracts
    assert contract.json_schema is not None
    assert contract.json_schema["properties"]["value"] == {"$ref": "#/$defs/v"}
