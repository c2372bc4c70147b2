"""Choices through a tool with an enum: the planner's tie-breaker and LLM routing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import respx

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.errors import LLMError
from orchestrator.llm.chooser import Candidate, PlannerChooser, choose_skill, route
from orchestrator.llm.client import LLM
from orchestrator.llm.fake import tool_use_message

pytestmark = pytest.mark.httpx2(base_url="https://llm.test")

CANDIDATES = [
    Candidate(name="fetch-docs", kind="mcp", description="Fetches docs from the docs server."),
    Candidate(name="scrape-docs", kind="script", description="Scrapes docs from HTML."),
]


def sent(route_: respx.Route) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route_.calls.last.request.content)
    return body


async def test_the_chosen_skill_comes_with_its_reason(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    mocked = httpx2_mock.post("/v1/messages").respond(
        200,
        json=tool_use_message(
            "choose_skill",
            {"skill": "fetch-docs", "reason": "It is the MCP-wrapping one."},
            input_tokens=33,
        ),
    )
    choice = await choose_skill(
        LLM(settings), "MCP-wrapping skill wrapping docs repository", CANDIDATES
    )

    assert (choice.name, choice.reason) == ("fetch-docs", "It is the MCP-wrapping one.")
    assert choice.usage.input_tokens == 33
    tool = sent(mocked)["tools"][0]
    assert tool["input_schema"]["properties"]["skill"]["enum"] == ["fetch-docs", "scrape-docs"]
    assert sent(mocked)["tool_choice"] == {"type": "tool", "name": "choose_skill"}


async def test_a_name_outside_the_candidates_is_an_error(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").respond(
        200, json=tool_use_message("choose_skill", {"skill": "made-up", "reason": "?"})
    )
    with pytest.raises(LLMError, match="'made-up', which is not one of fetch-docs, scrape-docs"):
        await choose_skill(LLM(settings), "docs", CANDIDATES, where="spec.md:12")


async def test_routing_picks_one_of_the_named_branches(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    mocked = httpx2_mock.post("/v1/messages").respond(
        200,
        json=tool_use_message("choose_branch", {"branch": "urgent", "reason": "Severity is high."}),
    )
    choice = await route(
        LLM(settings),
        "Route by severity.",
        {"urgent": "page someone", "later": "file a ticket"},
        {"severity": "high"},
        where="triage/1",
    )

    assert choice.name == "urgent"
    assert sent(mocked)["tools"][0]["input_schema"]["properties"]["branch"]["enum"] == [
        "urgent",
        "later",
    ]
    assert '"severity": "high"' in sent(mocked)["messages"][0]["content"][0]["text"]


def tied_skill(folder: Path, name: str) -> None:
    (folder / name / "scripts").mkdir(parents=True)
    (folder / name / "scripts" / "main.py").write_text("print('{}')\n")
    (folder / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Works on contacts.\nmetadata:\n"
        "  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n---\nBody.\n"
    )


def tied_spec(folder: Path) -> Path:
    """A one-step spec whose free-text skill line matches two skills equally."""
    tied_skill(folder / "skills", "tidy-contacts")
    tied_skill(folder / "skills", "fix-contacts")
    spec = folder / "spec.md"
    spec.write_text(
        "# Tie\n\n## Intent\nShow a tie.\n\n## Workflow Steps\n\n### Step 1: Contacts\n"
        "- Skill: script-execution skill for contacts\n- Output: result (object)\n"
    )
    return spec


async def test_the_planner_binds_a_tied_step_to_the_llms_choice_with_llm_provenance(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    spec = tied_spec(tmp_path)
    mocked = httpx2_mock.post("/v1/messages").respond(
        200,
        json=tool_use_message("choose_skill", {"skill": "tidy-contacts", "reason": "It tidies."}),
    )
    with PlannerChooser(lambda: LLM(settings)) as chooser:
        plan = await asyncio.to_thread(compile_spec, spec, settings, chooser=chooser)

    assert plan.steps[0].skill == "tidy-contacts"
    assert plan.steps[0].provenance["skill"].source == "llm"
    assert chooser.choices["step-1"].reason == "It tidies."
    assert (
        "Skill wanted: script-execution skill for contacts"
        in sent(mocked)["messages"][0]["content"][0]["text"]
    )


async def test_compiling_with_a_key_puts_a_tie_to_the_model_without_being_asked(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    spec = tied_spec(tmp_path)
    httpx2_mock.post("/v1/messages").respond(
        200,
        json=tool_use_message("choose_skill", {"skill": "fix-contacts", "reason": "It fixes."}),
    )

    plan = await asyncio.to_thread(compile_spec, spec, settings)

    assert plan.steps[0].skill == "fix-contacts"
    assert plan.steps[0].provenance["skill"].source == "llm"
