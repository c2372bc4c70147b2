"""The prompt templates: strict, and they carry what each call needs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
import pytest

from orchestrator.errors import ConfigError
from orchestrator.llm.prompts import Excerpt, PromptTemplates


def repair_variables() -> dict[str, Any]:
    return {
        "skill": {"name": "normalize-contacts", "description": "Lower-cases contact emails."},
        "instructions": "INSTRUCTIONS: lower-case every email.",
        "input_schema": {"type": "object", "title": "INPUT-SCHEMA"},
        "output_schema": {"type": "object", "title": "OUTPUT-SCHEMA"},
        "network": False,
        "entry": "scripts/main.py",
        "step_id": "clean",
        "attempt": 2,
        "code": "print('CURRENT CODE')",
        "failing_input": Excerpt.head('{"records": [{"name": "FAILING-INPUT"}]}', 10_000),
        "failure": {
            "error_class": "code_error",
            "kind": "exception",
            "message": "KeyError: 'email'",
            "pointer": "/records/0",
            "detail": Excerpt.tail("Traceback (most recent call last):\nKeyError: 'email'", 1000),
        },
        "feedback": "VALIDATOR FINDINGS",
        "refused": ["REFUSED: does not compile"],
        "history": [
            {
                "attempt": 1,
                "code_sha256": "abc123def4567890",
                "error_class": "code_error",
                "kind": "exception",
                "message": "EARLIER FAILURE",
            },
        ],
    }


def test_the_repair_prompt_carries_instructions_code_failure_schemas_and_history() -> None:
    prompt = PromptTemplates().render("repair_script", **repair_variables())

    for static in (
        "INSTRUCTIONS: lower-case every email.",
        "INPUT-SCHEMA",
        "OUTPUT-SCHEMA",
        "normalize-contacts",
    ):
        assert static in prompt.system
    for dynamic in (
        "CURRENT CODE",
        "FAILING-INPUT",
        "KeyError: 'email'",
        "/records/0",
        "Traceback (most recent call last)",
        "VALIDATOR FINDINGS",
        "EARLIER FAILURE",
        "abc123def456",
    ):
        assert dynamic in prompt.user
    assert "CURRENT CODE" not in prompt.system  # the cached prefix stays the same across attempts
    assert "submit_script" in prompt.system
    assert prompt.tool_description


def test_the_static_prefix_does_not_change_between_attempts() -> None:
    first = repair_variables()
    later = {
        **first,
        "attempt": 3,
        "code": "print('OTHER')",
        "feedback": None,
        "history": [],
        "refused": [],
    }
    templates = PromptTemplates()
    assert (
        templates.render("repair_script", **first).system
        == templates.render("repair_script", **later).system
    )


def test_a_cut_input_says_how_much_was_left_out() -> None:
    variables = {**repair_variables(), "failing_input": Excerpt.head("x" * 50, 10)}
    prompt = PromptTemplates().render("repair_script", **variables)
    assert "x" * 10 in prompt.user
    assert "x" * 11 not in prompt.user
    assert "40 more characters of input not shown" in prompt.user


def test_the_write_prompt_asks_for_a_first_version() -> None:
    variables = {
        **repair_variables(),
        "code": "",
        "failure": None,
        "feedback": None,
        "history": [],
        "refused": [],
    }
    prompt = PromptTemplates().render("write_script", **variables)
    assert "INSTRUCTIONS: lower-case every email." in prompt.system
    assert "first version of `scripts/main.py`" in prompt.user
    assert "FAILING-INPUT" in prompt.user


def test_the_choose_prompt_lists_every_candidate() -> None:
    prompt = PromptTemplates().render(
        "choose_skill",
        step_text="Fetch the docs",
        step_name="Fetch Documentation",
        description="",
        outputs=["existing_docs", "docs_found"],
        candidates=[
            {"name": "fetch-docs", "kind": "mcp", "description": "Docs over MCP."},
            {"name": "scrape-docs", "kind": "script", "description": "Docs by scraping."},
        ],
    )
    assert "Skill wanted: Fetch the docs" in prompt.user
    assert "Step: Fetch Documentation" in prompt.user
    assert "It must produce: existing_docs, docs_found" in prompt.user
    assert "`fetch-docs` (mcp): Docs over MCP." in prompt.user
    assert "`scrape-docs` (script): Docs by scraping." in prompt.user


def test_the_route_prompt_lists_the_branches_and_the_data() -> None:
    prompt = PromptTemplates().render(
        "route_branch",
        instructions="Route by severity.",
        branches=[
            {"name": "urgent", "description": "pages someone"},
            {"name": "later", "description": ""},
        ],
        data=Excerpt.head('{"severity": "high"}', 100),
    )
    assert "Route by severity." in prompt.user
    assert "`urgent`: pages someone" in prompt.user
    assert "`later`" in prompt.user
    assert '"severity": "high"' in prompt.user


def test_the_llm_skill_prompt_puts_the_output_schema_in_the_cached_prefix() -> None:
    prompt = PromptTemplates().render(
        "llm_skill",
        skill={"name": "summarize", "description": "Summarizes."},
        tool_name="submit_output",
        output_schema={"type": "object", "title": "OUT"},
        body="Summarize THE TEXT.",
        show_input=False,
        input=Excerpt.head("{}", 100),
    )
    assert '"title": "OUT"' in prompt.system
    assert prompt.user == "Summarize THE TEXT."


@pytest.mark.parametrize("name", ["repair_script", "write_script"])
def test_a_missing_variable_fails_the_render(name: str) -> None:
    variables = repair_variables()
    del variables["instructions"]
    with pytest.raises(jinja2.UndefinedError, match="instructions"):
        PromptTemplates().render(name, **variables)


def test_json_in_prompts_is_not_html_escaped() -> None:
    variables = {**repair_variables(), "input_schema": {"pattern": "<a & b>"}}
    assert '"pattern": "<a & b>"' in PromptTemplates().render("repair_script", **variables).system


def test_an_unknown_template_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=re.escape("no prompt template nothing.md.j2")):
        PromptTemplates().render("nothing")


def test_a_template_without_the_three_blocks_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "half.md.j2").write_text("{% block system %}x{% endblock %}")
    with pytest.raises(ConfigError, match="no 'user' block"):
        PromptTemplates(tmp_path).render("half")


@pytest.mark.parametrize("tool", ["submit_script", "choose_skill", "choose_branch"])
def test_tool_schemas_are_valid_object_schemas(tool: str) -> None:
    schema = PromptTemplates().tool_schema(tool)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"


def test_blank_lines_inside_code_are_kept_while_empty_sections_collapse() -> None:
    code = "import sys\n\n\ndef main():\n    pass\n\n\nmain()"
    variables = {**repair_variables(), "code": code, "feedback": None, "history": [], "refused": []}
    prompt = PromptTemplates().render("repair_script", **variables)
    assert code in prompt.user
    outside = prompt.user.replace(code, "")
    assert "\n\n\n" not in outside
