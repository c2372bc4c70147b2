"""An mcp skill that declares no schemas gets its tool's own at plan time, from the real server."""

from __future__ import annotations

import json
from pathlib import Path

from orchestrator.compile import compile_spec
from orchestrator.config import Settings

SPEC = """# Docs

## Intent
Fetch docs through a skill that names only its tool.

## Inputs
- module_name (string): the module

## Workflow Steps

### Step 1: Fetch
- Skill: `bare-docs`
- Input: module_name
- Output: existing_docs (string), docs_found (boolean)
"""


def bare_mcp_skill(folder: Path, server: str) -> None:
    skill = folder / "skills" / "bare-docs"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: bare-docs\ndescription: Docs from the docs server, schemas from the tool.\n"
        f"metadata:\n  skillweave.kind: mcp\n  skillweave.server: {server}\n"
        "  skillweave.tool: get_docs\n---\nCall get_docs.\n"
    )


def test_the_plan_takes_the_tools_own_schemas_from_the_running_server(tmp_path: Path) -> None:
    bare_mcp_skill(tmp_path, "docs")
    spec = tmp_path / "docs.md"
    spec.write_text(SPEC)

    step = compile_spec(spec, Settings()).steps[0]

    assert step.provenance["output_schema"].source == "mcp"
    assert {"existing_docs", "docs_found"} <= set(step.output_schema["properties"])
    assert step.input_schema["properties"]["module_name"]["type"] == "string"


def test_an_unreachable_server_leaves_a_warning_not_an_error(tmp_path: Path) -> None:
    bare_mcp_skill(tmp_path, "gone")
    (tmp_path / "mcp.json").write_text(
        json.dumps({"mcpServers": {"gone": {"command": str(tmp_path / "no-such-server")}}})
    )
    spec = tmp_path / "docs.md"
    spec.write_text(SPEC)

    plan = compile_spec(spec, Settings())

    assert [w.code for w in plan.warnings if "gone/get_docs" in w.message] == ["mcp-schema"]
