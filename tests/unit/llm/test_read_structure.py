"""The model is asked for a spec's step graph through one forced `read_structure` call."""

from __future__ import annotations

import jsonschema
import pytest

from orchestrator.errors import Diagnostic, LLMError
from orchestrator.llm.fake import QueuedLLM
from orchestrator.llm.interpret_structure import (
    SkillLine,
    StructureRequest,
    read_structure,
    tool_schema,
)

REQUEST = StructureRequest(name="mail.md", lines=("# Mail", "", "First, fetch-list on the url."),
                           doubts=(Diagnostic(file="/x/mail.md", line=1, message="the spec has no steps",
                                              code="spec.no-steps"),),
                           skills=(SkillLine(name="fetch-list", description="Fetches a list."),), inputs=("url",))
ANSWER = {"steps": [{"number": 1, "line": 3, "title": "Fetch", "skill": "fetch-list",
                     "inputs": [{"name": "url", "source": {"kind": "input", "name": "url"}}]}],
          "reason": "one paragraph, one step"}


def test_the_tool_schema_accepts_a_reading_and_refuses_an_unknown_source_kind() -> None:
    jsonschema.validate(ANSWER, tool_schema())
    bad = {**ANSWER, "steps": [{**ANSWER["steps"][0], "inputs": [{"name": "u", "source": {"kind": "guess"}}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, tool_schema())


async def test_the_prompt_shows_numbered_lines_the_doubts_and_the_skills_with_no_folder() -> None:
    llm = QueuedLLM([ANSWER])
    got = await read_structure(llm, REQUEST)
    assert [s.skill for s in got.reading.steps] == ["fetch-list"] and got.reading.reason == "one paragraph, one step"
    (prompt, tool, where), = llm.asked
    assert tool.name == "read_structure" and where == "interpret/structure"
    assert "3: First, fetch-list on the url." in prompt.user and "line 1: the spec has no steps" in prompt.user
    assert "`fetch-list`: Fetches a list." in prompt.user and "/x/" not in prompt.user


async def test_an_answer_that_does_not_fit_the_structure_model_is_an_llm_error_naming_the_field() -> None:
    llm = QueuedLLM([{"steps": [{"number": 0, "line": 3, "title": "Fetch", "skill": "fetch-list"}], "reason": ""}])
    with pytest.raises(LLMError) as caught:
        await read_structure(llm, REQUEST)
    assert caught.value.where == "mail.md" and "steps.0.number" in caught.value.message
