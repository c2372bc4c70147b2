"""What a spec brings along (its `skills/` folder, links inside it, its `mcp.json`) stays inside the roots."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from orchestrator.server.roots import PathRefusedError, RootSet, beside_spec

ClientFactory = Any  # the `connect` fixture (conftest.py)
COUNT = {"spec": "specs/count.md", "inputs": {"text": "a b"}}


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@pytest.fixture
def outside(project: Path) -> Path:
    """The project's skills moved out of the project, where no root reaches."""
    elsewhere = project.parent / "outside"
    elsewhere.mkdir()
    shutil.move(project / "specs" / "skills", elsewhere / "skills")
    return elsewhere / "skills"


def test_beside_spec_finds_the_skills_folder_the_links_in_it_and_mcp_json(project: Path, outside: Path) -> None:
    skills = project / "specs" / "skills"
    skills.mkdir()
    (skills / "count-words").symlink_to(outside / "count-words")
    (project / "specs" / "mcp.json").write_text('{"mcpServers": {}}')
    found = beside_spec(project / "specs" / "count.md")
    assert found == [skills, skills / "count-words", project / "specs" / "mcp.json"]


def test_a_linked_skills_folder_leading_outside_is_refused_naming_where_it_leads(
    project: Path, outside: Path
) -> None:
    (project / "specs" / "skills").symlink_to(outside)
    with pytest.raises(PathRefusedError) as info:
        RootSet.of(project).confine_all(beside_spec(project / "specs" / "count.md"))
    assert info.value.where == str(project / "specs" / "skills")
    assert str(outside) in info.value.message


async def test_list_skills_refuses_a_skills_folder_linked_outside_the_roots(
    connect: ClientFactory, project: Path, outside: Path
) -> None:
    (project / "specs" / "skills").symlink_to(outside)
    async with connect() as client:
        listed = await client.call_tool("list_skills", {"spec": "specs/count.md"})
        plain = await client.call_tool("list_skills", {})
    assert listed.is_error
    assert f"{project / 'specs' / 'skills'}: refused: it leads to {outside}" in text(listed)
    assert "outside the server's roots" in text(listed)
    assert not plain.is_error


@pytest.mark.parametrize("tool", ["validate_spec", "plan_workflow", "run_workflow"])
async def test_a_tool_refuses_a_spec_whose_skill_folder_links_outside_the_roots(
    connect: ClientFactory, project: Path, outside: Path, tool: str
) -> None:
    (project / "specs" / "skills").mkdir()
    (project / "specs" / "skills" / "count-words").symlink_to(outside / "count-words")
    arguments = COUNT if tool == "run_workflow" else {"spec": COUNT["spec"]}
    async with connect() as client:
        with anyio.fail_after(20):
            result = await client.call_tool(tool, arguments)
            runs = await client.call_tool("list_runs", {})
    assert result.is_error
    assert "count-words: refused:" in text(result)
    assert "Traceback" not in text(result) and "internal error" not in text(result)
    assert runs.structured_content == {"runs": []}  # nothing was executed


async def test_an_mcp_json_beside_the_spec_linked_outside_the_roots_is_refused(
    connect: ClientFactory, project: Path
) -> None:
    config = project.parent / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"evil": {"command": "/bin/false"}}}))
    (project / "specs" / "mcp.json").symlink_to(config)
    async with connect() as client:
        result = await client.call_tool("validate_spec", {"spec": "specs/count.md"})
    assert result.is_error
    assert f"{project / 'specs' / 'mcp.json'}: refused: it leads to {config}" in text(result)


async def test_links_that_stay_inside_the_roots_are_fine(connect: ClientFactory, project: Path) -> None:
    shutil.move(project / "specs" / "skills", project / "shared-skills")
    (project / "specs" / "skills").symlink_to(project / "shared-skills")
    async with connect() as client:
        report = await client.call_tool("validate_spec", {"spec": "specs/count.md"})
    assert not report.is_error, text(report)


async def test_a_saved_plan_whose_skills_now_lead_outside_the_roots_is_refused(
    connect: ClientFactory, project: Path
) -> None:
    async with connect() as client:
        saved = await client.call_tool(
            "plan_workflow", {"spec": "specs/count.md", "format": "json", "output": "plans/count.json"}
        )
        assert not saved.is_error, text(saved)
        # The spec's skills are swapped for a link to a folder no root reaches; the plan still names them.
        shutil.move(project / "specs" / "skills", project.parent / "moved")
        (project / "specs" / "skills").symlink_to(project.parent / "moved")
        result = await client.call_tool("run_workflow", {"spec": "plans/count.json", "inputs": {"text": "a"}})
        runs = await client.call_tool("list_runs", {})
    assert result.is_error
    assert f"{project / 'specs' / 'skills'}: refused:" in text(result)
    assert runs.structured_content == {"runs": []}


async def test_a_skill_resource_for_a_spec_outside_the_roots_is_refused(connect: ClientFactory, project: Path) -> None:
    (project.parent / "elsewhere").mkdir()
    shutil.copytree(project / "specs", project.parent / "elsewhere" / "specs")
    async with connect() as client:
        with pytest.raises(MCPError, match="outside the server's roots"):
            await client.read_resource(f"skill://count-words?spec={project.parent / 'elsewhere/specs/count.md'}")
